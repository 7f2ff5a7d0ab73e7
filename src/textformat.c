/* textformat.c: aggregate option values, { protobuf text format }, parsed and encoded as their message. */
#include "textformat.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numtext.h"
#include "../rt/pbj_core.h"   /* wire type names, PBJ_TAG, float and double bits */

/* Messages nested inside one value, at most: protobuf's default recursion limit
 * (deeper option bytes would not decode with it). protoc 3.21 sets no limit on
 * option values and accepts any depth; past this one pbjc reports an error
 * instead of recursing as deep as the input. */
#define TEXTFORMAT_MAX_DEPTH 100

/* A text-format token: an identifier, a number, a string, or one punctuation byte. */
typedef enum tf_kind { TF_END, TF_IDENT, TF_NUMBER, TF_STRING, TF_SYMBOL } tf_kind;

typedef struct tf_lexer {
    optenv *env;
    ir_loc loc;                  /* the option value, for diagnostics */
    const char *option;          /* the option's name, for diagnostics */
    const char *p;
    tf_kind kind;
    const char *tok;             /* the current token's text and length */
    size_t len;
    int depth;                   /* messages open around the current token */
} tf_lexer;

static bool is_alpha_(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }

static void tf_next(tf_lexer *lx)
{
    const char *p = lx->p;
    for (;;) {                                     /* whitespace and # comments */
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r' || *p == '\f' || *p == '\v')
            p++;
        if (*p != '#')
            break;
        while (*p && *p != '\n')
            p++;
    }
    lx->tok = p;
    if (!*p) {
        lx->kind = TF_END;
    } else if (is_alpha_((unsigned char)*p)) {
        lx->kind = TF_IDENT;
        while (is_alpha_((unsigned char)*p) || is_digit((unsigned char)*p))
            p++;
    } else if (is_digit((unsigned char)*p) || (*p == '.' && is_digit((unsigned char)p[1]))) {
        lx->kind = TF_NUMBER;
        while (is_alpha_((unsigned char)*p) || is_digit((unsigned char)*p) || *p == '.' ||
               ((*p == '-' || *p == '+') && (p[-1] == 'e' || p[-1] == 'E') &&
                !(lx->tok[0] == '0' && (lx->tok[1] == 'x' || lx->tok[1] == 'X'))))
            p++;
    } else if (*p == '"' || *p == '\'') {
        lx->kind = TF_STRING;
        char q = *p++;
        while (*p && *p != q && *p != '\n')
            p += (*p == '\\' && p[1]) ? 2 : 1;
        if (*p == q)
            p++;
    } else {
        lx->kind = TF_SYMBOL;
        p++;
    }
    lx->len = (size_t)(p - lx->tok);
    lx->p = p;
}

static bool tf_is(const tf_lexer *lx, const char *s)
{
    return lx->kind != TF_END && lx->kind != TF_STRING && strlen(s) == lx->len && memcmp(lx->tok, s, lx->len) == 0;
}

static bool tf_accept(tf_lexer *lx, const char *s)
{
    if (!tf_is(lx, s))
        return false;
    tf_next(lx);
    return true;
}

/* protoc's wording: Error while parsing option value for "name": what went wrong. */
static bool tf_error(tf_lexer *lx, const char *fmt, ...) DIAG_PRINTF(2, 3);
static bool tf_error(tf_lexer *lx, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    optenv_error(lx->env, lx->loc, "Error while parsing option value for \"%s\": %s", lx->option, msg);
    return false;
}

static bool tf_fail(tf_lexer *lx, const char *what)
{
    return tf_error(lx, "Expected %s, found \"%.*s\".", what, (int)(lx->kind == TF_END ? 3 : (int)lx->len),
                    lx->kind == TF_END ? "end" : lx->tok);
}

static bool tf_expect(tf_lexer *lx, const char *s)
{
    return tf_accept(lx, s) || tf_fail(lx, s);
}

static int hex_value(int c)
{
    return is_digit(c) ? c - '0' : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10 : -1;
}

static void utf8_put(wbuf *b, uint32_t cp)
{
    uint8_t u[4];
    size_t k;
    if (cp < 0x80) { u[0] = (uint8_t)cp; k = 1; }
    else if (cp < 0x800) { u[0] = (uint8_t)(0xC0 | cp >> 6); u[1] = (uint8_t)(0x80 | (cp & 0x3F)); k = 2; }
    else if (cp < 0x10000) { u[0] = (uint8_t)(0xE0 | cp >> 12); u[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
                             u[2] = (uint8_t)(0x80 | (cp & 0x3F)); k = 3; }
    else { u[0] = (uint8_t)(0xF0 | cp >> 18); u[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
           u[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F)); u[3] = (uint8_t)(0x80 | (cp & 0x3F)); k = 4; }
    wb_put(b, u, k);
}

/* One quoted literal, escapes applied, appended to out. */
static void tf_unquote(const char *s, size_t len, wbuf *out)
{
    const char *e = s + len - (len >= 2 && s[len - 1] == s[0]);
    for (const char *p = s + 1; p < e;) {
        if (*p != '\\' || p + 1 >= e) {
            wb_put(out, p++, 1);
            continue;
        }
        p++;
        char c = *p++;
        uint8_t byte;
        switch (c) {
        case 'n': byte = '\n'; break;
        case 't': byte = '\t'; break;
        case 'r': byte = '\r'; break;
        case 'a': byte = '\a'; break;
        case 'b': byte = '\b'; break;
        case 'f': byte = '\f'; break;
        case 'v': byte = '\v'; break;
        case 'x': case 'X': {
            unsigned v = 0;
            for (int k = 0; k < 2 && p < e && hex_value((unsigned char)*p) >= 0; k++)
                v = v * 16 + (unsigned)hex_value((unsigned char)*p++);
            byte = (uint8_t)v;
            break;
        }
        case 'u': case 'U': {
            uint32_t v = 0;
            for (int k = 0; k < (c == 'u' ? 4 : 8) && p < e && hex_value((unsigned char)*p) >= 0; k++)
                v = v * 16 + (uint32_t)hex_value((unsigned char)*p++);
            utf8_put(out, v);
            continue;
        }
        default:
            if (c >= '0' && c <= '7') {
                unsigned v = (unsigned)(c - '0');
                for (int k = 0; k < 2 && p < e && *p >= '0' && *p <= '7'; k++)
                    v = v * 8 + (unsigned)(*p++ - '0');
                byte = (uint8_t)v;
            } else {
                byte = (uint8_t)c;               /* \\ \' \" \? */
            }
        }
        wb_put(out, &byte, 1);
    }
}

/* One field's payload in a message being assembled: what follows the tag. */
typedef struct tf_entry {
    const ir_field *field;
    wbuf payload;                /* varint / fixed bytes, or the content of a LEN or group */
    size_t order;                /* parse order, to keep the sort stable */
} tf_entry;

typedef IR_VEC(tf_entry) tf_entries;

static bool tf_message(tf_lexer *lx, const ir_message *m, const char *close, wbuf *out);

/* Fields without presence (proto3's, IMPLICIT ones) are not written when they hold their zero value. */
static bool field_has_presence(const ir_field *f)
{
    return f->label == IR_LABEL_REPEATED || !f->file || features_explicit_presence(f) ||
           f->oneof || f->extend || f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP ||
           (f->parent && f->parent->map_entry);      /* map entries keep a zero key or value */
}

static bool payload_is_zero(const ir_field *f, const wbuf *p)
{
    if (f->type == IR_TYPE_STRING || f->type == IR_TYPE_BYTES)
        return p->n == 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->p[i] != 0)
            return false;
    return true;
}

/* A scalar text-format value of field f (the lexer is on it) into payload. */
static bool tf_scalar(tf_lexer *lx, const ir_field *f, wbuf *payload)
{
    bool negative = tf_accept(lx, "-");
    ir_value v = { .kind = IR_VAL_IDENT, .loc = lx->loc, .negative = negative };
    char text[128];
    if (lx->kind == TF_STRING && !negative) {
        wbuf s = { 0 };
        while (lx->kind == TF_STRING) {                 /* adjacent literals concatenate */
            tf_unquote(lx->tok, lx->len, &s);
            tf_next(lx);
        }
        if (f->type != IR_TYPE_STRING && f->type != IR_TYPE_BYTES) {
            free(s.p);
            return tf_fail(lx, "a non-string value");
        }
        wb_put(payload, s.p, s.n);
        free(s.p);
        return true;
    }
    if ((lx->kind != TF_IDENT && lx->kind != TF_NUMBER) || lx->len >= sizeof text)
        return tf_fail(lx, "a value");
    memcpy(text, lx->tok, lx->len);
    text[lx->len] = 0;
    bool number = lx->kind == TF_NUMBER;
    tf_next(lx);
    v.text = text;
    if (number) {
        char *end;
        errno = 0;
        bool hex_or_octal = text[0] == '0' && text[1] != '.' && text[1] != 'e' && text[1] != 'E' && text[1];
        unsigned long long u = strtoull(text, &end, 0);
        if (!*end && errno == 0) {
            v.kind = IR_VAL_INT;
            v.u = u;
            v.d = negative ? -(double)u : (double)u;
        } else if (hex_or_octal && !strchr(text, '.')) {
            return tf_fail(lx, "an integer in range");
        } else {
            size_t n = strlen(text);
            if (n && (text[n - 1] == 'f' || text[n - 1] == 'F'))
                text[n - 1] = 0;                        /* 1.5f */
            v.kind = IR_VAL_FLOAT;
            v.d = strtod(text, &end);
            if (*end)
                return tf_fail(lx, "a number");
            v.d = negative ? -v.d : v.d;
        }
    }
    double d;
    switch (f->type) {
    case IR_TYPE_FLOAT:
    case IR_TYPE_DOUBLE:
        if (v.kind == IR_VAL_IDENT) {
            for (char *c = text; *c; c++)
                *c = (char)(*c | 0x20);
            if (strcmp(text, "infinity") == 0)
                strcpy(text, "inf");
        }
        if (!numtext_value(&v, true, &d))
            return tf_fail(lx, "a number");
        if (f->type == IR_TYPE_FLOAT)
            wb_fixed(payload, optvalue_float_bits(d), 4);
        else
            wb_fixed(payload, pbj_double_bits(d), 8);
        return true;
    case IR_TYPE_BOOL:
        if (v.kind == IR_VAL_INT && v.u <= 1 && !negative) {
            wb_varint(payload, v.u);
            return true;
        }
        if (!negative && (!strcmp(text, "true") || !strcmp(text, "True") || !strcmp(text, "t"))) {
            wb_varint(payload, 1);
            return true;
        }
        if (!negative && (!strcmp(text, "false") || !strcmp(text, "False") || !strcmp(text, "f"))) {
            wb_varint(payload, 0);
            return true;
        }
        return tf_fail(lx, "true or false");
    case IR_TYPE_ENUM:
        if (v.kind == IR_VAL_INT) {
            if (v.u > (negative ? (uint64_t)INT32_MAX + 1 : (uint64_t)INT32_MAX))
                return tf_fail(lx, "an enum number in range");
            wb_varint(payload, negative ? (uint64_t)0 - v.u : v.u);
            return true;
        }
        if (v.kind == IR_VAL_IDENT && !negative) {
            const ir_enum_value *ev = optvalue_enum_value(f->enum_type, text);
            if (!ev)
                return tf_fail(lx, "a value of the enum");
            wb_varint(payload, (uint64_t)(int64_t)ev->number);
            return true;
        }
        return tf_fail(lx, "an enum value");
    default: {
        wbuf tmp = { 0 };                               /* reuse the option encoder, drop its tag */
        bool ok = optvalue_put_scalar(lx->env, &tmp, f, &v);
        if (ok) {
            size_t k = (size_t)pbj_varint_size(PBJ_TAG(f->number, ir_type_wire_type(f->type)));
            wb_put(payload, tmp.p + k, tmp.n - k);
        }
        free(tmp.p);
        return ok;
    }
    }
}

/* A value of field f: a message in {} or <>, or a scalar. */
static bool tf_value(tf_lexer *lx, const ir_field *f, tf_entries *entries)
{
    tf_entry e = { .field = f, .order = entries->n };
    bool ok;
    if (f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP) {
        const char *close = tf_is(lx, "<") ? ">" : "}";
        ok = (tf_accept(lx, "{") || tf_expect(lx, "<")) && tf_message(lx, f->message_type, close, &e.payload);
    } else {
        ok = tf_scalar(lx, f, &e.payload);
    }
    if (ok && !field_has_presence(f) && payload_is_zero(f, &e.payload)) {
        free(e.payload.p);
        return true;
    }
    if (ok)
        ir_pool_vec_push(lx->env->prog->pool, entries, e);
    else
        free(e.payload.p);
    return ok;
}

/* A message or an extension of the whole program by full name, for [ext.name] and Any. */
typedef struct name_search {
    const char *name;
    const ir_message *message;
    const ir_field *extension;
} name_search;

static void extension_with_name(const ir_field *const *fields, size_t n, name_search *q)
{
    for (size_t i = 0; i < n && !q->extension; i++)
        if (fields[i]->full_name && strcmp(fields[i]->full_name, q->name) == 0)
            q->extension = fields[i];
}

static void search_message(ir_message *m, void *ctx)
{
    name_search *q = ctx;
    if (!q->message && m->full_name && strcmp(m->full_name, q->name) == 0)
        q->message = m;
    extension_with_name((const ir_field *const *)m->extensions.v, m->extensions.n, q);
}

static name_search search_program(const ir_program *prog, const char *name)
{
    name_search q = { .name = name[0] == '.' ? name + 1 : name };
    for (size_t i = 0; i < prog->files.n; i++) {
        ir_file *f = prog->files.v[i];
        extension_with_name((const ir_field *const *)f->extensions.v, f->extensions.n, &q);
        ir_each_message(f, search_message, &q);
    }
    return q;
}

static const ir_field *field_named(const ir_message *m, const char *name)
{
    for (size_t i = 0; m && i < m->fields.n; i++)
        if (strcmp(m->fields.v[i]->name, name) == 0)
            return m->fields.v[i];
    return NULL;
}

/* "[a.b.c]" or "[type.googleapis.com/a.b.C]", the brackets consumed; NULL after an error. */
static char *tf_bracket_name(tf_lexer *lx)
{
    wbuf name = { 0 };
    while (lx->kind == TF_IDENT || tf_is(lx, ".") || tf_is(lx, "/")) {
        wb_put(&name, lx->tok, lx->len);
        tf_next(lx);
    }
    wb_put(&name, "", 1);
    char *s = ir_pool_strdup(lx->env->prog->pool, (const char *)name.p);
    free(name.p);
    return tf_expect(lx, "]") ? s : NULL;
}

/* An expanded google.protobuf.Any: "[prefix/type] { fields of type }" sets type_url and value. */
static bool tf_any(tf_lexer *lx, const ir_message *any, const char *url, tf_entries *entries)
{
    const char *slash = strrchr(url, '/');
    const ir_message *type = search_program(lx->env->prog, slash + 1).message;
    const ir_field *type_url = field_named(any, "type_url"), *value = field_named(any, "value");
    bool known_prefix = (size_t)(slash - url) == strlen("type.googleapis.com") ?
                        strncmp(url, "type.googleapis.com", (size_t)(slash - url)) == 0 :
                        strncmp(url, "type.googleprod.com/", (size_t)(slash - url) + 1) == 0;
    if (!type || !known_prefix || !type_url || !value)
        return tf_error(lx, "Could not find type \"%s\" stored in google.protobuf.Any.", url);
    tf_accept(lx, ":");
    const char *close = tf_is(lx, "<") ? ">" : "}";
    tf_entry url_entry = { .field = type_url, .order = entries->n };
    tf_entry value_entry = { .field = value, .order = entries->n + 1 };
    if (!(tf_accept(lx, "{") || tf_expect(lx, "<")) || !tf_message(lx, type, close, &value_entry.payload)) {
        free(value_entry.payload.p);
        return false;
    }
    wb_put(&url_entry.payload, url, strlen(url));
    ir_pool_vec_push(lx->env->prog->pool, entries, url_entry);
    ir_pool_vec_push(lx->env->prog->pool, entries, value_entry);
    return true;
}

/* An extension named relative to the option's package, innermost scope first, as protoc's LookupSymbol. */
static const ir_field *search_scopes(tf_lexer *lx, const char *name)
{
    const char *package = lx->env->file && lx->env->file->package ? lx->env->file->package : "";
    if (name[0] != '.')
        for (size_t len = strlen(package); len > 0;) {
            const ir_field *f = search_program(lx->env->prog, ir_pool_printf(lx->env->prog->pool, "%.*s.%s", (int)len, package, name)).extension;
            if (f)
                return f;
            while (len > 0 && package[--len] != '.')
                ;
        }
    return search_program(lx->env->prog, name).extension;
}

/* The field a name in message m denotes: a field (a group by its type's name) or an extension. */
static const ir_field *tf_field_named(tf_lexer *lx, const ir_message *m, const char *name, bool extension)
{
    if (extension) {
        const ir_field *f = search_scopes(lx, name);
        if (!f || f->extend->extendee != m)
            tf_error(lx, "Extension \"%s\" is not defined or is not an extension of \"%s\".", name,
                     m ? m->full_name : "?");
        return f && f->extend->extendee == m ? f : NULL;
    }
    for (size_t i = 0; m && i < m->fields.n; i++) {
        const ir_field *f = m->fields.v[i];
        bool group = f->type == IR_TYPE_GROUP && f->message_type;
        if (strcmp(group ? f->message_type->name : f->name, name) == 0)   /* groups go by their type name */
            return f;
    }
    tf_error(lx, "Message type \"%s\" has no field named \"%s\".", m ? m->full_name : "?", name);
    return NULL;
}

/* protoc's text parser rejects a second value for a field that already has one, or for a set oneof. */
static bool tf_check_unset(tf_lexer *lx, const ir_field *f, const tf_entries *entries)
{
    bool repeated = f->label == IR_LABEL_REPEATED || f->is_map;
    for (size_t i = 0; i < entries->n; i++) {
        const ir_field *g = entries->v[i].field;
        if (f->oneof && !f->extend && g->oneof == f->oneof)
            return tf_error(lx, "Field \"%s\" is specified along with field \"%s\", another member of oneof \"%s\".",
                            f->name, g->name, f->oneof->name);
        if (g == f && !repeated)
            return tf_error(lx, "Non-repeated field \"%s\" is specified multiple times.",
                            f->extend && f->full_name ? f->full_name : f->name);
    }
    return true;
}

static int entry_cmp(const void *a, const void *b)
{
    const tf_entry *x = a, *y = b;
    if (x->field->number != y->field->number)
        return x->field->number < y->field->number ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* An extension of a message_set_wire_format message: group 1 { type_id = 2, message = 3 }, as protoc writes it. */
static void put_message_set_item(wbuf *out, uint32_t number, const wbuf *payload)
{
    wbuf item = { 0 };
    wb_varint_field(&item, 2, number);
    wb_bytes_field(&item, 3, payload->p, payload->n);
    wb_message_field(out, 1, true, item.p, item.n);
    free(item.p);
}

/* Serialize entries of message m as a generated message would: by field number, packed where packed. */
static void tf_serialize(const ir_message *m, tf_entries *entries, wbuf *out)
{
    bool message_set = m && m->message_set_wire_format;
    if (entries->n)
        qsort(entries->v, entries->n, sizeof *entries->v, entry_cmp);
    for (size_t i = 0; i < entries->n;) {
        const ir_field *f = entries->v[i].field;
        uint32_t num = (uint32_t)f->number;
        size_t j = i;
        if (f->packed) {
            size_t start = wb_open(out, num);
            for (; j < entries->n && entries->v[j].field == f; j++)
                wb_put(out, entries->v[j].payload.p, entries->v[j].payload.n);
            wb_close(out, start);
        } else {
            for (; j < entries->n && entries->v[j].field == f; j++) {
                const wbuf *p = &entries->v[j].payload;
                int wire_type = ir_type_wire_type(f->type);
                if (message_set && f->extend && f->type == IR_TYPE_MESSAGE) {
                    put_message_set_item(out, num, p);
                } else if (wire_type == PBJ_WT_LEN || wire_type == PBJ_WT_SGROUP) {
                    wb_message_field(out, num, wire_type == PBJ_WT_SGROUP, p->p, p->n);
                } else {
                    wb_tag(out, num, wire_type);
                    wb_put(out, p->p, p->n);
                }
            }
        }
        i = j;
    }
}

/* A map entry is written with its key and its value, zero when not given. */
static void add_missing_map_entry_fields(const ir_message *entry, tf_entries *entries)
{
    for (size_t i = 0; i < entry->fields.n; i++) {
        const ir_field *f = entry->fields.v[i];
        bool given = false;
        for (size_t k = 0; k < entries->n; k++)
            given |= entries->v[k].field == f;
        if (given)
            continue;
        tf_entry e = { .field = f, .order = entries->n };
        static const uint8_t zeros[8] = { 0 };
        int wire_type = ir_type_wire_type(f->type);
        wb_put(&e.payload, zeros, wire_type == PBJ_WT_VARINT ? 1 : wire_type == PBJ_WT_I32 ? 4 : wire_type == PBJ_WT_I64 ? 8 : 0);
        ir_pool_vec_push(entry->file->pool, entries, e);
    }
}

/* message := { (name | '[' ext ']') [':'] (value | '[' value {, value} ']') [';' | ','] } close
 *            | '[' prefix/type ']' [':'] message      (an expanded Any) */
static bool tf_message(tf_lexer *lx, const ir_message *m, const char *close, wbuf *out)
{
    if (close[0] && lx->depth == TEXTFORMAT_MAX_DEPTH)   /* a nested message: one more level */
        return tf_error(lx, "Message is too deep, the parser exceeded the configured recursion limit of %d.",
                        TEXTFORMAT_MAX_DEPTH);
    lx->depth += close[0] != 0;
    tf_entries entries = { 0 };
    bool ok = true;
    while (ok && !tf_is(lx, close)) {
        if (lx->kind == TF_END) {
            ok = close[0] == 0 || tf_fail(lx, close);
            break;
        }
        const ir_field *f = NULL;
        if (tf_accept(lx, "[")) {
            char *name = tf_bracket_name(lx);
            if (name && strchr(name, '/') && m && m->full_name && strcmp(m->full_name, "google.protobuf.Any") == 0) {
                ok = tf_any(lx, m, name, &entries);
                if (ok && !tf_accept(lx, ";"))
                    tf_accept(lx, ",");
                continue;
            }
            f = name ? tf_field_named(lx, m, name, true) : NULL;
        } else if (lx->kind == TF_IDENT) {
            char *name = ir_pool_strndup(lx->env->prog->pool, lx->tok, lx->len);
            tf_next(lx);
            f = tf_field_named(lx, m, name, false);
        } else {
            tf_fail(lx, "a field name");
        }
        if (!f || !tf_check_unset(lx, f, &entries)) {
            ok = false;
            break;
        }
        bool is_message = f->type == IR_TYPE_MESSAGE || f->type == IR_TYPE_GROUP;
        if (!tf_accept(lx, ":") && !is_message) {
            ok = tf_fail(lx, "\":\"");
            break;
        }
        if (tf_accept(lx, "[")) {                       /* a list of values of a repeated field */
            while (ok && !tf_accept(lx, "]"))
                ok = tf_value(lx, f, &entries) && (tf_is(lx, "]") || tf_expect(lx, ","));
        } else {
            ok = tf_value(lx, f, &entries);
        }
        if (ok && !tf_accept(lx, ";"))
            tf_accept(lx, ",");
    }
    if (ok && close[0])
        tf_next(lx);                                    /* the closing brace */
    if (ok && m && m->map_entry)
        add_missing_map_entry_fields(m, &entries);
    if (ok)
        tf_serialize(m, &entries, out);
    for (size_t i = 0; i < entries.n; i++)
        free(entries.v[i].payload.p);
    lx->depth -= close[0] != 0;
    return ok;
}

/* An aggregate value { text format } of message-typed f, tag included. */
bool textformat_put(optenv *env, wbuf *b, const ir_field *f, const ir_value *v)
{
    tf_lexer lx = { .env = env, .loc = v->loc, .option = f->name, .p = v->text ? v->text : "" };
    wbuf content = { 0 };
    tf_next(&lx);
    bool ok = tf_message(&lx, f->message_type, "", &content);
    if (ok)
        wb_message_field(b, (uint32_t)f->number, f->type == IR_TYPE_GROUP, content.p, content.n);
    free(content.p);
    return ok;
}
