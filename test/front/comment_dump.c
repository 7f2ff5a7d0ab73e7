/* comment_dump.c: print the comments the parser attached, one line per declaration,
 * keyed by protoc's SourceCodeInfo path, escaped as protoc --decode prints strings. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "context.h"
#include "parser.h"
#include "diag.h"

static pbjc_context run;                 /* this program's one run */

static void put_escaped(const char *s)
{
    putchar('"');
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '\n': fputs("\\n", stdout); break;
        case '\r': fputs("\\r", stdout); break;
        case '\t': fputs("\\t", stdout); break;
        case '"': fputs("\\\"", stdout); break;
        case '\'': fputs("\\'", stdout); break;
        case '\\': fputs("\\\\", stdout); break;
        default:
            if (*p < 0x20 || *p >= 0x7f) printf("\\%03o", *p);
            else putchar(*p);
        }
    }
    putchar('"');
}

static void put_comments(const char *path, const ir_comments *c)
{
    if (!c->leading && !c->trailing && c->detached.n == 0) return;
    printf("%s", path);
    if (c->leading) { fputs(" L:", stdout); put_escaped(c->leading); }
    if (c->trailing) { fputs(" T:", stdout); put_escaped(c->trailing); }
    for (size_t i = 0; i < c->detached.n; i++) { fputs(" D:", stdout); put_escaped(c->detached.v[i]); }
    putchar('\n');
}

static void dump_enum(const char *path, const ir_enum *e)
{
    put_comments(path, &e->comments);
    for (size_t i = 0; i < e->values.n; i++)
        put_comments(ir_pool_printf(&run.pool, "%s.2.%zu", path, i), &e->values.v[i]->comments);
}

static void dump_extends(const char *path, ir_extend *const *x, size_t nx, ir_field *const *f, size_t nf)
{
    for (size_t i = 0; i < nx; i++) put_comments(path, &x[i]->comments);
    for (size_t i = 0; i < nf; i++) put_comments(ir_pool_printf(&run.pool, "%s.%zu", path, i), &f[i]->comments);
}

static void dump_message(const char *path, const ir_message *m)
{
    put_comments(path, &m->comments);
    for (size_t i = 0; i < m->fields.n; i++) put_comments(ir_pool_printf(&run.pool, "%s.2.%zu", path, i), &m->fields.v[i]->comments);
    for (size_t i = 0; i < m->messages.n; i++) dump_message(ir_pool_printf(&run.pool, "%s.3.%zu", path, i), m->messages.v[i]);
    for (size_t i = 0; i < m->enums.n; i++) dump_enum(ir_pool_printf(&run.pool, "%s.4.%zu", path, i), m->enums.v[i]);
    for (size_t i = 0; i < m->oneofs.n; i++) put_comments(ir_pool_printf(&run.pool, "%s.8.%zu", path, i), &m->oneofs.v[i]->comments);
    dump_extends(ir_pool_printf(&run.pool, "%s.6", path), (ir_extend *const *)m->extends.v, m->extends.n, m->extensions.v, m->extensions.n);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fputs("usage: comment_dump FILE.proto\n", stderr); return 2; }
    FILE *fp = fopen(argv[1], "rb");
    if (!fp) { perror(argv[1]); return 2; }
    static char buf[1 << 22];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    context_begin(&run);
    ir_program prog = { 0 };
    context_program(&run, &prog);
    ir_file *f = parser_parse(&prog, argv[1], argv[1], buf, n);
    for (size_t i = 0; i < f->messages.n; i++) dump_message(ir_pool_printf(&run.pool, "4.%zu", i), f->messages.v[i]);
    for (size_t i = 0; i < f->enums.n; i++) dump_enum(ir_pool_printf(&run.pool, "5.%zu", i), f->enums.v[i]);
    for (size_t i = 0; i < f->services.n; i++) {
        const ir_service *s = f->services.v[i];
        put_comments(ir_pool_printf(&run.pool, "6.%zu", i), &s->comments);
        for (size_t j = 0; j < s->methods.n; j++) put_comments(ir_pool_printf(&run.pool, "6.%zu.2.%zu", i, j), &s->methods.v[j]->comments);
    }
    dump_extends("7", (ir_extend *const *)f->extends.v, f->extends.n, f->extensions.v, f->extensions.n);
    return run.diag.errors ? 1 : 0;
}
