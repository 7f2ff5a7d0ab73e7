/* optvalue.h: option values as wire bytes: the scalars of every field type, errors worded as protoc's. */
#ifndef PBJC_OPTVALUE_H
#define PBJC_OPTVALUE_H

#include "diag.h"
#include "ir.h"
#include "wire.h"

/* What encoding option values needs: the program (for names a text-format
 * value looks up), the file whose options are encoded (for diagnostics), and
 * how many errors it reported. */
typedef struct optenv {
    const ir_program *prog;
    const ir_file *file;
    int errors;
} optenv;

void optenv_error(optenv *env, ir_loc loc, const char *fmt, ...) DIAG_PRINTF(3, 4);

/* v is the identifier s, written without a sign. */
bool optvalue_is_ident(const ir_value *v, const char *s);
const ir_enum_value *optvalue_enum_value(const ir_enum *e, const char *name);   /* NULL when e has none */
uint32_t optvalue_float_bits(double d);      /* rounded to float as protoc does (IEEE, not C's cast) */

/* A value of field f of any non-message type, tag included, as protoc's
 * SetOptionValue; false after an error. */
bool optvalue_put_scalar(optenv *env, wbuf *b, const ir_field *f, const ir_value *v);

#endif
