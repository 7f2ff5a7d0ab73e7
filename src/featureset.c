/* featureset.c: the FeatureSet tables (editions, features, their values, defaults and targets) and lookups in them. */
#include "featureset.h"

#include <stdio.h>
#include <string.h>

const feature_info *feature_at(feature_id id)
{
    static const feature_info all[] = {
#define X(name, type, since, targets) { #name, google_protobuf_FeatureSet_##name##_tag, EDITION_##since, targets },
        FEATURE_FIELDS(X)
#undef X
    };
    return id < FEATURE_COUNT ? &all[id] : NULL;
}

const feature_info *feature_named(const char *name, feature_id *id)
{
    for (int i = 0; i < FEATURE_COUNT; i++)
        if (strcmp(feature_at((feature_id)i)->name, name) == 0) {
            *id = (feature_id)i;
            return feature_at((feature_id)i);
        }
    return NULL;
}

typedef struct feature_value {
    feature_id feature;
    const char *name;
    int number;
} feature_value;

static const feature_value *feature_value_at(size_t i)
{
    static const feature_value all[] = {
#define X(feature, type, value) { FEATURE_##feature, #value, FEATURE_##feature##_##value },
        FEATURE_VALUES(X)
#undef X
    };
    return i < sizeof all / sizeof *all ? &all[i] : NULL;
}

int feature_value_named(feature_id id, const char *value)
{
    const feature_value *fv;
    for (size_t i = 0; (fv = feature_value_at(i)); i++)
        if (fv->feature == id && strcmp(fv->name, value) == 0) return fv->number;
    return -1;
}

const char *feature_value_name(feature_id id, int value)
{
    const feature_value *fv;
    for (size_t i = 0; (fv = feature_value_at(i)); i++)
        if (fv->feature == id && fv->number == value) return fv->name;
    return NULL;
}

const char *feature_value_names(feature_id id, char *out, size_t cap)
{
    size_t len = 0;
    const feature_value *fv;
    out[0] = '\0';
    for (size_t i = 0; (fv = feature_value_at(i)) && len < cap; i++)
        if (fv->feature == id) len += (size_t)snprintf(out + len, cap - len, "%s%s", len ? ", " : "", fv->name);
    return out;
}

unsigned feature_target_named(const char *name)
{
#define X(target, value) if (strcmp(name, #value) == 0) return FEATURE_TARGET_##target;
    FEATURE_TARGETS(X)
#undef X
    return 0;
}

ir_features feature_defaults(feature_edition edition)
{
    ir_features d = { { 0 }, NULL, 0 };
    int column = edition == EDITION_PROTO2 ? 0 : edition == EDITION_PROTO3 ? 1 : edition == EDITION_2023 ? 2
               : edition == EDITION_2024 ? 3 : 4;
#define X(feature, p2, p3, e2023, e2024, e2026)                                                           \
    {                                                                                                     \
        const int by_edition[] = { FEATURE_##feature##_##p2, FEATURE_##feature##_##p3,                    \
                                   FEATURE_##feature##_##e2023, FEATURE_##feature##_##e2024,             \
                                   FEATURE_##feature##_##e2026 };                                        \
        d.v[FEATURE_##feature] = (uint8_t)by_edition[column];                                             \
    }
    FEATURE_DEFAULTS(X)
#undef X
    return d;
}

feature_edition feature_edition_named(const char *text)
{
#define X(name, written) if (EDITION_##name >= EDITION_2023 && strcmp(text, written) == 0) return EDITION_##name;
    FEATURE_EDITIONS(X)
#undef X
    return (feature_edition)0;
}

const char *feature_edition_text(feature_edition edition)
{
#define X(name, written) if (edition == EDITION_##name) return written;
    FEATURE_EDITIONS(X)
#undef X
    return "unknown";
}

ir_features features_merge(ir_features base, ir_features overlay)
{
    for (int i = 0; i < FEATURE_COUNT; i++)
        if (overlay.v[i]) base.v[i] = overlay.v[i];
    return base;
}

bool features_export_by_default(const ir_features *file, bool nested)
{
    switch (file->v[FEATURE_default_symbol_visibility]) {
    case FEATURE_default_symbol_visibility_EXPORT_TOP_LEVEL: return !nested;
    case FEATURE_default_symbol_visibility_LOCAL_ALL:
    case FEATURE_default_symbol_visibility_STRICT: return false;
    default: return true;                    /* EXPORT_ALL, and files before 2024 */
    }
}
