/* diag.h: diagnostics as file:line:col: error: message, with the source line and a caret. */
#ifndef PBJC_DIAG_H
#define PBJC_DIAG_H

#include <stdarg.h>
#include <stdio.h>
#include "ir.h"

#if defined(__GNUC__)
#define DIAG_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define DIAG_PRINTF(a, b)
#endif

/* "path:line:col: error: msg", then the source line and a caret under col.
 * f is a file of a run (ir_file_new's): counted into its counts (f->diag); loc.line 0 means no position. */
void diag_error(const ir_file *f, ir_loc loc, const char *fmt, ...) DIAG_PRINTF(3, 4);
void diag_warning(const ir_file *f, ir_loc loc, const char *fmt, ...) DIAG_PRINTF(3, 4);
/* diag_error with the arguments in ap, for functions that add to what they report. */
void diag_verror(const ir_file *f, ir_loc loc, const char *fmt, va_list ap) DIAG_PRINTF(3, 0);
/* Extra context line after an error: "path:line:col: note: msg" (f may be NULL: "pbjc: note: msg"). */
void diag_note(const ir_file *f, ir_loc loc, const char *fmt, ...) DIAG_PRINTF(3, 4);

/* What a run reported (pbjc_context.diag; each ir_file and ir_program of the run points at it). */
typedef struct diag_counts {
    int errors, warnings;
} diag_counts;

/* Counted into c, where there may be no file (f NULL: "pbjc: error: msg"); the second
 * against a file known only by path and source (before an ir_file exists). */
void diag_error_in(diag_counts *c, const ir_file *f, ir_loc loc, const char *fmt, ...) DIAG_PRINTF(4, 5);
void diag_error_at_in(diag_counts *c, const char *path, const char *source, ir_loc loc, const char *fmt, ...)
    DIAG_PRINTF(5, 6);

void diag_output(FILE *out);         /* where diagnostics go (plugin mode: into its response); NULL: stderr */

#endif
