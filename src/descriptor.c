/* descriptor.c: the resolved IR as a google.protobuf.FileDescriptorSet, byte for byte as protoc 3.21 writes it. */
#include "descriptor.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "srcinfo.h"
#include "wire.h"
#include "google/protobuf/descriptor.pb.h"   /* field numbers: google_protobuf_M_f_tag */
#include "../rt/pbj_core.h"   /* PBJ_MAX_FIELD_NUMBER */

/* protoc's FileDescriptor::CopyTo + CopyJsonNameTo, serialized by generated
 * code: every message's fields in field-number order, repeated elements in
 * declaration order. Options are the bytes resolve's option interpreter made. */

/* A field's number in descriptor.proto, from the code pbjc generates for it (src/pbgen):
 * FIELD(FileDescriptorProto, name) is google_protobuf_FileDescriptorProto_name_tag. */
#define FIELD(message, field) google_protobuf_##message##_##field##_tag

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
    wb_string_field(b, FIELD(FieldDescriptorProto, name), f->name);
    if (f->extend)
        put_type_ref(b, FIELD(FieldDescriptorProto, extendee), f->extend->extendee ? f->extend->extendee->full_name : NULL,
                     f->extend->extendee_name);
    wb_int32_field(b, FIELD(FieldDescriptorProto, number), f->number);
    wb_varint_field(b, FIELD(FieldDescriptorProto, label),
                    f->is_map ? IR_LABEL_REPEATED : f->label == IR_LABEL_NONE ? IR_LABEL_OPTIONAL : f->label);
    ir_type type = f->type;
    if (type == IR_TYPE_UNRESOLVED)
        type = f->enum_type ? IR_TYPE_ENUM : IR_TYPE_MESSAGE;
    wb_varint_field(b, FIELD(FieldDescriptorProto, type), (uint64_t)type);
    const char *type_full = f->message_type ? f->message_type->full_name : NULL;
    if (!type_full && f->enum_type)
        type_full = f->enum_type->full_name;
    put_type_ref(b, FIELD(FieldDescriptorProto, type_name), type_full, f->type_name);
    if (f->type == IR_TYPE_STRING && f->default_value)     /* the bytes as written, NULs too */
        wb_bytes_field(b, FIELD(FieldDescriptorProto, default_value), f->default_raw->str, f->default_raw->str_len);
    else
        wb_string_field(b, FIELD(FieldDescriptorProto, default_value), f->default_value);
    put_options(b, FIELD(FieldDescriptorProto, options), &f->options);
    if (f->oneof && !f->extend)
        wb_int32_field(b, FIELD(FieldDescriptorProto, oneof_index), f->oneof->index);
    wb_string_field(b, FIELD(FieldDescriptorProto, json_name), f->json_name);
    if (f->proto3_optional)
        wb_varint_field(b, FIELD(FieldDescriptorProto, proto3_optional), 1);
    wb_close(b, start);
}

/* A reserved or extension range; end is exclusive, except in an enum's. Every range message
 * (DescriptorProto.ExtensionRange, .ReservedRange, EnumDescriptorProto.EnumReservedRange) numbers start and end alike. */
static void put_range(wbuf *b, uint32_t tag, const ir_range *r, int32_t end, const ir_options *opts)
{
    size_t start = wb_open(b, tag);
    wb_int32_field(b, FIELD(DescriptorProto_ExtensionRange, start), r->start);
    wb_int32_field(b, FIELD(DescriptorProto_ExtensionRange, end), end);
    if (opts)
        put_options(b, FIELD(DescriptorProto_ExtensionRange, options), opts);
    wb_close(b, start);
}

static void put_enum(wbuf *b, uint32_t tag, const ir_enum *e)
{
    size_t start = wb_open(b, tag);
    wb_string_field(b, FIELD(EnumDescriptorProto, name), e->name);
    for (size_t i = 0; i < e->values.n; i++) {
        const ir_enum_value *v = e->values.v[i];
        size_t vs = wb_open(b, FIELD(EnumDescriptorProto, value));
        wb_string_field(b, FIELD(EnumValueDescriptorProto, name), v->name);
        wb_int32_field(b, FIELD(EnumValueDescriptorProto, number), v->number);
        put_options(b, FIELD(EnumValueDescriptorProto, options), &v->options);
        wb_close(b, vs);
    }
    put_options(b, FIELD(EnumDescriptorProto, options), &e->options);
    for (size_t i = 0; i < e->reserved_ranges.n; i++) {
        const ir_range *r = &e->reserved_ranges.v[i];
        put_range(b, FIELD(EnumDescriptorProto, reserved_range), r, r->end, NULL);
    }
    for (size_t i = 0; i < e->reserved_names.n; i++)
        wb_string_field(b, FIELD(EnumDescriptorProto, reserved_name), e->reserved_names.v[i]);
    if (e->visibility)
        wb_varint_field(b, FIELD(EnumDescriptorProto, visibility), e->visibility);
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
    wb_string_field(b, FIELD(DescriptorProto, name), m->name);
    for (size_t i = 0; i < m->fields.n; i++)
        put_field(b, FIELD(DescriptorProto, field), m->fields.v[i]);
    for (size_t i = 0; i < m->messages.n; i++)
        put_message(b, FIELD(DescriptorProto, nested_type), m->messages.v[i]);
    for (size_t i = 0; i < m->enums.n; i++)
        put_enum(b, FIELD(DescriptorProto, enum_type), m->enums.v[i]);
    for (size_t i = 0; i < m->extension_ranges.n; i++) {
        const ir_range *r = &m->extension_ranges.v[i];
        put_range(b, FIELD(DescriptorProto, extension_range), r, exclusive_end(m, r), &r->options);
    }
    for (size_t i = 0; i < m->extensions.n; i++)
        put_field(b, FIELD(DescriptorProto, extension), m->extensions.v[i]);
    put_options(b, FIELD(DescriptorProto, options), &m->options);
    for (size_t i = 0; i < m->oneofs.n; i++) {
        const ir_oneof *o = m->oneofs.v[i];
        size_t os = wb_open(b, FIELD(DescriptorProto, oneof_decl));
        wb_string_field(b, FIELD(OneofDescriptorProto, name), o->name);
        put_options(b, FIELD(OneofDescriptorProto, options), &o->options);
        wb_close(b, os);
    }
    for (size_t i = 0; i < m->reserved_ranges.n; i++) {
        const ir_range *r = &m->reserved_ranges.v[i];
        put_range(b, FIELD(DescriptorProto, reserved_range), r, exclusive_end(m, r), NULL);
    }
    for (size_t i = 0; i < m->reserved_names.n; i++)
        wb_string_field(b, FIELD(DescriptorProto, reserved_name), m->reserved_names.v[i]);
    if (m->visibility)
        wb_varint_field(b, FIELD(DescriptorProto, visibility), m->visibility);
    wb_close(b, start);
}

static void put_service(wbuf *b, uint32_t tag, const ir_service *s)
{
    size_t start = wb_open(b, tag);
    wb_string_field(b, FIELD(ServiceDescriptorProto, name), s->name);
    for (size_t i = 0; i < s->methods.n; i++) {
        const ir_method *md = s->methods.v[i];
        size_t ms = wb_open(b, FIELD(ServiceDescriptorProto, method));
        wb_string_field(b, FIELD(MethodDescriptorProto, name), md->name);
        put_type_ref(b, FIELD(MethodDescriptorProto, input_type), md->input ? md->input->full_name : NULL, md->input_name);
        put_type_ref(b, FIELD(MethodDescriptorProto, output_type), md->output ? md->output->full_name : NULL, md->output_name);
        if (!md->options.wire && md->has_body)   /* protoc writes empty options for "{ }" */
            wb_bytes_field(b, FIELD(MethodDescriptorProto, options), "", 0);
        else
            put_options(b, FIELD(MethodDescriptorProto, options), &md->options);
        if (md->client_streaming)
            wb_varint_field(b, FIELD(MethodDescriptorProto, client_streaming), 1);
        if (md->server_streaming)
            wb_varint_field(b, FIELD(MethodDescriptorProto, server_streaming), 1);
        wb_close(b, ms);
    }
    put_options(b, FIELD(ServiceDescriptorProto, options), &s->options);
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
    wb_string_field(b, FIELD(FileDescriptorProto, syntax), "editions");
    wb_varint_field(b, FIELD(FileDescriptorProto, edition), f->edition);
    for (size_t i = 0; i < f->imports.n; i++)
        if (f->imports.v[i].kind == IR_IMPORT_OPTION)
            wb_string_field(b, FIELD(FileDescriptorProto, option_dependency), f->imports.v[i].name);
}

static void put_file(wbuf *b, const ir_file *f, unsigned flags)
{
    size_t start = wb_open(b, FIELD(FileDescriptorSet, file));
    wb_string_field(b, FIELD(FileDescriptorProto, name), f->name);
    if (f->package && f->package[0])
        wb_string_field(b, FIELD(FileDescriptorProto, package), f->package);
    for (size_t i = 0; i < f->imports.n; i++)
        if (f->imports.v[i].kind != IR_IMPORT_OPTION)
            wb_string_field(b, FIELD(FileDescriptorProto, dependency), f->imports.v[i].name);
    for (size_t i = 0; i < f->messages.n; i++)
        put_message(b, FIELD(FileDescriptorProto, message_type), f->messages.v[i]);
    for (size_t i = 0; i < f->enums.n; i++)
        put_enum(b, FIELD(FileDescriptorProto, enum_type), f->enums.v[i]);
    for (size_t i = 0; i < f->services.n; i++)
        put_service(b, FIELD(FileDescriptorProto, service), f->services.v[i]);
    for (size_t i = 0; i < f->extensions.n; i++)
        put_field(b, FIELD(FileDescriptorProto, extension), f->extensions.v[i]);
    put_options(b, FIELD(FileDescriptorProto, options), &f->options);
    if (flags & DESCRIPTOR_SOURCE_INFO)
        srcinfo_put(b, FIELD(FileDescriptorProto, source_code_info), f);
    put_dependency_indexes(b, FIELD(FileDescriptorProto, public_dependency), f, IR_IMPORT_PUBLIC);
    put_dependency_indexes(b, FIELD(FileDescriptorProto, weak_dependency), f, IR_IMPORT_WEAK);
    if (f->syntax == IR_PROTO3)
        wb_string_field(b, FIELD(FileDescriptorProto, syntax), "proto3");
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
    ir_pool_vec_push(prog->pool, seen, f);
    for (size_t i = 0; i < f->imports.n; i++)
        add_with_imports(prog, import_target(prog, &f->imports.v[i]), seen, out);
    ir_pool_vec_push(prog->pool, out, f);
}

int descriptor_write_set(const ir_program *prog, unsigned flags, const char *path)
{
    file_list seen = { 0 }, order = { 0 };
    if (!(flags & DESCRIPTOR_IMPORTS)) {                      /* imports that are not inputs stop the walk */
        file_list inputs = { 0 };
        for (size_t i = 0; i < prog->inputs.n; i++)
            ir_pool_vec_push(prog->pool, &inputs, prog->inputs.v[i]);
        for (size_t i = 0; i < prog->inputs.n; i++)
            for (size_t k = 0; k < prog->inputs.v[i]->imports.n; k++) {
                const ir_file *dep = import_target(prog, &prog->inputs.v[i]->imports.v[k]);
                if (dep && !listed(&inputs, dep) && !listed(&seen, dep))
                    ir_pool_vec_push(prog->pool, &seen, dep);
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
        diag_error_in(prog->diag, NULL, (ir_loc){ 0, 0 }, "%s: %s", path, strerror(err));
        return 1;
    }
    return 0;
}
