/* options.h: pbj options from comments and the command line, resolved per message. */
#ifndef PBJC_OPTIONS_H
#define PBJC_OPTIONS_H

#include <stdio.h>
#include "diag.h"
#include "ir.h"

/* The project's pbj options, from the command line (one per run: context.h). */
typedef struct options_project options_project;
options_project *options_project_new(ir_pool *pool, diag_counts *diag);   /* none set yet; in pool */

/* argv[*i] is the current argument; when it is an option flag
 * (--performance=max, --writers, --no-views, --pbj NAME=VALUE, ...) set it in
 * project, consume it (and its value, advancing *i) and return 1; return 0
 * when it is not an options flag; return -1 after printing a usage error. */
int options_parse_arg(options_project *project, int argc, char **argv, int *i);

/* "; did you mean --views?" when an options flag is near the unknown flag arg (with or without its "--"), else "". */
const char *options_flag_suggestion(ir_pool *pool, const char *arg);

/* Lines for --help, one flag per line, already indented. */
void options_print_help(FILE *out);

/* Resolve every message's options (message, file, project, tier, closure).
 * Stores the result in each ir_message's options_state, for options_of.
 * Returns the number of errors reported. */
int options_resolve(const options_project *project, ir_program *prog);

/* Every message a closing option (pbj.writers, pbj.views) turns on must be in a file this run generates
 * (prog->inputs): else one error per option and file, naming the file to add. Returns the errors. */
int options_check_closure_inputs(const ir_program *prog);

/* --explain-options: one line per message, sorted by full name. */
void options_explain(const ir_program *prog, FILE *out);

/* ---- the resolved options, for the code generator ----------------------- */

/* X(ID, name, role, help): every pbj option ("pbj." + name), in explain order.
 * Roles: TIER (a bundle of components), COMPONENT (a bool a tier may imply),
 * CLOSURE (a bool that spreads to every message reached), IGNORED (accepted
 * for the Java PBJ compiler's schemas, no effect on C output), FIELDS (a list
 * of a message's field and oneof names, set on the message itself only), CLOSURE_ON (a CLOSURE that is
 * true unless set false, and whose code every run generates by default, so an import need not be an input). */
#define OPTIONS_LIST(X)                                                                   \
    X(PERFORMANCE,  "performance",  TIER,      "a tier: max turns on every speed component; size walks the field table to size, encode and decode (no per-field code)") \
    X(FAST_WRITE,   "fast_write",   COMPONENT, "emit the reverse (back to front) encoder")    \
    X(DROP_UNKNOWN, "drop_unknown", COMPONENT, "no pbj_unknown member: decode skips unknown fields (no tier implies it)") \
    X(BY_VALUE,     "by_value",     COMPONENT, "a fixed-size message's singular fields held in their parents by value, with a has_ member (no tier implies it)") \
    X(WRITERS,      "writers",      CLOSURE,   "emit writers, for every message reached too") \
    X(VIEWS,        "views",        CLOSURE,   "emit views, for every message reached too")   \
    X(JAVA_PACKAGE, "java_package", IGNORED,   "the Java PBJ compiler's package; ignored") \
    X(MESSAGE_JAVA_PACKAGE, "message_java_package", IGNORED, "the Java PBJ compiler's package of a message; ignored") \
    X(ENUM_JAVA_PACKAGE, "enum_java_package", IGNORED, "the Java PBJ compiler's package of an enum; ignored") \
    X(SERVICE_JAVA_PACKAGE, "service_java_package", IGNORED, "the Java PBJ compiler's package of a service; ignored") \
    X(CACHEABLE,    "cacheable",    IGNORED,   "the Java PBJ compiler's parsed-object cache size; ignored") \
    X(COMPARABLE,   "comparable",   FIELDS,    "M_compare, ordering by the fields and oneofs listed") \
    X(JSON,         "json",         CLOSURE_ON, "emit M_to_json and M_from_json (the proto3 JSON mapping; on by default)") \
    X(TEXT_READ,    "text_read",    CLOSURE_ON, "emit M_from_text (text-format reading; on by default)")

typedef enum options_id {
#define X(ID, name, role, help) OPTION_##ID,
    OPTIONS_LIST(X)
#undef X
    OPTIONS_COUNT
} options_id;

/* X(ID, name, components...): each tier and the component values it implies
 * (designated initializers into an int[OPTIONS_COUNT]; unnamed ones are 0). */
#define OPTIONS_TIERS(X)                                   \
    X(DEFAULT, "default", { [OPTION_FAST_WRITE] = 0 })     \
    X(MAX,     "max",     { [OPTION_FAST_WRITE] = 1 })     \
    X(SIZE,    "size",    { [OPTION_FAST_WRITE] = 0 })

typedef enum options_tier {
#define X(ID, name, ...) OPTIONS_TIER_##ID,
    OPTIONS_TIERS(X)
#undef X
    OPTIONS_TIER_COUNT
} options_tier;

/* X(ID, text): where a resolved value came from. */
#define OPTIONS_ORIGINS(X)   \
    X(DEFAULT, "default")    \
    X(PROJECT, "project")    \
    X(FILE,    "file")       \
    X(MESSAGE, "message")    \
    X(TIER,    "tier")       \
    X(CLOSURE, "closure")

typedef enum options_origin {
#define X(ID, text) OPTIONS_FROM_##ID,
    OPTIONS_ORIGINS(X)
#undef X
} options_origin;

typedef struct options_value {
    int value;               /* bools 0/1; PERFORMANCE an options_tier; IGNORED and FIELDS 0 */
    const char *text;        /* IGNORED and FIELDS: the value as written, else NULL */
    options_origin origin;
    const char *via;         /* CLOSURE: "acme.Root.middle -> acme.Middle.leaf" (the fields followed) */
} options_value;

typedef struct options_resolved {
    options_value opt[OPTIONS_COUNT];
} options_resolved;

/* A message's resolved options (all defaults before options_resolve ran, or
 * for NULL). Map entries carry their map field owner's options. */
const options_resolved *options_of(const ir_message *m);

/* Whether a bool option (FAST_WRITE, WRITERS, VIEWS, JSON) is on for m. */
static inline bool options_on(const ir_message *m, options_id id)
{
    return options_of(m)->opt[id].value != 0;
}

/* The tier of m (OPTIONS_TIER_DEFAULT, OPTIONS_TIER_MAX or OPTIONS_TIER_SIZE). */
static inline options_tier options_tier_of(const ir_message *m)
{
    return (options_tier)options_of(m)->opt[OPTION_PERFORMANCE].value;
}

/* Whether the max tier decodes m inline in its callers of its own file (M__decode_leaf): a message of a few
 * fields, each a scalar, string or bytes or (one level) such a message of the same file; ids, timestamps. */
bool options_decode_inline(const ir_message *m);

/* Whether a singular field of type m is held in its parents' structs by value: pbj.by_value on a fixed-size m
 * (set on m itself and unfit: an error options_resolve reported; set on its file or project: m skipped). */
bool options_by_value(const ir_message *m);

/* Whether m's size, encode and decode walk its field table: every message of the size tier. */
bool options_table_wire(const ir_message *m);

/* m's options as one line for a comment next to its generated struct (and
 * for --explain-options): "performance=max(file) fast_write=true(tier max)
 * writers=true(closure via acme.Root.middle) views=false(default)".
 * Writes at most n bytes (NUL included) like snprintf; returns the full length. */
size_t options_describe(const ir_message *m, char *buf, size_t n);
/* The same, naming only the options that differ from their defaults (set at some level, and not merely a tier's
 * value that is also the default): "" when none does. For the comment above m's struct. */
size_t options_describe_changed(const ir_message *m, char *buf, size_t n);

/* pbj.comparable of m: the fields and oneofs it names, in order (checked: singular, of a comparable type).
 * Returns how many (0: m has no M_compare) and sets *keys to them. */
typedef struct options_compare_key {
    const ir_field *field;   /* a field, or NULL for */
    const ir_oneof *oneof;   /* a oneof */
} options_compare_key;
size_t options_comparable(const ir_message *m, const options_compare_key **keys);

#endif
