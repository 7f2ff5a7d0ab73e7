/* numtext.h: floating-point numbers converted and printed as protoc does. */
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

/* Room for any number numtext_dtoa or numtext_ftoa writes, NUL included. */
#define NUMTEXT_SIZE 32

/* d rounded to float as IEEE does (to nearest; infinity only from FLT_MAX plus
 * half an ulp on), without C's undefined cast of an out-of-range double. */
float numtext_to_float(double d);

/* protoc's SimpleDtoa: "%.15g", or "%.17g" when that does not read back as v; inf, -inf, nan. */
void numtext_dtoa(double v, char out[NUMTEXT_SIZE]);

/* protoc's SimpleFtoa: "%.6g", or "%.9g" when that does not read back as v
 * (or reads back out of range, as for denormals); inf, -inf, nan. */
void numtext_ftoa(float v, char out[NUMTEXT_SIZE]);

#endif
