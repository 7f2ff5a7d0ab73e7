/* optvalue.c: option values as wire bytes: the scalars of every field type, errors worded as protoc's. */
#include "optvalue.h"

#include <stdarg.h>
#include <string.h>

#include "numtext.h"
#include "../rt/pbj_core.h"   /* float and double bits, wire type names */

void optenv_error(optenv *env, ir_loc loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    diag_verror(env->file, loc, fmt, ap);
    va_end(ap);
    env->errors++;
}

bool optvalue_is_ident(const ir_value *v, const char *s)
{
    return v->kind == IR_VAL_IDENT && !v->negative && strcmp(v->text, s) == 0;
}

const ir_enum_value *optvalue_enum_value(const ir_enum *e, const char *name)
{
    for (size_t i = 0; e && i < e->values.n; i++)
        if (strcmp(e->values.v[i]->name, name) == 0)
            return e->values.v[i];
    return NULL;
}

uint32_t optvalue_float_bits(double d) { return pbj_float_bits(numtext_to_float(d)); }

static const char *field_name(const ir_field *f) { return f->full_name ? f->full_name : f->name; }

/* An integer option value in the range of f's type, as the bits it is written with. */
static bool value_as_int(optenv *env, const ir_value *v, const ir_field *f, uint64_t *out)
{
    int64_t lo;
    uint64_t hi;
    numtext_int_range(f->type, &lo, &hi);
    if (v->kind != IR_VAL_INT) {
        optenv_error(env, v->loc, "Value must be integer for %s option \"%s\".", ir_type_keyword(f->type), field_name(f));
        return false;
    }
    if (!numtext_int_fits(v, lo, hi)) {
        optenv_error(env, v->loc, "Value out of range for %s option \"%s\".", ir_type_keyword(f->type), field_name(f));
        return false;
    }
    *out = v->negative ? (uint64_t)0 - v->u : v->u;
    if (f->type == IR_TYPE_SINT32)
        *out = (uint32_t)((uint32_t)*out << 1 ^ (uint32_t)((int32_t)*out >> 31));   /* zigzag */
    else if (f->type == IR_TYPE_SINT64)
        *out = *out << 1 ^ (uint64_t)((int64_t)*out >> 63);
    return true;
}

/* A scalar field: its tag, then bits as a varint or 4 or 8 little-endian bytes. */
static void put_scalar(wbuf *b, uint32_t field, int wire_type, uint64_t bits)
{
    wb_tag(b, field, wire_type);
    if (wire_type == PBJ_WT_VARINT)
        wb_varint(b, bits);
    else
        wb_fixed(b, bits, wire_type == PBJ_WT_I32 ? 4 : 8);
}

bool optvalue_put_scalar(optenv *env, wbuf *b, const ir_field *f, const ir_value *v)
{
    uint32_t num = (uint32_t)f->number;
    uint64_t u;
    double d;
    switch (f->type) {
    case IR_TYPE_INT32: case IR_TYPE_SINT32: case IR_TYPE_SFIXED32: case IR_TYPE_INT64: case IR_TYPE_SINT64:
    case IR_TYPE_SFIXED64: case IR_TYPE_UINT32: case IR_TYPE_FIXED32: case IR_TYPE_UINT64: case IR_TYPE_FIXED64:
        if (!value_as_int(env, v, f, &u))
            return false;
        put_scalar(b, num, ir_type_wire_type(f->type), u);
        return true;
    case IR_TYPE_FLOAT:
    case IR_TYPE_DOUBLE:
        if (!numtext_value(v, false, &d)) {
            optenv_error(env, v->loc, "Value must be number for %s option \"%s\".", ir_type_keyword(f->type), field_name(f));
            return false;
        }
        put_scalar(b, num, ir_type_wire_type(f->type), f->type == IR_TYPE_FLOAT ? optvalue_float_bits(d) : pbj_double_bits(d));
        return true;
    case IR_TYPE_BOOL:
        if (!optvalue_is_ident(v, "true") && !optvalue_is_ident(v, "false")) {
            optenv_error(env, v->loc, "Value must be \"true\" or \"false\" for boolean option \"%s\".", field_name(f));
            return false;
        }
        wb_varint_field(b, num, optvalue_is_ident(v, "true"));
        return true;
    case IR_TYPE_ENUM: {
        const ir_enum_value *ev = v->kind == IR_VAL_IDENT && !v->negative ? optvalue_enum_value(f->enum_type, v->text) : NULL;
        if (!ev) {
            optenv_error(env, v->loc, "Value must be identifier naming a value of enum \"%s\" for option \"%s\".",
                         f->enum_type ? f->enum_type->full_name : "?", field_name(f));
            return false;
        }
        wb_int32_field(b, num, ev->number);
        return true;
    }
    case IR_TYPE_STRING:
    case IR_TYPE_BYTES:
        if (v->kind != IR_VAL_STRING) {
            optenv_error(env, v->loc, "Value must be quoted string for string option \"%s\".", field_name(f));
            return false;
        }
        wb_bytes_field(b, num, v->str, v->str_len);
        return true;
    default:
        optenv_error(env, v->loc, "Option \"%s\" has an unresolved type.", f->name);
        return false;
    }
}
