/* options.h: pbj options from comments and the command line, resolved per message. */
#ifndef PBJC_OPTIONS_H
#define PBJC_OPTIONS_H

#include <stdio.h>
#include "ir.h"

/* Command-line project options. argv[*i] is the current argument; when it is
 * an option flag (--performance=max, --writers, --no-views, --pbj NAME=VALUE,
 * ...) consume it (and its value, advancing *i) and return 1; return 0 when
 * it is not an options flag; return -1 after printing a usage error. */
int options_parse_arg(int argc, char **argv, int *i);

/* Lines for --help, one flag per line, already indented. */
void options_print_help(FILE *out);

/* Resolve every message's options (message, file, project, tier, closure).
 * Stores the result in each ir_message's user field as an options_resolved.
 * Returns the number of errors reported. */
int options_resolve(ir_program *prog);

/* --explain-options: one line per message, sorted by full name. */
void options_explain(const ir_program *prog, FILE *out);

#endif
