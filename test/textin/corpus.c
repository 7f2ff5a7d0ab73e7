/* corpus.c: test/textin's hand-written inputs read by textin.Corpus's M_from_text: bytes for protoc to match, or the error. */
#define _POSIX_C_SOURCE 200809L

/*
 *   corpus encode FILE    reads FILE as a textin.Corpus (partial, as protoc --encode reads it; an Any may hold
 *                         textin.Corpus, textin.Item or textin.open.Open) and writes its encoding to stdout;
 *                         its text (M_print) read again prints the same. Exit 1 on an error.
 *   corpus error FILE     FILE must fail: prints "LINE:COL: error: MESSAGE" (exit 0), or exit 1 when it reads.
 */
#include "corpus.pb.h"

#include <stdio.h>
#include <stdlib.h>

static const pbj_table *const types[] = {&textin_Corpus__table, &textin_Item__table, &textin_open_Open__table};

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *s = NULL;
    size_t cap = 0, n = 0, got;
    if (!f) return perror(path), exit(2), NULL;
    do {
        if (cap - n < 4096 && !(s = realloc(s, cap = cap * 2 + 4096))) exit(2);
        got = fread(s + n, 1, cap - n, f);
        n += got;
    } while (got);
    fclose(f);
    *len = n;
    return s;
}

static pbj_status read_text(textin_Corpus *m, const char *text, size_t len, pbj_arena *a, pbj_text_error *e)
{
    pbj_text_read_options o = {.partial = true, .error = e, .types = types, .type_count = sizeof types / sizeof *types};
    return textin_Corpus_from_text(m, text, len, a, &o);
}

int main(int argc, char **argv)
{
    if (argc != 3) return fprintf(stderr, "usage: %s encode|error FILE\n", argv[0]), 2;
    size_t len;
    char *text = slurp(argv[2], &len);
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    textin_Corpus m, back;
    pbj_text_error e;
    pbj_status st = read_text(&m, text, len, &a, &e);
    int rc = 0;
    if (strcmp(argv[1], "error") == 0) {
        if (st == PBJ_OK) rc = fprintf(stderr, "%s: read without an error\n", argv[2]) > 0;
        else printf("%u:%u: error: %s\n", e.line, e.column, e.message);
    } else if (st != PBJ_OK) {
        rc = fprintf(stderr, "%s:%u:%u: error: %s (%s)\n", argv[2], e.line, e.column, e.message, pbj_status_str(st)) > 0;
    } else {
        size_t size = textin_Corpus_size(&m), n = 0;
        uint8_t *buf = malloc(size + 1);
        pbj_text t, t2;
        pbj_text_init(&t);
        pbj_text_init(&t2);
        if (textin_Corpus_encode_partial(&m, buf, size, &n) != PBJ_OK || fwrite(buf, 1, n, stdout) != n) rc = 1;
        else if (textin_Corpus_print(&m, &t) != PBJ_OK || read_text(&back, t.data, t.len, &a, &e) != PBJ_OK ||
                 textin_Corpus_print(&back, &t2) != PBJ_OK || t.len != t2.len || memcmp(t.data, t2.data, t.len) != 0)
            rc = fprintf(stderr, "%s: printed and read again, it prints otherwise (%s)\n", argv[2], e.message) > 0;
        pbj_text_free(&t);
        pbj_text_free(&t2);
        free(buf);
    }
    pbj_arena_free(&a);
    free(text);
    return rc;
}
