/* pbj_json.h: the proto3 JSON mapping's output (M_to_json), the message type record, and the pieces
 * JSON input shares (base64, the well-known types' names, lowerCamelCase). */
#ifndef PBJ_JSON_H
#define PBJ_JSON_H

/*
 * M_to_json(&m, &out, &opts) appends m as one line of JSON to a pbj_text (pbj_text.h), as protobuf's
 * JsonPrinter writes it: keys in lowerCamelCase (the field's json_name), or the .proto's names with
 * opts.proto_names; 64-bit integers as strings; floats as protobuf prints them, "NaN", "Infinity",
 * "-Infinity"; bytes in standard base64; enums by name (number when the value has none); maps as
 * objects with string keys; fields at their default (implicit presence) left out unless
 * opts.emit_defaults; the well-known types in their own forms (Timestamp and Duration strings,
 * FieldMask, Struct, Value, ListValue, the wrappers, Any, Empty). NULL options: all defaults.
 *
 * Statuses: PBJ_ERR_UTF8 for a string that is not UTF-8 (a proto2 string's bytes; opts.utf8_replace writes U+FFFD
 * for each byte that is not instead), PBJ_ERR_JSON for a value the mapping cannot write (a Timestamp or Duration out of range,
 * a FieldMask path that does not read back, a non-finite number in a Value (a Value with no kind is
 * null), an Any whose type opts.types does not list or whose value does not decode), PBJ_ERR_DEPTH for messages
 * nested deeper than opts.max_depth (default PBJ_DEFAULT_MAX_DEPTH), PBJ_ERR_NOMEM. After an error
 * the text holds a prefix.
 *
 * Any: opts.types lists the message types (each message's table, &M__table, as the text reader's) an Any
 * may hold: its value is decoded (into memory freed before to_json returns) and written as
 * {"@type": url, fields...}, or {"@type": url, "value": ...} for a well-known type.
 */

#include "pbj_core.h"
#include "pbj_text.h"
#include "pbj_table.h"
#include "pbj_text_read.h"   /* pbj_read_error; the extension records JSON input shares */

/* M_to_json in each generated message's API with JSON (PBJ_MESSAGE, pbj_table.h) */
#undef PBJ__API_TO_JSON
#define PBJ__API_TO_JSON(M)                                                                                           \
    PBJ_MUST_USE static inline pbj_status M##_to_json(const M *m, pbj_text *out, const pbj_json_options *o) { return pbj_json_write(&M##__table, m, out, o); }

#ifdef __cplusplus
extern "C" {
#endif

typedef struct pbj_json pbj_json;                 /* a JSON write under way (below) */
typedef struct pbj_json_options pbj_json_options;
typedef struct pbj__json_in pbj__json_in;         /* JSON input's reader state (pbj_json_read.h) */

/* Where JSON input failed (pbj_json_options.error): pbj_core.h's pbj_read_error, as the text format's. */
typedef pbj_read_error pbj_json_error;

struct pbj_json_options {
    bool emit_defaults;                  /* also fields at their default: 0, "", false, [], {} */
    bool proto_names;                    /* keys as the .proto's field names, not lowerCamelCase */
    uint32_t max_depth;                  /* messages nested below the top one (input: counted as binary decode counts them); 0: PBJ_DEFAULT_MAX_DEPTH */
    const pbj_table *const *types;       /* the types an Any may hold (each &M__table), type_count of them */
    size_t type_count;
    /* JSON input (M_from_json) */
    bool ignore_unknown_fields;          /* skip fields and enum names the schema does not know (else PBJ_ERR_SYNTAX) */
    size_t max_size;                     /* the longest input; 0: PBJ_DEFAULT_MAX_LENGTH */
    pbj_json_error *error;               /* filled when a read fails, if not NULL */
    /* JSON output (M_to_json), again */
    bool utf8_replace;                   /* a string's bytes that are not UTF-8 written as U+FFFD (else PBJ_ERR_UTF8) */
};

/* A JSON write under way: what generated code passes down. */
struct pbj_json {
    pbj_text *out;
    pbj_json_options o;
    int depth;
    bool splice;                         /* the next object continues one already open (Any) */
    pbj_status status;                   /* the first error (PBJ_ERR_JSON, PBJ_ERR_DEPTH), or PBJ_OK */
};

/* ---- shared with JSON input ------------------------------------------------------------------- */

/* The standard base64 alphabet (RFC 4648 section 4), which JSON output writes. */
static inline const char *pbj_base64_chars(void) {
    return "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
}

/* The value of a base64 digit of either alphabet (standard "+/", URL-safe "-_"), or -1. */
static inline int pbj_base64_value(char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

/* The well-known types with a JSON form of their own: pbj_table.h's PBJ_WKTS. */
#define PBJ_JSON_WKTS PBJ_WKTS
typedef pbj_wkt pbj_json_wkt;

/* The well-known type of this full name, or PBJ_WKT_NONE. */
static inline pbj_json_wkt pbj_json_wkt_of(const char *full_name, size_t len) {
    static const char *const names[] = {
#define PBJ__WKT_NAME(kind, name) name,
        PBJ_JSON_WKTS(PBJ__WKT_NAME)
#undef PBJ__WKT_NAME
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == len && memcmp(names[i], full_name, len) == 0) return (pbj_json_wkt)(i + 1);
    return PBJ_WKT_NONE;
}

/* Whether an Any holds t as {"@type": url, "value": form}: a well-known type with a JSON form of its own
 * (Empty is an object of no fields, written inline as python's json_format and C++ write it). */
static inline bool pbj_json_any_value(const pbj_table *t) {
    return t->wkt != PBJ_WKT_NONE && t->wkt != PBJ_WKT_EMPTY;
}

/* A FieldMask path (snake_case) in lowerCamelCase into out (room for len bytes); false when the path
 * would not read back (an upper-case letter, "_" not before a lower-case letter). Returns the length. */
static inline bool pbj_json_camel_path(const char *path, size_t len, char *out, size_t *out_len) {
    size_t n = 0;
    for (size_t i = 0; i < len; i++) {
        char c = path[i];
        if (c >= 'A' && c <= 'Z') return false;
        if (c == '_') {
            if (i + 1 >= len || path[i + 1] < 'a' || path[i + 1] > 'z') return false;
            c = (char)(path[++i] - 'a' + 'A');
        }
        out[n++] = c;
    }
    *out_len = n;
    return true;
}

/* The full name an Any's type URL names: what follows its last '/'. */
static inline pbj_slice pbj_json_url_type(pbj_slice url) {
    size_t i = url.len;
    while (i > 0 && url.data[i - 1] != '/') i--;
    return i ? pbj_slice_make(url.data + i, url.len - i) : url;   /* not url.data + 0: "" may have no data */
}

/* The type of this full name among the options' types, or NULL. */
static inline const pbj_table *pbj_json_find_type(const pbj_json_options *o, pbj_slice full_name) {
    for (size_t i = 0; o && i < o->type_count; i++)
        if (pbj__name_cmp(o->types[i]->pool + o->types[i]->name, (const char *)pbj_slice_data(full_name), full_name.len) == 0)
            return o->types[i];
    return NULL;
}

/* ---- the write ------------------------------------------------------------------------------------ */

static inline void pbj__json_init(pbj_json *j, pbj_text *out, const pbj_json_options *o) {
    j->out = out;
    if (o) j->o = *o;
    else memset(&j->o, 0, sizeof j->o);
    if (j->o.max_depth == 0) j->o.max_depth = PBJ_DEFAULT_MAX_DEPTH;
    if (j->o.max_depth > PBJ_MAX_DEPTH_CAP) j->o.max_depth = PBJ_MAX_DEPTH_CAP;
    j->depth = -1;
    j->splice = false;
    j->status = PBJ_OK;
}

/* The write stops with status s (the first one kept). */
static inline void pbj__json_fail(pbj_json *j, pbj_status s) {
    if (j->status == PBJ_OK) j->status = s;
    pbj__text_stop(j->out);
}

static inline bool pbj__json_ok(const pbj_json *j) { return j->status == PBJ_OK && !j->out->failed; }

static inline pbj_status pbj__json_status(const pbj_json *j) {
    return j->status != PBJ_OK ? j->status : j->out->failed ? PBJ_ERR_NOMEM : PBJ_OK;
}

static inline void pbj__json_put(pbj_json *j, const char *s, size_t n) { pbj_text_put(j->out, s, n); }

/* Room for n more bytes (and the NUL) at the end of the text: where they go, or NULL when it cannot grow. The
 * writes that know their length up to a bound fill it in place and end with pbj__json_wrote. */
static inline char *pbj__json_room(pbj_json *j, size_t n) {
    pbj_text *t = j->out;
    if (t->cap - t->len <= n && !pbj__text_grow(t, n)) return NULL;
    return t->data + t->len;
}

/* The bytes written into the room, up to end, kept. */
static inline void pbj__json_wrote(pbj_json *j, char *end) {
    j->out->len = (size_t)(end - j->out->data);
    *end = '\0';
}
static inline void pbj__json_puts(pbj_json *j, const char *s) { pbj_text_put(j->out, s, strlen(s)); }

/* A comma unless the value is the first of its object or array. */
static inline void pbj__json_sep(pbj_json *j) {
    char last = j->out->len ? j->out->data[j->out->len - 1] : '{';
    if (last != '{' && last != '[' && last != ':') pbj__json_put(j, ",", 1);
}

/* '{' or '[' of a message one level deeper (nothing when it continues an open object); false when it may not. */
static inline bool pbj__json_open(pbj_json *j, char c) {
    if ((uint32_t)++j->depth > j->o.max_depth) pbj__json_fail(j, PBJ_ERR_DEPTH);
    if (!pbj__json_ok(j)) return false;
    if (j->splice) j->splice = false;
    else pbj__json_put(j, &c, 1);
    return true;
}

static inline void pbj__json_close(pbj_json *j, char c) {
    pbj__json_put(j, &c, 1);
    j->depth--;
}

/* A value's place: the separator, and its key when it has one. */
static inline void pbj__json_key(pbj_json *j, const char *json_name, const char *proto_name) {
    pbj__json_sep(j);
    pbj__json_put(j, "\"", 1);
    pbj__json_puts(j, j->o.proto_names ? proto_name : json_name);
    pbj__json_put(j, "\":", 2);
}

static inline void pbj__json_begin(pbj_json *j, char c) { pbj__json_put(j, &c, 1); }
static inline void pbj__json_end(pbj_json *j, char c) { pbj__json_put(j, &c, 1); }

/* Whether byte c is written into a JSON string as it is: not '"', '\\', a control character or DEL. */
static inline bool pbj__json_plain(unsigned char c) { return c >= 0x20 && c != '"' && c != '\\' && c != 0x7f; }

/* UTF-8 text escaped as JSON needs: '"', '\\' and the control characters. */
static inline void pbj__json_escaped(pbj_json *j, const unsigned char *s, size_t len) {
    size_t run = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = s[i];
        if (pbj__json_plain(c)) continue;
        char esc[8];
        int n = c == '"' ? snprintf(esc, sizeof esc, "\\\"") : c == '\\' ? snprintf(esc, sizeof esc, "\\\\")
              : c == '\n' ? snprintf(esc, sizeof esc, "\\n") : c == '\r' ? snprintf(esc, sizeof esc, "\\r")
              : c == '\t' ? snprintf(esc, sizeof esc, "\\t") : c == '\b' ? snprintf(esc, sizeof esc, "\\b")
              : c == '\f' ? snprintf(esc, sizeof esc, "\\f") : snprintf(esc, sizeof esc, "\\u%04x", c);
        pbj__json_put(j, (const char *)s + run, i - run);
        pbj__json_put(j, esc, (size_t)n);
        run = i + 1;
    }
    pbj__json_put(j, (const char *)s + run, len - run);
}

/* The bytes of the UTF-8 sequence at s (n bytes left), or 0 when none starts there. */
static inline size_t pbj__json_utf8_len(const unsigned char *s, size_t n) {
    size_t k = s[0] < 0x80 ? 1 : s[0] >= 0xc2 && s[0] < 0xe0 ? 2 : s[0] >= 0xe0 && s[0] < 0xf0 ? 3 : s[0] >= 0xf0 && s[0] < 0xf5 ? 4 : 0;
    return k && k <= n && pbj_utf8_valid(s, k) ? k : 0;
}

/* A string in quotes. Bytes that are not UTF-8 (a proto2 string holds any) are never written: PBJ_ERR_UTF8, or
 * with opts.utf8_replace each such byte becomes U+FFFD (protobuf's C++ 3.21 leaves them out silently). */
static inline void pbj__json_quoted(pbj_json *j, const void *data, size_t len) {
    const unsigned char *s = (const unsigned char *)data;
    size_t plain = 0;
    while (plain < len && s[plain] < 0x80 && pbj__json_plain(s[plain])) plain++;
    char *d = plain == len ? pbj__json_room(j, len + 2) : NULL;
    if (d) {                                       /* ASCII with nothing to escape: copied at once */
        *d++ = '"';
        if (len) memcpy(d, s, len);
        d[len] = '"';
        pbj__json_wrote(j, d + len + 1);
        return;
    }
    if (!pbj_utf8_valid(s, len) && !j->o.utf8_replace) {
        pbj__json_fail(j, PBJ_ERR_UTF8);
        return;
    }
    pbj__json_put(j, "\"", 1);
    while (len) {
        size_t ok = pbj_utf8_valid(s, len) ? len : 0, k;   /* (valid: no character by character) */
        while (ok < len && (k = pbj__json_utf8_len(s + ok, len - ok)) != 0) ok += k;
        pbj__json_escaped(j, s, ok);
        if (ok == len) break;
        pbj__json_put(j, "\xef\xbf\xbd", 3);   /* U+FFFD for the byte at s + ok */
        s += ok + 1;
        len -= ok + 1;
    }
    pbj__json_put(j, "\"", 1);
}

static inline void pbj__json_string(pbj_json *j, pbj_slice v) { pbj__json_quoted(j, pbj_slice_data(v), v.len); }

/* Bytes as a string of their standard base64, written into room made once. */
static inline void pbj__json_bytes(pbj_json *j, pbj_slice v) {
    const uint8_t *p = pbj_slice_data(v);
    const char *digits = pbj_base64_chars();
    size_t whole = v.len / 3 * 3;
    char *d = pbj__json_room(j, (v.len + 2) / 3 * 4 + 2);
    if (!d) return;
    *d++ = '"';
    for (size_t i = 0; i < whole; i += 3, d += 4) {
        uint32_t b = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];
        d[0] = digits[b >> 18];
        d[1] = digits[(b >> 12) & 63];
        d[2] = digits[(b >> 6) & 63];
        d[3] = digits[b & 63];
    }
    if (whole < v.len) {                           /* one or two bytes left: '=' pads the quad */
        uint32_t b = (uint32_t)p[whole] << 16 | (whole + 1 < v.len ? (uint32_t)p[whole + 1] << 8 : 0);
        d[0] = digits[b >> 18];
        d[1] = digits[(b >> 12) & 63];
        d[2] = whole + 1 < v.len ? digits[(b >> 6) & 63] : '=';
        d[3] = '=';
        d += 4;
    }
    *d++ = '"';
    pbj__json_wrote(j, d);
}

static inline void pbj__json_int32(pbj_json *j, int64_t v) { pbj_text_put_int64(j->out, v); }
static inline void pbj__json_uint32(pbj_json *j, uint64_t v) { pbj_text_put_uint64(j->out, v); }
static inline void pbj__json_bool(pbj_json *j, bool v) { pbj_text_put_bool(j->out, v); }

/* 64-bit integers as strings */
static inline void pbj__json_int64(pbj_json *j, int64_t v) {
    char buf[PBJ_TEXT_NUMBER_MAX], *end = buf + sizeof buf - 1;
    *end = '"';
    char *s = pbj__text_signed_digits(end, v);
    *--s = '"';
    pbj__json_put(j, s, (size_t)(buf + sizeof buf - s));
}

static inline void pbj__json_uint64(pbj_json *j, uint64_t v) {
    char buf[PBJ_TEXT_NUMBER_MAX], *end = buf + sizeof buf - 1;
    *end = '"';
    char *s = pbj__text_digits(end, v);
    *--s = '"';
    pbj__json_put(j, s, (size_t)(buf + sizeof buf - s));
}

/* NaN and the infinities as the strings the mapping names them by, else protobuf's number text. */
static inline bool pbj__json_nonfinite(pbj_json *j, double v) {
    if (v == v && v - v == 0) return false;
    pbj__json_puts(j, v != v ? "\"NaN\"" : v < 0 ? "\"-Infinity\"" : "\"Infinity\"");
    return true;
}

static inline void pbj__json_double(pbj_json *j, double v) {
    if (!pbj__json_nonfinite(j, v)) pbj_text_put_double(j->out, v);
}

static inline void pbj__json_float(pbj_json *j, float v) {
    if (!pbj__json_nonfinite(j, v)) pbj_text_put_float(j->out, v);
}

/* an enum value by its name, or its number when it has none */
static inline void pbj__json_enum(pbj_json *j, int32_t v, const char *name) {
    if (name) pbj__json_quoted(j, name, strlen(name));
    else pbj_text_put_int64(j->out, v);
}

static inline void pbj__json_null(pbj_json *j) { pbj__json_put(j, "null", 4); }

/* map keys: the key as a string, then ':' */
static inline void pbj__json_map_key(pbj_json *j) { pbj__json_sep(j); }
static inline void pbj__json_key_int(pbj_json *j, int64_t v) {
    pbj__json_sep(j);
    pbj__json_int64(j, v);
    pbj__json_put(j, ":", 1);
}
static inline void pbj__json_key_uint(pbj_json *j, uint64_t v) {
    pbj__json_sep(j);
    pbj__json_uint64(j, v);
    pbj__json_put(j, ":", 1);
}
static inline void pbj__json_key_bool(pbj_json *j, bool v) {
    pbj__json_sep(j);
    pbj__json_puts(j, v ? "\"true\":" : "\"false\":");
}
static inline void pbj__json_key_string(pbj_json *j, pbj_slice v) {
    pbj__json_sep(j);
    pbj__json_string(j, v);
    pbj__json_put(j, ":", 1);
}

/* ---- the well-known types ---------------------------------------------------------------------------- */

#define PBJ_JSON_MAX_SECONDS 315576000000LL            /* a Duration's bound, 10,000 years */
#define PBJ_JSON_MIN_TIMESTAMP (-62135596800LL)        /* 0001-01-01T00:00:00Z */
#define PBJ_JSON_MAX_TIMESTAMP 253402300799LL          /* 9999-12-31T23:59:59Z */

/* ".f" with 3, 6 or 9 digits, as few as show nanos; nothing for 0 */
static inline void pbj__json_nanos(char *buf, int32_t nanos) {
    if (nanos == 0) buf[0] = '\0';
    else if (nanos % 1000000 == 0) snprintf(buf, 12, ".%03d", (int)(nanos / 1000000));
    else if (nanos % 1000 == 0) snprintf(buf, 12, ".%06d", (int)(nanos / 1000));
    else snprintf(buf, 12, ".%09d", (int)nanos);
}

static inline void pbj__json_timestamp(pbj_json *j, int64_t seconds, int32_t nanos) {
    if (seconds < PBJ_JSON_MIN_TIMESTAMP || seconds > PBJ_JSON_MAX_TIMESTAMP || nanos < 0 || nanos > 999999999) {
        pbj__json_fail(j, PBJ_ERR_JSON);
        return;
    }
    int64_t days = (seconds - PBJ_JSON_MIN_TIMESTAMP) / 86400 - 719162 + 719468, secs = (seconds - PBJ_JSON_MIN_TIMESTAMP) % 86400;
    int64_t era = days / 146097, doe = days - era * 146097;                 /* civil from days (Howard Hinnant) */
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365, doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153, d = doy - (153 * mp + 2) / 5 + 1, mo = mp < 10 ? mp + 3 : mp - 9;
    int64_t y = yoe + era * 400 + (mo <= 2);
    char frac[12], buf[48];
    pbj__json_nanos(frac, nanos);
    int n = snprintf(buf, sizeof buf, "\"%04d-%02d-%02dT%02d:%02d:%02d%sZ\"", (int)y, (int)mo, (int)d, (int)(secs / 3600),
                     (int)(secs / 60 % 60), (int)(secs % 60), frac);
    pbj__json_put(j, buf, (size_t)n);
}

static inline void pbj__json_duration(pbj_json *j, int64_t seconds, int32_t nanos) {
    if (seconds < -PBJ_JSON_MAX_SECONDS || seconds > PBJ_JSON_MAX_SECONDS || nanos < -999999999 || nanos > 999999999 ||
        (seconds < 0 && nanos > 0) || (seconds > 0 && nanos < 0)) {
        pbj__json_fail(j, PBJ_ERR_JSON);
        return;
    }
    char frac[12], buf[48];
    pbj__json_nanos(frac, nanos < 0 ? -nanos : nanos);
    int n = snprintf(buf, sizeof buf, "\"%s%lld%ss\"", seconds < 0 || nanos < 0 ? "-" : "",
                     (long long)(seconds < 0 ? -seconds : seconds), frac);
    pbj__json_put(j, buf, (size_t)n);
}

/* a FieldMask: its paths in lowerCamelCase, joined by ',', as one string */
static inline void pbj__json_field_mask(pbj_json *j, const pbj_slice *paths, size_t count) {
    size_t room = 1, n = 0;
    for (size_t i = 0; i < count; i++) room += paths[i].len + 1;
    char *mask = (char *)PBJ_MALLOC(room);
    if (!mask) {
        pbj__json_fail(j, PBJ_ERR_NOMEM);
        return;
    }
    for (size_t i = 0, len; i < count; i++, n += len) {
        if (i) mask[n++] = ',';
        if (!pbj_json_camel_path((const char *)pbj_slice_data(paths[i]), paths[i].len, mask + n, &len)) {
            pbj__json_fail(j, PBJ_ERR_JSON);
            break;
        }
    }
    pbj__json_quoted(j, mask, n);
    PBJ_FREE(mask);
}

/* a Value's number: finite only */
static inline void pbj__json_value_number(pbj_json *j, double v) {
    if (v == v && v - v == 0) pbj_text_put_double(j->out, v);
    else pbj__json_fail(j, PBJ_ERR_JSON);
}

/* m of t's type as a JSON value, inside a write under way (a well-known type in its own form). */
PBJ_OUTLINE_WARM void pbj__json_message(const pbj_table *t, const void *m, pbj_json *j);

/* An Any: its value decoded as the type its URL names, written after "@type" (a well-known type as "value"). */
static inline void pbj__json_any(pbj_json *j, pbj_slice type_url, pbj_slice value) {
    if (type_url.len == 0 && value.len == 0) {
        pbj__json_put(j, "{}", 2);
        return;
    }
    const pbj_table *t = pbj_json_find_type(&j->o, pbj_json_url_type(type_url));
    if (!t) {
        pbj__json_fail(j, PBJ_ERR_JSON);
        return;
    }
    pbj_arena arena;
    pbj_arena_init(&arena, NULL, 0);
    void *m = pbj_arena_alloc(&arena, t->size);
    pbj_status s = m ? PBJ_OK : PBJ_ERR_NOMEM;
    if (m) s = pbj__decode_top(t, m, pbj_slice_data(value), value.len, &arena, NULL, false);
    if (s != PBJ_OK) pbj__json_fail(j, s == PBJ_ERR_NOMEM ? s : PBJ_ERR_JSON);
    else if ((uint32_t)++j->depth > j->o.max_depth) pbj__json_fail(j, PBJ_ERR_DEPTH);
    else {
        pbj__json_put(j, "{\"@type\":", 9);
        pbj__json_string(j, type_url);
        if (pbj_json_any_value(t)) {
            pbj__json_put(j, ",\"value\":", 9);
            pbj__json_message(t, m, j);
            pbj__json_put(j, "}", 1);
        } else {
            j->splice = true;                /* the message's fields continue this object */
            pbj__json_message(t, m, j);
        }
        j->depth--;
    }
    pbj_arena_free(&arena);
}

/* ---- the table walk: M_to_json over M's field table (rt/pbj_table.h) ---------------------------------- */

#if PBJ__BODIES   /* the walk is recursive through message values */
static inline void pbj__json_value(pbj_json *j, const pbj_field *f, const uint8_t *at, bool pointer);
#endif


/* m of t's type appended to out as JSON (M_to_json; o NULL: the defaults). */
static inline pbj_status pbj_json_write(const pbj_table *t, const void *m, pbj_text *out, const pbj_json_options *o) {
    pbj_json j;
    pbj__json_init(&j, out, o);
    pbj__json_message(t, m, &j);
    return pbj__json_status(&j);
}

#if PBJ__BODIES

#define PBJ__JSON_KEY_FAST 64   /* a key of up to this many plain bytes is copied into room made once */

/* A key from the pool: written as pbj__json_quoted escapes it. */
static inline void pbj__json_pool_key(pbj_json *j, const char *name) {
    char *d = pbj__json_room(j, PBJ__JSON_KEY_FAST + 4);   /* ',', '"', the name, '"', ':' */
    if (d) {
        char *p = d, last = j->out->len ? d[-1] : '{';
        if (last != '{' && last != '[' && last != ':') *p++ = ',';
        *p++ = '"';
        const char *c = name;
        while (c < name + PBJ__JSON_KEY_FAST && pbj__json_plain((unsigned char)*c)) *p++ = *c++;
        if (*c == '\0') {                          /* the whole name was plain */
            p[0] = '"';
            p[1] = ':';
            pbj__json_wrote(j, p + 2);
            return;
        }
    }
    pbj__json_sep(j);
    pbj__json_put(j, "\"", 1);
    pbj__json_escaped(j, (const unsigned char *)name, strlen(name));
    pbj__json_put(j, "\":", 2);
}

/* Field f's key: its JSON name, or with proto_names its .proto name (a group's follows its JSON name). */
static inline void pbj__json_field_key(pbj_json *j, const pbj_table *t, const pbj_field *f) {
    const char *json = t->pool + f->json_name;
    if (!j->o.proto_names) pbj__json_pool_key(j, json);
    else pbj__json_pool_key(j, f->type == PBJ_TYPE_GROUP ? json + strlen(json) + 1 : t->pool + f->name);
}

static inline int64_t pbj__json_signed_at(const pbj_field *f, const uint8_t *at) {
    int32_t v32;
    int64_t v64;
    if (pbj__elem_size(f) == 8) return (memcpy(&v64, at, 8), v64);
    return (memcpy(&v32, at, 4), v32);
}

static inline uint64_t pbj__json_unsigned_at(const pbj_field *f, const uint8_t *at) {
    uint32_t v32;
    uint64_t v64;
    if (pbj__elem_size(f) == 8) return (memcpy(&v64, at, 8), v64);
    return (memcpy(&v32, at, 4), v32);
}

static inline bool pbj__json_signed(const pbj_field *f) {
    switch (f->type) {
    case PBJ_TYPE_INT32: case PBJ_TYPE_SINT32: case PBJ_TYPE_SFIXED32: case PBJ_TYPE_INT64: case PBJ_TYPE_SINT64:
    case PBJ_TYPE_SFIXED64: case PBJ_TYPE_ENUM: return true;
    default: return false;
    }
}

static inline pbj_slice pbj__json_slice_at(const uint8_t *at) {
    pbj_slice s;
    memcpy(&s, at, sizeof s);
    return s;
}

/* A message value: at holds a pointer to it (NULL: "{}"), or it (in an array). */
static inline void pbj__json_sub(pbj_json *j, const pbj_field *f, const uint8_t *at, bool pointer) {
    const void *sub = pointer ? pbj__ptr_at(at, 0) : at;
    if (sub) pbj__json_message(f->sub, sub, j);
    else pbj__json_put(j, "{}", 2);
}

/* One value of f at `at` (a message's: a pointer to it when `pointer`). */
static inline void pbj__json_value(pbj_json *j, const pbj_field *f, const uint8_t *at, bool pointer) {
    float x;
    double d;
    switch (f->type) {
    case PBJ_TYPE_MESSAGE: case PBJ_TYPE_GROUP: pbj__json_sub(j, f, at, pointer); break;
    case PBJ_TYPE_STRING: pbj__json_string(j, pbj__json_slice_at(at)); break;
    case PBJ_TYPE_BYTES: pbj__json_bytes(j, pbj__json_slice_at(at)); break;
    case PBJ_TYPE_BOOL: pbj__json_bool(j, *(const bool *)at); break;
    case PBJ_TYPE_FLOAT: pbj__json_float(j, (memcpy(&x, at, 4), x)); break;
    case PBJ_TYPE_DOUBLE: pbj__json_double(j, (memcpy(&d, at, 8), d)); break;
    case PBJ_TYPE_ENUM:
        if (f->en && (f->en->flags & PBJ_E_NULL_VALUE)) pbj__json_null(j);
        else {
            int32_t v = (int32_t)pbj__json_signed_at(f, at);
            pbj__json_enum(j, v, f->en ? pbj_enum_name(f->en, v) : NULL);
        }
        break;
    case PBJ_TYPE_INT64: case PBJ_TYPE_SINT64: case PBJ_TYPE_SFIXED64: pbj__json_int64(j, pbj__json_signed_at(f, at)); break;
    case PBJ_TYPE_UINT64: case PBJ_TYPE_FIXED64: pbj__json_uint64(j, pbj__json_unsigned_at(f, at)); break;
    case PBJ_TYPE_UINT32: case PBJ_TYPE_FIXED32: pbj__json_uint32(j, pbj__json_unsigned_at(f, at)); break;
    default: pbj__json_int32(j, pbj__json_signed_at(f, at)); break;
    }
}

/* A map entry's key (as a string) and value, inside its map's object. */
static inline void pbj__json_entry(pbj_json *j, const pbj_table *t, const uint8_t *e) {
    if (t->count < 2) return;
    const pbj_field *k = &t->fields[0], *v = &t->fields[1];
    const uint8_t *at = e + k->offset;
    switch (k->type) {
    case PBJ_TYPE_STRING: pbj__json_key_string(j, pbj__json_slice_at(at)); break;
    case PBJ_TYPE_BOOL: pbj__json_key_bool(j, *(const bool *)at); break;
    default:
        if (pbj__json_signed(k)) pbj__json_key_int(j, pbj__json_signed_at(k, at));
        else pbj__json_key_uint(j, pbj__json_unsigned_at(k, at));
        break;
    }
    pbj__json_value(j, v, e + v->offset, true);
}

/* A value not its type's zero (floats by their bits, strings and bytes by their length). */
static inline bool pbj__json_nonzero(const pbj_field *f, const uint8_t *at) {
    if (f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES) return pbj__json_slice_at(at).len != 0;
    size_t n = f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP ? sizeof(void *) : pbj__elem_size(f);
    for (size_t i = 0; i < n; i++)
        if (at[i]) return true;
    return false;
}

/* Whether field f of m is written: present, or at its default with emit_defaults where the mapping says so. */
static inline bool pbj__json_present(pbj_json *j, const pbj_table *t, const pbj_field *f, const void *m) {
    const uint8_t *at = pbj__at(m, f->offset);
    switch (f->mode) {
    case PBJ_MODE_OPTIONAL: return *pbj__at(m, f->presence) || (j->o.emit_defaults && !(f->flags & PBJ_F_PROTO3_OPTIONAL));
    case PBJ_MODE_WRAPPER: case PBJ_MODE_BY_VALUE: return *pbj__at(m, f->presence) != 0;
    case PBJ_MODE_ONEOF: return pbj__oneof_case(t, f, m) == f->number;
    case PBJ_MODE_ALWAYS: return true;
    case PBJ_MODE_REPEATED: case PBJ_MODE_MAP: return pbj__count_at(m, f->offset) || j->o.emit_defaults;
    default:
        if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) return pbj__ptr_at(at, 0) != NULL;
        return pbj__json_nonzero(f, at) || j->o.emit_defaults;
    }
}

/* Field f of m as "key":value, when it is written. */
static inline void pbj__json_field(pbj_json *j, const pbj_table *t, const pbj_field *f, const void *m) {
    if (!pbj__json_present(j, t, f, m)) return;
    const uint8_t *at = pbj__at(m, f->offset);
    pbj__json_field_key(j, t, f);
    if (f->mode != PBJ_MODE_REPEATED && f->mode != PBJ_MODE_MAP) {
        pbj__json_value(j, f, at, f->mode != PBJ_MODE_BY_VALUE);
        return;
    }
    size_t n = pbj__count_at(m, f->offset), size = pbj__elem_size(f);
    const uint8_t *data = (const uint8_t *)pbj__ptr_at(at, 0);
    pbj__json_begin(j, f->mode == PBJ_MODE_MAP ? '{' : '[');
    for (size_t i = 0; i < n; i++) {
        if (f->mode == PBJ_MODE_MAP) pbj__json_entry(j, f->sub, data + i * size);
        else {
            pbj__json_sep(j);
            pbj__json_value(j, f, data + i * size, false);
        }
    }
    pbj__json_end(j, f->mode == PBJ_MODE_MAP ? '}' : ']');
}

/* Every record of message extension f (merged into one message, each) decoded and written: a message, or an array
 * of them (repeated); a record that does not decode fails the write. */
static inline void pbj__json_ext_messages(pbj_json *j, const pbj_field *f, pbj_slice ext, int kind) {
    pbj_arena a;
    pbj_decoder d;
    pbj_slice s;
    pbj_status st = PBJ_OK;
    bool list = f->mode == PBJ_MODE_REPEATED;
    size_t k = pbj__ext_payloads(ext, f->number, kind, (size_t)-1, &s);
    pbj_arena_init(&a, NULL, 0);
    pbj_decoder_init(&d, &a, NULL);
    void *x = pbj_arena_alloc(&a, f->sub->size);
    if (!x) st = PBJ_ERR_NOMEM;
    else pbj__table_init(f->sub, x);
    if (list) pbj__json_begin(j, '[');
    for (size_t i = 0; i < k && st == PBJ_OK; i++) {
        pbj__ext_payloads(ext, f->number, kind, i, &s);
        if (list) pbj__table_init(f->sub, x);
        if ((st = f->sub->codec->decode(x, s.data, s.data + s.len, &d)) != PBJ_OK || !list) continue;
        pbj__json_sep(j);
        pbj__json_message(f->sub, x, j);
    }
    if (list) pbj__json_end(j, ']');
    else if (st == PBJ_OK) pbj__json_message(f->sub, x, j);
    pbj_arena_free(&a);
    if (st != PBJ_OK) pbj__json_fail(j, st == PBJ_ERR_NOMEM ? st : PBJ_ERR_JSON);   /* a record that does not decode */
}

/* Extension f of a message whose records are ext, as "[pkg.ext]": value (the last one), or values (repeated). */
static inline void pbj__json_ext(pbj_json *j, const pbj_table *t, const pbj_field *f, pbj_slice ext) {
    int kind = pbj__ext_kind(f) & ~PBJ__EXT_ITEM;   /* an item's message: its payloads */
    bool list = f->mode == PBJ_MODE_REPEATED, slice = f->type == PBJ_TYPE_STRING || f->type == PBJ_TYPE_BYTES;
    union { double d; int64_t i; pbj_slice s; } v;
    uint64_t w;
    if (f->type == PBJ_TYPE_MESSAGE || f->type == PBJ_TYPE_GROUP) {
        pbj__json_pool_key(j, t->pool + f->json_name);
        pbj__json_ext_messages(j, f, ext, kind);
        return;
    }
    size_t k = slice ? pbj__ext_payloads(ext, f->number, kind, (size_t)-1, &v.s) : pbj__ext_values(ext, f->number, kind, NULL, (size_t)-1, &w);
    if (!list && !k) return;
    pbj__json_pool_key(j, t->pool + f->json_name);
    if (list) pbj__json_begin(j, '[');
    for (size_t i = list ? 0 : k - 1; i < k; i++) {
        if (slice) pbj__ext_payloads(ext, f->number, kind, list ? i : (size_t)-1, &v.s);
        else pbj__ext_values(ext, f->number, kind, NULL, list ? i : (size_t)-1, &w), pbj__text_from_wire(f, w, &v);
        if (list) pbj__json_sep(j);
        pbj__json_value(j, f, (const uint8_t *)&v, false);
    }
    if (list) pbj__json_end(j, ']');
}

/* The extensions of m that t lists (exts) with numbers in [lo, hi], each once, from its records (the others are left
 * out, as unknown fields). */
static inline void pbj__json_exts(pbj_json *j, const pbj_table *t, const void *m, uint32_t lo, uint32_t hi) {
    pbj_slice ext;
    size_t pos = 0;
    uint32_t last = 0;
    pbj__ext_rec r;
    memcpy(&ext, pbj__at(m, t->ext), sizeof ext);
    while (pbj__ext_next(ext, &pos, &r)) {
        if (r.number < lo || r.number > hi || r.number == last) continue;
        last = r.number;                         /* a number's records are adjacent: its row writes them all */
        const pbj_field *f = pbj_table_ext(t, r.number);
        if (f) pbj__json_ext(j, t, f, ext);
    }
}

/* m's fields as an object, its extensions by number among them. */
static inline void pbj__json_object(const pbj_table *t, const void *m, pbj_json *j) {
    if (!pbj__json_open(j, '{')) return;
    bool exts = t->ext_count != 0;
    uint32_t next = 1;   /* the lowest extension number not written yet */
    for (uint32_t i = 0; i < t->count; i++) {
        const pbj_field *f = &t->fields[i];
        if (exts && f->number > next) pbj__json_exts(j, t, m, next, f->number - 1);
        next = f->number + 1;
        pbj__json_field(j, t, f, m);
    }
    if (exts && next != 0) pbj__json_exts(j, t, m, next, UINT32_MAX);
    pbj__json_close(j, '}');
}

/* Field n of m (a well-known type's), or NULL. */
static inline const uint8_t *pbj__json_member(const pbj_table *t, const void *m, uint32_t n) {
    const pbj_field *f = pbj_table_find(t, n);
    return f ? pbj__at(m, f->offset) : NULL;
}

/* A Value: its kind (a oneof's case) as JSON; no kind: null, as python's json_format writes it. */
static inline void pbj__json_kind(const pbj_table *t, const void *m, pbj_json *j) {
    const pbj_field *f = t->oneof_count && t->count ? &t->fields[0] : NULL;
    uint32_t c = f ? pbj__oneof_case(t, f, m) : 0;
    const pbj_field *k = c ? pbj_table_find(t, c) : NULL;
    const uint8_t *at = k ? pbj__at(m, k->offset) : NULL;
    double d;
    switch (k ? k->number : 0) {
    case 2: pbj__json_value_number(j, (memcpy(&d, at, 8), d)); break;
    case 3: pbj__json_string(j, pbj__json_slice_at(at)); break;
    case 4: pbj__json_bool(j, *(const bool *)at); break;
    case 5: case 6:
        if (pbj__ptr_at(at, 0)) pbj__json_message(k->sub, pbj__ptr_at(at, 0), j);
        else pbj__json_put(j, k->number == 5 ? "{}" : "[]", 2);
        break;
    default: pbj__json_null(j); break;
    }
}

/* A well-known type's own form (Struct's and ListValue's one level deeper, as messages). */
static inline void pbj__json_wkt(const pbj_table *t, const void *m, pbj_json *j) {
    const uint8_t *a = pbj__json_member(t, m, 1), *b = pbj__json_member(t, m, 2);
    int64_t seconds = 0;
    int32_t nanos = 0;
    if (a && (t->wkt == PBJ_WKT_TIMESTAMP || t->wkt == PBJ_WKT_DURATION)) memcpy(&seconds, a, 8);
    if (b && (t->wkt == PBJ_WKT_TIMESTAMP || t->wkt == PBJ_WKT_DURATION)) memcpy(&nanos, b, 4);
    switch (t->wkt) {
    case PBJ_WKT_ANY: pbj__json_any(j, pbj__json_slice_at(a), pbj__json_slice_at(b)); break;
    case PBJ_WKT_TIMESTAMP: pbj__json_timestamp(j, seconds, nanos); break;
    case PBJ_WKT_DURATION: pbj__json_duration(j, seconds, nanos); break;
    case PBJ_WKT_FIELD_MASK: pbj__json_field_mask(j, (const pbj_slice *)pbj__ptr_at(a, 0), pbj__count_at(a, 0)); break;
    case PBJ_WKT_VALUE: pbj__json_kind(t, m, j); break;
    case PBJ_WKT_STRUCT: case PBJ_WKT_LIST_VALUE: {
        bool list = t->wkt == PBJ_WKT_LIST_VALUE;
        const pbj_field *f = &t->fields[0];
        if (!pbj__json_open(j, list ? '[' : '{')) return;
        const uint8_t *data = (const uint8_t *)pbj__ptr_at(a, 0);
        for (size_t i = 0, n = pbj__count_at(a, 0); i < n; i++) {
            if (list) pbj__json_sep(j);
            if (list) pbj__json_message(f->sub, data + i * f->sub->size, j);
            else pbj__json_entry(j, f->sub, data + i * f->sub->size);
        }
        pbj__json_close(j, list ? ']' : '}');
        break;
    }
    default:   /* the wrappers: their value */
        if (t->count) pbj__json_value(j, &t->fields[0], pbj__at(m, t->fields[0].offset), true);
        break;
    }
}

#endif

/* m of t's type as a JSON value: its fields as an object, or a well-known type's own form. */
PBJ_OUTLINE_WARM void pbj__json_message(const pbj_table *t, const void *m, pbj_json *j) PBJ__PROTO
#if PBJ__BODIES
{
    if (t->wkt == PBJ_WKT_NONE || t->wkt == PBJ_WKT_EMPTY) pbj__json_object(t, m, j);
    else pbj__json_wkt(t, m, j);
}

#endif

#ifdef __cplusplus
}
#endif

#endif
