/* resolve_check.c: protoc's semantic checks over resolved IR: numbers, ranges, reserved, proto3, maps, enums. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "featureset.h"
#include "resolve_int.h"
#include "std_options.h"
#include "../rt/pbj_core.h"   /* PBJ_MAX_FIELD_NUMBER */

/* Ranges are written with an inclusive end. */
static bool ranges_overlap(const ir_range *a, const ir_range *b)
{
    return a->start <= b->end && b->start <= a->end;
}

static bool in_range(const ir_range *rg, int32_t n)
{
    return rg->start <= n && n <= rg->end;
}

/* ---- duplicates, found by sorting (n log n: a schema may have 100,000 fields) ---- */

/* One item of a list searched for duplicates: its key (text when set, else number) and its place. */
typedef struct dup_key {
    const char *text;
    int64_t number;
    size_t index;
} dup_key;

static int key_cmp(const dup_key *a, const dup_key *b)
{
    return a->text ? strcmp(a->text, b->text) : (a->number > b->number) - (a->number < b->number);
}

static int key_place_cmp(const void *pa, const void *pb)
{
    const dup_key *a = pa, *b = pb;
    int c = key_cmp(a, b);
    return c ? c : (a->index > b->index) - (a->index < b->index);
}

/* Sorts keys[0..n) by key, then place; first[i] is the first place with the key of place i. */
static size_t *first_same_key(ir_pool *pool, dup_key *keys, size_t n)
{
    size_t *first = ir_pool_alloc(pool, (n + 1) * sizeof *first);
    if (n) qsort(keys, n, sizeof *keys, key_place_cmp);
    for (size_t i = 0, group = 0; i < n; i++) {
        if (key_cmp(&keys[i], &keys[group]) != 0) group = i;
        first[keys[i].index] = keys[group].index;
    }
    return first;
}

static dup_key *text_keys(ir_pool *pool, const char *const *texts, size_t n)
{
    dup_key *keys = ir_pool_alloc(pool, (n + 1) * sizeof *keys);
    for (size_t i = 0; i < n; i++) keys[i] = (dup_key){texts[i], 0, i};
    return keys;
}

static int text_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A sorted copy of names, for name_reserved. */
static const char **sorted_names(ir_pool *pool, const char *const *names, size_t n)
{
    const char **sorted = ir_pool_alloc(pool, (n + 1) * sizeof *sorted);
    if (n) memcpy(sorted, names, n * sizeof *sorted);
    if (n) qsort(sorted, n, sizeof *sorted, text_cmp);
    return sorted;
}

static bool name_reserved(const char *const *sorted, size_t n, const char *name)
{
    return n && bsearch(&name, sorted, n, sizeof *sorted, text_cmp) != NULL;
}

static bool option_is_true(const ir_options *opts, const char *name)
{
    const char *v = ir_option_find(opts, name);
    return v && strcmp(v, "true") == 0;
}

static bool is_lite(const ir_file *f)
{
    const char *v = ir_option_find(&f->options, "optimize_for");
    return v && strcmp(v, "LITE_RUNTIME") == 0;
}

/* ---- fields --------------------------------------------------------------- */

static void check_number(const ir_file *f, const ir_field *fd, bool is_extension)
{
    if (fd->number <= 0)
        diag_error(f, fd->number_loc, "Field numbers must be positive integers.");
    else if (!is_extension && fd->number > PBJ_MAX_FIELD_NUMBER)
        diag_error(f, fd->number_loc, "Field numbers cannot be greater than %d.", PBJ_MAX_FIELD_NUMBER);
    else if (fd->number >= RESERVED_NUMBER_FIRST && fd->number <= RESERVED_NUMBER_LAST)
        diag_error(f, fd->number_loc,
                   "Field numbers %d through %d are reserved for the protocol buffer library "
                   "implementation.", RESERVED_NUMBER_FIRST, RESERVED_NUMBER_LAST);
}

/* proto3 may extend only the options messages, to define custom options. */
static bool proto3_extendee_allowed(const ir_message *m)
{
    static const char *const allowed[] = {
#define X(scope, msg) "google.protobuf." #msg,
        STD_OPTION_SCOPES(X)
#undef X
    };
    for (size_t i = 0; i < sizeof allowed / sizeof *allowed; i++)
        if (strcmp(m->full_name, allowed[i]) == 0) return true;
    return false;
}

/* protoc's ValidateProto3Field. */
static void check_proto3_field(const ir_file *f, const ir_field *fd)
{
    if (fd->extend && fd->extend->extendee && !proto3_extendee_allowed(fd->extend->extendee))
        diag_error(f, fd->extend->extendee_loc, "Extensions in proto3 are only allowed for defining options.");
    if (fd->label == IR_LABEL_REQUIRED)
        diag_error(f, fd->type_loc, "Required fields are not allowed in proto3.");
    if (fd->default_raw)
        diag_error(f, fd->default_raw->loc, "Explicit default values are not allowed in proto3.");
    if (fd->type == IR_TYPE_GROUP)
        diag_error(f, fd->type_loc, "Groups are not supported in proto3 syntax.");
    if (fd->type == IR_TYPE_ENUM && fd->enum_type && features_closed_enum(fd->enum_type))   /* an editions enum may be open */
        diag_error(f, fd->type_loc,
                   "Enum type \"%s\" is not a proto3 enum, but is used in \"%s\" which is a "
                   "proto3 message type.", fd->enum_type->full_name,
                   fd->parent ? fd->parent->full_name : fd->full_name);
}

/* What the resolved features forbid in an editions file (protoc's ValidateFieldFeatures). */
static void check_editions_field(const ir_file *f, const ir_field *fd)
{
    if (fd->type == IR_TYPE_ENUM && fd->enum_type && features_closed_enum(fd->enum_type) &&
        fd->label != IR_LABEL_REPEATED && !fd->is_map && !features_explicit_presence(fd))
        diag_error(f, fd->type_loc, "Field \"%s\" has a closed enum type (\"%s\") and implicit presence: "
                   "a closed enum's default may not be its zero.", fd->name, fd->enum_type->full_name);
}

/* protoc's ValidateMapEntry: key and value kinds of map<K, V>. */
static void check_map(const ir_file *f, const ir_field *fd)
{
    const ir_message *entry = fd->message_type;
    if (!fd->is_map || !entry || entry->fields.n != 2) return;
    const ir_field *key = entry->fields.v[0], *value = entry->fields.v[1];
    switch (key->type) {
    case IR_TYPE_ENUM:
        diag_error(f, fd->type_loc, "Key in map fields cannot be enum types.");
        break;
    case IR_TYPE_FLOAT: case IR_TYPE_DOUBLE: case IR_TYPE_MESSAGE: case IR_TYPE_GROUP: case IR_TYPE_BYTES:
        diag_error(f, fd->type_loc, "Key in map fields cannot be float/double, bytes or message types.");
        break;
    default:
        break;
    }
    if (value->type == IR_TYPE_ENUM && value->enum_type && value->enum_type->values.n > 0 &&
        value->enum_type->values.v[0]->number != 0)
        diag_error(f, fd->type_loc, "Enum value in map must define 0 as the first value.");
}

/* What every field and extension must satisfy on its own. */
static void check_field(const ir_file *f, const ir_field *fd, bool is_extension)
{
    check_number(f, fd, is_extension);
    if (is_extension && fd->label == IR_LABEL_REQUIRED)
        diag_error(f, fd->type_loc, "The extension %s cannot be required.", fd->full_name);
    if (is_extension && fd->json_name_explicit)
        diag_error(f, fd->loc, "option json_name is not allowed on extension fields.");
    if (f->syntax == IR_PROTO3) check_proto3_field(f, fd);
    if (f->syntax == IR_EDITIONS) check_editions_field(f, fd);
    check_map(f, fd);
}

/* An extension's number against its extendee: declared range, not used twice. */
static void check_extension_number(resolver *r, const ir_file *f, ir_field *fd)
{
    const ir_message *m = fd->extend ? fd->extend->extendee : NULL;
    if (!m || fd->number <= 0) return;
    if (is_lite(f) && m->file && !is_lite(m->file))
        diag_error(f, fd->extend->extendee_loc,
                   "Extensions to non-lite types can only be declared in non-lite files. Note that you "
                   "cannot extend a non-lite type to contain a lite type, but the reverse is allowed.");
    if (m->message_set_wire_format &&      /* editions: no label, presence from features */
        (fd->label == IR_LABEL_REPEATED || features_required(fd) || fd->type != IR_TYPE_MESSAGE))
        diag_error(f, fd->type_loc, "Extensions of MessageSets must be optional messages.");
    bool declared = false;
    for (size_t i = 0; i < m->extension_ranges.n; i++) declared |= in_range(&m->extension_ranges.v[i], fd->number);
    if (!declared) {
        diag_error(f, fd->number_loc, "\"%s\" does not declare %d as an extension number.",
                   m->full_name, fd->number);
        return;
    }
    const char *key = ir_pool_printf(r->pool, "%s#%d", m->full_name, fd->number);
    ir_field *old = symtab_put(&r->ext_numbers, key, strlen(key), fd);
    if (old && old->file == fd->file)
        diag_error(f, fd->number_loc, "Extension number %d has already been used in \"%s\" by extension \"%s\".",
                   fd->number, m->full_name, old->full_name);
    else if (old)
        diag_warning(f, fd->number_loc,
                     "Extension number %d has already been used in \"%s\" by extension \"%s\" defined in %s.",
                     fd->number, m->full_name, old->full_name, old->file->name);
}

/* ---- messages ------------------------------------------------------------- */

static void check_field_numbers_unique(const ir_file *f, const ir_message *m)
{
    dup_key *keys = ir_pool_alloc(f->pool, (m->fields.n + 1) * sizeof *keys);
    for (size_t i = 0; i < m->fields.n; i++) keys[i] = (dup_key){NULL, m->fields.v[i]->number, i};
    const size_t *first = first_same_key(f->pool, keys, m->fields.n);
    for (size_t i = 0; i < m->fields.n; i++)
        if (first[i] != i)
            diag_error(f, m->fields.v[i]->number_loc,
                       "Field number %d has already been used in \"%s\" by field \"%s\".",
                       m->fields.v[i]->number, m->full_name, m->fields.v[first[i]]->name);
}

/* Ranges as protoc's BuildExtensionRange / BuildReservedRange check them. */
static void check_range_bounds(const ir_file *f, const ir_range *rg, const char *what, int32_t max)
{
    if (rg->start <= 0)
        diag_error(f, rg->loc, "%s numbers must be positive integers.", what);
    else if (rg->end < rg->start)
        diag_error(f, rg->loc, "%s range end number must be greater than start number.", what);
    else if (rg->end > max)
        diag_error(f, rg->loc, "%s numbers cannot be greater than %d.", what, max);
}

static void check_reserved_names(const ir_file *f, ir_loc loc, const char *const *names, size_t n, const char *what)
{
    const size_t *first = first_same_key(f->pool, text_keys(f->pool, names, n), n);
    for (size_t i = 0; i < n; i++)
        if (first[i] != i) diag_error(f, loc, "%s \"%s\" is reserved multiple times.", what, names[i]);
}

static void check_message_ranges(const ir_file *f, const ir_message *m)
{
    bool message_set = m->message_set_wire_format;
    for (size_t i = 0; i < m->extension_ranges.n; i++)
        check_range_bounds(f, &m->extension_ranges.v[i], "Extension", message_set ? INT32_MAX - 1 : PBJ_MAX_FIELD_NUMBER);
    for (size_t i = 0; i < m->reserved_ranges.n; i++)      /* protoc 3.21 takes "20 to 10" in a message */
        if (m->reserved_ranges.v[i].start <= 0)             /* protoc gives no line */
            diag_error(f, (ir_loc){ 0, 0 }, "Reserved numbers must be positive integers.");
    check_reserved_names(f, m->loc, m->reserved_names.v, m->reserved_names.n, "Field name");
    const char **reserved = sorted_names(f->pool, m->reserved_names.v, m->reserved_names.n);
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_field *fd = m->fields.v[i];
        for (size_t j = 0; j < m->extension_ranges.n; j++) {
            const ir_range *rg = &m->extension_ranges.v[j];
            if (in_range(rg, fd->number))
                diag_error(f, rg->loc, "Extension range %d to %d includes field \"%s\" (%d).",
                           rg->start, rg->end, fd->name, fd->number);
        }
        for (size_t j = 0; j < m->reserved_ranges.n; j++)
            if (in_range(&m->reserved_ranges.v[j], fd->number))
                diag_error(f, fd->number_loc, "Field \"%s\" uses reserved number %d.", fd->name, fd->number);
        if (name_reserved(reserved, m->reserved_names.n, fd->name))
            diag_error(f, fd->loc, "Field name \"%s\" is reserved.", fd->name);
    }
    for (size_t i = 0; i < m->extension_ranges.n; i++) {
        const ir_range *a = &m->extension_ranges.v[i];
        for (size_t j = 0; j < m->reserved_ranges.n; j++) {
            const ir_range *b = &m->reserved_ranges.v[j];
            if (ranges_overlap(a, b))
                diag_error(f, a->loc, "Extension range %d to %d overlaps with reserved range %d to %d.",
                           a->start, a->end, b->start, b->end);
        }
        for (size_t j = 0; j < i; j++) {
            const ir_range *b = &m->extension_ranges.v[j];
            if (ranges_overlap(a, b))            /* protoc points at the earlier range */
                diag_error(f, b->loc, "Extension range %d to %d overlaps with already-defined range %d to %d.",
                           a->start, a->end, b->start, b->end);
        }
    }
    for (size_t i = 0; i < m->reserved_ranges.n; i++)
        for (size_t j = 0; j < i; j++) {
            const ir_range *a = &m->reserved_ranges.v[i], *b = &m->reserved_ranges.v[j];
            if (ranges_overlap(a, b))            /* protoc gives no line */
                diag_error(f, (ir_loc){ 0, 0 }, "Reserved range %d to %d overlaps with already-defined range %d to %d.",
                           a->start, a->end, b->start, b->end);
        }
}

/* ---- protoc's "Suggested field numbers" note after a message's number errors ---- */

/* Why numbers are suggested: how many, and where the first reason was reported. */
typedef struct number_hint {
    int64_t wanted;              /* protoc's fields_to_suggest */
    ir_loc first;
    bool any;
} number_hint;

static int64_t fit_number(int64_t n) { return n < 0 ? 0 : n > PBJ_MAX_FIELD_NUMBER ? PBJ_MAX_FIELD_NUMBER : n; }

/* protoc's RequestHintOnFieldNumbers: a reason at loc asking for end - start numbers (end exclusive). */
static void hint_request(number_hint *h, ir_loc loc, int64_t start, int64_t end)
{
    h->wanted = fit_number(h->wanted + fit_number(fit_number(end) - fit_number(start)));
    if (!h->any) h->first = loc;
    h->any = true;
}

/* Every reason protoc asks numbers for, in its order: fields' numbers (as check_number refuses them), ranges starting at 0 or below,
 * fields inside an extension or reserved range. */
static number_hint number_hints(const ir_message *m)
{
    number_hint h = { 0, { 0, 0 }, false };
    for (size_t i = 0; i < m->fields.n; i++) {
        int32_t n = m->fields.v[i]->number;
        if (n <= 0 || n > PBJ_MAX_FIELD_NUMBER || (n >= RESERVED_NUMBER_FIRST && n <= RESERVED_NUMBER_LAST))
            hint_request(&h, m->fields.v[i]->number_loc, 0, 1);
    }
    for (size_t i = 0; i < m->extension_ranges.n; i++)
        if (m->extension_ranges.v[i].start <= 0)
            hint_request(&h, m->extension_ranges.v[i].loc, m->extension_ranges.v[i].start, (int64_t)m->extension_ranges.v[i].end + 1);
    for (size_t i = 0; i < m->reserved_ranges.n; i++)
        if (m->reserved_ranges.v[i].start <= 0)
            hint_request(&h, m->reserved_ranges.v[i].loc, m->reserved_ranges.v[i].start, (int64_t)m->reserved_ranges.v[i].end + 1);
    for (size_t i = 0; i < m->fields.n; i++) {
        for (size_t j = 0; j < m->extension_ranges.n; j++)
            if (in_range(&m->extension_ranges.v[j], m->fields.v[i]->number)) hint_request(&h, m->extension_ranges.v[j].loc, 0, 1);
        for (size_t j = 0; j < m->reserved_ranges.n; j++)
            if (in_range(&m->reserved_ranges.v[j], m->fields.v[i]->number)) hint_request(&h, m->reserved_ranges.v[j].loc, 0, 1);
    }
    return h;
}

/* A number range taken, end exclusive. */
typedef struct used_numbers {
    int64_t from, to;
} used_numbers;

static int used_cmp(const void *pa, const void *pb)
{
    const used_numbers *a = pa, *b = pb;
    return a->from != b->from ? (a->from < b->from ? -1 : 1) : a->to < b->to ? -1 : a->to > b->to;
}

/* The numbers m's fields, extensions and ranges take, and the ones nobody may (sorted). */
static size_t numbers_used(const ir_file *f, const ir_message *m, used_numbers **out)
{
    size_t cap = m->fields.n + m->extensions.n + m->extension_ranges.n + m->reserved_ranges.n + 2, n = 0;
    used_numbers *u = ir_pool_alloc(f->pool, cap * sizeof *u);
    for (size_t i = 0; i < m->fields.n; i++) u[n++] = (used_numbers){ m->fields.v[i]->number, (int64_t)m->fields.v[i]->number + 1 };
    for (size_t i = 0; i < m->extensions.n; i++) u[n++] = (used_numbers){ m->extensions.v[i]->number, (int64_t)m->extensions.v[i]->number + 1 };
    for (size_t i = 0; i < m->extension_ranges.n; i++)
        u[n++] = (used_numbers){ m->extension_ranges.v[i].start, (int64_t)m->extension_ranges.v[i].end + 1 };
    for (size_t i = 0; i < m->reserved_ranges.n; i++)
        u[n++] = (used_numbers){ m->reserved_ranges.v[i].start, (int64_t)m->reserved_ranges.v[i].end + 1 };
    u[n++] = (used_numbers){ PBJ_MAX_FIELD_NUMBER, (int64_t)PBJ_MAX_FIELD_NUMBER + 1 };
    u[n++] = (used_numbers){ RESERVED_NUMBER_FIRST, RESERVED_NUMBER_LAST };   /* as protoc: its end is exclusive */
    qsort(u, n, sizeof *u, used_cmp);
    *out = u;
    return n;
}

/* protoc's SuggestFieldNumbers: after m's number errors, up to three free numbers, as a note. */
static void suggest_field_numbers(const ir_file *f, const ir_message *m)
{
    number_hint h = number_hints(m);
    int64_t left = h.wanted < 3 ? h.wanted : 3, next = 1;
    if (!h.any || left <= 0) return;
    used_numbers *u;
    size_t n = numbers_used(f, m, &u);
    char list[64];
    size_t len = 0;
    for (size_t i = 0; i < n && left > 0; i++) {
        for (; next < u[i].from && left > 0; next++, left--)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%lld", len ? ", " : "", (long long)next);
        if (u[i].to > next) next = u[i].to;
    }
    diag_note(f, h.first, "Suggested field numbers for %s: %s", m->full_name, list);
}

/* protoc's ToLowercaseWithoutUnderscores, the key of proto3's JSON name clash check. */
static const char *json_key(ir_pool *pool, const char *name)
{
    char *out = ir_pool_strdup(pool, name), *o = out;
    for (const char *s = name; *s; s++)
        if (*s != '_') *o++ = (char)tolower((unsigned char)*s);
    *o = '\0';
    return out;
}

static void check_proto3_message(const ir_file *f, const ir_message *m)
{
    if (m->extension_ranges.n > 0)
        diag_error(f, m->extension_ranges.v[0].loc, "Extension ranges are not allowed in proto3.");
    if (m->message_set_wire_format)
        diag_error(f, m->loc, "MessageSet is not supported in proto3.");
    size_t n = m->fields.n;
    dup_key *keys = ir_pool_alloc(f->pool, (n + 1) * sizeof *keys);
    for (size_t i = 0; i < n; i++) keys[i] = (dup_key){json_key(f->pool, m->fields.v[i]->name), 0, i};
    const size_t *first = first_same_key(f->pool, keys, n);
    /* field i clashes with the first field before it with its key and another name (a plain
     * duplicate is reported as such): the key's first field, else the first with another name */
    size_t *clash = ir_pool_alloc(f->pool, (n + 1) * sizeof *clash), other = 0;
    for (size_t k = 0; k < n; k++) {
        size_t i = keys[k].index, head = first[i];
        if (head == i) other = i;
        const char *name = m->fields.v[i]->name;
        if (strcmp(name, m->fields.v[head]->name) != 0) {
            if (other == head) other = i;
            clash[i] = head;
        } else {
            clash[i] = other != head ? other : i;
        }
    }
    for (size_t i = 0; i < n; i++)
        if (clash[i] != i)
            diag_error(f, m->fields.v[i]->loc,
                       "The JSON camel-case name of field \"%s\" conflicts with field \"%s\". "
                       "This is not allowed in proto3.", m->fields.v[i]->name, m->fields.v[clash[i]]->name);
}

/* An editions message: no two fields with one JSON name (as buf). Under LEGACY_BEST_EFFORT two
 * default names may clash, with protoc's warning; a json_name written on either is still an error. */
static void check_editions_message(const ir_file *f, const ir_message *m)
{
    bool legacy = m->features.v[FEATURE_json_format] == FEATURE_json_format_LEGACY_BEST_EFFORT;
    dup_key *keys = ir_pool_alloc(f->pool, (m->fields.n + 1) * sizeof *keys);
    for (size_t i = 0; i < m->fields.n; i++) keys[i] = (dup_key){m->fields.v[i]->json_name, 0, i};
    const size_t *first = first_same_key(f->pool, keys, m->fields.n);
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_field *a = m->fields.v[i], *b = m->fields.v[first[i]];
        if (first[i] == i || strcmp(a->name, b->name) == 0) continue;
        if (legacy && !a->json_name_explicit && !b->json_name_explicit)
            diag_warning(f, a->loc, "The default JSON name of field \"%s\" (\"%s\") conflicts with the default JSON "
                                    "name of field \"%s\".", a->name, a->json_name, b->name);
        else
            diag_error(f, a->loc, "The JSON name of field \"%s\" (\"%s\") conflicts with field \"%s\".",
                       a->name, a->json_name, b->name);
    }
}

static void check_enum(const ir_file *f, const ir_enum *e);

static void check_message(resolver *r, const ir_file *f, const ir_message *m)
{
    bool message_set = m->message_set_wire_format;
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_field *fd = m->fields.v[i];
        check_field(f, fd, false);
        if (!fd->is_map && fd->message_type && fd->message_type->map_entry)
            diag_error(f, fd->type_loc, "\"%s\" is the entry type of a map field; use map<KeyType, ValueType> "
                                        "instead (map_entry should not be set explicitly).", fd->type_name);
        if (message_set)
            diag_error(f, fd->loc, "MessageSets cannot have fields, only extensions.");
    }
    check_field_numbers_unique(f, m);
    check_message_ranges(f, m);
    for (size_t i = 0; i < m->oneofs.n; i++)
        if (!m->oneofs.v[i]->synthetic && m->oneofs.v[i]->fields.n == 0)
            diag_error(f, m->oneofs.v[i]->loc, "Oneof must have at least one field.");
    if (f->syntax == IR_PROTO3) check_proto3_message(f, m);
    if (f->syntax == IR_EDITIONS) check_editions_message(f, m);
    suggest_field_numbers(f, m);
    for (size_t i = 0; i < m->messages.n; i++) check_message(r, f, m->messages.v[i]);
    for (size_t i = 0; i < m->enums.n; i++) check_enum(f, m->enums.v[i]);
    for (size_t i = 0; i < m->extensions.n; i++) {
        check_field(f, m->extensions.v[i], true);
        check_extension_number(r, f, m->extensions.v[i]);
    }
}

/* ---- enums ---------------------------------------------------------------- */

static void check_enum_values(const ir_file *f, const ir_enum *e)
{
    bool allow_alias = e->allow_alias || option_is_true(&e->options, "allow_alias");
    dup_key *keys = ir_pool_alloc(f->pool, (e->values.n + 1) * sizeof *keys);
    for (size_t i = 0; i < e->values.n; i++) keys[i] = (dup_key){NULL, e->values.v[i]->number, i};
    const size_t *first = first_same_key(f->pool, keys, e->values.n);
    const char **reserved = sorted_names(f->pool, e->reserved_names.v, e->reserved_names.n);
    for (size_t i = 0; i < e->values.n; i++) {
        const ir_enum_value *v = e->values.v[i];
        if (first[i] != i && !allow_alias)   /* allow_alias itself: the parser's pb_enum_validate */
            diag_error(f, v->number_loc,
                       "\"%s\" uses the same enum value as \"%s\". If this is intended, set "
                       "'option allow_alias = true;' to the enum definition.",
                       v->full_name, e->values.v[first[i]]->full_name);
        for (size_t j = 0; j < e->reserved_ranges.n; j++)
            if (in_range(&e->reserved_ranges.v[j], v->number))
                diag_error(f, v->loc, "Enum value \"%s\" uses reserved number %d.", v->name, v->number);
        if (name_reserved(reserved, e->reserved_names.n, v->name))
            diag_error(f, v->loc, "Enum value \"%s\" is reserved.", v->name);
    }
}

/* protoc's PrefixRemover: value without the enum's name as a prefix (case and '_' ignored), if it has it. */
static const char *strip_enum_prefix(const char *enum_name, const char *value)
{
    const char *v = value;
    for (const char *p = enum_name; *p; p++) {
        if (*p == '_') continue;
        while (*v == '_') v++;
        if (tolower((unsigned char)*v) != tolower((unsigned char)*p)) return value;
        v++;
    }
    while (*v == '_') v++;
    return *v ? v : value;
}

/* protoc's EnumValueToPascalCase: FOO_BAR -> FooBar. */
static const char *pascal_case(ir_pool *pool, const char *s)
{
    char *out = ir_pool_strdup(pool, s), *o = out;
    bool upper = true;
    for (; *s; s++) {
        if (*s == '_') {
            upper = true;
            continue;
        }
        *o++ = (char)(upper ? toupper((unsigned char)*s) : tolower((unsigned char)*s));
        upper = false;
    }
    *o = '\0';
    return out;
}

/* protoc's CheckEnumValueUniqueness: names must stay distinct once the prefix is stripped
 * and they are PascalCased (an error where json_format is ALLOW, as proto3's, else a warning). */
static void check_enum_value_names(const ir_file *f, const ir_enum *e)
{
    dup_key *keys = ir_pool_alloc(f->pool, (e->values.n + 1) * sizeof *keys);
    for (size_t i = 0; i < e->values.n; i++)
        keys[i] = (dup_key){pascal_case(f->pool, strip_enum_prefix(e->name, e->values.v[i]->name)), 0, i};
    const size_t *first = first_same_key(f->pool, keys, e->values.n);
    for (size_t i = 0; i < e->values.n; i++) {
        const ir_enum_value *v = e->values.v[i], *w = e->values.v[first[i]];
        if (first[i] == i || strcmp(v->name, w->name) == 0 || v->number == w->number) continue;
        const char *msg = ir_pool_printf(f->pool, 
            "Enum name %s has the same name as %s if you ignore case and strip out the enum name "
            "prefix (if any). This is error-prone and can lead to undefined behavior. Please avoid "
            "doing this. If you are using allow_alias, please assign the same numeric value to both "
            "enums.", v->name, w->name);
        if (e->features.v[FEATURE_json_format] == FEATURE_json_format_ALLOW) diag_error(f, v->loc, "%s", msg);  /* proto3's */
        else diag_warning(f, v->loc, "%s", msg);
    }
}

static void check_enum(const ir_file *f, const ir_enum *e)
{
    check_enum_value_names(f, e);
    if (e->values.n == 0)
        diag_error(f, e->loc, "Enums must contain at least one value.");
    else if (f->syntax == IR_PROTO3 && e->values.v[0]->number != 0)
        diag_error(f, e->values.v[0]->loc, "The first enum value must be zero in proto3.");
    else if (f->syntax == IR_EDITIONS && !features_closed_enum(e) && e->values.v[0]->number != 0)
        diag_error(f, e->values.v[0]->number_loc, "The first value of an open enum must be zero.");
    check_enum_values(f, e);
    for (size_t i = 0; i < e->reserved_ranges.n; i++) {    /* protoc gives no line for an enum's reserved ranges */
        const ir_range *a = &e->reserved_ranges.v[i];
        if (a->end < a->start)
            diag_error(f, (ir_loc){ 0, 0 }, "Reserved range end number must be greater than start number.");
        for (size_t j = 0; j < i; j++) {
            const ir_range *b = &e->reserved_ranges.v[j];
            if (ranges_overlap(a, b))
                diag_error(f, (ir_loc){ 0, 0 }, "Reserved range %d to %d overlaps with already-defined range %d to %d.",
                           a->start, a->end, b->start, b->end);
        }
    }
    check_reserved_names(f, e->loc, e->reserved_names.v, e->reserved_names.n, "Enum value");
}

/* ---- files ---------------------------------------------------------------- */

void check_file(resolver *r, ir_file *f)
{
    if (!is_lite(f))
        for (size_t i = 0; i < f->imports.n; i++)
            if (f->imports.v[i].file && is_lite(f->imports.v[i].file))
                diag_error(f, f->imports.v[i].loc,
                           "Files that do not use optimize_for = LITE_RUNTIME cannot import files "
                           "which do use this option. This file is not lite, but it imports \"%s\" "
                           "which is.", f->imports.v[i].name);
    if (is_lite(f) && (option_is_true(&f->options, "cc_generic_services") ||
                       option_is_true(&f->options, "java_generic_services")))
        for (size_t i = 0; i < f->services.n; i++)
            diag_error(f, f->services.v[i]->loc,
                       "Files with optimize_for = LITE_RUNTIME cannot define services unless you set both "
                       "options cc_generic_services and java_generic_services to false.");
    for (size_t i = 0; i < f->messages.n; i++) check_message(r, f, f->messages.v[i]);
    for (size_t i = 0; i < f->enums.n; i++) check_enum(f, f->enums.v[i]);
    for (size_t i = 0; i < f->extensions.n; i++) {
        check_field(f, f->extensions.v[i], true);
        check_extension_number(r, f, f->extensions.v[i]);
    }
}
