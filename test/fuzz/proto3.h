/* proto3.h: the proto3 fuzz target: test/parity's proto3 schemas. */
#include "scalars.pb.h"
#include "maps.pb.h"
#include "nesting.pb.h"
#include "wrappers.pb.h"
#include "wkt.pb.h"
#define FUZZ_MESSAGES(X) X(parity_scalars_Scalars) X(parity_maps_Maps) X(parity_nesting_Root) \
    X(parity_wrappers_Wrapped) X(parity_wkt_Known)
