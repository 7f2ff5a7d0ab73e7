/* resolve.h: load imports from the roots, bind every type name, run protoc's checks. */
#ifndef PBJC_RESOLVE_H
#define PBJC_RESOLVE_H

#include "ir.h"

/* prog->roots must be filled (the driver adds "." when no -I was given).
 * Maps each command-line path to its root-relative name (error when a path
 * lies under no root), loads and parses it and everything it imports
 * (transitively, each file once, cycles reported), then binds every name and
 * runs protoc's semantic checks, then interprets the options (below). Fills
 * prog->files and prog->inputs.
 * Returns the number of errors reported (0 on success). */
int resolve_program(ir_program *prog, const char *const *paths, size_t npaths);

/* The same for files already loaded (plugin mode: built from descriptors): prog->files in
 * dependency order, each import named by a file before it; prog->inputs marked. */
int resolve_loaded(ir_program *prog);

/* protoc's option interpreter: every option list of prog->files encoded as its
 * options message (ir_options.wire), reporting what only encoding finds
 * (aggregate values, "was already set", ...). resolve_program runs it when
 * nothing else failed; call it directly only on IR built by hand. Returns the
 * number of errors reported. */
int resolve_interpret_options(ir_program *prog);

/* A language feature's value (field of ext's message, pb.CppFeatures.string_type) where the resolved
 * features are fs, in edition ed: the innermost setting, else what the field's edition_defaults
 * give for ed (true 1, false 0, an enum value's number); -1 when they give nothing. */
int32_t features_language(const ir_features *fs, feature_edition ed, const ir_field *ext, const ir_field *field);

#endif
