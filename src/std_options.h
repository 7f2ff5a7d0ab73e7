/* std_options.h: the standard options of descriptor.proto 3.21 that protoc knows, one row each. */
#ifndef PBJC_STD_OPTIONS_H
#define PBJC_STD_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* X(scope, name, field number, kind). Scopes name the *Options message
 * (FILE = google.protobuf.FileOptions, ...); kinds are STRING, BOOL or one of
 * the enums listed in STD_OPTION_ENUMS. */
#define STD_OPTIONS(X)                                          \
    X(FILE, java_package, 1, STRING)                            \
    X(FILE, java_outer_classname, 8, STRING)                    \
    X(FILE, optimize_for, 9, OPTIMIZE_MODE)                     \
    X(FILE, java_multiple_files, 10, BOOL)                      \
    X(FILE, go_package, 11, STRING)                             \
    X(FILE, cc_generic_services, 16, BOOL)                      \
    X(FILE, java_generic_services, 17, BOOL)                    \
    X(FILE, py_generic_services, 18, BOOL)                      \
    X(FILE, java_generate_equals_and_hash, 20, BOOL)            \
    X(FILE, deprecated, 23, BOOL)                               \
    X(FILE, java_string_check_utf8, 27, BOOL)                   \
    X(FILE, cc_enable_arenas, 31, BOOL)                         \
    X(FILE, objc_class_prefix, 36, STRING)                      \
    X(FILE, csharp_namespace, 37, STRING)                       \
    X(FILE, swift_prefix, 39, STRING)                           \
    X(FILE, php_class_prefix, 40, STRING)                       \
    X(FILE, php_namespace, 41, STRING)                          \
    X(FILE, php_generic_services, 42, BOOL)                     \
    X(FILE, php_metadata_namespace, 44, STRING)                 \
    X(FILE, ruby_package, 45, STRING)                           \
    X(MESSAGE, message_set_wire_format, 1, BOOL)                \
    X(MESSAGE, no_standard_descriptor_accessor, 2, BOOL)        \
    X(MESSAGE, deprecated, 3, BOOL)                             \
    X(MESSAGE, map_entry, 7, BOOL)                              \
    X(FIELD, ctype, 1, CTYPE)                                   \
    X(FIELD, packed, 2, BOOL)                                   \
    X(FIELD, deprecated, 3, BOOL)                               \
    X(FIELD, lazy, 5, BOOL)                                     \
    X(FIELD, jstype, 6, JSTYPE)                                 \
    X(FIELD, weak, 10, BOOL)                                    \
    X(FIELD, unverified_lazy, 15, BOOL)                         \
    X(ENUM, allow_alias, 2, BOOL)                               \
    X(ENUM, deprecated, 3, BOOL)                                \
    X(ENUM_VALUE, deprecated, 1, BOOL)                          \
    X(SERVICE, deprecated, 33, BOOL)                            \
    X(METHOD, deprecated, 33, BOOL)                             \
    X(METHOD, idempotency_level, 34, IDEMPOTENCY_LEVEL)

/* X(kind): the kinds of value a standard option takes. */
#define STD_OPTION_KINDS(X) X(STRING) X(BOOL) X(OPTIMIZE_MODE) X(CTYPE) X(JSTYPE) X(IDEMPOTENCY_LEVEL)

/* X(kind, value name, number): the enums standard options take. */
#define STD_OPTION_ENUMS(X)                                     \
    X(OPTIMIZE_MODE, SPEED, 1)                                  \
    X(OPTIMIZE_MODE, CODE_SIZE, 2)                              \
    X(OPTIMIZE_MODE, LITE_RUNTIME, 3)                           \
    X(CTYPE, STRING, 0)                                         \
    X(CTYPE, CORD, 1)                                           \
    X(CTYPE, STRING_PIECE, 2)                                   \
    X(JSTYPE, JS_NORMAL, 0)                                     \
    X(JSTYPE, JS_STRING, 1)                                     \
    X(JSTYPE, JS_NUMBER, 2)                                     \
    X(IDEMPOTENCY_LEVEL, IDEMPOTENCY_UNKNOWN, 0)                \
    X(IDEMPOTENCY_LEVEL, NO_SIDE_EFFECTS, 1)                    \
    X(IDEMPOTENCY_LEVEL, IDEMPOTENT, 2)

/* X(scope, options message name) in scope order. */
#define STD_OPTION_SCOPES(X)                                    \
    X(FILE, "FileOptions")                                      \
    X(MESSAGE, "MessageOptions")                                \
    X(FIELD, "FieldOptions")                                    \
    X(ONEOF, "OneofOptions")                                    \
    X(ENUM, "EnumOptions")                                      \
    X(ENUM_VALUE, "EnumValueOptions")                           \
    X(SERVICE, "ServiceOptions")                                \
    X(METHOD, "MethodOptions")                                  \
    X(EXTENSION_RANGE, "ExtensionRangeOptions")

/* X(scope, number): the field each options message holds its FeatureSet in (editions; not in descriptor.proto 3.21). */
#define STD_OPTION_FEATURES(X)                                  \
    X(FILE, 50) X(MESSAGE, 12) X(FIELD, 21) X(ONEOF, 1) X(ENUM, 7) X(ENUM_VALUE, 2) \
    X(SERVICE, 34) X(METHOD, 35) X(EXTENSION_RANGE, 50)

/* ---- the tables the lists make, for the resolver (names, values, the option interpreter) ---- */

typedef enum std_scope {
#define X(scope, message_name) SCOPE_##scope,
    STD_OPTION_SCOPES(X)
#undef X
} std_scope;

typedef enum std_kind {
#define X(kind) KIND_##kind,
    STD_OPTION_KINDS(X)
#undef X
} std_kind;

typedef struct std_option {
    std_scope scope;
    const char *name;
    uint32_t number;
    std_kind kind;
} std_option;

typedef struct std_enum_value {
    std_kind kind;
    const char *name;
    int32_t number;
} std_enum_value;

/* The i-th standard option, NULL past the last. */
static inline const std_option *std_option_at(size_t i)
{
    static const std_option all[] = {
#define X(scope, name, num, kind) { SCOPE_##scope, #name, num, KIND_##kind },
        STD_OPTIONS(X)
#undef X
    };
    return i < sizeof all / sizeof *all ? &all[i] : NULL;
}

/* The standard option name of scope, or NULL. */
static inline const std_option *std_option_find(std_scope scope, const char *name)
{
    const std_option *so;
    for (size_t i = 0; (so = std_option_at(i)); i++)
        if (so->scope == scope && strcmp(so->name, name) == 0) return so;
    return NULL;
}

/* The i-th value of the enums standard options take, NULL past the last. */
static inline const std_enum_value *std_enum_value_at(size_t i)
{
    static const std_enum_value all[] = {
#define X(kind, name, num) { KIND_##kind, #name, num },
        STD_OPTION_ENUMS(X)
#undef X
    };
    return i < sizeof all / sizeof *all ? &all[i] : NULL;
}

/* The field number of scope's options message's "features". */
static inline uint32_t std_features_number(std_scope scope)
{
    static const uint32_t numbers[] = {
#define X(scope, number) [SCOPE_##scope] = number,
        STD_OPTION_FEATURES(X)
#undef X
    };
    return numbers[scope];
}

/* "FileOptions", ...: the options message of scope. */
static inline const char *std_scope_message(std_scope scope)
{
    static const char *const names[] = {
#define X(scope, message_name) message_name,
        STD_OPTION_SCOPES(X)
#undef X
    };
    return names[scope];
}

#endif
