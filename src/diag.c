/* diag.c: diagnostics as path:line:col: severity: message, the source line and a caret, counted. */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "diag.h"

static FILE *output;         /* NULL: stderr */
void diag_output(FILE *out) { output = out; }
static FILE *sink(void) { return output ? output : stderr; }

/* The source line `line` (1-based) and a caret under byte column col, tabs kept. */
static void show_line(const char *source, ir_loc loc)
{
    if (!source || loc.line == 0) return;
    const char *p = source;
    for (uint32_t l = 1; l < loc.line && *p; p++)
        if (*p == '\n') l++;
    const char *end = p + strcspn(p, "\n");
    if (end > p && end[-1] == '\r') end--;
    fprintf(sink(), "%.*s\n", (int)(end - p), p);
    for (uint32_t i = 1; i < loc.col && p + i - 1 < end; i++)
        fputc(p[i - 1] == '\t' ? '\t' : ' ', sink());
    fputs("^\n", sink());
}

#if defined(__GNUC__)
__attribute__((format(printf, 5, 0)))
#endif
static void report(const char *path, const char *source, ir_loc loc, const char *severity,
                   const char *fmt, va_list ap)
{
    fflush(stdout);
    if (!path) fprintf(sink(), "pbjc: %s: ", severity);
    else if (loc.line == 0) fprintf(sink(), "%s: %s: ", path, severity);
    else fprintf(sink(), "%s:%u:%u: %s: ", path, (unsigned)loc.line, (unsigned)loc.col, severity);
    vfprintf(sink(), fmt, ap);
    fputc('\n', sink());
    if (path) show_line(source, loc);
}

static const char *file_path(const ir_file *f) { return f ? (f->path ? f->path : f->name) : NULL; }

/* The counts a diagnostic against f goes to: its run's (with no file, diag_error_in names the counts). */
static diag_counts *counts_of(const ir_file *f)
{
    assert(f && f->diag && "a diagnostic of no run's file: diag_error_in");
    return f->diag;
}

/* Each entry point: its parameters, then where to report and what to count. */
#define DIAG_ENTRY(name, params, path, source, severity, counter) \
    void name params                                              \
    {                                                             \
        va_list ap;                                               \
        va_start(ap, fmt);                                        \
        report(path, source, loc, severity, fmt, ap);             \
        va_end(ap);                                               \
        counter;                                                  \
    }

DIAG_ENTRY(diag_error, (const ir_file *f, ir_loc loc, const char *fmt, ...),
           file_path(f), f ? f->source : NULL, "error", counts_of(f)->errors++)
DIAG_ENTRY(diag_warning, (const ir_file *f, ir_loc loc, const char *fmt, ...),
           file_path(f), f ? f->source : NULL, "warning", counts_of(f)->warnings++)
DIAG_ENTRY(diag_note, (const ir_file *f, ir_loc loc, const char *fmt, ...),
           file_path(f), f ? f->source : NULL, "note", (void)0)
DIAG_ENTRY(diag_error_in, (diag_counts *c, const ir_file *f, ir_loc loc, const char *fmt, ...),
           file_path(f), f ? f->source : NULL, "error", c->errors++)
DIAG_ENTRY(diag_error_at_in, (diag_counts *c, const char *path, const char *source, ir_loc loc, const char *fmt, ...),
           path, source, "error", c->errors++)

void diag_verror(const ir_file *f, ir_loc loc, const char *fmt, va_list ap)
{
    report(file_path(f), f ? f->source : NULL, loc, "error", fmt, ap);
    counts_of(f)->errors++;
}

