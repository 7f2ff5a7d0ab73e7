/* tmpl2c.c: turns the .tmpl files of gen-templates/ into C functions (one per "%% name" section) compiled into pbjc. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A template file: lines before the first "%% name" line are comments, except "%vars TYPE", which names the
 * struct its sections read their variables from. Each section runs to the next "%% " line and becomes
 *     static void tmpl_<stem>_<name>(tmpl_out *o, const TYPE *v)
 * (further names on the "%% " line are aliases of it). In a section:
 *     $name$    the string v->name (a member path: "a.b" reads v->a.b, through tmpl_member(v->a): a may be a
 *               struct or a pointer to one); a name that is no member of TYPE
 *               fails to compile, so a missing variable is a build error, never a run-time one
 *     $$        a dollar sign
 * and a line holding only indentation and one of
 *     $name$    v->name as a block: every line of it indented to that column (nothing when it is empty)
 *     $>name$   the section <stem>_name with the same v, indented to that column.
 * The functions write through tmpl_text, tmpl_str and tmpl_block, which the includer defines. */

typedef struct conv {
    const char *path, *stem;
    int stem_len, line;
    FILE *out;
    int errors;
} conv;

static void fail(conv *c, const char *what)
{
    fprintf(stderr, "%s:%d: error: %s\n", c->path, c->line, what);
    c->errors++;
}

static void put_literal(FILE *out, const char *s, size_t n)
{
    fputs("    tmpl_text(o, \"", out);
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\n') fputs("\\n", out);
        else if (s[i] == '"' || s[i] == '\\') fprintf(out, "\\%c", s[i]);
        else if (s[i] == '\t') fputs("\\t", out);
        else if (s[i] == '?') fputs("\\?", out);          /* no trigraphs */
        else fputc(s[i], out);
    }
    fputs("\");\n", out);
}

static int is_name(const char *s, size_t n)
{
    if (n == 0 || !(isalpha((unsigned char)s[0]) || s[0] == '_')) return 0;
    for (size_t i = 0; i < n; i++)
        if (!(isalnum((unsigned char)s[i]) || s[i] == '_' || s[i] == '.')) return 0;
    return 1;
}

/* before, the member path name[0..n) of v, after: "a" as v->a, "a.b.c" as tmpl_member(v->a).b.c (the includer's
 * macro: v->a's struct, or the struct it points to). */
static void put_member(FILE *out, const char *before, const char *name, size_t n, const char *after)
{
    const char *dot = memchr(name, '.', n);
    if (!dot) fprintf(out, "%sv->%.*s%s\n", before, (int)n, name, after);
    else fprintf(out, "%stmpl_member(v->%.*s)%.*s%s\n", before, (int)(dot - name), name, (int)(n - (size_t)(dot - name)), dot, after);
}

/* A line that is only indentation and one $name$ or $>name$: a block. */
static int block_line(conv *c, const char *line)
{
    size_t ind = strspn(line, " ");
    const char *d = line + ind;
    if (d[0] != '$') return 0;
    const char *e = strchr(d + 1, '$');
    if (!e || strcmp(e + 1, "\n") != 0) return 0;
    int include = d[1] == '>';
    const char *name = d + 1 + include;
    size_t n = (size_t)(e - name);
    if (!is_name(name, n)) return 0;
    if (include) fprintf(c->out, "    tmpl_indent(o, %zu, +1);\n    tmpl_%.*s_%.*s(o, v);\n    tmpl_indent(o, %zu, -1);\n",
                         ind, c->stem_len, c->stem, (int)n, name, ind);
    else {
        char head[64];
        snprintf(head, sizeof head, "    tmpl_block(o, %zu, ", ind);
        put_member(c->out, head, name, n, ");");
    }
    return 1;
}

/* One line of a section body: literal text and $name$ values. */
static void body_line(conv *c, const char *line)
{
    if (block_line(c, line)) return;
    const char *p = line;
    for (const char *d; (d = strchr(p, '$')) != NULL;) {
        const char *e = strchr(d + 1, '$');
        if (!e) {
            fail(c, "a '$' without its closing '$'");
            return;
        }
        size_t n = (size_t)(e - d - 1);
        if (n == 0) {
            put_literal(c->out, p, (size_t)(d - p) + 1);       /* "$$": one dollar sign */
        } else if (!is_name(d + 1, n)) {
            fail(c, "a template variable is a C member name: $name$ ($$ for a dollar sign)");
            return;
        } else {
            if (d > p) put_literal(c->out, p, (size_t)(d - p));
            put_member(c->out, "    tmpl_str(o, ", d + 1, n, ");");
        }
        p = e + 1;
    }
    if (*p) put_literal(c->out, p, strlen(p));
}

static void open_section(conv *c, const char *names, const char *vars)
{
    int n = (int)strcspn(names, " ");
    if (!is_name(names, (size_t)n)) {
        fail(c, "a section starts with \"%% name [alias...]\"");
        return;
    }
    fprintf(c->out, "static inline void tmpl_%.*s_%.*s(tmpl_out *o, const %s *v)\n{\n    (void)o;\n    (void)v;\n",
            c->stem_len, c->stem, n, names, vars);
    for (const char *a = names + n; *(a += strspn(a, " "));) {       /* aliases */
        int k = (int)strcspn(a, " ");
        fprintf(c->out, "#define tmpl_%.*s_%.*s tmpl_%.*s_%.*s\n", c->stem_len, c->stem, k, a, c->stem_len, c->stem, n, names);
        a += k;
    }
}

/* Pass 1 (protos = 1) declares every section, so that sections may include each other; pass 2 defines them. */
static void convert_pass(conv *c, FILE *in, int protos)
{
    char line[4096], vars[256] = "";
    int open = 0;
    c->line = 0;
    while (fgets(line, sizeof line, in)) {
        c->line++;
        if (strncmp(line, "%vars ", 6) == 0 && !open) {
            sscanf(line + 6, "%255s", vars);
            continue;
        }
        if (strncmp(line, "%% ", 3) == 0) {
            line[strcspn(line, "\r\n")] = 0;
            if (!*vars) fail(c, "a section before the file's \"%vars TYPE\" line");
            if (protos) {
                fprintf(c->out, "static inline void tmpl_%.*s_%.*s(tmpl_out *o, const %s *v);\n", c->stem_len, c->stem,
                        (int)strcspn(line + 3, " "), line + 3, vars);
                continue;
            }
            if (open) fputs("}\n\n", c->out);
            open_section(c, line + 3, vars);
            open = 1;
            continue;
        }
        if (open && !protos) body_line(c, line);
    }
    if (open) fputs("}\n\n", c->out);
}

static int convert(const char *path, FILE *out)
{
    FILE *in = fopen(path, "r");
    if (!in) {
        perror(path);
        return 1;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    conv c = {path, base, (int)strcspn(base, "."), 0, out, 0};
    convert_pass(&c, in, 1);
    rewind(in);
    convert_pass(&c, in, 0);
    fclose(in);
    return c.errors != 0;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: tmpl2c OUT.inc FILE.tmpl...\n");
        return 2;
    }
    FILE *out = fopen(argv[1], "w");
    if (!out) {
        perror(argv[1]);
        return 1;
    }
    fputs("/* generated by tmpl2c from the .tmpl files of gen-templates/; do not edit */\n", out);
    int rc = 0;
    for (int i = 2; i < argc; i++) rc |= convert(argv[i], out);
    if (fclose(out) != 0) rc = 1;
    if (rc) remove(argv[1]);
    return rc;
}
