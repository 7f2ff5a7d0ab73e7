/* irdesc.c: a FileDescriptorProto (plugin mode) to the IR the parser builds, for resolve, options, plan and emit. */
#include "irdesc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "std_options.h"
#include "symtab.h"
#include "wire.h"

typedef google_protobuf_FileDescriptorProto file_proto;
typedef google_protobuf_DescriptorProto message_proto;
typedef google_protobuf_FieldDescriptorProto field_proto;
typedef google_protobuf_EnumDescriptorProto enum_proto;
typedef google_protobuf_ServiceDescriptorProto service_proto;
typedef google_protobuf_SourceCodeInfo_Location location;

/* The field numbers SourceCodeInfo paths go through (descriptor.proto's, from src/pbgen). */
#define FIELD(message, field) google_protobuf_##message##_##field##_tag
enum {
    FILE_PACKAGE = FIELD(FileDescriptorProto, package), FILE_DEPENDENCY = FIELD(FileDescriptorProto, dependency),
    FILE_MESSAGE = FIELD(FileDescriptorProto, message_type), FILE_ENUM = FIELD(FileDescriptorProto, enum_type),
    FILE_SERVICE = FIELD(FileDescriptorProto, service), FILE_EXTENSION = FIELD(FileDescriptorProto, extension),
    MESSAGE_FIELD = FIELD(DescriptorProto, field), MESSAGE_NESTED = FIELD(DescriptorProto, nested_type),
    MESSAGE_ENUM = FIELD(DescriptorProto, enum_type), MESSAGE_EXTENSION = FIELD(DescriptorProto, extension),
    MESSAGE_ONEOF = FIELD(DescriptorProto, oneof_decl), ENUM_VALUE = FIELD(EnumDescriptorProto, value),
    SERVICE_METHOD = FIELD(ServiceDescriptorProto, method)
};

/* One file being built: it, and its source_code_info's locations by path ("4.0.2.1"). */
typedef struct builder {
    ir_file *f;
    symtab locations;
} builder;

static const char *str(ir_pool *pool, pbj_slice s) { return s.len ? ir_pool_strndup(pool, (const char *)s.data, s.len) : ""; }
static const char *str_or_null(ir_pool *pool, bool has, pbj_slice s) { return has ? str(pool, s) : NULL; }
/* s as a declaration's name, which must be an identifier (dotted: a package's, parts joined by dots);
 * else an error at loc. */
static const char *name_of(ir_file *f, pbj_slice s, ir_loc loc, bool dotted)
{
    const char *name = str(f->pool, s);
    bool ok = s.len > 0;
    for (size_t i = 0; ok && i < s.len; i++) {
        bool first = i == 0 || name[i - 1] == '.';       /* of a part */
        char c = name[i];
        ok = isalpha((unsigned char)c) || c == '_' || (!first && isdigit((unsigned char)c)) ||
             (dotted && c == '.' && !first && i + 1 < s.len);
    }
    if (!ok) diag_error(f, loc, "\"%s\" is not a valid identifier.", name);
    return name;
}

/* The path of the index-th element of field below the element at path ("" is the file). */
static const char *sub_path(ir_pool *pool, const char *path, int field, size_t index)
{
    return *path ? ir_pool_printf(pool, "%s.%d.%zu", path, field, index) : ir_pool_printf(pool, "%d.%zu", field, index);
}

/* ---- positions and comments -------------------------------------------------------------------- */

static const char *path_key(ir_pool *pool, const int32_t *v, size_t n)
{
    char *s = ir_pool_alloc(pool, 12 * n + 1), *o = s;
    for (size_t i = 0; i < n; i++) o += sprintf(o, "%s%d", i ? "." : "", (int)v[i]);
    return s;
}

static ir_loc span_start(const location *l)
{
    if (l->span.count < 2) return (ir_loc){ 0, 0 };
    return (ir_loc){ (uint32_t)l->span.data[0] + 1, (uint32_t)l->span.data[1] + 1 };
}

/* The element at path ("4.0" is the first message): its position and comments. */
static void place(builder *b, const char *path, ir_loc *loc, ir_comments *c)
{
    const location *l = symtab_get(&b->locations, path, strlen(path));
    if (!l) return;
    *loc = span_start(l);
    if (!c) return;
    c->leading = str_or_null(b->f->pool, l->has_leading_comments, l->leading_comments);
    c->trailing = str_or_null(b->f->pool, l->has_trailing_comments, l->trailing_comments);
    c->leading_loc = *loc;
    for (size_t i = 0; i < l->leading_detached_comments.count; i++)
        ir_pool_vec_push(b->f->pool, &c->detached, str(b->f->pool, l->leading_detached_comments.data[i]));
}

/* The innermost message a path lies in or names (*exact: it names it), or NULL at file level. */
static ir_message *message_on_path(const ir_file *f, const int32_t *p, size_t n, bool *exact)
{
    ir_message *m = NULL;
    size_t i = 0;
    if (n >= 2 && p[0] == FILE_MESSAGE && p[1] >= 0 && (size_t)p[1] < f->messages.n) m = f->messages.v[p[1]], i = 2;
    while (m && i + 1 < n && p[i] == MESSAGE_NESTED && p[i + 1] >= 0 && (size_t)p[i + 1] < m->messages.n)
        m = m->messages.v[p[i + 1]], i += 2;
    *exact = m && i == n;
    return m;
}

static void raw_comment(ir_file *f, pbj_slice text, ir_loc loc, ir_message *inside, ir_message *before)
{
    ir_raw_comment c = { str(f->pool, text), loc, inside, before };
    ir_pool_vec_push(f->pool, &f->comments, c);
}

/* Every comment of the file, for the pbj options in them: a message's leading comment is "before" it,
 * its trailing one (after its '{') inside it, the rest inside the message around the element. */
static void raw_comments(builder *b, const google_protobuf_SourceCodeInfo *info)
{
    for (size_t i = 0; info && i < info->location.count; i++) {
        const location *l = &info->location.data[i];
        bool exact;
        ir_message *m = message_on_path(b->f, l->path.data, l->path.count, &exact);
        ir_message *around = exact ? m->parent : m;
        ir_loc loc = span_start(l);
        for (size_t k = 0; k < l->leading_detached_comments.count; k++)
            raw_comment(b->f, l->leading_detached_comments.data[k], loc, around, NULL);
        if (l->has_leading_comments) raw_comment(b->f, l->leading_comments, loc, around, exact ? m : NULL);
        if (l->has_trailing_comments) raw_comment(b->f, l->trailing_comments, loc, m, NULL);
    }
}

/* ---- options: the standard ones as written again from their encoding ------------------------- */

static uint64_t varint_of(const uint8_t *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n && i < 10; i++) v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
    return v;
}

static void add_option(ir_pool *pool, ir_options *out, const char *first, const char *second, ir_value v)
{
    ir_option o = { .loc = v.loc, .value = v };
    ir_pool_vec_push(pool, &o.name, ((ir_optname_part){ first, false, NULL }));
    if (second) ir_pool_vec_push(pool, &o.name, ((ir_optname_part){ second, false, NULL }));
    ir_pool_vec_push(pool, out, o);
}

static ir_value ident(const char *text, ir_loc loc) { return (ir_value){ .kind = IR_VAL_IDENT, .loc = loc, .text = text }; }

/* features.NAME = VALUE for each feature a FeatureSet sets. */
static void add_features(ir_pool *pool, ir_options *out, const uint8_t *p, const uint8_t *end, ir_loc loc)
{
    uint32_t num;
    int wt;
    const uint8_t *val;
    size_t len;
    while (wire_next_field(&p, end, &num, &wt, &val, &len)) {
        for (int id = 0; id < FEATURE_COUNT; id++) {
            const char *value = feature_value_name((feature_id)id, (int)varint_of(val, len));
            if (feature_at((feature_id)id)->number == num && wt == PBJ_WT_VARINT && value)
                add_option(pool, out, "features", feature_at((feature_id)id)->name, ident(value, loc));
        }
    }
}

static const char *std_enum_name(std_kind kind, int32_t number)
{
    const std_enum_value *e;
    for (size_t i = 0; (e = std_enum_value_at(i)); i++)
        if (e->kind == kind && e->number == number) return e->name;
    return NULL;
}

/* The standard option of scope numbered num, its value (bytes val) in *v as written; NULL for any other. */
static const std_option *std_value(ir_pool *pool, std_scope scope, uint32_t num, int wt, const uint8_t *val, size_t len, ir_loc loc,
                                   ir_value *v)
{
    const std_option *so;
    for (size_t i = 0; (so = std_option_at(i)); i++) {
        if (so->scope != scope || so->number != num) continue;
        if (so->kind == KIND_STRING && wt == PBJ_WT_LEN) {
            *v = (ir_value){ .kind = IR_VAL_STRING, .loc = loc, .str = ir_pool_strndup(pool, (const char *)val, len), .str_len = len };
            return so;
        }
        if (wt != PBJ_WT_VARINT) return NULL;
        const char *name = so->kind == KIND_BOOL ? (varint_of(val, len) ? "true" : "false")
                         : std_enum_name(so->kind, (int32_t)varint_of(val, len));
        if (name) *v = ident(name, loc);
        return name ? so : NULL;
    }
    return NULL;
}

/* The options an element's options message holds (encoded), as its options written in a .proto. */
static void add_options(ir_pool *pool, ir_options *out, std_scope scope, const uint8_t *p, size_t n, ir_loc loc)
{
    const uint8_t *end = p + n, *val;
    uint32_t num;
    int wt;
    size_t len;
    ir_value v;
    const std_option *so;
    while (wire_next_field(&p, end, &num, &wt, &val, &len)) {
        if (num == std_features_number(scope) && wt == PBJ_WT_LEN) add_features(pool, out, val, val + len, loc);
        else if ((so = std_value(pool, scope, num, wt, val, len, loc, &v))) add_option(pool, out, so->name, NULL, v);
    }
}

/* An options message (type T of descriptor.proto, m may be NULL) added to out as written. */
#define ADD_OPTIONS(pool, out, scope, T, m, loc)                                                           \
    do {                                                                                               \
        if (!(m)) break;                                                                               \
        size_t cap_ = google_protobuf_##T##_size(m), len_ = 0;                                         \
        uint8_t *buf_ = ir_pool_alloc((pool), cap_ + 1);                                                   \
        if (google_protobuf_##T##_encode((m), buf_, cap_, &len_) == PBJ_OK) add_options((pool), (out), (scope), buf_, len_, (loc)); \
    } while (0)

/* ---- [default = ...] as written -------------------------------------------------------------- */

/* protoc's CUnescape of a bytes default (its CEscape: \n \r \t \" \' \\ and \ooo). */
static ir_value bytes_value(ir_pool *pool, const char *s, ir_loc loc)
{
    char *out = ir_pool_alloc(pool, strlen(s) + 1), *o = out;
    while (*s) {
        if (*s != '\\' || !s[1]) { *o++ = *s++; continue; }
        s++;
        if (*s >= '0' && *s <= '7') {
            int v = 0;
            for (int k = 0; k < 3 && *s >= '0' && *s <= '7'; k++) v = v * 8 + (*s++ - '0');
            *o++ = (char)v;
            continue;
        }
        *o++ = *s == 'n' ? '\n' : *s == 'r' ? '\r' : *s == 't' ? '\t' : *s;
        s++;
    }
    return (ir_value){ .kind = IR_VAL_STRING, .loc = loc, .str = out, .str_len = (size_t)(o - out) };
}

/* A number as the grammar reads it: the sign apart; inf and nan identifiers; integers and floats. */
static ir_value number_value(const char *text, ir_loc loc)
{
    bool negative = text[0] == '-';
    const char *digits = text + negative;
    ir_value v = { .kind = IR_VAL_FLOAT, .loc = loc, .negative = negative, .text = digits, .d = strtod(text, NULL) };
    if (!strcmp(digits, "inf") || !strcmp(digits, "nan")) v.kind = IR_VAL_IDENT;
    else if (digits[strspn(digits, "0123456789")] == '\0') v.kind = IR_VAL_INT, v.u = strtoull(digits, NULL, 10);
    return v;
}

static ir_value *default_value(ir_pool *pool, const field_proto *d, ir_loc loc)
{
    ir_value *v = ir_pool_alloc(pool, sizeof *v);
    const char *text = str(pool, d->default_value);
    switch (d->type) {
    case google_protobuf_FieldDescriptorProto_Type_TYPE_STRING:
        *v = (ir_value){ .kind = IR_VAL_STRING, .loc = loc, .str = text, .str_len = d->default_value.len };
        break;
    case google_protobuf_FieldDescriptorProto_Type_TYPE_BYTES: *v = bytes_value(pool, text, loc); break;
    case google_protobuf_FieldDescriptorProto_Type_TYPE_BOOL:
    case google_protobuf_FieldDescriptorProto_Type_TYPE_ENUM: *v = ident(text, loc); break;
    default: *v = number_value(text, loc); break;
    }
    return v;
}

/* ---- declarations ------------------------------------------------------------------------------ */

/* The label as a .proto writes it: none on oneof members, proto3 singular fields and editions' fields. */
static ir_label written_label(const ir_file *f, const field_proto *d, const ir_message *parent)
{
    if (d->label == google_protobuf_FieldDescriptorProto_Label_LABEL_REPEATED) return IR_LABEL_REPEATED;
    if (parent && parent->map_entry) return IR_LABEL_OPTIONAL;
    if (d->proto3_optional) return IR_LABEL_OPTIONAL;
    if (d->has_oneof_index || f->syntax != IR_PROTO2) return IR_LABEL_NONE;
    return d->label == google_protobuf_FieldDescriptorProto_Label_LABEL_REQUIRED ? IR_LABEL_REQUIRED : IR_LABEL_OPTIONAL;
}

static ir_field *build_field(builder *b, const field_proto *d, ir_message *parent, const char *path)
{
    ir_field *f = ir_pool_alloc(b->f->pool, sizeof *f);
    place(b, path, &f->loc, &f->comments);
    f->type_loc = f->number_loc = f->loc;
    f->name = name_of(b->f, d->name, f->loc, false);
    f->number = d->number;
    f->file = b->f;
    f->parent = parent;
    f->label = written_label(b->f, d, parent);
    f->proto3_optional = d->proto3_optional;
    bool named = d->type == google_protobuf_FieldDescriptorProto_Type_TYPE_MESSAGE ||
                 d->type == google_protobuf_FieldDescriptorProto_Type_TYPE_ENUM || (!d->has_type && d->has_type_name);
    f->type = named ? IR_TYPE_UNRESOLVED : (ir_type)d->type;
    if (!named && !d->has_type) diag_error(b->f, f->loc, "field \"%s\" has no type", f->name);
    f->type_name = str_or_null(b->f->pool, d->has_type_name, d->type_name);
    f->json_name = irbuild_json_name(f->file->pool, f->name);
    if (d->has_json_name && strcmp(str(b->f->pool, d->json_name), f->json_name) != 0) {
        f->json_name = str(b->f->pool, d->json_name);
        f->json_name_explicit = true;
    }
    if (d->has_default_value) f->default_raw = default_value(b->f->pool, d, f->loc);
    ADD_OPTIONS(b->f->pool, &f->options, SCOPE_FIELD, FieldOptions, d->options, f->loc);
    return f;
}

/* The message declared in m (NULL: at file level) named as the last part of a type name, or NULL. */
static ir_message *nested_named(const ir_file *f, const ir_message *m, const char *type_name)
{
    const char *dot = strrchr(type_name, '.');
    const char *name = dot ? dot + 1 : type_name;
    ir_message *const *v = m ? m->messages.v : f->messages.v;
    for (size_t i = 0, n = m ? m->messages.n : f->messages.n; i < n; i++)
        if (!strcmp(v[i]->name, name)) return v[i];
    return NULL;
}

/* A group field's message, declared beside it: marked, and named as the group writes it. */
static bool mark_group(const ir_file *file, ir_message *scope, ir_field *f)
{
    ir_message *target = f->type == IR_TYPE_GROUP && f->type_name ? nested_named(file, scope, f->type_name) : NULL;
    if (!target) return false;
    target->is_group = true;
    f->type_name = target->name;
    return true;
}

/* The extensions declared in scope (NULL: the file), one extend block per run of one extendee. */
static void build_extensions(builder *b, const field_proto *d, size_t n, ir_message *scope, const char *path, int field)
{
    ir_extend *x = NULL;
    for (size_t i = 0; i < n; i++) {
        const char *extendee = str(b->f->pool, d[i].extendee);
        if (!x || strcmp(x->extendee_name, extendee) != 0) {
            x = ir_pool_alloc(b->f->pool, sizeof *x);
            x->extendee_name = extendee;
            x->scope = scope;
            if (scope) ir_pool_vec_push(b->f->pool, &scope->extends, x);
            else ir_pool_vec_push(b->f->pool, &b->f->extends, x);
        }
        ir_field *f = build_field(b, &d[i], scope, sub_path(b->f->pool, path, field, i));
        mark_group(b->f, scope, f);
        x->loc = x->extendee_loc = f->loc;
        f->extend = x;
        ir_pool_vec_push(b->f->pool, &x->fields, f);
        if (scope) { f->index = (int)scope->extensions.n; ir_pool_vec_push(b->f->pool, &scope->extensions, f); }
        else { f->index = (int)b->f->extensions.n; ir_pool_vec_push(b->f->pool, &b->f->extensions, f); }
    }
}

static void build_enum(builder *b, const enum_proto *d, ir_message *parent, const char *path)
{
    ir_enum *e = ir_pool_alloc(b->f->pool, sizeof *e);
    place(b, path, &e->loc, &e->comments);
    e->name = name_of(b->f, d->name, e->loc, false);
    e->parent = parent;
    e->file = b->f;
    if (parent) ir_pool_vec_push(b->f->pool, &parent->enums, e);
    else ir_pool_vec_push(b->f->pool, &b->f->enums, e);
    ADD_OPTIONS(b->f->pool, &e->options, SCOPE_ENUM, EnumOptions, d->options, e->loc);
    const char *alias = ir_option_find(&e->options, "allow_alias");
    e->allow_alias = alias && !strcmp(alias, "true");
    for (size_t i = 0; i < d->value.count; i++) {
        ir_enum_value *v = ir_pool_alloc(b->f->pool, sizeof *v);
        place(b, sub_path(b->f->pool, path, ENUM_VALUE, i), &v->loc, &v->comments);
        v->number_loc = v->loc;
        v->name = name_of(b->f, d->value.data[i].name, v->loc, false);
        v->number = d->value.data[i].number;
        v->parent = e;
        ADD_OPTIONS(b->f->pool, &v->options, SCOPE_ENUM_VALUE, EnumValueOptions, d->value.data[i].options, v->loc);
        ir_pool_vec_push(b->f->pool, &e->values, v);
    }
    for (size_t i = 0; i < d->reserved_range.count; i++) {      /* inclusive ends, as written */
        ir_range r = { e->loc, d->reserved_range.data[i].start, d->reserved_range.data[i].end, { 0 } };
        ir_pool_vec_push(b->f->pool, &e->reserved_ranges, r);
    }
    for (size_t i = 0; i < d->reserved_name.count; i++) ir_pool_vec_push(b->f->pool, &e->reserved_names, str(b->f->pool, d->reserved_name.data[i]));
}

/* A map's entry message as protoc makes it: optional key = 1 and value = 2, and nothing else. */
static bool entry_shaped(const ir_message *e)
{
    ir_field *const *f = e->fields.v;
    return e->fields.n == 2 && !strcmp(f[0]->name, "key") && f[0]->number == IR_MAP_KEY_NUMBER &&
           !strcmp(f[1]->name, "value") && f[1]->number == IR_MAP_VALUE_NUMBER &&
           f[0]->label == IR_LABEL_OPTIONAL && f[1]->label == IR_LABEL_OPTIONAL && !f[0]->oneof && !f[1]->oneof;
}

/* A field of m, in its oneof; a group's message marked, a map field written as map<K, V>. */
static void add_field(builder *b, ir_message *m, const field_proto *d, const char *path)
{
    ir_field *f = build_field(b, d, m, path);
    f->index = (int)m->fields.n;
    ir_pool_vec_push(b->f->pool, &m->fields, f);
    if (d->has_oneof_index && (d->oneof_index < 0 || (size_t)d->oneof_index >= m->oneofs.n)) {
        diag_error(b->f, f->loc, "field \"%s\" names oneof %d, which \"%s\" does not have", f->name, (int)d->oneof_index, m->name);
    } else if (d->has_oneof_index) {
        f->oneof = m->oneofs.v[d->oneof_index];
        ir_pool_vec_push(b->f->pool, &f->oneof->fields, f);
    }
    if (mark_group(b->f, m, f)) return;
    ir_message *target = f->type_name ? nested_named(b->f, m, f->type_name) : NULL;
    if (target && target->map_entry && f->label == IR_LABEL_REPEATED) {
        if (!entry_shaped(target))
            diag_error(b->f, f->loc, "map field \"%s\": its entry type \"%s\" is not an optional key = 1 and value = 2",
                       f->name, target->name);
        f->is_map = true;
        f->type_name = target->name;
    }
}

static ir_range range_of(ir_loc loc, int32_t start, int32_t end_exclusive)
{
    return (ir_range){ loc, start, end_exclusive - 1, { 0 } };
}

static void build_message(builder *b, const message_proto *d, ir_message *parent, const char *path)
{
    ir_message *m = ir_pool_alloc(b->f->pool, sizeof *m);
    place(b, path, &m->loc, &m->comments);
    m->name = name_of(b->f, d->name, m->loc, false);
    m->parent = parent;
    m->file = b->f;
    if (parent) ir_pool_vec_push(b->f->pool, &parent->messages, m);
    else ir_pool_vec_push(b->f->pool, &b->f->messages, m);
    if (d->options) {
        m->map_entry = d->options->map_entry;
        m->message_set_wire_format = d->options->message_set_wire_format;
    }
    ADD_OPTIONS(b->f->pool, &m->options, SCOPE_MESSAGE, MessageOptions, d->options, m->loc);
    if (m->map_entry) m->options.n = 0;          /* a map<K, V> field writes no option on its entry */
    for (size_t i = 0; i < d->nested_type.count; i++)
        build_message(b, &d->nested_type.data[i], m, sub_path(b->f->pool, path, MESSAGE_NESTED, i));
    for (size_t i = 0; i < d->enum_type.count; i++) build_enum(b, &d->enum_type.data[i], m, sub_path(b->f->pool, path, MESSAGE_ENUM, i));
    for (size_t i = 0; i < d->oneof_decl.count; i++) {
        ir_oneof *o = ir_pool_alloc(b->f->pool, sizeof *o);
        place(b, sub_path(b->f->pool, path, MESSAGE_ONEOF, i), &o->loc, &o->comments);
        o->name = name_of(b->f, d->oneof_decl.data[i].name, o->loc, false);
        o->parent = m;
        o->index = (int)i;
        ADD_OPTIONS(b->f->pool, &o->options, SCOPE_ONEOF, OneofOptions, d->oneof_decl.data[i].options, o->loc);
        ir_pool_vec_push(b->f->pool, &m->oneofs, o);
    }
    for (size_t i = 0; i < d->field.count; i++) add_field(b, m, &d->field.data[i], sub_path(b->f->pool, path, MESSAGE_FIELD, i));
    for (size_t i = 0; i < m->oneofs.n; i++) {
        ir_oneof *o = m->oneofs.v[i];
        o->synthetic = o->fields.n == 1 && o->fields.v[0]->proto3_optional;
    }
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_field *f = m->fields.v[i];
        if (f->proto3_optional && !(f->oneof && f->oneof->synthetic))
            diag_error(b->f, f->loc, "field \"%s\" is proto3 optional but not alone in a oneof", f->name);
    }
    for (size_t i = 0; i < d->extension_range.count; i++) {
        const google_protobuf_DescriptorProto_ExtensionRange *x = &d->extension_range.data[i];
        ir_range r = range_of(m->loc, x->start, x->end);
        ADD_OPTIONS(b->f->pool, &r.options, SCOPE_EXTENSION_RANGE, ExtensionRangeOptions, x->options, m->loc);
        ir_pool_vec_push(b->f->pool, &m->extension_ranges, r);
    }
    for (size_t i = 0; i < d->reserved_range.count; i++)
        ir_pool_vec_push(b->f->pool, &m->reserved_ranges, range_of(m->loc, d->reserved_range.data[i].start, d->reserved_range.data[i].end));
    for (size_t i = 0; i < d->reserved_name.count; i++) ir_pool_vec_push(b->f->pool, &m->reserved_names, str(b->f->pool, d->reserved_name.data[i]));
    build_extensions(b, d->extension.data, d->extension.count, m, path, MESSAGE_EXTENSION);
}

static void build_service(builder *b, const service_proto *d, const char *path)
{
    ir_service *s = ir_pool_alloc(b->f->pool, sizeof *s);
    place(b, path, &s->loc, &s->comments);
    s->name = name_of(b->f, d->name, s->loc, false);
    s->file = b->f;
    ir_pool_vec_push(b->f->pool, &b->f->services, s);
    ADD_OPTIONS(b->f->pool, &s->options, SCOPE_SERVICE, ServiceOptions, d->options, s->loc);
    for (size_t i = 0; i < d->method.count; i++) {
        const google_protobuf_MethodDescriptorProto *md = &d->method.data[i];
        ir_method *m = ir_pool_alloc(b->f->pool, sizeof *m);
        place(b, sub_path(b->f->pool, path, SERVICE_METHOD, i), &m->loc, &m->comments);
        m->name = name_of(b->f, md->name, m->loc, false);
        m->input_name = str(b->f->pool, md->input_type);
        m->output_name = str(b->f->pool, md->output_type);
        m->input_loc = m->output_loc = m->loc;
        m->client_streaming = md->client_streaming;
        m->server_streaming = md->server_streaming;
        m->has_body = md->options != NULL;
        ADD_OPTIONS(b->f->pool, &m->options, SCOPE_METHOD, MethodOptions, md->options, m->loc);
        ir_pool_vec_push(b->f->pool, &s->methods, m);
    }
}

/* ---- the file ---------------------------------------------------------------------------------- */

/* FileDescriptorProto.edition, 0 when absent. */
static feature_edition edition_of(const file_proto *fd)
{
    return fd->has_edition ? (feature_edition)fd->edition : 0;
}

static void set_syntax(ir_file *f, const file_proto *fd)
{
    const char *syntax = str(f->pool, fd->syntax);
    feature_edition known = feature_edition_named(feature_edition_text(edition_of(fd)));   /* 0 unless 2023 on */
    f->syntax_explicit = fd->has_syntax;
    if (!*syntax || !strcmp(syntax, "proto2")) f->syntax = IR_PROTO2;
    else if (!strcmp(syntax, "proto3")) f->syntax = IR_PROTO3;
    else if (!strcmp(syntax, "editions") && known) f->syntax = IR_EDITIONS, f->edition = known;
    else diag_error(f, (ir_loc){ 0, 0 }, "unrecognized syntax \"%s\" (edition %d)", syntax, (int)edition_of(fd));
}

static bool listed(const int32_t *v, size_t n, size_t i)
{
    for (size_t k = 0; k < n; k++)
        if (v[k] >= 0 && (size_t)v[k] == i) return true;
    return false;
}

static void build_imports(builder *b, const file_proto *fd)
{
    for (size_t i = 0; i < fd->dependency.count; i++) {
        ir_import im = { { 0, 0 }, str(b->f->pool, fd->dependency.data[i]), IR_IMPORT_PLAIN, NULL, false };
        place(b, sub_path(b->f->pool, "", FILE_DEPENDENCY, i), &im.loc, NULL);
        if (listed(fd->public_dependency.data, fd->public_dependency.count, i)) im.kind = IR_IMPORT_PUBLIC;
        if (listed(fd->weak_dependency.data, fd->weak_dependency.count, i)) im.kind = IR_IMPORT_WEAK;
        ir_pool_vec_push(b->f->pool, &b->f->imports, im);
    }
}

ir_file *irdesc_file(const ir_program *prog, const file_proto *fd)
{
    const char *name = str(prog->pool, fd->name);
    builder b = { ir_file_new(prog->pool, prog->diag, name, name, NULL, 0), { 0 } };
    const google_protobuf_SourceCodeInfo *info = fd->source_code_info;
    for (size_t i = 0; info && i < info->location.count; i++) {
        const location *l = &info->location.data[i];
        const char *key = path_key(prog->pool, l->path.data, l->path.count);
        symtab_put(&b.locations, key, strlen(key), (void *)(uintptr_t)l);
    }
    set_syntax(b.f, fd);
    place(&b, ir_pool_printf(prog->pool, "%d", FILE_PACKAGE), &b.f->package_loc, NULL);
    b.f->package = fd->has_package ? name_of(b.f, fd->package, b.f->package_loc, true) : NULL;
    build_imports(&b, fd);
    ADD_OPTIONS(prog->pool, &b.f->options, SCOPE_FILE, FileOptions, fd->options, ((ir_loc){ 0, 0 }));
    for (size_t i = 0; i < fd->message_type.count; i++) build_message(&b, &fd->message_type.data[i], NULL, sub_path(prog->pool, "", FILE_MESSAGE, i));
    for (size_t i = 0; i < fd->enum_type.count; i++) build_enum(&b, &fd->enum_type.data[i], NULL, sub_path(prog->pool, "", FILE_ENUM, i));
    for (size_t i = 0; i < fd->service.count; i++) build_service(&b, &fd->service.data[i], sub_path(prog->pool, "", FILE_SERVICE, i));
    build_extensions(&b, fd->extension.data, fd->extension.count, NULL, "", FILE_EXTENSION);
    irbuild_full_names(b.f);
    raw_comments(&b, info);
    symtab_free(&b.locations);
    b.f->parsed_ok = true;
    return b.f;
}
