/* hapi.h: the fuzz target of the real block stream's Block (../shared/corpus). */
#include "hapi.pb.h"
#define FUZZ_MESSAGES(X) X(com_hedera_hapi_block_stream_Block)
