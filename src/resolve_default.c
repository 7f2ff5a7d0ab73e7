/* resolve_default.c: [default = ...] checked against the field's type and written as protoc's descriptor text. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "numtext.h"
#include "resolve_int.h"
#include "../rt/pbj_text.h"   /* floats printed as protoc prints them: the runtime's text format */

/* protoc's CEscape: \n \r \t \" \' \\ by name, other bytes outside 0x20..0x7e as three octal digits. */
static const char *default_c_escape(ir_pool *pool, const char *s, size_t n)
{
    char *out = ir_pool_alloc(pool, 4 * n + 1), *o = out;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        const char *named = c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t" : c == '"' ? "\\\""
                          : c == '\'' ? "\\'" : c == '\\' ? "\\\\" : NULL;
        if (named) {
            memcpy(o, named, 2);
            o += 2;
        } else if (c < 0x20 || c >= 0x7f) {
            o += sprintf(o, "\\%03o", c);
        } else {
            *o++ = (char)c;
        }
    }
    *o = '\0';
    return out;
}

static const char *int_default(const ir_file *f, const ir_field *fd, const ir_value *v)
{
    int64_t min;
    uint64_t max;
    numtext_int_range(fd->type, &min, &max);
    if (v->kind != IR_VAL_INT) {
        diag_error(f, v->loc, "Expected integer for field default value.");
        return NULL;
    }
    if (v->negative && min == 0) {                    /* -0 too, as protoc */
        diag_error(f, v->loc, "Unsigned field can't have negative default value.");
        return NULL;
    }
    if (!numtext_int_fits(v, min, max)) {
        diag_error(f, v->loc, "Integer out of range.");
        return NULL;
    }
    if (v->negative && v->u != 0) return ir_pool_printf(f->pool, "-%" PRIu64, v->u);
    return ir_pool_printf(f->pool, "%" PRIu64, v->u);
}

static const char *enum_default(const ir_file *f, const ir_field *fd, const ir_value *v)
{
    if (v->kind != IR_VAL_IDENT || v->negative) {
        diag_error(f, v->loc, "Default value for an enum field must be an identifier.");
        return NULL;
    }
    for (size_t i = 0; i < fd->enum_type->values.n; i++)
        if (strcmp(fd->enum_type->values.v[i]->name, v->text) == 0) return v->text;
    diag_error(f, v->loc, "Enum type \"%s\" has no value named \"%s\".", fd->enum_type->full_name, v->text);
    return NULL;
}

/* The descriptor text of fd's default (NULL after reporting an error). */
static const char *default_text(const ir_file *f, const ir_field *fd, const ir_value *v)
{
    double d;
    char text[PBJ_TEXT_NUMBER_MAX];
    switch (fd->type) {
    case IR_TYPE_INT32: case IR_TYPE_SINT32: case IR_TYPE_SFIXED32: case IR_TYPE_INT64: case IR_TYPE_SINT64:
    case IR_TYPE_SFIXED64: case IR_TYPE_UINT32: case IR_TYPE_FIXED32: case IR_TYPE_UINT64: case IR_TYPE_FIXED64:
        return int_default(f, fd, v);
    case IR_TYPE_DOUBLE: case IR_TYPE_FLOAT:
        if (!numtext_value(v, true, &d)) {
            diag_error(f, v->loc, "Expected number for field default value.");
            return NULL;
        }
        if (fd->type == IR_TYPE_DOUBLE) pbj_text_format_double(text, d);
        else pbj_text_format_float(text, numtext_to_float(d));
        return ir_pool_strdup(f->pool, text);
    case IR_TYPE_BOOL:
        if (v->kind == IR_VAL_IDENT && !v->negative && (!strcmp(v->text, "true") || !strcmp(v->text, "false")))
            return v->text;
        diag_error(f, v->loc, "Expected \"true\" or \"false\" for field default value.");
        return NULL;
    case IR_TYPE_STRING: case IR_TYPE_BYTES:
        if (v->kind != IR_VAL_STRING) {
            diag_error(f, v->loc, "Expected string for field default value.");
            return NULL;
        }
        return fd->type == IR_TYPE_BYTES ? default_c_escape(f->pool, v->str, v->str_len) : ir_pool_strndup(f->pool, v->str, v->str_len);
    case IR_TYPE_ENUM:
        return fd->enum_type ? enum_default(f, fd, v) : NULL;
    case IR_TYPE_MESSAGE: case IR_TYPE_GROUP:
        diag_error(f, v->loc, "Messages can't have default values.");
        return NULL;
    case IR_TYPE_UNRESOLVED:
        return NULL;                              /* the unknown type was reported */
    }
    return NULL;
}

static void default_field(const ir_file *f, ir_field *fd)
{
    if (!fd->default_raw) return;
    if (fd->label == IR_LABEL_REPEATED) {
        diag_error(f, fd->default_raw->loc, "Repeated fields can't have default values.");
        return;
    }
    fd->default_value = default_text(f, fd, fd->default_raw);
}

static void default_message(const ir_file *f, ir_message *m)
{
    for (size_t i = 0; i < m->fields.n; i++) default_field(f, m->fields.v[i]);
    for (size_t i = 0; i < m->extensions.n; i++) default_field(f, m->extensions.v[i]);
    for (size_t i = 0; i < m->messages.n; i++) default_message(f, m->messages.v[i]);
}

void defaults_file(resolver *r, ir_file *f)
{
    (void)r;
    for (size_t i = 0; i < f->messages.n; i++) default_message(f, f->messages.v[i]);
    for (size_t i = 0; i < f->extensions.n; i++) default_field(f, f->extensions.v[i]);
}
