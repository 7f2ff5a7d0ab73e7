/* front_util.h: helpers shared by the front end's unit tests: their run, parse a string, capture stderr. */
#ifndef FRONT_UTIL_H
#define FRONT_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "context.h"
#include "diag.h"
#include "parser.h"

/* The tests' run: one context for the whole program (front_begin, as cmocka's group setup); the
 * program parse_text parses for keeps its tokens (SourceCodeInfo). */
static pbjc_context front;
static ir_program front_prog;

static inline int front_begin(void **state)
{
    (void)state;
    context_begin(&front);
    context_program(&front, &front_prog);
    front_prog.keep_tokens = true;
    return 0;
}

static inline int front_end(void **state)
{
    (void)state;
    context_end(&front);
    return 0;
}

/* The run's pool and counts, for the tests' own strings and checks. */
static inline ir_pool *front_pool(void) { return &front.pool; }
static inline diag_counts *front_diag(void) { return &front.diag; }

static int captured_fd = -1;
static FILE *captured_tmp;

/* Send stderr to a temporary file until capture_end(). */
static inline void capture_begin(void)
{
    fflush(stderr);
    captured_tmp = tmpfile();
    captured_fd = dup(2);
    dup2(fileno(captured_tmp), 2);
}

/* Restore stderr; what was written meanwhile (pool memory, NUL-terminated). */
static inline char *capture_end(void)
{
    fflush(stderr);
    dup2(captured_fd, 2);
    close(captured_fd);
    long n = ftell(captured_tmp);
    char *s = ir_pool_alloc(front_pool(), (size_t)(n > 0 ? n : 0) + 1);
    rewind(captured_tmp);
    size_t got = fread(s, 1, (size_t)(n > 0 ? n : 0), captured_tmp);
    s[got] = '\0';
    fclose(captured_tmp);
    return s;
}

/* Parse text as "t.proto"; errors are captured into *err when err is not NULL. */
static inline ir_file *parse_text(const char *text, char **err)
{
    front.diag = (diag_counts){ 0 };
    capture_begin();
    ir_file *f = parser_parse(&front_prog, "t.proto", "t.proto", ir_pool_strdup(front_pool(), text), strlen(text));
    char *e = capture_end();
    if (err) *err = e;
    else if (*e) fprintf(stderr, "unexpected diagnostics:\n%s", e);
    return f;
}

/* The first line of s. */
static inline char *first_line(const char *s)
{
    return ir_pool_strndup(front_pool(), s, strcspn(s, "\n"));
}

#endif
