/* options.c: pbj options from comments and the command line, resolved per message. */
#include "options.h"

#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "suggest.h"

/* ---- the tables -------------------------------------------------------- */

typedef enum option_role { ROLE_TIER, ROLE_COMPONENT, ROLE_CLOSURE, ROLE_IGNORED, ROLE_FIELDS, ROLE_CLOSURE_ON } option_role;

static const struct {
    const char *name;
    option_role role;
    const char *help;
} options_table[OPTIONS_COUNT] = {
#define X(ID, name, role, help) { name, ROLE_##role, help },
    OPTIONS_LIST(X)
#undef X
};

/* A bool option that spreads to the messages reached (CLOSURE, CLOSURE_ON). */
static bool is_closure(int id) { return options_table[id].role == ROLE_CLOSURE || options_table[id].role == ROLE_CLOSURE_ON; }

static const struct {
    const char *name;
    int implies[OPTIONS_COUNT];
} tiers[OPTIONS_TIER_COUNT] = {
#define X(ID, name, ...) { name, __VA_ARGS__ },
    OPTIONS_TIERS(X)
#undef X
};

static const char *const origin_names[] = {
#define X(ID, text) text,
    OPTIONS_ORIGINS(X)
#undef X
};

#define PBJ_PREFIX "pbj."

/* ---- settings as written, per level ------------------------------------ */

typedef struct setting {
    bool set;
    int value;
    const char *text;            /* the value as written */
    const ir_file *file;         /* NULL for the project (command line) */
    ir_loc loc;                  /* of the option's name */
} setting;

typedef struct level {
    setting s[OPTIONS_COUNT];
} level;

/* Per message, in ir_message.options_state; resolved first so options_of can find it. */
typedef struct options_state {
    options_resolved r;
    level own;
    const level *file;
    const level *project;
    IR_VEC(options_compare_key) compare;     /* pbj.comparable's keys, once checked */
    bool visited[OPTIONS_COUNT];             /* closure worklist, per closing option */
    ir_message *pred_msg[OPTIONS_COUNT];     /* the message it was reached from */
    const ir_field *pred_field[OPTIONS_COUNT];
} msg_state;

/* The command line's settings. */
struct options_project {
    level settings;
    ir_pool *pool;               /* the run's */
    diag_counts *diag;
};

static const options_resolved defaults;      /* all zero: default tier, false, from default */

options_project *options_project_new(ir_pool *pool, diag_counts *diag)
{
    options_project *project = ir_pool_alloc(pool, sizeof *project);
    project->pool = pool;
    project->diag = diag;
    return project;
}

const options_resolved *options_of(const ir_message *m)
{
    return m && m->options_state ? &m->options_state->r : &defaults;
}

static msg_state *state_of(const ir_message *m) { return m->options_state; }

static const char *full_name(const ir_message *m) { return m->full_name ? m->full_name : m->name; }

/* ---- names and values ---------------------------------------------------- */

/* The option named "pbj.NAME" (len bytes), or -1. */
static int option_by_name(const char *name, size_t len)
{
    size_t plen = strlen(PBJ_PREFIX);
    if (len <= plen || strncmp(name, PBJ_PREFIX, plen) != 0) return -1;
    for (int id = 0; id < OPTIONS_COUNT; id++)
        if (strlen(options_table[id].name) == len - plen && !memcmp(name + plen, options_table[id].name, len - plen))
            return id;
    return -1;
}

/* "; did you mean pbj.X?" for the nearest known name, or the list of them. */
static const char *suggestion(ir_pool *pool, const char *name)
{
    const char *bare = strncmp(name, PBJ_PREFIX, strlen(PBJ_PREFIX)) ? name : name + strlen(PBJ_PREFIX);
    const char *names[OPTIONS_COUNT];
    for (int id = 0; id < OPTIONS_COUNT; id++) names[id] = options_table[id].name;
    ptrdiff_t best = suggest_nearest(bare, names, OPTIONS_COUNT, (strlen(bare) + 2) / 3);   /* a third of it */
    if (best >= 0) return ir_pool_printf(pool, "; did you mean " PBJ_PREFIX "%s?", names[best]);
    const char *list = "";
    for (int id = 0; id < OPTIONS_COUNT; id++)
        list = ir_pool_printf(pool, "%s%s" PBJ_PREFIX "%s", list, id ? ", " : "", options_table[id].name);
    return ir_pool_printf(pool, " (known: %s)", list);
}

/* The accepted values of an option: "default, max" with sep ", " and last " or ". */
static const char *value_list(ir_pool *pool, int id, const char *sep, const char *last)
{
    if (options_table[id].role != ROLE_TIER) return ir_pool_printf(pool, "true%sfalse", last);
    const char *list = tiers[0].name;
    for (int t = 1; t < OPTIONS_TIER_COUNT; t++)
        list = ir_pool_printf(pool, "%s%s%s", list, t + 1 == OPTIONS_TIER_COUNT ? last : sep, tiers[t].name);
    return list;
}

static const char *expected_values(ir_pool *pool, int id) { return value_list(pool, id, ", ", " or "); }

/* Parse a value for option id; false when it is not one of its values. */
static bool parse_value(int id, const char *text, int *out)
{
    switch (options_table[id].role) {
    case ROLE_TIER:
        for (int t = 0; t < OPTIONS_TIER_COUNT; t++)
            if (!strcmp(text, tiers[t].name)) return *out = t, true;
        return false;
    case ROLE_COMPONENT:
    case ROLE_CLOSURE:
    case ROLE_CLOSURE_ON:
        if (!strcmp(text, "true")) return *out = 1, true;
        if (!strcmp(text, "false")) return *out = 0, true;
        return false;
    case ROLE_IGNORED:
    case ROLE_FIELDS:                            /* names checked once the messages are known */
        return *out = 0, true;
    }
    return false;
}

static const char *value_text(int id, int value)
{
    switch (options_table[id].role) {
    case ROLE_TIER: return tiers[value].name;
    case ROLE_IGNORED: case ROLE_FIELDS: return "";
    default: return value ? "true" : "false";
    }
}

/* ---- settings from comments ---------------------------------------------- */

/* Where the comment's byte at off lies in the file. */
static ir_loc loc_in_comment(const ir_raw_comment *c, size_t off)
{
    ir_loc l = c->loc;
    size_t line_start = 0;
    bool newline = false;
    for (size_t k = 0; k < off; k++)
        if (c->text[k] == '\n') l.line++, line_start = k + 1, newline = true;
    l.col = newline ? (uint32_t)(off - line_start + 1) : c->loc.col + (uint32_t)off;
    return l;
}

/* Record one setting at a level; "where" names the level in errors. */
static int set_at(level *lv, int id, int value, const char *text, const ir_file *f, ir_loc loc, const char *where)
{
    setting *s = &lv->s[id];
    if (s->set) {
        if (s->value == value && !strcmp(s->text, text)) return 0;
        diag_error(f, loc, "conflicting values for " PBJ_PREFIX "%s on %s: %s here, %s before",
                   options_table[id].name, where, text, s->text);
        if (s->file) diag_note(s->file, s->loc, "first set to %s here", s->text);
        return 1;
    }
    *s = (setting){ true, value, text, f, loc };
    return 0;
}

static bool is_name_char(char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' || ch == '.';
}

static bool is_space(char ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }

/* The value between '=' and '>>>', blanks trimmed, one pair of quotes removed. */
static const char *value_between(ir_pool *pool, const char *p, const char *end)
{
    while (p < end && is_space(*p)) p++;
    while (end > p && is_space(end[-1])) end--;
    if (end - p >= 2 && (*p == '"' || *p == '\'') && end[-1] == *p) p++, end--;
    return ir_pool_strndup(pool, p, (size_t)(end - p));
}

/* Every <<<NAME = VALUE>>> in one comment, recorded at lv. */
static int scan_comment(const ir_file *f, const ir_raw_comment *c, level *lv, const char *where)
{
    int errors = 0;
    for (const char *p = strstr(c->text, "<<<"); p; p = strstr(p, "<<<")) {
        const char *name = p + 3;
        while (is_space(*name)) name++;
        const char *q = name;
        while (is_name_char(*q)) q++;
        size_t name_len = (size_t)(q - name);
        ir_loc loc = loc_in_comment(c, (size_t)(name - c->text));
        while (is_space(*q)) q++;
        bool pbj = !strncmp(name, PBJ_PREFIX, strlen(PBJ_PREFIX));
        if (name_len == 0 || *q != '=') {                  /* not an option: "<<<" in prose */
            if (pbj) errors++, diag_error(f, loc, "malformed pbj option: expected <<<pbj.NAME = VALUE>>>");
            p += 3;
            continue;
        }
        const char *end = strstr(q, ">>>");
        const char *opt_name = ir_pool_strndup(f->pool, name, name_len);
        if (!end) {
            diag_error(f, loc, "unterminated pbj option %s: expected >>> after its value", opt_name);
            return errors + 1;
        }
        p = end + 3;
        const char *text = value_between(f->pool, q + 1, end);
        int id = option_by_name(name, name_len), value;
        if (id < 0)
            errors++, diag_error(f, loc, "unknown pbj option %s%s", opt_name, suggestion(f->pool, opt_name));
        else if (!parse_value(id, text, &value))
            errors++, diag_error(f, loc, "bad value '%s' for %s (expected %s)", text, opt_name, expected_values(f->pool, id));
        else if (options_table[id].role == ROLE_FIELDS && !strcmp(where, "the file"))
            errors++, diag_error(f, loc, "%s names fields of one message: write it in the comment before the message "
                                         "or inside its body", opt_name);
        else if (options_table[id].role != ROLE_IGNORED || !lv->s[id].set)   /* Java packages may differ per enum */
            errors += set_at(lv, id, value, text, f, loc, where);
    }
    return errors;
}

/* The level a comment's options belong to: the message it leads or lies in, else the file. */
static int scan_file(const ir_file *f, level *file_level)
{
    int errors = 0;
    for (size_t k = 0; k < f->comments.n; k++) {
        const ir_raw_comment *c = &f->comments.v[k];
        if (!strstr(c->text, "<<<")) continue;
        ir_message *m = c->before ? c->before : c->inside;
        if (m && m->options_state)
            errors += scan_comment(f, c, &state_of(m)->own, ir_pool_printf(f->pool, "message %s", full_name(m)));
        else
            errors += scan_comment(f, c, file_level, "the file");
    }
    return errors;
}

/* ---- resolution ---------------------------------------------------------- */

typedef IR_VEC(ir_message *) message_list;

static void collect(ir_message *m, void *ctx)
{
    message_list *all = ctx;
    ir_pool_vec_push(m->file->pool, all, m);
}

/* The setting in effect for m at the message, file or project level, or NULL. */
static const setting *explicit_setting(const msg_state *st, int id, options_origin *origin)
{
    if (st->own.s[id].set) return *origin = OPTIONS_FROM_MESSAGE, &st->own.s[id];
    if (st->file->s[id].set) return *origin = OPTIONS_FROM_FILE, &st->file->s[id];
    if (st->project->s[id].set) return *origin = OPTIONS_FROM_PROJECT, &st->project->s[id];
    return *origin = OPTIONS_FROM_DEFAULT, NULL;
}

/* Message, file, project, then (components) the tier, then the default. */
static void resolve_levels(msg_state *st)
{
    for (int id = 0; id < OPTIONS_COUNT; id++) {              /* PERFORMANCE first: components need it */
        options_value *v = &st->r.opt[id];
        const setting *s = explicit_setting(st, id, &v->origin);
        if (options_table[id].role == ROLE_FIELDS) {        /* the message's own only */
            *v = st->own.s[id].set ? (options_value){ 0, st->own.s[id].text, OPTIONS_FROM_MESSAGE, NULL } : (options_value){ 0 };
        } else if (s) {
            v->value = s->value;
            v->text = options_table[id].role == ROLE_IGNORED ? s->text : NULL;
        } else if (options_table[id].role == ROLE_COMPONENT) {
            const options_value *tier = &st->r.opt[OPTION_PERFORMANCE];
            v->value = tiers[tier->value].implies[id];
            v->origin = tier->origin == OPTIONS_FROM_DEFAULT ? OPTIONS_FROM_DEFAULT : OPTIONS_FROM_TIER;
        } else if (options_table[id].role == ROLE_CLOSURE_ON) {
            *v = (options_value){ 1, NULL, OPTIONS_FROM_DEFAULT, NULL };
        } else {
            *v = (options_value){ 0 };
        }
    }
}

/* The message a field leads to (map fields: the entry's value type), or NULL. */
static ir_message *field_target(const ir_field *f)
{
    ir_message *t = f->message_type;
    if (!t || f->type == IR_TYPE_ENUM || !t->map_entry) return t;
    for (size_t k = 0; k < t->fields.n; k++)
        if (t->fields.v[k]->number == IR_MAP_VALUE_NUMBER) return t->fields.v[k]->message_type;
    return NULL;
}

static const char *field_name(const ir_field *f)
{
    if (f->full_name) return f->full_name;
    return f->parent ? ir_pool_printf(f->file->pool, "%s.%s", full_name(f->parent), f->name) : f->name;
}

/* "a.Root.middle -> a.Middle.leaf": the fields followed to reach m. */
static const char *closure_path(const ir_message *m, int id)
{
    const char *path = NULL;
    for (const msg_state *st = state_of(m); st->pred_field[id]; st = state_of(st->pred_msg[id]))
        path = path ? ir_pool_printf(m->file->pool, "%s -> %s", field_name(st->pred_field[id]), path) : field_name(st->pred_field[id]);
    return path;
}

/* The root of the closure that reached m. */
static const ir_message *closure_root(const ir_message *m, int id)
{
    while (state_of(m)->pred_msg[id]) m = state_of(m)->pred_msg[id];
    return m;
}

/* A message reached by the closure of id that says false itself or on its file. */
static void report_reached_false(const ir_message *m, int id)
{
    const msg_state *st = state_of(m);
    options_origin origin;
    const setting *s = explicit_setting(st, id, &origin);
    const ir_message *root = closure_root(m, id);
    diag_error(s->file, s->loc, PBJ_PREFIX "%s = false on %s%s, but the %s of %s reach it: %s -> %s",
               options_table[id].name, full_name(m), origin == OPTIONS_FROM_FILE ? "'s file" : "",
               options_table[id].name, full_name(root), closure_path(m, id), full_name(m));
    options_origin root_origin;
    const setting *rs = explicit_setting(state_of(root), id, &root_origin);
    if (rs && rs->file) diag_note(rs->file, rs->loc, "%s gets " PBJ_PREFIX "%s = true here", full_name(root),
                                  options_table[id].name);
}

/* Spread a closing option from every message where it is true to every
 * message reached through message fields: a worklist over a visited set. */
static int close_over(ir_pool *pool, const message_list *all, int id)
{
    int errors = 0;
    message_list queue = { 0 };
    for (size_t k = 0; k < all->n; k++)
        if (!all->v[k]->map_entry && state_of(all->v[k])->r.opt[id].value) {
            state_of(all->v[k])->visited[id] = true;
            ir_pool_vec_push(pool, &queue, all->v[k]);
        }
    for (size_t head = 0; head < queue.n; head++) {
        ir_message *m = queue.v[head];
        for (size_t k = 0; k < m->fields.n; k++) {
            ir_message *t = field_target(m->fields.v[k]);
            if (!t || !t->options_state || state_of(t)->visited[id]) continue;
            msg_state *st = state_of(t);
            st->visited[id] = true, st->pred_msg[id] = m, st->pred_field[id] = m->fields.v[k];
            options_origin origin = st->r.opt[id].origin;
            if (origin == OPTIONS_FROM_MESSAGE || origin == OPTIONS_FROM_FILE) {
                errors++, report_reached_false(t, id);
                continue;
            }
            st->r.opt[id] = (options_value){ 1, NULL, OPTIONS_FROM_CLOSURE, closure_path(t, id) };
            ir_pool_vec_push(pool, &queue, t);
        }
    }
    return errors;
}

/* ---- pbj.comparable: the keys of M_compare ------------------------------------ */

static const ir_field *field_named(const ir_message *m, const char *name)
{
    for (size_t k = 0; k < m->fields.n; k++)
        if (!strcmp(m->fields.v[k]->name, name)) return m->fields.v[k];
    return NULL;
}

static const ir_oneof *oneof_named(const ir_message *m, const char *name)
{
    for (size_t k = 0; k < m->oneofs.n; k++)
        if (!m->oneofs.v[k]->synthetic && !strcmp(m->oneofs.v[k]->name, name)) return m->oneofs.v[k];
    return NULL;
}

/* The keys pbj.comparable names on m, each found (repeated fields, maps and oneof members by their own name rejected
 * as PBJ rejects them); false after reporting an error. */
static bool parse_keys(const ir_message *m)
{
    msg_state *st = state_of(m);
    const setting *s = &st->own.s[OPTION_COMPARABLE];
    for (const char *p = s->text;;) {
        const char *end = p + strcspn(p, ",");
        while (p < end && is_space(*p)) p++;
        const char *last = end;
        while (last > p && is_space(last[-1])) last--;
        const char *name = ir_pool_strndup(m->file->pool, p, (size_t)(last - p));
        const ir_field *f = field_named(m, name);
        const ir_oneof *o = f ? NULL : oneof_named(m, name);
        const char *why = !*name ? "is an empty name"
                        : !f && !o ? "is no field or oneof of it"
                        : f && f->oneof && !f->oneof->synthetic ? ir_pool_printf(m->file->pool, "is a member of oneof '%s': name the oneof", f->oneof->name)
                        : f && (f->label == IR_LABEL_REPEATED || f->is_map) ? "is repeated: repeated fields and maps cannot be compared"
                        : NULL;
        if (why) {
            diag_error(s->file, s->loc, PBJ_PREFIX "comparable of %s: '%s' %s", full_name(m), name, why);
            return false;
        }
        ir_pool_vec_push(m->file->pool, &st->compare, ((options_compare_key){ f, o }));
        if (!*end) return true;
        p = end + 1;
    }
}

/* A message field compares when its type has pbj.comparable, or is a wrapper held unboxed (plan's PLAN_WRAPPER). */
static bool type_compares(const ir_field *f)
{
    const ir_message *t = f->message_type;
    if (!t || f->type == IR_TYPE_ENUM) return true;
    if (ir_wrapper_type(t) != IR_TYPE_UNRESOLVED && !f->oneof) return true;
    return t->options_state && state_of(t)->compare.n;
}

static int check_key_types(const ir_message *m)
{
    const msg_state *st = state_of(m);
    const setting *s = &st->own.s[OPTION_COMPARABLE];
    for (size_t k = 0; k < st->compare.n; k++) {
        const options_compare_key *key = &st->compare.v[k];
        const ir_field *const *alts = key->field ? &key->field : (const ir_field *const *)key->oneof->fields.v;
        size_t n = key->field ? 1 : key->oneof->fields.n;
        for (size_t a = 0; a < n; a++)
            if (!type_compares(alts[a])) {
                diag_error(s->file, s->loc, PBJ_PREFIX "comparable of %s: field '%s' has type %s, which has no "
                           PBJ_PREFIX "comparable", full_name(m), alts[a]->name, full_name(alts[a]->message_type));
                return 1;
            }
    }
    return 0;
}

static int check_comparable(const message_list *all)
{
    int errors = 0;
    for (size_t k = 0; k < all->n; k++)
        if (state_of(all->v[k])->own.s[OPTION_COMPARABLE].set && !parse_keys(all->v[k])) {
            errors++;
            state_of(all->v[k])->compare.n = 0;
        }
    for (size_t k = 0; k < all->n; k++) errors += check_key_types(all->v[k]);
    return errors;
}

/* Why m cannot be held by value (pbj.by_value), the field that bars it in *field (NULL for the message itself); NULL
 * when m is fixed-size. */
static const char *by_value_bar(const ir_message *m, const ir_field **field)
{
    *field = NULL;
    if (m->map_entry) return "is a map entry";
    if (m->extension_ranges.n || m->message_set_wire_format) return "has extension ranges";
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_field *f = m->fields.v[i];
        const char *why = f->is_map ? "holds a map" : f->label == IR_LABEL_REPEATED ? "holds a repeated field"
                        : f->type == IR_TYPE_STRING || f->type == IR_TYPE_BYTES ? "holds a string or bytes field"
                        : f->type == IR_TYPE_GROUP ? "holds a group"
                        : f->message_type && f->type != IR_TYPE_ENUM ? "holds a message field"
                        : f->type == IR_TYPE_UNRESOLVED ? "holds an unresolved field" : NULL;
        if (why) return *field = f, why;
    }
    return NULL;
}

/* by_value_bar's answer as a diagnostic's words ("holds a string or bytes field, 's'"), or NULL. */
static const char *by_value_unfit(const ir_message *m)
{
    const ir_field *f;
    const char *why = by_value_bar(m, &f);
    return why && f ? ir_pool_printf(m->file->pool, "%s, '%s'", why, f->name) : why;
}

bool options_by_value(const ir_message *m)
{
    const ir_field *bar;
    return m && options_on(m, OPTION_BY_VALUE) && !by_value_bar(m, &bar);
}

/* pbj.by_value set on a message that is not fixed-size: an error there (set on a file or the project, such a
 * message is skipped). */
static int check_by_value(const message_list *all)
{
    int errors = 0;
    for (size_t k = 0; k < all->n; k++) {
        const ir_message *m = all->v[k];
        const setting *s = &state_of(m)->own.s[OPTION_BY_VALUE];
        const char *why = s->set && s->value ? by_value_unfit(m) : NULL;
        if (why) {
            diag_error(s->file, s->loc, PBJ_PREFIX "by_value on %s: it is not fixed-size: it %s", full_name(m), why);
            errors++;
        }
    }
    return errors;
}

size_t options_comparable(const ir_message *m, const options_compare_key **keys)
{
    if (!m || !m->options_state) return 0;
    *keys = state_of(m)->compare.v;
    return state_of(m)->compare.n;
}

int options_resolve(const options_project *project, ir_program *prog)
{
    int errors = 0;
    message_list all = { 0 };
    level *file_levels = ir_pool_alloc(project->pool, (prog->files.n + 1) * sizeof *file_levels);   /* +1: never 0 bytes */
    for (size_t k = 0; k < prog->files.n; k++) {
        size_t first = all.n;
        ir_each_message(prog->files.v[k], collect, &all);
        for (size_t j = first; j < all.n; j++) {
            msg_state *st = ir_pool_alloc(project->pool, sizeof *st);
            st->file = &file_levels[k];
            st->project = &project->settings;
            all.v[j]->options_state = st;
        }
        errors += scan_file(prog->files.v[k], &file_levels[k]);
    }
    for (size_t k = 0; k < all.n; k++) resolve_levels(state_of(all.v[k]));
    for (int id = 0; id < OPTIONS_COUNT; id++)
        if (is_closure(id)) errors += close_over(project->pool, &all, id);
    errors += check_comparable(&all);
    errors += check_by_value(&all);
    for (size_t k = 0; k < all.n; k++)                         /* entries: their owner's */
        if (all.v[k]->map_entry && all.v[k]->parent) state_of(all.v[k])->r = *options_of(all.v[k]->parent);
    return errors;
}

static void collect_all(ir_message *m, void *ctx) { ir_pool_vec_push(m->file->pool, (message_list *)ctx, m); }

/* Where a value set without a closure came from, for the error below. */
static const char *origin_text(options_origin o)
{
    return o == OPTIONS_FROM_PROJECT ? "set for the project" : o == OPTIONS_FROM_FILE ? "set on its file" : "set on it";
}

/* The message whose code field fd of m uses, when that is another message's (a wrapper held singly is
 * unboxed, as plan does, and needs none); else NULL. */
static const ir_message *used_type(const ir_message *m, const ir_field *fd)
{
    const ir_message *t = fd->message_type;
    bool unboxed = ir_wrapper_type(t) != IR_TYPE_UNRESOLVED && fd->label != IR_LABEL_REPEATED && !fd->oneof && !m->map_entry;
    return t && !unboxed ? t : NULL;
}

/* A closing option on in an input file whose code uses a message of a file this run does not generate:
 * one error per option and file, at the first such message (the root's code would call functions that
 * file's code does not have). */
int options_check_closure_inputs(const ir_program *prog)
{
    int errors = 0;
    message_list ms = { 0 };
    for (size_t k = 0; k < prog->files.n; k++)
        if (prog->files.v[k]->is_input) ir_each_message(prog->files.v[k], collect_all, &ms);
    for (int id = 0; id < OPTIONS_COUNT; id++) {
        IR_VEC(const ir_file *) told = { 0 };
        for (size_t j = 0; options_table[id].role == ROLE_CLOSURE && j < ms.n; j++) {
            const ir_message *m = ms.v[j];
            for (size_t i = 0; options_on(m, (options_id)id) && i < m->fields.n; i++) {
                const ir_message *t = used_type(m, m->fields.v[i]);
                const ir_file *f = t ? t->file : NULL;
                size_t n = 0;
                while (f && n < told.n && told.v[n] != f) n++;
                if (!f || f->is_input || n < told.n) continue;
                ir_pool_vec_push(prog->pool, &told, f);
                const options_value *v = &options_of(t)->opt[id];
                diag_error(f, t->loc, PBJ_PREFIX "%s is on for %s (%s) in %s, which this run does not generate: "
                           "add %s to the command line", options_table[id].name, full_name(t),
                           v->via ? ir_pool_printf(prog->pool, "reached via %s", v->via) : origin_text(v->origin), f->name, f->name);
                errors++;
            }
        }
    }
    return errors;
}

/* ---- output --------------------------------------------------------------- */

/* The value option id takes when nothing sets it (and no tier but the default implies it). */
static int default_value(int id)
{
    switch (options_table[id].role) {
    case ROLE_COMPONENT: return tiers[OPTIONS_TIER_DEFAULT].implies[id];
    case ROLE_CLOSURE_ON: return 1;
    default: return 0;
    }
}

/* Whether m's option id is worth naming beside its code: set somewhere, unless only a tier implies its default. */
static bool differs(const options_value *v, int id)
{
    if (v->origin == OPTIONS_FROM_DEFAULT) return false;
    return v->origin != OPTIONS_FROM_TIER || v->value != default_value(id);
}

static size_t describe(const ir_message *m, char *buf, size_t n, bool all)
{
    const options_resolved *r = options_of(m);
    size_t len = 0;
    for (int id = 0; id < OPTIONS_COUNT; id++) {
        const options_value *v = &r->opt[id];
        if (options_table[id].role == ROLE_IGNORED || (options_table[id].role == ROLE_FIELDS && !v->text)) continue;
        if (!all && !differs(v, id)) continue;
        const char *from = origin_names[v->origin];
        if (v->origin == OPTIONS_FROM_TIER) from = ir_pool_printf(m->file->pool, "tier %s", tiers[r->opt[OPTION_PERFORMANCE].value].name);
        if (v->origin == OPTIONS_FROM_CLOSURE) from = ir_pool_printf(m->file->pool, "closure via %s", v->via);
        const char *text = v->text ? v->text : value_text(id, v->value), *unfit = NULL;
        if (id == OPTION_BY_VALUE && v->value && (unfit = by_value_unfit(m)))   /* a file's or project's, passed by */
            text = "skipped", from = ir_pool_printf(m->file->pool, "%s: it %s", from, unfit);
        int w = snprintf(len < n ? buf + len : NULL, len < n ? n - len : 0, "%s%s=%s(%s)", len ? " " : "",
                         options_table[id].name, text, from);
        len += w > 0 ? (size_t)w : 0;
    }
    if (len == 0 && n) buf[0] = '\0';
    return len;
}

size_t options_describe(const ir_message *m, char *buf, size_t n) { return describe(m, buf, n, true); }

size_t options_describe_changed(const ir_message *m, char *buf, size_t n) { return describe(m, buf, n, false); }

/* Whether m's decoder is inlined into its callers in its own file (M__decode_leaf): the max tier, a
 * message of a few fields, each a scalar, string or bytes or (levels deep) a message of the same file
 * that is such a leaf itself (ids, timestamps, an id of ids); no extensions, groups or maps. */
#define OPTIONS_LEAF_FIELDS 8
static bool decode_leaf_at(const ir_message *m, int levels)
{
    if (options_tier_of(m) != OPTIONS_TIER_MAX || m->extension_ranges.n || m->message_set_wire_format ||
        m->fields.n > OPTIONS_LEAF_FIELDS)
        return false;
    for (size_t i = 0; i < m->fields.n; i++) {
        const ir_field *f = m->fields.v[i];
        if (f->type == IR_TYPE_UNRESOLVED) return false;
        if (f->message_type && (levels == 0 || f->type == IR_TYPE_GROUP || f->is_map || f->message_type->file != m->file ||
                                !decode_leaf_at(f->message_type, levels - 1)))
            return false;
    }
    return true;
}

bool options_decode_inline(const ir_message *m) { return decode_leaf_at(m, 1); }

bool options_table_wire(const ir_message *m)
{
    return options_tier_of(m) == OPTIONS_TIER_SIZE;
}

static int by_full_name(const void *a, const void *b)
{
    return strcmp(full_name(*(ir_message *const *)a), full_name(*(ir_message *const *)b));
}

void options_explain(const ir_program *prog, FILE *out)
{
    message_list all = { 0 };
    for (size_t k = 0; k < prog->files.n; k++) ir_each_message(prog->files.v[k], collect, &all);
    if (all.n) qsort(all.v, all.n, sizeof *all.v, by_full_name);
    for (size_t k = 0; k < all.n; k++) {
        const ir_message *m = all.v[k];
        if (m->map_entry) continue;
        size_t len = options_describe(m, NULL, 0);
        char *line = ir_pool_alloc(prog->pool, len + 1);
        options_describe(m, line, len + 1);
        fprintf(out, "%s%s: %s", full_name(m), m->file && !m->file->is_input ? " [imported]" : "", line);
        if (options_decode_inline(m)) fputs(" decode=inline(tier max: a leaf)", out);
        if (options_table_wire(m)) fputs(" wire=table(tier size)", out);
        for (int id = 0; id < OPTIONS_COUNT; id++) {             /* the Java compiler's, said to be ignored */
            const options_value *v = &options_of(m)->opt[id];
            if (options_table[id].role == ROLE_IGNORED && v->text)
                fprintf(out, " %s=%s(%s; ignored)", options_table[id].name, v->text, origin_names[v->origin]);
        }
        fputc('\n', out);
    }
}

/* ---- command line ----------------------------------------------------------- */

/* A project setting given as NAME (with or without "pbj.") and VALUE; flag is what the user typed. */
static int set_project(options_project *project, const char *name, const char *text, const char *flag)
{
    const char *full = strncmp(name, PBJ_PREFIX, strlen(PBJ_PREFIX)) ? ir_pool_printf(project->pool, "%s%s", PBJ_PREFIX, name) : name;
    int id = option_by_name(full, strlen(full)), value;
    if (id < 0) {
        diag_error_in(project->diag, NULL, (ir_loc){ 0 }, "unknown pbj option %s in %s%s", full, flag, suggestion(project->pool, full));
        return -1;
    }
    if (options_table[id].role == ROLE_FIELDS) {
        diag_error_in(project->diag, NULL, (ir_loc){ 0 }, "%s in %s: it names fields of one message, so it is set in a comment on the message",
                   full, flag);
        return -1;
    }
    if (!parse_value(id, text, &value)) {
        diag_error_in(project->diag, NULL, (ir_loc){ 0 }, "bad value '%s' for %s in %s (expected %s)", text, full, flag, expected_values(project->pool, id));
        return -1;
    }
    setting *s = &project->settings.s[id];
    if (s->set && (s->value != value || strcmp(s->text, text))) {
        diag_error_in(project->diag, NULL, (ir_loc){ 0 }, "%s conflicts with %s = %s given before", flag, full, s->text);
        return -1;
    }
    *s = (setting){ true, value, ir_pool_strdup(project->pool, text), NULL, { 0, 0 } };
    return 1;
}

/* "--fast-write" for "fast_write". */
static const char *flag_name(ir_pool *pool, int id)
{
    char *flag = ir_pool_printf(pool, "%s%s", "--", options_table[id].name);
    for (char *p = flag; *p; p++)
        if (*p == '_') *p = '-';
    return flag;
}

/* --pbj NAME=VALUE, --pbj=NAME=VALUE */
static int parse_generic(options_project *project, const char *arg, const char *flag)
{
    const char *eq = strchr(arg, '=');
    if (!eq) {
        diag_error_in(project->diag, NULL, (ir_loc){ 0 }, "%s needs NAME=VALUE, e.g. --pbj pbj.writers=true", flag);
        return -1;
    }
    return set_project(project, ir_pool_strndup(project->pool, arg, (size_t)(eq - arg)), value_between(project->pool, eq + 1, eq + 1 + strlen(eq + 1)), flag);
}

int options_parse_arg(options_project *project, int argc, char **argv, int *i)
{
    const char *arg = argv[*i];
    if (!strcmp(arg, "--pbj")) {
        if (*i + 1 >= argc) {
            diag_error_in(project->diag, NULL, (ir_loc){ 0 }, "--pbj needs NAME=VALUE, e.g. --pbj pbj.writers=true");
            return -1;
        }
        ++*i;
        return parse_generic(project, argv[*i], ir_pool_printf(project->pool, "--pbj %s", argv[*i]));
    }
    if (!strncmp(arg, "--pbj=", 6)) return parse_generic(project, arg + 6, arg);
    for (int id = 0; id < OPTIONS_COUNT; id++) {
        const char *flag = flag_name(project->pool, id);
        size_t len = strlen(flag);
        switch (options_table[id].role) {
        case ROLE_TIER:                                          /* --performance=max, --performance max */
            if (!strncmp(arg, flag, len) && arg[len] == '=') return set_project(project, options_table[id].name, arg + len + 1, arg);
            if (!strcmp(arg, flag)) {
                if (*i + 1 >= argc) {
                    diag_error_in(project->diag, NULL, (ir_loc){ 0 }, "%s needs a value: %s", flag, expected_values(project->pool, id));
                    return -1;
                }
                ++*i;
                return set_project(project, options_table[id].name, argv[*i], ir_pool_printf(project->pool, "%s %s", flag, argv[*i]));
            }
            break;
        case ROLE_COMPONENT:
        case ROLE_CLOSURE:                                       /* --writers, --no-writers */
        case ROLE_CLOSURE_ON:
            if (!strcmp(arg, flag)) return set_project(project, options_table[id].name, "true", arg);
            if (!strncmp(arg, "--no-", 5) && !strcmp(arg + 5, flag + 2))
                return set_project(project, options_table[id].name, "false", arg);
            break;
        case ROLE_IGNORED:
        case ROLE_FIELDS:
            break;
        }
    }
    return 0;
}

const char *options_flag_suggestion(ir_pool *pool, const char *arg)
{
    const char *flags[2 * OPTIONS_COUNT];
    size_t n = 0;
    for (int id = 0; id < OPTIONS_COUNT; id++) {
        const char *flag = flag_name(pool, id);
        switch (options_table[id].role) {
        case ROLE_COMPONENT:
        case ROLE_CLOSURE:
        case ROLE_CLOSURE_ON:
            flags[n++] = ir_pool_printf(pool, "--no-%s", flag + 2);
            /* fall through */
        case ROLE_TIER:
            flags[n++] = flag;
            break;
        case ROLE_IGNORED:
        case ROLE_FIELDS:
            break;
        }
    }
    const char *word = strncmp(arg, "--", 2) ? ir_pool_printf(pool, "--%s", arg) : arg;
    const char *eq = strchr(word, '=');
    if (eq) word = ir_pool_strndup(pool, word, (size_t)(eq - word));     /* --performnce=max: the flag's name */
    ptrdiff_t best = suggest_nearest(word, flags, n, (strlen(word) + 2) / 4);
    if (best < 0) return "";
    return ir_pool_printf(pool, "; did you mean %s?", strncmp(arg, "--", 2) ? flags[best] + 2 : flags[best]);
}

void options_print_help(FILE *out)
{
    ir_pool pool = { 0 };                   /* the lines' text, freed at the end */
    for (int id = 0; id < OPTIONS_COUNT; id++) {
        const char *flag = flag_name(&pool, id);
        switch (options_table[id].role) {
        case ROLE_TIER:
            fprintf(out, "  %-30s %s\n", ir_pool_printf(&pool, "%s=%s", flag, value_list(&pool, id, "|", "|")), options_table[id].help);
            break;
        case ROLE_COMPONENT:
        case ROLE_CLOSURE:
        case ROLE_CLOSURE_ON:
            fprintf(out, "  %-30s %s\n", ir_pool_printf(&pool, "%s, --no-%s", flag, flag + 2), options_table[id].help);
            break;
        case ROLE_IGNORED:
        case ROLE_FIELDS:
            break;
        }
    }
    fprintf(out, "  %-30s %s\n", "--pbj NAME=VALUE", "set any pbj option for the project (NAME: pbj.writers, ...)");
    ir_pool_free(&pool);
}
