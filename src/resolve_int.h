/* resolve_int.h: state shared by the resolver's files (resolve, names, checks, defaults, options, interpret). */
#ifndef PBJC_RESOLVE_INT_H
#define PBJC_RESOLVE_INT_H

#include <assert.h>
#include <string.h>

#include "diag.h"
#include "ir.h"
#include "std_options.h"
#include "symtab.h"

#define RESERVED_NUMBER_FIRST 19000
#define RESERVED_NUMBER_LAST 19999

typedef enum sym_kind {
    SYM_PACKAGE, SYM_MESSAGE, SYM_ENUM, SYM_ENUM_VALUE, SYM_FIELD, SYM_ONEOF, SYM_SERVICE, SYM_METHOD
} sym_kind;

typedef struct rfile rfile;

/* One named thing in the global symbol table (full name without leading dot). */
typedef struct sym {
    sym_kind kind;
    const char *full_name;
    ir_file *file;               /* defining file; for a package the first file declaring it */
    rfile *home;                 /* the resolver's state of that file */
    union {
        void *any;
        ir_message *message;
        ir_enum *enumeration;
        ir_enum_value *enum_value;
        ir_field *field;
        ir_oneof *oneof;
        ir_service *service;
        ir_method *method;
    } u;
} sym;

/* The resolver's state for one file, in resolver.files while resolve runs. */
struct rfile {
    ir_file *file;
    int load_state;              /* 0 not seen, 1 loading (on the import stack), 2 loaded */
    unsigned visible_stamp;      /* == resolver.stamp: visible from the file being linked */
    IR_VEC(ir_file *) deps;      /* direct imports and what they re-export with import public */
};

typedef struct resolver {
    ir_program *prog;
    ir_pool *pool;               /* prog's: what resolve allocates */
    diag_counts *diag;           /* prog's: what its diagnostics count into */
    symtab files;                /* virtual name -> rfile */
    symtab syms;                 /* full name -> sym */
    symtab ext_numbers;          /* "extendee#number" -> ir_field (extension numbers in use) */
    ir_file *cur;                /* the file whose names are being bound */
    ir_program *schema;          /* what standard options are read against when no descriptor.proto was read
                                  * from disk: pbjc's newer one, resolved once when first asked for (itself
                                  * while it is being resolved) */
    unsigned stamp;
    /* what the last failed lookup learned, for protoc's explanations */
    ir_file *undeclared_in;
    const char *undeclared_name;
    const char *resolved_as;
} resolver;

/* The state of a file loaded in this run. */
static inline rfile *rf(const resolver *r, const ir_file *f)
{
    rfile *state = symtab_get(&r->files, f->name, strlen(f->name));
    assert(state && state->file == f);
    return state;
}

/* resolve.c: the options message standard options of scope are read against, as protoc's: the run's
 * google.protobuf.FileOptions (...) when its descriptor.proto came from disk (or a plugin request), else
 * the options schema's (src/proto's descriptor.proto: the importable built-in copy is protobuf 3.21's). */
const ir_message *resolve_options_message(resolver *r, std_scope scope);

/* resolve_names.c */
void names_declare_file(resolver *r, ir_file *f);
void names_link_file(resolver *r, ir_file *f);
void names_begin_file(resolver *r, ir_file *f);      /* sets r->cur and its visibility */
/* protoc's LookupSymbol: name relative to the scope of the element named relative_to. */
sym *names_lookup(resolver *r, const char *name, const char *relative_to, bool types_only);
void names_mark_used(resolver *r, const ir_file *def);     /* the current file's import of def is used */
void names_not_defined(resolver *r, ir_loc loc, const char *name);
bool names_is_aggregate(const sym *s);

/* resolve_check.c */
void check_file(resolver *r, ir_file *f);

/* resolve_decl.c: extension declarations, after the interpreter (they are read from the options' bytes) */
int resolve_check_declarations(ir_program *prog);

/* resolve_style.c: editions' naming style and proto limits (of a file with no other error) */
void style_check_file(resolver *r, ir_file *f);

/* resolve_default.c */
void defaults_file(resolver *r, ir_file *f);

/* resolve_options.c */
void options_file(resolver *r, ir_file *f);
/* resolve_features.c: the feature options of an editions file's option list into opts->features, checked. */
void features_read_options(resolver *r, std_scope scope, const char *name_scope, const ir_field *fd, ir_options *opts);
/* Every element's .features of a resolved file (its options checked), proto2 and proto3 through
 * their editions mapping (labels, groups, [packed]); sets each field's .packed. */
void features_resolve_file(ir_file *f);

#endif
