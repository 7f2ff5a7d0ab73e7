/* numtext.c: numbers of option and default values converted and range-checked as protoc does. */
#include "numtext.h"

#include <float.h>
#include <math.h>
#include <string.h>

float numtext_to_float(double d)
{
    const double overflow = 0x1.ffffffp127;      /* FLT_MAX + half an ulp: rounds to infinity */
    if (d >= overflow) return INFINITY;
    if (d <= -overflow) return -INFINITY;
    if (fabs(d) > FLT_MAX) return d > 0 ? FLT_MAX : -FLT_MAX;
    return (float)d;
}

bool numtext_value(const ir_value *v, bool inf_nan, double *out)
{
    if (v->kind == IR_VAL_INT) *out = v->negative ? -(double)v->u : (double)v->u;
    else if (v->kind == IR_VAL_FLOAT) *out = v->d;
    else if (inf_nan && v->kind == IR_VAL_IDENT && strcmp(v->text, "inf") == 0) *out = v->negative ? -INFINITY : INFINITY;
    else if (inf_nan && v->kind == IR_VAL_IDENT && strcmp(v->text, "nan") == 0) *out = NAN;
    else return false;
    if (isnan(*out)) *out = NAN;                 /* protoc uses quiet_NaN, sign dropped */
    return true;
}

bool numtext_int_range(ir_type t, int64_t *min, uint64_t *max)
{
    switch (t) {
    case IR_TYPE_INT32: case IR_TYPE_SINT32: case IR_TYPE_SFIXED32:
        *min = INT32_MIN, *max = INT32_MAX;
        return true;
    case IR_TYPE_INT64: case IR_TYPE_SINT64: case IR_TYPE_SFIXED64:
        *min = INT64_MIN, *max = INT64_MAX;
        return true;
    case IR_TYPE_UINT32: case IR_TYPE_FIXED32:
        *min = 0, *max = UINT32_MAX;
        return true;
    case IR_TYPE_UINT64: case IR_TYPE_FIXED64:
        *min = 0, *max = UINT64_MAX;
        return true;
    default:
        return false;
    }
}

bool numtext_int_fits(const ir_value *v, int64_t min, uint64_t max)
{
    if (!v->negative) return v->u <= max;
    return min < 0 && v->u <= (uint64_t)-(min + 1) + 1;     /* |min| without overflow */
}
