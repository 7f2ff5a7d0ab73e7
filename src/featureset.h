/* featureset.h (not features.h, which is glibc's): editions' features (google.protobuf.FeatureSet): fields, values, each edition's defaults. */
#ifndef PBJC_FEATURESET_H
#define PBJC_FEATURESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* X(NAME, number, edition number, name as written): google.protobuf.Edition. */
#define FEATURE_EDITIONS(X)             \
    X(PROTO2, 998, "proto2")            \
    X(PROTO3, 999, "proto3")            \
    X(2023, 1000, "2023")               \
    X(2024, 1001, "2024")               \
    X(2026, 1002, "2026")

/* X(name, FeatureSet field number, introduced in edition, where it may be set: a FEATURE_TARGET_* mask).
 * descriptor.proto 3.21 has no FeatureSet: the numbers are descriptor.proto's of protobuf's main branch (2026). */
#define FEATURE_FIELDS(X)                                                                    \
    X(field_presence, 1, 2023, FEATURE_TARGET_FIELD)                                         \
    X(enum_type, 2, 2023, FEATURE_TARGET_ENUM)                                               \
    X(repeated_field_encoding, 3, 2023, FEATURE_TARGET_FIELD)                                \
    X(utf8_validation, 4, 2023, FEATURE_TARGET_FIELD)                                        \
    X(message_encoding, 5, 2023, FEATURE_TARGET_FIELD)                                       \
    X(json_format, 6, 2023, FEATURE_TARGET_MESSAGE | FEATURE_TARGET_ENUM)                    \
    X(enforce_naming_style, 7, 2024, FEATURE_TARGET_ALL)                                     \
    X(default_symbol_visibility, 8, 2024, 0)                                                 \
    X(enforce_proto_limits, 9, 2026, FEATURE_TARGET_ENUM | FEATURE_TARGET_MESSAGE | FEATURE_TARGET_FIELD | FEATURE_TARGET_ONEOF)

/* X(feature, VALUE, number): the values each feature takes (0 is every feature's UNKNOWN). */
#define FEATURE_VALUES(X)                                                                    \
    X(field_presence, EXPLICIT, 1)          X(field_presence, IMPLICIT, 2)                   \
    X(field_presence, LEGACY_REQUIRED, 3)                                                    \
    X(enum_type, OPEN, 1)                   X(enum_type, CLOSED, 2)                          \
    X(repeated_field_encoding, PACKED, 1)   X(repeated_field_encoding, EXPANDED, 2)          \
    X(utf8_validation, VERIFY, 2)           X(utf8_validation, NONE, 3)                      \
    X(message_encoding, LENGTH_PREFIXED, 1) X(message_encoding, DELIMITED, 2)                \
    X(json_format, ALLOW, 1)                X(json_format, LEGACY_BEST_EFFORT, 2)            \
    X(enforce_naming_style, STYLE2024, 1)   X(enforce_naming_style, STYLE_LEGACY, 2)         \
    X(enforce_naming_style, STYLE2026, 3)                                                    \
    X(default_symbol_visibility, EXPORT_ALL, 1) X(default_symbol_visibility, EXPORT_TOP_LEVEL, 2) \
    X(default_symbol_visibility, LOCAL_ALL, 3)  X(default_symbol_visibility, STRICT, 4)      \
    X(enforce_proto_limits, LEGACY_NO_EXPLICIT_LIMITS, 1) X(enforce_proto_limits, PROTO_LIMITS2026, 2)

/* X(feature, proto2, proto3, 2023, 2024, 2026): the published FeatureSetDefaults (protobuf's main branch, 2026). */
#define FEATURE_DEFAULTS(X)                                                                                   \
    X(field_presence, EXPLICIT, IMPLICIT, EXPLICIT, EXPLICIT, EXPLICIT)                                       \
    X(enum_type, CLOSED, OPEN, OPEN, OPEN, OPEN)                                                              \
    X(repeated_field_encoding, EXPANDED, PACKED, PACKED, PACKED, PACKED)                                      \
    X(utf8_validation, NONE, VERIFY, VERIFY, VERIFY, VERIFY)                                                  \
    X(message_encoding, LENGTH_PREFIXED, LENGTH_PREFIXED, LENGTH_PREFIXED, LENGTH_PREFIXED, LENGTH_PREFIXED)  \
    X(json_format, LEGACY_BEST_EFFORT, ALLOW, ALLOW, ALLOW, ALLOW)                                            \
    X(enforce_naming_style, STYLE_LEGACY, STYLE_LEGACY, STYLE_LEGACY, STYLE2024, STYLE2026)                   \
    X(default_symbol_visibility, EXPORT_ALL, EXPORT_ALL, EXPORT_ALL, EXPORT_TOP_LEVEL, STRICT)                \
    X(enforce_proto_limits, LEGACY_NO_EXPLICIT_LIMITS, LEGACY_NO_EXPLICIT_LIMITS, LEGACY_NO_EXPLICIT_LIMITS,  \
      LEGACY_NO_EXPLICIT_LIMITS, PROTO_LIMITS2026)

/* X(target, bit, descriptor.proto's FieldOptions.OptionTargetType name): where a feature may be set. */
#define FEATURE_TARGETS(X)                                                                   \
    X(FIELD, 0, "TARGET_TYPE_FIELD")           X(ONEOF, 1, "TARGET_TYPE_ONEOF")              \
    X(MESSAGE, 2, "TARGET_TYPE_MESSAGE")       X(ENUM, 3, "TARGET_TYPE_ENUM")                \
    X(ENUM_VALUE, 4, "TARGET_TYPE_ENUM_ENTRY") X(SERVICE, 5, "TARGET_TYPE_SERVICE")          \
    X(METHOD, 6, "TARGET_TYPE_METHOD")         X(EXTENSION_RANGE, 7, "TARGET_TYPE_EXTENSION_RANGE") \
    X(FILE, 8, "TARGET_TYPE_FILE")

/* FEATURE_TARGET_<target> masks; a core feature may always be set on the file (FEATURE_FIELDS leave it out). */
enum {
#define X(target, bit, name) FEATURE_TARGET_##target = 1 << bit,
    FEATURE_TARGETS(X)
#undef X
    FEATURE_TARGET_ALL = FEATURE_TARGET_FILE - 1
};

typedef enum feature_edition {
#define X(name, num, text) EDITION_##name = num,
    FEATURE_EDITIONS(X)
#undef X
} feature_edition;

typedef enum feature_id {
#define X(name, num, since, targets) FEATURE_##name,
    FEATURE_FIELDS(X)
#undef X
    FEATURE_COUNT
} feature_id;

/* Each feature's values as FEATURE_<feature>_<VALUE>. */
enum {
#define X(feature, value, num) FEATURE_##feature##_##value = num,
    FEATURE_VALUES(X)
#undef X
};

/* One feature as written (features.NAME = V, features.(pb.cpp).NAME = V, or an entry of an aggregate
 * features = {...}): a core one, or a field of the message of a FeatureSet extension (a language's). */
typedef struct feature_setting {
    feature_id id;                       /* a core feature, when ext is NULL */
    const struct ir_field *ext;          /* a language feature: the extension, (pb.cpp) */
    const struct ir_field *field;        /* and its field, pb.CppFeatures.string_type */
    int32_t value;
} feature_setting;

/* A resolved (or partly written) FeatureSet: each core feature's value, 0 when unset, and the
 * language features set on the element and its enclosing scopes, innermost first. */
typedef struct ir_features {
    uint8_t v[FEATURE_COUNT];
    const feature_setting *lang;
    size_t n_lang;
} ir_features;

typedef struct feature_info {
    const char *name;
    uint32_t number;
    feature_edition since;
    unsigned targets;
} feature_info;

const feature_info *feature_at(feature_id id);
const feature_info *feature_named(const char *name, feature_id *id);      /* NULL if none */
int feature_value_named(feature_id id, const char *value);                /* -1 if none */
const char *feature_value_name(feature_id id, int value);                  /* NULL if none */
/* "EXPLICIT, IMPLICIT, ...": id's value names into out (cut short at cap), returned. */
const char *feature_value_names(feature_id id, char *out, size_t cap);
unsigned feature_target_named(const char *name);                          /* TARGET_TYPE_FIELD: its mask; 0 if none */
ir_features feature_defaults(feature_edition edition);
/* An edition as written ("2023"): its number, 0 if pbjc does not know it. */
feature_edition feature_edition_named(const char *text);
const char *feature_edition_text(feature_edition edition);                /* "2023" */
/* overlay's set values over base. */
ir_features features_merge(ir_features base, ir_features overlay);

#endif
