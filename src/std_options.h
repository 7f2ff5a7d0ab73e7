/* std_options.h: the standard options of descriptor.proto 3.21 that protoc knows, one row each. */
#ifndef PBJC_STD_OPTIONS_H
#define PBJC_STD_OPTIONS_H

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

#endif
