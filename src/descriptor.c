/* descriptor.c: the resolved IR as a google.protobuf.FileDescriptorSet, byte for byte as protoc 3.21 writes it. */
#include "descriptor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "srcinfo.h"
#include "wire.h"
#include "../rt/pbj_core.h"   /* PBJ_MAX_FIELD_NUMBER */

/* protoc's FileDescriptor::CopyTo + CopyJsonNameTo, serialized by generated
 * code: every message's fields in field-number order, repeated elements in
 * declaration order. Options are the bytes resolve's option interpreter made. */

/* X(message, field, number): the fields of descriptor.proto 3.21 written here, then editions' (protobuf 32). */
#define DESCRIPTOR_FIELDS(X)                                                        \
    X(FileDescriptorSet, file, 1)                                                   \
    X(FileDescriptorProto, name, 1)           X(FileDescriptorProto, package, 2)    \
    X(FileDescriptorProto, dependency, 3)     X(FileDescriptorProto, message_type, 4) \
    X(FileDescriptorProto, enum_type, 5)      X(FileDescriptorProto, service, 6)    \
    X(FileDescriptorProto, extension, 7)      X(FileDescriptorProto, options, 8)    \
    X(FileDescriptorProto, source_code_info, 9)                                     \
    X(FileDescriptorProto, public_dependency, 10) X(FileDescriptorProto, weak_dependency, 11) \
    X(FileDescriptorProto, syntax, 12)                                              \
    X(DescriptorProto, name, 1)               X(DescriptorProto, field, 2)          \
    X(DescriptorProto, nested_type, 3)        X(DescriptorProto, enum_type, 4)      \
    X(DescriptorProto, extension_range, 5)    X(DescriptorProto, extension, 6)      \
    X(DescriptorProto, options, 7)            X(DescriptorProto, oneof_decl, 8)     \
    X(DescriptorProto, reserved_range, 9)     X(DescriptorProto, reserved_name, 10) \
    X(Range, start, 1)                        X(Range, end, 2)                      \
    X(ExtensionRange, options, 3)                                                   \
    X(FieldDescriptorProto, name, 1)          X(FieldDescriptorProto, extendee, 2)  \
    X(FieldDescriptorProto, number, 3)        X(FieldDescriptorProto, label, 4)     \
    X(FieldDescriptorProto, type, 5)          X(FieldDescriptorProto, type_name, 6) \
    X(FieldDescriptorProto, default_value, 7) X(FieldDescriptorProto, options, 8)   \
    X(FieldDescriptorProto, oneof_index, 9)   X(FieldDescriptorProto, json_name, 10) \
    X(FieldDescriptorProto, proto3_optional, 17)                                    \
    X(OneofDescriptorProto, name, 1)          X(OneofDescriptorProto, options, 2)   \
    X(EnumDescriptorProto, name, 1)           X(EnumDescriptorProto, value, 2)      \
    X(EnumDescriptorProto, options, 3)        X(EnumDescriptorProto, reserved_range, 4) \
    X(EnumDescriptorProto, reserved_name, 5)                                        \
    X(EnumValueDescriptorProto, name, 1)      X(EnumValueDescriptorProto, number, 2) \
    X(EnumValueDescriptorProto, options, 3)                                         \
    X(ServiceDescriptorProto, name, 1)        X(ServiceDescriptorProto, method, 2)  \
    X(ServiceDescriptorProto, options, 3)                                           \
    X(MethodDescriptorProto, name, 1)         X(MethodDescriptorProto, input_type, 2) \
    X(MethodDescriptorProto, output_type, 3)  X(MethodDescriptorProto, options, 4)  \
    X(MethodDescriptorProto, client_streaming, 5) X(MethodDescriptorProto, server_streaming, 6) \
    X(FileDescriptorProto, edition, 14)       X(FileDescriptorProto, option_dependency, 15) \
    X(DescriptorProto, visibility, 11)        X(EnumDescriptorProto, visibility, 6)

/* Range is DescriptorProto.ReservedRange, .ExtensionRange and EnumDescriptorProto.EnumReservedRange alike. */
enum {
#define X(message, field, number) message##_##field = number,
    DESCRIPTOR_FIELDS(X)
#undef X
};

/* A type reference: ".pkg.Name" when it was resolved (full_name), else the name as written. */
static void put_type_ref(wbuf *b, uint32_t field, const char *full_name, const char *written)
{
    if (!full_name) {
        wb_string_field(b, field, written);
        return;
    }
    size_t start = wb_open(b, field);
    wb_put(b, ".", 1);
    wb_put(b, full_name, strlen(full_name));
    wb_close(b, start);
}

/* An element's options message, as the interpreter encoded it (nothing when it has none). */
static void put_options(wbuf *b, uint32_t field, const ir_options *opts)
{
    if (opts->wire)
        wb_bytes_field(b, field, opts->wire, opts->wire_len);
}

static void put_field(wbuf *b, uint32_t tag, const ir_field *f)
{
    size_t start = wb_open(b, tag);
    wb_string_field(b, FieldDescriptorProto_name, f->name);
    if (f->extend)
        put_type_ref(b, FieldDescriptorProto_extendee, f->extend->extendee ? f->extend->extendee->full_name : NULL,
                     f->extend->extendee_name);
    wb_int32_field(b, FieldDescriptorProto_number, f->number);
    wb_varint_field(b, FieldDescriptorProto_label,
                    f->is_map ? IR_LABEL_REPEATED : f->label == IR_LABEL_NONE ? IR_LABEL_OPTIONAL : f->label);
    ir_type type = f->type;
    if (type == IR_TYPE_UNRESOLVED)
        type = f->enum_type ? IR_TYPE_ENUM : IR_TYPE_MESSAGE;
    wb_varint_field(b, FieldDescriptorProto_type, (uint64_t)type);
    const char *type_full = f->message_type ? f->message_type->full_name : NULL;
    if (!type_full && f->enum_type)
        type_full = f->enum_type->full_name;
    put_type_ref(b, FieldDescriptorProto_type_name, type_full, f->type_name);
    if (f->type == IR_TYPE_STRING && f->default_value)     /* the bytes as written, NULs too */
        wb_bytes_field(b, FieldDescriptorProto_default_value, f->default_raw->str, f->default_raw->str_len);
    else
        wb_string_field(b, FieldDescriptorProto_default_value, f->default_value);
    put_options(b, FieldDescriptorProto_options, &f->options);
    if (f->oneof && !f->extend)
        wb_int32_field(b, FieldDescriptorProto_oneof_index, f->oneof->index);
    wb_string_field(b, FieldDescriptorProto_json_name, f->json_name);
    if (f->proto3_optional)
        wb_varint_field(b, FieldDescriptorProto_proto3_optional, 1);
    wb_close(b, start);
}

/* A reserved or extension range; end is exclusive, except in an enum's. */
static void put_range(wbuf *b, uint32_t tag, const ir_range *r, int32_t end, const ir_options *opts)
{
    size_t start = wb_open(b, tag);
    wb_int32_field(b, Range_start, r->start);
    wb_int32_field(b, Range_end, end);
    if (opts)
        put_options(b, ExtensionRange_options, opts);
    wb_close(b, start);
}

static void put_enum(wbuf *b, uint32_t tag, const ir_enum *e)
{
    size_t start = wb_open(b, tag);
    wb_string_field(b, EnumDescriptorProto_name, e->name);
    for (size_t i = 0; i < e->values.n; i++) {
        const ir_enum_value *v = e->values.v[i];
        size_t vs = wb_open(b, EnumDescriptorProto_value);
        wb_string_field(b, EnumValueDescriptorProto_name, v->name);
        wb_int32_field(b, EnumValueDescriptorProto_number, v->number);
        put_options(b, EnumValueDescriptorProto_options, &v->options);
        wb_close(b, vs);
    }
    put_options(b, EnumDescriptorProto_options, &e->options);
    for (size_t i = 0; i < e->reserved_ranges.n; i++) {
        const ir_range *r = &e->reserved_ranges.v[i];
        put_range(b, EnumDescriptorProto_reserved_range, r, r->end, NULL);
    }
    for (size_t i = 0; i < e->reserved_names.n; i++)
        wb_string_field(b, EnumDescriptorProto_reserved_name, e->reserved_names.v[i]);
    if (e->visibility)
        wb_varint_field(b, EnumDescriptorProto_visibility, e->visibility);
    wb_close(b, start);
}

/* A range's exclusive end; "to max" in a message_set_wire_format message reaches INT32_MAX. */
static int32_t exclusive_end(const ir_message *m, const ir_range *r)
{
    return m->message_set_wire_format && r->end >= PBJ_MAX_FIELD_NUMBER ? INT32_MAX : r->end + 1;
}

static void put_message(wbuf *b, uint32_t tag, const ir_message *m)
{
    size_t start = wb_open(b, tag);
    wb_string_field(b, DescriptorProto_name, m->name);
    for (size_t i = 0; i < m->fields.n; i++)
        put_field(b, DescriptorProto_field, m->fields.v[i]);
    for (size_t i = 0; i < m->messages.n; i++)
        put_message(b, DescriptorProto_nested_type, m->messages.v[i]);
    for (size_t i = 0; i < m->enums.n; i++)
        put_enum(b, DescriptorProto_enum_type, m->enums.v[i]);
    for (size_t i = 0; i < m->extension_ranges.n; i++) {
        const ir_range *r = &m->extension_ranges.v[i];
        put_range(b, DescriptorProto_extension_range, r, exclusive_end(m, r), &r->options);
    }
    for (size_t i = 0; i < m->extensions.n; i++)
        put_field(b, DescriptorProto_extension, m->extensions.v[i]);
    put_options(b, DescriptorProto_options, &m->options);
    for (size_t i = 0; i < m->oneofs.n; i++) {
        const ir_oneof *o = m->oneofs.v[i];
        size_t os = wb_open(b, DescriptorProto_oneof_decl);
        wb_string_field(b, OneofDescriptorProto_name, o->name);
        put_options(b, OneofDescriptorProto_options, &o->options);
        wb_close(b, os);
    }
    for (size_t i = 0; i < m->reserved_ranges.n; i++) {
        const ir_range *r = &m->reserved_ranges.v[i];
        put_range(b, DescriptorProto_reserved_range, r, exclusive_end(m, r), NULL);
    }
    for (size_t i = 0; i < m->reserved_names.n; i++)
        wb_string_field(b, DescriptorProto_reserved_name, m->reserved_names.v[i]);
    if (m->visibility)
        wb_varint_field(b, DescriptorProto_visibility, m->visibility);
    wb_close(b, start);
}

static void put_service(wbuf *b, uint32_t tag, const ir_service *s)
{
    size_t start = wb_open(b, tag);
    wb_string_field(b, ServiceDescriptorProto_name, s->name);
    for (size_t i = 0; i < s->methods.n; i++) {
        const ir_method *md = s->methods.v[i];
        size_t ms = wb_open(b, ServiceDescriptorProto_method);
        wb_string_field(b, MethodDescriptorProto_name, md->name);
        put_type_ref(b, MethodDescriptorProto_input_type, md->input ? md->input->full_name : NULL, md->input_name);
        put_type_ref(b, MethodDescriptorProto_output_type, md->output ? md->output->full_name : NULL, md->output_name);
        if (!md->options.wire && md->has_body)   /* protoc writes empty options for "{ }" */
            wb_bytes_field(b, MethodDescriptorProto_options, "", 0);
        else
            put_options(b, MethodDescriptorProto_options, &md->options);
        if (md->client_streaming)
            wb_varint_field(b, MethodDescriptorProto_client_streaming, 1);
        if (md->server_streaming)
            wb_varint_field(b, MethodDescriptorProto_server_streaming, 1);
        wb_close(b, ms);
    }
    put_options(b, ServiceDescriptorProto_options, &s->options);
    wb_close(b, start);
}

/* The index in dependency (option imports are not there) of each import of kind. */
static void put_dependency_indexes(wbuf *b, uint32_t field, const ir_file *f, ir_import_kind kind)
{
    int32_t index = 0;
    for (size_t i = 0; i < f->imports.n; i++) {
        if (f->imports.v[i].kind == kind)
            wb_int32_field(b, field, index);
        index += f->imports.v[i].kind != IR_IMPORT_OPTION;
    }
}

/* An editions file: syntax "editions", its edition, its option imports. */
static void put_edition(wbuf *b, const ir_file *f)
{
    if (f->syntax != IR_EDITIONS)
        return;
    wb_string_field(b, FileDescriptorProto_syntax, "editions");
    wb_varint_field(b, FileDescriptorProto_edition, f->edition);
    for (size_t i = 0; i < f->imports.n; i++)
        if (f->imports.v[i].kind == IR_IMPORT_OPTION)
            wb_string_field(b, FileDescriptorProto_option_dependency, f->imports.v[i].name);
}

static void put_file(wbuf *b, const ir_file *f, unsigned flags)
{
    size_t start = wb_open(b, FileDescriptorSet_file);
    wb_string_field(b, FileDescriptorProto_name, f->name);
    if (f->package && f->package[0])
        wb_string_field(b, FileDescriptorProto_package, f->package);
    for (size_t i = 0; i < f->imports.n; i++)
        if (f->imports.v[i].kind != IR_IMPORT_OPTION)
            wb_string_field(b, FileDescriptorProto_dependency, f->imports.v[i].name);
    for (size_t i = 0; i < f->messages.n; i++)
        put_message(b, FileDescriptorProto_message_type, f->messages.v[i]);
    for (size_t i = 0; i < f->enums.n; i++)
        put_enum(b, FileDescriptorProto_enum_type, f->enums.v[i]);
    for (size_t i = 0; i < f->services.n; i++)
        put_service(b, FileDescriptorProto_service, f->services.v[i]);
    for (size_t i = 0; i < f->extensions.n; i++)
        put_field(b, FileDescriptorProto_extension, f->extensions.v[i]);
    put_options(b, FileDescriptorProto_options, &f->options);
    if (flags & DESCRIPTOR_SOURCE_INFO)
        srcinfo_put(b, FileDescriptorProto_source_code_info, f);
    put_dependency_indexes(b, FileDescriptorProto_public_dependency, f, IR_IMPORT_PUBLIC);
    put_dependency_indexes(b, FileDescriptorProto_weak_dependency, f, IR_IMPORT_WEAK);
    if (f->syntax == IR_PROTO3)
        wb_string_field(b, FileDescriptorProto_syntax, "proto3");
    put_edition(b, f);
    wb_close(b, start);
}

/* ---- the set: files in protoc's order ---------------------------------- */

typedef IR_VEC(const ir_file *) file_list;

static bool listed(const file_list *l, const ir_file *f)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->v[i] == f)
            return true;
    return false;
}

static const ir_file *import_target(const ir_program *prog, const ir_import *imp)
{
    if (imp->file)
        return imp->file;
    for (size_t i = 0; i < prog->files.n; i++)
        if (strcmp(prog->files.v[i]->name, imp->name) == 0)
            return prog->files.v[i];
    return NULL;
}

/* protoc's GetTransitiveDependencies: imports first, depth first, in import order. */
static void add_with_imports(const ir_program *prog, const ir_file *f, file_list *seen, file_list *out)
{
    if (!f || listed(seen, f))
        return;
    ir_vec_push(seen, f);
    for (size_t i = 0; i < f->imports.n; i++)
        add_with_imports(prog, import_target(prog, &f->imports.v[i]), seen, out);
    ir_vec_push(out, f);
}

int descriptor_write_set(const ir_program *prog, unsigned flags, const char *path)
{
    file_list seen = { 0 }, order = { 0 };
    if (!(flags & DESCRIPTOR_IMPORTS)) {                      /* imports that are not inputs stop the walk */
        file_list inputs = { 0 };
        for (size_t i = 0; i < prog->inputs.n; i++)
            ir_vec_push(&inputs, prog->inputs.v[i]);
        for (size_t i = 0; i < prog->inputs.n; i++)
            for (size_t k = 0; k < prog->inputs.v[i]->imports.n; k++) {
                const ir_file *dep = import_target(prog, &prog->inputs.v[i]->imports.v[k]);
                if (dep && !listed(&inputs, dep) && !listed(&seen, dep))
                    ir_vec_push(&seen, dep);
            }
    }
    for (size_t i = 0; i < prog->inputs.n; i++)
        add_with_imports(prog, prog->inputs.v[i], &seen, &order);

    wbuf set = { 0 };
    for (size_t i = 0; i < order.n; i++)
        put_file(&set, order.v[i], flags);
    FILE *out = fopen(path, "wb");
    bool ok = out && fwrite(set.p ? (const void *)set.p : "", 1, set.n, out) == set.n;
    int err = errno;
    if (out && fclose(out) != 0 && ok) {
        ok = false;
        err = errno;
    }
    free(set.p);
    if (!ok) {
        diag_error(NULL, (ir_loc){ 0, 0 }, "%s: %s", path, strerror(err));
        return 1;
    }
    return 0;
}
