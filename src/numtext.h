/* numtext.h: numbers of option and default values converted and range-checked as protoc does. */
#ifndef PBJC_NUMTEXT_H
#define PBJC_NUMTEXT_H

#include "ir.h"

/* The double v denotes: an integer or a float, sign applied, or with inf_nan
 * also the identifiers inf and nan (a NaN always the quiet one, sign dropped,
 * as protoc's). False when v is no number. */
bool numtext_value(const ir_value *v, bool inf_nan, double *out);

/* The range of integer type t, [*min, *max] (min as signed); false when t is no integer type. */
bool numtext_int_range(ir_type t, int64_t *min, uint64_t *max);

/* Whether integer v lies in [min, max]. A '-' never fits an unsigned range
 * (min 0), not even -0: protoc rejects the sign itself. */
bool numtext_int_fits(const ir_value *v, int64_t min, uint64_t max);

/* d rounded to float as IEEE does (to nearest; infinity only from FLT_MAX plus
 * half an ulp on), without C's undefined cast of an out-of-range double. */
float numtext_to_float(double d);

/* Printed as protoc prints them (SimpleDtoa, SimpleFtoa), floats and doubles are the runtime's text format's:
 * pbj_text_format_double and pbj_text_format_float (rt/pbj_text.h). */

#endif
