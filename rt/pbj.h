/* pbj.h: the runtime pbjc's generated code includes: the core and every part each message's functions use. */
#ifndef PBJ_H
#define PBJ_H

/* Each part includes what it needs itself; this header only gathers them. The usage guide is at the top
 * of pbj_core.h. Views, writers and JSON (pbj_view.h, pbj_writer.h, pbj_json.h, pbj_json_read.h) are
 * included by the generated files that use them. */
#include "pbj_core.h"     /* wire primitives, status codes, the arena, the decode context, extensions */

/* Text format, printing (M_print) and reading (M_from_text), lives beside this header; PBJ_NO_TEXT leaves it out,
 * and so does a generated .pb.c (PBJ__GENERATED_SOURCE), which calls none of it: its header then skips JSON too. */
#if defined(__has_include) && !defined(PBJ_NO_TEXT) && !defined(PBJ__GENERATED_SOURCE)
#if __has_include("pbj_text.h")
#include "pbj_text.h"
#endif
#if __has_include("pbj_text_read.h")
#include "pbj_text_read.h"
#endif
#endif

#include "pbj_rbuf.h"     /* the reverse encoder's buffer (M_write_reverse, pbj.fast_write) */
#include "pbj_stream.h"   /* length-delimited records over memory, FILE *, fds and callbacks */
#include "pbj_build.h"    /* building helpers (M_add_f, M_merge, ...) and service tables */
#include "pbj_table.h"    /* the field tables and the runtime of the cold operations over them (M_equal, ...) */
#include "pbj_table_wire.h"   /* size, encode and decode by walking the tables (pbj.performance = "size") */
/* Reflection is for users: a generated source that defines none of the runtime's bodies (PBJ__BODIES) parses none. */
#if !defined(PBJ__GENERATED_SOURCE) || PBJ__BODIES
#include "pbj_reflect.h"  /* fields found, read and set through the tables (reflection for users) */
#endif

#endif
