/* fuzz_text.c: libFuzzer target of M_from_text (test/textin's Corpus schema): read, print, read again, equal. */
#include "corpus.pb.h"

#include <stdio.h>
#include <stdlib.h>

/*
 * Any bytes as text: read as a textin.Corpus (an Any may hold textin.Corpus, textin.Item or textin.open.Open)
 * returns a status; when it reads, its print reads again (m2), prints the same text, and m2's encoding decodes
 * to a message equal to m2. A broken rule aborts with a line naming it. The input buffer is exactly its size:
 * ASan sees a read past it (the reader never needs a NUL).
 */

#define RULE(cond, what)                                                  \
    do {                                                                  \
        if (!(cond)) {                                                    \
            fprintf(stderr, "fuzz_text: broken rule: %s\n", what);        \
            abort();                                                      \
        }                                                                 \
    } while (0)

static const pbj_table *const types[] = {&textin_Corpus__table, &textin_Item__table, &textin_open_Open__table};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    pbj_arena a;
    pbj_arena_init(&a, NULL, 0);
    pbj_text_error e;
    pbj_text_read_options o = {.partial = true, .error = &e, .types = types, .type_count = sizeof types / sizeof *types};
    textin_Corpus m1, m2, m3;
    pbj_text t1, t2;
    pbj_text_init(&t1);
    pbj_text_init(&t2);
    pbj_status st = textin_Corpus_from_text(&m1, (const char *)data, size, &a, &o);
    RULE(st != PBJ_OK || e.line == 0, "no error position on success");
    RULE(st == PBJ_OK || e.line > 0, "an error with no position");
    if (st == PBJ_OK && textin_Corpus_print(&m1, &t1) == PBJ_OK) {
        RULE(textin_Corpus_from_text(&m2, t1.data, t1.len, &a, &o) == PBJ_OK, "the print does not read back");
        RULE(textin_Corpus_print(&m2, &t2) == PBJ_OK, "the print read back does not print");
        RULE(t1.len == t2.len && memcmp(t1.data, t2.data, t1.len) == 0, "the print read back prints otherwise");
        size_t n = textin_Corpus_size(&m2), len = 0;
        uint8_t *buf = malloc(n + 1);
        RULE(buf && textin_Corpus_encode_partial(&m2, buf, n, &len) == PBJ_OK && len == n, "encode");
        pbj_decode_options d = {.partial = true};
        RULE(textin_Corpus_decode(&m3, buf, len, &a, &d) == PBJ_OK, "the encoding does not decode");
        RULE(textin_Corpus_equal(&m2, &m3), "decoded, the encoding is not equal");
        free(buf);
    }
    pbj_text_free(&t1);
    pbj_text_free(&t2);
    pbj_arena_free(&a);
    return 0;
}
