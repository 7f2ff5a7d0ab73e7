/* plan.h: what emit needs per message: C names, fields by number, oneof runs, presence, constant tag bytes. */
#ifndef PBJC_PLAN_H
#define PBJC_PLAN_H

#include "ir.h"
#include "options.h"

/* How a field is stored in the struct and handled on the wire. */
typedef enum plan_kind {
    PLAN_SCALAR,      /* numeric, bool, enum (int32_t) */
    PLAN_SLICE,       /* string or bytes: pbj_slice */
    PLAN_MESSAGE,     /* pointer (NULL = absent) */
    PLAN_WRAPPER,     /* google.protobuf.XxxValue unboxed: the wrapped value plus a has-bit */
    PLAN_MAP          /* entries of the synthetic *Entry message, sorted by key */
} plan_kind;

typedef struct plan_message plan_message;
typedef struct plan_oneof plan_oneof;

typedef struct plan_field {
    const ir_field *f;
    const char *name;             /* as text format prints it: the field name (a group's: its type name) */
    const char *member;           /* C member name (sanitized) */
    const char *has_member;       /* presence bit member, or NULL */
    int32_t number;
    plan_kind kind;
    ir_type type;                 /* for wrappers: the wrapped value's type */
    const char *ctype;            /* C type of one value ("int32_t", "pbj_slice", "acme_Sub") */
    const char *type_cname;       /* message or enum C name (messages, maps, enums), else NULL */
    bool repeated;
    bool packed;                  /* written packed (read both ways when packable) */
    bool packable;
    bool always;                  /* map entry fields: written and printed even when default */
    bool utf8;                    /* proto3 string: check UTF-8 on decode */
    bool closed_enum;             /* a proto2 enum: unknown values go to the unknown fields */
    bool group;                   /* a proto2 group: a message between start and end tags */
    bool sub_may_miss;            /* message, group or map whose type reaches a required field */
    bool required;                /* proto2 required: decode and encode check it is present */
    bool closed_map_value;        /* a map whose value is a closed enum: entries with unknown values go to unknown fields */
    const char *default_c;        /* C expression of a non-zero default ([default = ...], a closed enum's first value), or NULL */
    const char *cname;            /* extensions: "pkg_Scope_ext" (the accessor prefix), else NULL */
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
} plan_field;

struct plan_oneof {
    const ir_oneof *o;
    const char *member;           /* union member name; the case member is member + "_case" */
    const char *case_type;        /* "acme_Order_payment_case" */
    const char *none_const;       /* "acme_Order_payment_NOT_SET" */
    IR_VEC(plan_field *) fields;  /* by number */
};

struct plan_message {
    const ir_message *m;
    const char *cname;            /* "acme_shop_Order" */
    const options_resolved *options;     /* resolved pbj options (options_of: never NULL) */
    const char *options_text;     /* the same as one line (options_describe), for the header comment */
    IR_VEC(plan_field) fields;    /* by number (groups as messages) */
    IR_VEC(plan_oneof *) oneofs;  /* real oneofs, declaration order */
    bool map_entry;
    bool proto3;
    bool msgset;                  /* message_set_wire_format: extensions are items of group 1 */
    bool may_miss;                /* a required field here or in a message reached: M_missing walks it */
    IR_VEC(ir_range) ext_ranges;  /* extension ranges, ascending; records in them are kept in pbj_ext */
    IR_VEC(plan_field *) known_ext;      /* extensions of this message the run knows (any file), by number */
};

typedef struct plan_enum {
    const ir_enum *e;
    const char *cname;            /* "acme_shop_Color" */
    IR_VEC(const char *) value_cnames;   /* per ir value, "acme_shop_Color_RED" */
} plan_enum;

typedef struct plan_file {
    const ir_file *f;
    IR_VEC(plan_message *) messages;     /* every message of the file, depth first */
    IR_VEC(plan_enum *) enums;           /* every enum of the file, top level and nested */
    IR_VEC(plan_field *) extensions;     /* every extend field of the file (typed accessors) */
} plan_file;

/* Plan one file (its messages may refer to other files' messages by C name). */
plan_file *plan_build(const ir_file *f);
/* The same, with the extensions of every file of prog known to f's messages
 * (kept in pbj_ext, in number order, and printed by name where they can be). */
plan_file *plan_build_in(const ir_file *f, const ir_program *prog);

/* Every C name at file scope the generated code of prog's files declares (types, functions, enum values,
 * oneof constants, accessors): two declarations giving the same name are reported (diag_error at the later
 * one); returns how many. Names are never changed to avoid a clash. */
int plan_check_names(const ir_program *prog);

/* C names, shared with emit for referenced types of other files. */
const char *plan_message_cname(const ir_message *m);
const char *plan_enum_cname(const ir_enum *e);
const char *plan_sanitize(const char *name);    /* C keyword or reserved: name + "_" */

/* Wrapper types unboxed: google.protobuf.Int32Value -> INT32 etc.; IR_TYPE_UNRESOLVED if m is not one. */
ir_type plan_wrapper_type(const ir_message *m);

#endif
