/* std_options.h: the standard options of descriptor.proto 3.21 that protoc knows, one row each. */
#ifndef PBJC_STD_OPTIONS_H
#define PBJC_STD_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "google/protobuf/descriptor.pb.h"   /* descriptor.proto's numbers (src/pbgen) */

/* X(scope, its options message, name, kind): the option's number is google_protobuf_<message>_<name>_tag
 * (src/pbgen). Scopes name the *Options message (FILE = google.protobuf.FileOptions, ...); kinds are
 * STRING, BOOL or one of the enums listed in STD_OPTION_ENUMS. */
#define STD_OPTIONS(X)                                          \
    X(FILE, FileOptions, java_package, STRING)                          \
    X(FILE, FileOptions, java_outer_classname, STRING)                  \
    X(FILE, FileOptions, optimize_for, OPTIMIZE_MODE)                   \
    X(FILE, FileOptions, java_multiple_files, BOOL)                     \
    X(FILE, FileOptions, go_package, STRING)                            \
    X(FILE, FileOptions, cc_generic_services, BOOL)                     \
    X(FILE, FileOptions, java_generic_services, BOOL)                   \
    X(FILE, FileOptions, py_generic_services, BOOL)                     \
    X(FILE, FileOptions, java_generate_equals_and_hash, BOOL)           \
    X(FILE, FileOptions, deprecated, BOOL)                              \
    X(FILE, FileOptions, java_string_check_utf8, BOOL)                  \
    X(FILE, FileOptions, cc_enable_arenas, BOOL)                        \
    X(FILE, FileOptions, objc_class_prefix, STRING)                     \
    X(FILE, FileOptions, csharp_namespace, STRING)                      \
    X(FILE, FileOptions, swift_prefix, STRING)                          \
    X(FILE, FileOptions, php_class_prefix, STRING)                      \
    X(FILE, FileOptions, php_namespace, STRING)                         \
    X(FILE, FileOptions, php_generic_services, BOOL)                    \
    X(FILE, FileOptions, php_metadata_namespace, STRING)                \
    X(FILE, FileOptions, ruby_package, STRING)                          \
    X(MESSAGE, MessageOptions, message_set_wire_format, BOOL)           \
    X(MESSAGE, MessageOptions, no_standard_descriptor_accessor, BOOL)   \
    X(MESSAGE, MessageOptions, deprecated, BOOL)                        \
    X(MESSAGE, MessageOptions, map_entry, BOOL)                         \
    X(FIELD, FieldOptions, ctype, CTYPE)                                \
    X(FIELD, FieldOptions, packed, BOOL)                                \
    X(FIELD, FieldOptions, deprecated, BOOL)                            \
    X(FIELD, FieldOptions, lazy, BOOL)                                  \
    X(FIELD, FieldOptions, jstype, JSTYPE)                              \
    X(FIELD, FieldOptions, weak, BOOL)                                  \
    X(FIELD, FieldOptions, unverified_lazy, BOOL)                       \
    X(ENUM, EnumOptions, allow_alias, BOOL)                             \
    X(ENUM, EnumOptions, deprecated, BOOL)                              \
    X(ENUM_VALUE, EnumValueOptions, deprecated, BOOL)                   \
    X(SERVICE, ServiceOptions, deprecated, BOOL)                        \
    X(METHOD, MethodOptions, deprecated, BOOL)                          \
    X(METHOD, MethodOptions, idempotency_level, IDEMPOTENCY_LEVEL)

/* X(kind): the kinds of value a standard option takes. */
#define STD_OPTION_KINDS(X) X(STRING) X(BOOL) X(OPTIMIZE_MODE) X(CTYPE) X(JSTYPE) X(IDEMPOTENCY_LEVEL)

/* X(kind, its enum, value name): the enums standard options take; a value's number is
 * google_protobuf_<enum>_<name>. */
#define STD_OPTION_ENUMS(X)                                     \
    X(OPTIMIZE_MODE, FileOptions_OptimizeMode, SPEED)                   \
    X(OPTIMIZE_MODE, FileOptions_OptimizeMode, CODE_SIZE)               \
    X(OPTIMIZE_MODE, FileOptions_OptimizeMode, LITE_RUNTIME)            \
    X(CTYPE, FieldOptions_CType, STRING)                                \
    X(CTYPE, FieldOptions_CType, CORD)                                  \
    X(CTYPE, FieldOptions_CType, STRING_PIECE)                          \
    X(JSTYPE, FieldOptions_JSType, JS_NORMAL)                           \
    X(JSTYPE, FieldOptions_JSType, JS_STRING)                           \
    X(JSTYPE, FieldOptions_JSType, JS_NUMBER)                           \
    X(IDEMPOTENCY_LEVEL, MethodOptions_IdempotencyLevel, IDEMPOTENCY_UNKNOWN) \
    X(IDEMPOTENCY_LEVEL, MethodOptions_IdempotencyLevel, NO_SIDE_EFFECTS) \
    X(IDEMPOTENCY_LEVEL, MethodOptions_IdempotencyLevel, IDEMPOTENT)

/* X(scope, options message) in scope order; the message's features field is google_protobuf_<message>_features_tag
 * (editions; not in descriptor.proto 3.21). */
#define STD_OPTION_SCOPES(X)                                    \
    X(FILE, FileOptions)                                                \
    X(MESSAGE, MessageOptions)                                          \
    X(FIELD, FieldOptions)                                              \
    X(ONEOF, OneofOptions)                                              \
    X(ENUM, EnumOptions)                                                \
    X(ENUM_VALUE, EnumValueOptions)                                     \
    X(SERVICE, ServiceOptions)                                          \
    X(METHOD, MethodOptions)                                            \
    X(EXTENSION_RANGE, ExtensionRangeOptions)

/* ---- the tables the lists make, for the resolver (names, values, the option interpreter) ---- */

typedef enum std_scope {
#define X(scope, message) SCOPE_##scope,
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
#define X(scope, message, name, kind) { SCOPE_##scope, #name, google_protobuf_##message##_##name##_tag, KIND_##kind },
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
#define X(kind, type, name) { KIND_##kind, #name, google_protobuf_##type##_##name },
        STD_OPTION_ENUMS(X)
#undef X
    };
    return i < sizeof all / sizeof *all ? &all[i] : NULL;
}

/* The field number of scope's options message's "features". */
static inline uint32_t std_features_number(std_scope scope)
{
    static const uint32_t numbers[] = {
#define X(scope, message) [SCOPE_##scope] = google_protobuf_##message##_features_tag,
        STD_OPTION_SCOPES(X)
#undef X
    };
    return numbers[scope];
}

/* "FileOptions", ...: the options message of scope. */
static inline const char *std_scope_message(std_scope scope)
{
    static const char *const names[] = {
#define X(scope, message) #message,
        STD_OPTION_SCOPES(X)
#undef X
    };
    return names[scope];
}

#endif
