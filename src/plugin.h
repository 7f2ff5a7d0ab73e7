/* plugin.h: protoc plugin mode (protoc-gen-pbj): a CodeGeneratorRequest in, a CodeGeneratorResponse out. */
#ifndef PBJC_PLUGIN_H
#define PBJC_PLUGIN_H

#include <stdbool.h>
#include <stdio.h>

/* Whether this run is plugin mode: argv[0]'s base name is protoc-gen-pbj, or an argument is --plugin-mode. */
bool plugin_mode(int argc, char **argv);

/* Reads a CodeGeneratorRequest from in and writes the CodeGeneratorResponse to out: the files pbjc -o
 * would write for file_to_generate, with the request's parameter read as pbjc's options ("views,
 * performance=max"), or `error` naming what was wrong (the request, the parameter, the schemas).
 * Returns 0 when a response was written (protoc reads an error from it), 1 when none could be. */
int plugin_run(FILE *in, FILE *out);

#endif
