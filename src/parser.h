/* parser.h: from .proto text to an unresolved ir_file (lex.re + parse.y + irbuild.c). */
#ifndef PBJC_PARSER_H
#define PBJC_PARSER_H

#include "ir.h"

/* Parse one file. Syntax errors are reported through diag and counted;
 * the returned file holds everything that parsed (f->parsed_ok is false when
 * any error was reported); with prog->keep_tokens, also its tokens (f->tokens, for
 * srcinfo.c). The file is of prog's run (its pool and counts). text must be NUL-terminated at text[len]. */
ir_file *parser_parse(const ir_program *prog, const char *name, const char *path, const char *text, size_t len);

#endif
