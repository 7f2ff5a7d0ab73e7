/* runtime.c: the runtime's out-of-line functions, once for the whole program (the single-definition mode). */
#define PBJ_IMPLEMENTATION
#define PBJ_STREAM_FD        /* pbj_sink_fd, pbj_source_fd (POSIX) */
#include "pbj.h"
#include "pbj_json_read.h"   /* and pbj_json.h */
#include "pbj_view.h"
#include "pbj_writer.h"
