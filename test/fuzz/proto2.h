/* proto2.h: the proto2 fuzz target: test/parity's proto2 and byvalue (pbj.by_value's layout) schemas, test/golden's extensions and message sets,
 * test/encode's extwire (an extension of each kind, packable ones packed and not) and extforeign (message
 * extensions of extwire's Host declared in another file: linked, Host's decode keeps them). */
#include "proto2.pb.h"
#include "byvalue.pb.h"
#include "extensions.pb.h"
#include "message_set.pb.h"
#include "extwire.pb.h"
#define FUZZ_MESSAGES(X) X(parity_proto2_Item) X(parity_byvalue_Item) X(golden_extensions_Base) X(golden_message_set_Holder) X(encx_Host)
#define FUZZ_NORMALISING(X) X(golden_message_set_Holder)   /* only items are written back */
