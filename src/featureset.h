/* featureset.h (not features.h, which is glibc's): editions' features (google.protobuf.FeatureSet): fields, values, each edition's defaults. */
#ifndef PBJC_FEATURESET_H
#define PBJC_FEATURESET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "google/protobuf/descriptor.pb.h"   /* descriptor.proto's numbers (src/pbgen, protobuf 32's schema) */

/* X(NAME, edition as written): the google.protobuf.Edition values pbjc knows (EDITION_NAME is its number). */
#define FEATURE_EDITIONS(X) X(PROTO2, "proto2") X(PROTO3, "proto3") X(2023, "2023") X(2024, "2024") X(2026, "2026")

/* X(name, its enum in FeatureSet, introduced in edition, where it may be set: a FEATURE_TARGET_* mask);
 * its number is google_protobuf_FeatureSet_<name>_tag. */
#define FEATURE_FIELDS(X)                                                                    \
    X(field_presence, FieldPresence, 2023, FEATURE_TARGET_FIELD)                             \
    X(enum_type, EnumType, 2023, FEATURE_TARGET_ENUM)                                        \
    X(repeated_field_encoding, RepeatedFieldEncoding, 2023, FEATURE_TARGET_FIELD)            \
    X(utf8_validation, Utf8Validation, 2023, FEATURE_TARGET_FIELD)                           \
    X(message_encoding, MessageEncoding, 2023, FEATURE_TARGET_FIELD)                         \
    X(json_format, JsonFormat, 2023, FEATURE_TARGET_MESSAGE | FEATURE_TARGET_ENUM)           \
    X(enforce_naming_style, EnforceNamingStyle, 2024, FEATURE_TARGET_ALL)                    \
    X(default_symbol_visibility, VisibilityFeature_DefaultSymbolVisibility, 2024, 0)         \
    X(enforce_proto_limits, ProtoLimitsFeature_EnforceProtoLimits, 2026,                     \
      FEATURE_TARGET_ENUM | FEATURE_TARGET_MESSAGE | FEATURE_TARGET_FIELD | FEATURE_TARGET_ONEOF)

/* X(feature, its enum, VALUE): the values each feature takes (0 is every feature's UNKNOWN); each
 * one's number is google_protobuf_FeatureSet_<enum>_<VALUE>. */
#define FEATURE_VALUES(X)                                                                    \
    X(field_presence, FieldPresence, EXPLICIT)                                               \
    X(field_presence, FieldPresence, IMPLICIT)                                               \
    X(field_presence, FieldPresence, LEGACY_REQUIRED)                                        \
    X(enum_type, EnumType, OPEN)                                                             \
    X(enum_type, EnumType, CLOSED)                                                           \
    X(repeated_field_encoding, RepeatedFieldEncoding, PACKED)                                \
    X(repeated_field_encoding, RepeatedFieldEncoding, EXPANDED)                              \
    X(utf8_validation, Utf8Validation, VERIFY)                                               \
    X(utf8_validation, Utf8Validation, NONE)                                                 \
    X(message_encoding, MessageEncoding, LENGTH_PREFIXED)                                    \
    X(message_encoding, MessageEncoding, DELIMITED)                                          \
    X(json_format, JsonFormat, ALLOW)                                                        \
    X(json_format, JsonFormat, LEGACY_BEST_EFFORT)                                           \
    X(enforce_naming_style, EnforceNamingStyle, STYLE2024)                                   \
    X(enforce_naming_style, EnforceNamingStyle, STYLE_LEGACY)                                \
    X(enforce_naming_style, EnforceNamingStyle, STYLE2026)                                   \
    X(default_symbol_visibility, VisibilityFeature_DefaultSymbolVisibility, EXPORT_ALL)      \
    X(default_symbol_visibility, VisibilityFeature_DefaultSymbolVisibility, EXPORT_TOP_LEVEL) \
    X(default_symbol_visibility, VisibilityFeature_DefaultSymbolVisibility, LOCAL_ALL)       \
    X(default_symbol_visibility, VisibilityFeature_DefaultSymbolVisibility, STRICT)          \
    X(enforce_proto_limits, ProtoLimitsFeature_EnforceProtoLimits, LEGACY_NO_EXPLICIT_LIMITS) \
    X(enforce_proto_limits, ProtoLimitsFeature_EnforceProtoLimits, PROTO_LIMITS2026)

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

/* X(target, descriptor.proto's FieldOptions.OptionTargetType value): where a feature may be set. */
#define FEATURE_TARGETS(X)                                                                   \
    X(FIELD, TARGET_TYPE_FIELD) X(ONEOF, TARGET_TYPE_ONEOF) X(MESSAGE, TARGET_TYPE_MESSAGE)   \
    X(ENUM, TARGET_TYPE_ENUM) X(ENUM_VALUE, TARGET_TYPE_ENUM_ENTRY) X(SERVICE, TARGET_TYPE_SERVICE) \
    X(METHOD, TARGET_TYPE_METHOD) X(EXTENSION_RANGE, TARGET_TYPE_EXTENSION_RANGE) X(FILE, TARGET_TYPE_FILE)

/* FEATURE_TARGET_<target> masks (a bit per OptionTargetType value); a core feature may always be set on
 * the file (FEATURE_FIELDS leave it out, and FEATURE_TARGET_ALL is every other target). */
enum {
#define X(target, value) FEATURE_TARGET_##target = 1 << google_protobuf_FieldOptions_OptionTargetType_##value,
    FEATURE_TARGETS(X)
#undef X
#define X(target, value) | FEATURE_TARGET_##target
    FEATURE_TARGET_ALL = (0 FEATURE_TARGETS(X)) & ~FEATURE_TARGET_FILE
#undef X
};

typedef enum feature_edition {
#define X(name, text) EDITION_##name = google_protobuf_Edition_EDITION_##name,
    FEATURE_EDITIONS(X)
#undef X
} feature_edition;

typedef enum feature_id {
#define X(name, type, since, targets) FEATURE_##name,
    FEATURE_FIELDS(X)
#undef X
    FEATURE_COUNT
} feature_id;

/* Each feature's values as FEATURE_<feature>_<VALUE>. */
enum {
#define X(feature, type, value) FEATURE_##feature##_##value = google_protobuf_FeatureSet_##type##_##value,
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
/* Whether a message or enum written with neither export nor local is exported, in a file whose features are
 * file (default_symbol_visibility; everything before 2024), nested or at top level. */
bool features_export_by_default(const ir_features *file, bool nested);

#endif
