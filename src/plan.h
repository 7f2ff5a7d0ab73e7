/* plan.h: what emit prints, decided once per file: C names, each field's shape and code expressions, order, oneof runs. */
#ifndef PBJC_PLAN_H
#define PBJC_PLAN_H

#include "ir.h"
#include "names.h"

/* How a field is stored in the struct and handled on the wire. */
typedef enum plan_kind {
    PLAN_SCALAR,      /* numeric, bool, enum (int32_t) */
    PLAN_SLICE,       /* string or bytes: pbj_slice */
    PLAN_MESSAGE,     /* pointer (NULL = absent) */
    PLAN_WRAPPER,     /* google.protobuf.XxxValue unboxed: the wrapped value plus a has-bit */
    PLAN_MAP          /* entries of the synthetic *Entry message, sorted by key */
} plan_kind;

/* A field's shape: the cases that generate different code. Each operation of
 * gen-templates/field.tmpl has one section per shape (<op>_<shape>). X(ENUM, section suffix, the suffix of views' and
 * writers' sections: they read and write bytes, which a struct's layout does not change) */
#define PLAN_SHAPES(X, a)                                                                                       \
    X(SCALAR, scalar, scalar, a)                   /* number, string or bytes; written when not zero */         \
    X(OPTIONAL, optional, optional, a)             /* the same with a has-bit (proto2, proto3 optional) */      \
    X(ALWAYS, always, always, a)                   /* a map entry's key or value: always written */             \
    X(ONEOF, oneof, oneof, a)                      /* a oneof member that is not a message */                   \
    X(PACKED, packed, packed, a)                   /* repeated, written packed (either form read) */            \
    X(REPEATED, repeated, repeated, a)             /* repeated packable, written unpacked (either form read) */ \
    X(SLICES, slices, slices, a)                   /* repeated string or bytes */                               \
    X(MESSAGE, message, message, a)                /* a message or group pointer, NULL = absent */              \
    X(MESSAGE_ONEOF, message_oneof, message_oneof, a)    /* the same as a oneof member */                       \
    X(MESSAGE_ALWAYS, message_always, message_always, a) /* a map entry's message value */                      \
    X(MESSAGES, messages, messages, a)             /* repeated message or group */                              \
    X(MAP, map, map, a)                            /* map entries, sorted by key */                             \
    X(MAP_MESSAGE, map_message, map_message, a)    /* the same, values messages (pointers that never move) */   \
    X(MAP_CLOSED, map_closed, map_closed, a)       /* a map whose value is a closed enum */                     \
    X(WRAPPER, wrapper, wrapper, a)                /* google.protobuf.XxxValue unboxed */                       \
    X(MESSAGE_VALUE, message_value, message, a)    /* a message held by value with a has-bit (pbj.by_value) */

/* What is generated for every field: one section of field.tmpl per shape (<op>_<shape>). X(ENUM, section prefix) */
#define PLAN_OPS(X)                                                                                   \
    X(TYPES, types) X(MEMBER, member) X(DEFINE, define) X(INIT, init) X(SIZE, size) X(DECODE, decode)       \
    X(SORT, sort) X(ACCESSORS, accessors)                          \
    X(RWRITE, rwrite)   /* the reverse encoder (gen-templates/field_rwrite.tmpl) */                  \
    X(HELPERS, helpers) X(HELPERS_SOURCE, helpers_source)   /* building messages (field_helpers.tmpl) */

#define PLAN_ENUM_ITEM(E, s) PLAN_OP_##E,
typedef enum plan_op { PLAN_OPS(PLAN_ENUM_ITEM) PLAN_OP_COUNT } plan_op;
#undef PLAN_ENUM_ITEM

#define PLAN_ENUM_ITEM(E, s, v, a) PLAN_SHAPE_##E,
typedef enum plan_shape { PLAN_SHAPES(PLAN_ENUM_ITEM, 0) PLAN_SHAPE_COUNT } plan_shape;
#undef PLAN_ENUM_ITEM

/* An extension's shape: the cases that generate different accessors (ext.tmpl's <op>_<shape>). */
#define PLAN_EXT_SHAPES(X, a)                                                                  \
    X(VALUE, value, a)         /* a number */                                                    \
    X(SLICE, slice, a)         /* a string or bytes */                                           \
    X(MESSAGE, message, a)     /* a message */                                                   \
    X(GROUP, group, a)         /* a group */                                                     \
    X(ITEM, item, a)           /* a message of a message set: written as an item */              \
    X(VALUES, values, a)       /* repeated numbers */                                            \
    X(PACKED, packed, a)       /* repeated numbers, packed */                                    \
    X(SLICES, slices, a)       /* repeated strings or bytes */                                   \
    X(MESSAGES, messages, a)   /* repeated messages */                                           \
    X(GROUPS, groups, a)       /* repeated groups */

#define PLAN_ENUM_ITEM(E, s, a) PLAN_EXT_##E,
typedef enum plan_ext_shape { PLAN_EXT_SHAPES(PLAN_ENUM_ITEM, 0) PLAN_EXT_COUNT } plan_ext_shape;
#undef PLAN_ENUM_ITEM

/* What is generated for every extension (ext.tmpl's <op>_<shape>). */
#define PLAN_EXT_OPS(X) X(HEADER, header) X(RECORD, record) X(SOURCE, source)

#define PLAN_ENUM_ITEM(E, s) PLAN_EXT_OP_##E,
typedef enum plan_ext_op { PLAN_EXT_OPS(PLAN_ENUM_ITEM) PLAN_EXT_OP_COUNT } plan_ext_op;
#undef PLAN_ENUM_ITEM

/* How one value is read (value.tmpl's read_<class>). */
#define PLAN_READS(X) X(FIXED, fixed) X(SLICE, slice) X(UTF8, utf8) X(VARINT, varint) X(CLOSED_ENUM, closed_enum)
/* Whether values have one size (value.tmpl's <op>_fixed or <op>_varying). */
#define PLAN_WIDTHS(X) X(FIXED, fixed) X(VARYING, varying)
/* How a message is framed on the wire (value.tmpl's <op>_len or <op>_group). */
#define PLAN_FRAMINGS(X) X(LEN, len) X(GROUP, group)

#define PLAN_ENUM_ITEM(E, s) PLAN_READ_##E,
typedef enum plan_read { PLAN_READS(PLAN_ENUM_ITEM) } plan_read;
#undef PLAN_ENUM_ITEM
#define PLAN_ENUM_ITEM(E, s) PLAN_WIDTH_##E,
typedef enum plan_width { PLAN_WIDTHS(PLAN_ENUM_ITEM) } plan_width;
#undef PLAN_ENUM_ITEM
#define PLAN_ENUM_ITEM(E, s) PLAN_FRAMING_##E,
typedef enum plan_framing { PLAN_FRAMINGS(PLAN_ENUM_ITEM) } plan_framing;
#undef PLAN_ENUM_ITEM

/* Each generated API's variables of a field: one struct per API, a member of plan_code named after it, filled by
 * its own plan function (plan.c's plan_<api>_code); its templates read them as $<api>.<name>$. */

/* Building messages (field_helpers.tmpl): plan_helper_code; the field's helpers ("" when its shape has none). */
typedef struct plan_helpers {
    const char *add, *set, *mutable_, *put, *get;
    const char *set_str, *add_str;  /* string fields: the setter and add taking a NUL-terminated string */
    const char *add_many;         /* repeated numbers: add appending n values from an array */
    const char *params, *value;   /* the setter's parameters, the statements making its v */
    const char *ret, *done;       /* the setter's return type and last statement (strings and bytes: a status) */
    const char *key_type, *key, *key_copy;  /* maps: the key's type, the entry's key member, the statement copying it */
    const char *entry;            /* maps: the function giving key's entry, added when absent (put, mutable, merge) */
    const char *val_type, *val;   /* maps: the value's C type (a message's struct), the entry's value member */
    const char *val_set;          /* maps of numbers, strings, bytes: put's statements storing value into e */
    const char *val_init;         /* maps of messages: the value type's M_init */
    const char *put_check;        /* maps: put's statements refusing a key or value that must be UTF-8 and is not */
    const char *mutable_check;    /* maps of messages: mutable's, for the key */
} plan_helpers;

/* Writers (wfield.tmpl): plan_writer_code; the field's functions ("" when its shape has none). */
typedef struct plan_writer {
    const char *type;                             /* the message's writer type */
    const char *set, *add, *from, *raw, *put;
    const char *open;                             /* message fields: the function opening a child (set or add) */
    const char *check;                            /* strings: the statement checking UTF-8 first, else "" */
    const char *max;                              /* the most bytes one value takes with its tag (room check) */
    const char *write, *write_e;                  /* write and write_e, always inline (rt/pbj_writer.h) */
    const char *sub_type, *sub_wtype;             /* a message field's type: its writer type, its pbj_wtype */
    const char *key, *pos, *bit;                  /* order key (2n), the order place after a call, its oneof's bit */
    const char *mark;                             /* oneof members: the statement marking the oneof written */
    const char *params, *value;                   /* a value's parameters, the member value they make */
    const char *end_tag;                          /* groups: the end tag's value; else "0" */
    const char *reserve, *fixed;                  /* a child's length bytes to reserve; "true" when always 1 */
    const char *tracks;                           /* "true" when the child's type marks pbj_writer.oneofs */
    const char *k_member, *k_type, *v_member, *v_type;   /* maps: the entry's key and value */
    const char *k_ord, *k_data, *k_len;           /* maps: a key's order as uint64_t, or its bytes */
} plan_writer;

/* Views (pbj.views, viewfield.tmpl, viewext.tmpl): plan_view_code, plan_ext_view_code; "" when the message has none. */
typedef struct plan_view {
    const char *type;             /* the message's view type */
    const char *get, *has, *next; /* the field's accessors */
    const char *qual;             /* a message field's accessor: always inline when its type's scan is (a leaf) */
    names_view sub;               /* a message field's type's view */
    const char *slot;             /* "v->slot[i]": where the scan left it */
    const char *present;          /* condition: the field was read */
    const char *value;            /* its value, when present */
    const char *default_;         /* its value, when absent */
    const char *current;          /* its value, present or not */
    const char *from;             /* the value of wire number w (iterators) */
    const char *tag, *packed_tag; /* the tag of one value (groups: the start tag), of a packed run or 0 */
    const char *label;            /* "v_<tag>:" where the scan's prediction jumps to this case, else "" */
    const char *self;             /* "1": the case predicts its own tag again (repeated, unpacked); else "" */
    const char *keep;             /* condition on the read value w: kept (a closed enum's known values) */
    const char *mark;             /* after a read: its oneof's case set, its slot's n set (presence), or "" */
    const char *load;             /* fixed width: the bits at p */
    const char *next_fn;          /* repeated slices and messages: the runtime's next (a group's body or a payload) */
    const char *tag_byte;         /* tag when it is one byte, else "0" */
    const char *sub_at, *sub_len; /* a message field's payload: offset and length in buf (an absent one's slot is zero) */
    const char *reach;            /* an extension's message: the levels below it its scan does not check (plan.c view_reach) */
    const char *read, *store, *frame, *predict;   /* pieces: the scan's (view_scan), by read and framing */
} plan_view;

/* The reverse encoder (fast_write, field_rwrite.tmpl): plan_reverse_code; statements writing before p. */
typedef struct plan_reverse {
    const char *write, *write_e;  /* x, element i */
    const char *room;             /* the room x asks for beyond the margin (strings and bytes), or "" */
    const char *max_e;            /* the most bytes element i takes with its tag */
    const char *tag, *end_tag;    /* the tag, a group's end tag */
    const char *depth;            /* the depth argument to a type on a cycle, or "" */
    /* pieces (emit's fill_reverse, fill_unchecked: M__write's have no room checks), by framing, sub_reverse, sub_inlined: */
    const char *msg, *empty;      /* the message at wtarget, an empty one, framed and tagged */
    const char *callee;           /* the function writing the message (subfn's, or its inline twin) */
    const char *forward;          /* a message without fast_write sized (s) and written by its M__write */
    const char *room_e, *wrapper_unknown;   /* an element's room check, a wrapper's unknown fields */
    const char *exact, *rbound;   /* a message written where its walk found no room, sized exactly; pf's rbound */
} plan_reverse;

/* An extension's accessors and records (ext.tmpl, viewext.tmpl, and the extension sections of the JSON and text
 * templates): plan_ext_code; the value is v. */
typedef struct plan_ext {
    names_extension fn;           /* the accessors */
    const char *extendee, *extendee_full;
    const char *wt;               /* wire type of one value (| PBJ__EXT_PACKABLE, rt/pbj.h) */
    const char *valid;            /* a closed enum's check (its name function), else "NULL": decode's */
    const char *default_value;    /* of the getter, when absent */
    const char *value_type;       /* of set and add's v */
    const char *size_v, *write_v, *size_x, *write_x, *from_w;
    const char *count_type, *count_fn, *count_test;   /* has or count */
    const char *get_fn, *get_params, *idx;            /* get or at */
    const char *record;           /* filled by emit: statements building the record of v */
    const char *check;            /* set and add: the statement refusing a string v that must be UTF-8 and is not */
} plan_ext;

/* The field's tags (field.tmpl, value.tmpl, ext.tmpl): plan_wire_code. */
typedef struct plan_wire {
    const char *tag, *alt_tag;    /* tag values as case labels */
    const char *tag_len;
    const char *tag_write;        /* statements writing the tag bytes */
    const char *end_tag_write;    /* groups: the end tag */
    const char *label, *alt_label;  /* "f_<tag>:" where a prediction jumps to this case, else "" */
    const char *predict;          /* piece (fill_decode): jumps to the case of the tag expected next */
    const char *tag_match;        /* ", 0x.." for each tag byte (the predict section's pbj__at_tag<tag_len> test) */
    const char *tag_decimal;      /* the tag value in decimal (labels) */
} plan_wire;

/* The text of a field's code (all C text; "" when not used): the variables every operation of field.tmpl and
 * value.tmpl shares, and one nested struct per generated API (above), each filled by its own plan function; view
 * and writer only where the message has them (NULL), ext only for extensions, subfn only for message fields (others
 * share one of "").
 * Members marked "piece" are not the plan's: they are a template section the plan chose (by read, width, framing,
 * sub_reverse, ...) expanded with the field's own variables, which emit makes for one field at a time, in a copy
 * of its variables, as it writes the section that reads them (emit.c's put_section), and drops after: a run keeps
 * no piece. (Item 2 of issue 25 wanted them planned: that needs templates the plan can expand, left to do.) */
typedef struct plan_code {
    const char *name;             /* as text format prints it */
    const char *full_name;        /* "pkg.Msg.field" */
    const char *member;           /* C member */
    const char *has_member;       /* presence bit member */
    const char *ctype;            /* C type of one value */
    const char *sub;              /* message or enum C name */
    const names_message *subfn;   /* a message's functions (other fields: one set of "" they share) */
    const char *sub_name_fn;
    const char *number;
    const char *doc;              /* the .proto's comments as a C comment, or "" */
    const char *number_note;      /* the member's comment: its number (and an enum's type) */
    const char *array_type;       /* repeated and map fields: the named type of the array */
    const char *tag_define;       /* the macro of the field's number */
    const char *x;                /* the member in m */
    const char *c;                /* the message's C name */
    const char *oneof;            /* the union member of its oneof */
    const char *case_member;      /* its oneof's case member */
    const char *case_const;       /* its oneof case constant */
    const char *none_const;       /* its oneof's NOT_SET */
    const char *has_fn, *clear_fn;  /* presence accessors */
    const char *set_default;      /* "m->x = <default>;" or "" */
    plan_wire wire;               /* the tags */
    /* values */
    const char *present;          /* condition: written and printed */
    const char *nonzero;          /* x is not its type's zero */
    const char *size, *size_e;    /* encoded size of x, of element i */
    const char *write, *write_e;  /* statement writing x, element i */
    const char *count_size;       /* fixed width: size of all elements */
    const char *width;            /* fixed width: bytes of one */
    const char *dst;              /* where a read value goes */
    const char *end;              /* piece (fill_decode): the end of the input a value is read from */
    const char *mark;             /* after a read: presence set ("m->has_x = 1;", the oneof case) */
    const char *from_load, *from_v; /* C value of the loaded fixed bits, of the varint v */
    const char *varint_in;        /* the reader of a varint past two bytes: inline in the max tier */
    /* messages */
    const char *framed;           /* size of one with tag and framing, its payload size in s */
    const char *empty_size;       /* size of an empty one with tag */
    const char *size_sub;         /* the size of the message at wtarget (with the depth left when its type recurses) */
    const char *size_deep;        /* piece (fill_size): the size's check when the type reaches a cycle (PBJ_SIZE_ERROR) */
    const char *wtarget, *rtarget;  /* pointer written, read */
    /* wrappers */
    const char *wrapper_size, *inner_tag, *v_init, *s_init, *wrapper_value, *utf8;
    const char *wrapper_unknown;  /* the member keeping the unknown fields inside its payload */
    const char *unknown;          /* where decode keeps the message's unknown fields: "&m->pbj_unknown", or "NULL" (dropped) */
    const char *clear_wrapper_unknown;  /* the clear accessor's statement forgetting them, or "" */
    const char *decode_fn;        /* a message field's decoder: its type's M__decode, or M__decode_leaf (inlined) */
    /* maps */
    const char *cmp_fn;           /* the entries' order by key (the runtime's pbj__key_cmp_*) */
    /* map whose values are a closed enum */
    const char *value_enum, *value_member;
    plan_ext *ext;                /* an extension's accessors (ext.tmpl) and records: NULL for a message's field */
    plan_view *view;              /* views: NULL when the field's message (an extension's extendee) has none */
    /* pieces (fill_decode, fill_size): value.tmpl's sections by read, width, framing */
    const char *read, *read_pe, *payload, *sizes, *packed_count, *read_msg;
    plan_reverse reverse;         /* the reverse encoder */
    plan_writer *writer;          /* writers: NULL when the field's message has none */
    plan_helpers helpers;         /* building messages */
} plan_code;

/* The field table of a message (src/plan_table.c, gen-templates/table.tmpl, rt/pbj_table.h's pbj_table):
 * every value C text. One row per field: */
typedef struct plan_table_row {
    const char *number, *type, *mode, *flags;
    const char *member;           /* "PBJ_MEMBER(M, f)": its offset and size */
    const char *presence;         /* the has member's offset, the oneof's index, or "0" */
    const char *name, *json_name; /* offsets in the file's pool */
    const char *sub;              /* "&Sub__table" or "NULL" */
    const char *en;               /* "&E__enum" or "NULL" */
    const char *what;             /* the field's name, for the row's comment */
} plan_table_row;

typedef struct plan_table_oneof {
    const char *case_member, *member, *name;   /* in the struct; the name's offset in the pool */
} plan_table_oneof;

typedef struct plan_table {
    const char *table, *fields, *oneofs;     /* M__table, and its static arrays (or "NULL") */
    const char *init_fn;                     /* M__init_table when M_init sets defaults, else "" */
    const char *init;                        /* init_fn or "NULL" */
    const char *c, *full, *pool;             /* the struct, its full name, the file's pool */
    const char *name, *size, *count, *dense, *oneof_count, *unknown, *ext, *flags;
    const char *ext_singular, *ext_numbers;  /* M__ext_singular (or "NULL"), and its numbers ("100, 101, ") */
    const char *compare, *compare_keys;      /* M__compare_keys (or "NULL"), and its keys */
    const char *wkt;                         /* "PBJ_WKT_..." */
    IR_VEC(plan_table_row) rows;
    IR_VEC(plan_table_oneof) oneof_rows;
    const char *codec;                       /* PBJ_CODEC (fast_write: PBJ_CODEC_REVERSE) with its arguments */
    const char *exts, *ext_count;            /* M__exts (or "NULL"): the extensions it prints by name, a row each */
    const char *ext_ranges, *ext_range_count, *ranges;   /* M__ext_ranges (or "NULL") and its {start, end} pairs */
    IR_VEC(plan_table_row) ext_rows;
    IR_VEC(const char *) ext_externs;        /* declarations of the tables and enums of extensions in other files */
    const char *view;                        /* "&M_view__layout" when M has views, else "NULL" */
    const char *view_layout;                 /* PBJ_VIEW_LAYOUT's arguments (views only) */
    const char *view_raw, *view_raw_tags;    /* M__view_ext_raw (or "NULL"), and its tags ("0x323, ") */
} plan_table;

/* A piece of a file's table string pool: its strings inside one C string literal (no quotes; its implicit NUL ends
 * the last), and its size in bytes with that NUL. */
typedef struct plan_pool_chunk {
    const char *text, *size;
} plan_pool_chunk;

typedef struct plan_message plan_message;
typedef struct plan_oneof plan_oneof;
typedef struct plan_field plan_field;
typedef IR_VEC(plan_field *) plan_fields;

struct plan_field {
    const ir_field *f;
    const char *name;             /* as text format prints it: the field name (a group's: its type name) */
    const char *member;           /* C member name (sanitized) */
    const char *has_member;       /* presence bit member, or NULL */
    int32_t number;
    plan_kind kind;
    plan_shape shape;
    plan_read read;
    plan_width width;
    plan_framing framing;
    ir_type type;                 /* for wrappers: the wrapped value's type */
    const char *ctype;            /* C type of one value ("int32_t", "pbj_slice", "acme_Sub") */
    const char *type_cname;       /* message or enum C name (messages, maps, enums), else NULL */
    bool repeated;
    bool packed;                  /* written packed (read both ways when packable) */
    bool packable;
    bool always;                  /* map entry fields: written and printed even when default */
    bool utf8;                    /* a string that VERIFYs (proto3's): check UTF-8 on decode */
    bool closed_enum;             /* a proto2 enum: unknown values go to the unknown fields */
    bool group;                   /* a proto2 group: a message between start and end tags */
    bool sub_may_miss;            /* message, group or map whose type reaches a required field */
    bool required;                /* proto2 required: decode and encode check it is present */
    bool closed_map_value;        /* a map whose value is a closed enum: entries with unknown values go to unknown fields */
    bool message_map_value;       /* a map whose value is a message: its helpers hand out the value, which never moves */
    const char *default_c;        /* C expression of a non-zero default ([default = ...], a closed enum's first value), or NULL */
    const char *cname;            /* extensions: "pkg_Scope_ext" (the accessor prefix), else NULL */
    plan_ext_shape ext_shape;     /* extensions */
    const char *extendee_cname;   /* extensions: the extended message's C name */
    bool msgset;                  /* extensions of a message_set_wire_format message: written as an item */
    bool foreign;                 /* an extension declared in another file than its extendee's */
    plan_oneof *oneof;            /* real oneof, or NULL */
    uint8_t tag[5];               /* the tag as written (packed: wire type 2) */
    int tag_len;
    uint32_t tag_value;
    uint8_t end_tag[5];           /* groups: the end-group tag (as long as tag) */
    uint8_t alt_tag[5];           /* repeated packable: the other wire type's tag, also accepted */
    int alt_tag_len;
    uint32_t alt_tag_value;
    bool predict_self;            /* repeated unpacked: after one, predict the next is the same field */
    bool sub_reverse;             /* a message or map whose type's fast_write is on: it has M__write_reverse */
    bool sub_inlined;             /* sub_reverse, and its type's reverse encoder and M__write are inlined here */
    bool sub_recursive;           /* a message or map whose type is on a cycle of types: its M__size counts depth */
    bool sub_deep;                /* a message or map whose type reaches such a cycle: its size can be PBJ_SIZE_ERROR */
    bool by_value;                /* a singular message held by value with a has-bit (its type's pbj.by_value) */
    int rbound;                   /* the reverse encoder: the most bytes written outside the room it asks for */
    plan_code code;               /* the field's code text (message fields) */
};

struct plan_oneof {
    const ir_oneof *o;
    const char *member;           /* union member name */
    const char *case_member;      /* member + "_case" */
    const char *case_type;        /* "acme_Order_payment_case" */
    const char *none_const;       /* "acme_Order_payment_NOT_SET" */
    IR_VEC(plan_field *) fields;  /* by number */
    const char *view_case_fn;     /* views: the accessor of its case */
    int view_index;               /* views: its index in the view's cases */
};

/* A key of pbj.comparable: a field, or a oneof (its case, then the value of the member set). */
typedef struct plan_compare_key {
    const plan_field *field;
    const plan_oneof *oneof;
} plan_compare_key;

struct plan_message {
    const ir_message *m;
    const char *cname;            /* "acme_shop_Order" */
    const char *doc;              /* the .proto's comments as a C comment, or "" */
    names_message fn;             /* its functions */
    const char *options_text;     /* the header comment's line of the pbj options that differ from their defaults
                                   * (options_describe_changed), or "" when none does (--explain-options says all) */
    bool fast_write;              /* pbj.fast_write resolves true: M_write_reverse */
    bool reverse_inlined;         /* fast_write, and written by one field of a later message of its file, whose
                                   * encoders inline its reverse encoder and M__write (no inlining in a circle) */
    IR_VEC(plan_field) fields;    /* by number (groups as messages) */
    IR_VEC(plan_oneof *) oneofs;  /* real oneofs, declaration order */
    bool map_entry;
    bool msgset;                  /* message_set_wire_format: extensions are items of group 1 */
    bool by_value;                /* pbj.by_value: its parents hold it by value, so its struct comes first in the header */
    bool unknown;                 /* keeps unknown fields in pbj_unknown: unless pbj.drop_unknown (extendable ones always) */
    bool may_miss;                /* a required field here or in a message reached: M_missing walks it */
    IR_VEC(ir_range) ext_ranges;  /* extension ranges, ascending; records in them are kept in pbj_ext */
    plan_fields known_ext;        /* extensions of this message the run knows (any file), by number */
    plan_fields ext_append;       /* of those, one per number, the ones decode appends (repeated, messages) */
    plan_fields ext_replace;      /* and the ones a later record replaces (singular numbers) */
    plan_fields ext_printed;      /* one per number whose type's functions are in scope: printed by name */
    plan_fields ext_listed;       /* one per number: its table's rows (ext_printed's, the others PBJ_F_UNTYPED) */
    bool views;                   /* pbj.views resolves true: M_view and its accessors */
    bool json;                    /* pbj.json resolves true: M_to_json and M_from_json */
    bool text_read;               /* pbj.text_read resolves true: M_from_text */
    names_view view;              /* its names */
    const char *view_ext_in;      /* views of a message with extension ranges: the condition that a record's tag lies in them */
    const char *view_qual;        /* its scan's qualifiers: always inline for a leaf (view_leaf), else static inline */
    bool view_leaf;               /* that leaf: its scan zeroes the whole view, which then stays in registers */
    uint32_t view_check;          /* views: its scan's depth check (plan.c view_check), 0 for none */
    bool writers;                 /* pbj.writers resolves true (never for map entries) */
    names_writer wn;              /* its writer's type and functions */
    const char *compare_fn;       /* pbj.comparable: M_compare, or NULL */
    IR_VEC(plan_compare_key) compare_keys;   /* pbj.comparable's keys, in its order */
    const char *wrequired;        /* the rest of its pbj_wtype's initializer: slot, required bits, first, names, children */
    const char *wrequired_mask;   /* its required fields' bits ("0": none) */
    bool decode_leaf;             /* max tier, scalars only: its decoder is inlined where its file decodes it */
    bool recursive;               /* on a cycle of message types: M__size and M__write_reverse count the depth */
    bool deep;                    /* reaches such a cycle: its size can be PBJ_SIZE_ERROR (too deep, or a cycle) */
    plan_table table;             /* its field table (plan_table_file) */
    bool table_wire;              /* the size tier: M_size, M__write and M__decode walk its table (rt/pbj_table_wire.h) */
};

/* One value's row of an enum's table: its number, its name's offset in the pool, the name (a comment). */
typedef struct plan_enum_row {
    const char *number, *name, *what;
} plan_enum_row;

/* An enum's table (rt/pbj_table.h): E__enum, its static arrays, its members as C text. */
typedef struct plan_enum_table {
    const char *table, *values, *by_name;
    const char *pool, *name, *count, *dense, *flags;
    const char *index;                   /* by_name's indexes into the rows, "2, 0, 1" */
    IR_VEC(plan_enum_row) rows;          /* by number */
} plan_enum_table;

typedef struct plan_enum {
    const ir_enum *e;
    plan_enum_table table;        /* its table (plan_table_file) */
    const char *cname;            /* "acme_shop_Color" */
    const char *name_fn;          /* "acme_shop_Color_name" */
    const char *from_name_fn;     /* "acme_shop_Color_from_name" */
    const char *doc;              /* the .proto's comments as a C comment, or "" */
    IR_VEC(const char *) value_cnames;   /* per ir value, "acme_shop_Color_RED" */
    IR_VEC(const char *) value_docs;     /* per ir value, its comments as a C comment, or "" */
} plan_enum;

/* A service's table for an RPC layer (gen-templates/service.tmpl). */
typedef struct plan_service {
    const ir_service *s;
    const char *table, *methods;  /* the table's C name, its methods' array */
    const char *rows;             /* the methods' rows */
} plan_service;

typedef struct plan_file {
    const ir_file *f;
    ir_pool *pool;                       /* the plan's */
    IR_VEC(plan_message *) messages;     /* every message of the file, depth first */
    IR_VEC(plan_enum *) enums;           /* every enum of the file, top level and nested */
    IR_VEC(plan_field *) extensions;     /* every extend field of the file (typed accessors) */
    names_list enum_names, message_names, extension_names;  /* every C name declared at file scope */
    IR_VEC(plan_service *) services;
    IR_VEC(const char *) header_imports; /* the .proto files whose headers its header includes: its imports but
                                          * "import option" ones (those serve options only, no code) */
    IR_VEC(const char *) source_imports; /* and its source: other files of message set items it prints by name */
    const char *table_pool;              /* the name of the string pool of its field tables */
    IR_VEC(plan_pool_chunk) table_pool_chunks;   /* its text, in chunks of one C string literal each */
    const struct plan_file *run_home;    /* an input's: the input whose .pb.c holds the run's copy of the runtime
                                          * when its .pb.c shares it (its own included); NULL: static copies */
} plan_file;

/* Plans of every file of a program, in prog->files order: emit's only input. */
typedef struct plan_program {
    const ir_program *prog;
    ir_pool *pool;                       /* the run's (pbjc_context): the plan and emit's text live in it */
    IR_VEC(plan_file *) files;
} plan_program;

/* The plan phase, after options_resolve: plan_build plans every file of prog once (each file's messages know
 * the extensions of every file), in pool; plan_check then reports what would stop the generated code from
 * compiling or linking (main.c runs both for --check as for -o). */
plan_program *plan_build(const ir_program *prog, ir_pool *pool);
/* Returns the errors reported: C names at file scope two declarations share (types, functions, enum values,
 * oneof constants, accessors; diag_error at the later one; names are never changed to avoid a clash), and
 * views or writers reaching a message of a file this run does not generate. */
int plan_check(const plan_program *pp);
/* The plan of one file of the program. */
plan_file *plan_of(const plan_program *pp, const ir_file *f);

/* The field tables of pf's messages and its string pool (src/plan_table.c), after every message is planned. */
void plan_table_file(ir_pool *pool, plan_file *pf);
/* Sets every input's run_home when one input imports another (src/plan_run.c), after every file is planned. */
void plan_run_home(plan_program *pp);
/* A C string literal of exactly s[0..n) (octal escapes of three digits: they never run into the next byte). */
const char *plan_c_string_literal(ir_pool *pool, const char *s, size_t n);

#endif
