/* corpus_test.c: every .proto under the directories given parses with no diagnostic at all. */
#define _XOPEN_SOURCE 700
#include <ftw.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>
#include "front_util.h"

static char **dirs;
static int ndirs, nfiles, nfailed;

static int visit(const char *path, const struct stat *st, int kind, struct FTW *ftw)
{
    (void)st; (void)ftw;
    size_t n = strlen(path);
    if (kind != FTW_F || n < 6 || strcmp(path + n - 6, ".proto") != 0) return 0;
    FILE *fp = fopen(path, "rb");
    if (!fp) { fprintf(stderr, "%s: cannot read\n", path); nfailed++; return 0; }
    char *text = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len + 4096 + 1 > cap) {
            cap = (len + 4096 + 1) * 2;
            char *p = ir_pool_alloc(front_pool(), cap);
            if (len) memcpy(p, text, len);
            text = p;
        }
        got = fread(text + len, 1, cap - len - 1, fp);
        len += got;
    } while (got > 0);
    fclose(fp);
    text[len] = '\0';
    *front_diag() = (diag_counts){ 0 };
    capture_begin();
    ir_file *f = parser_parse(&front_prog, path, path, text, len);
    char *err = capture_end();
    nfiles++;
    if (!f->parsed_ok || *err) {
        fprintf(stderr, "%s: does not parse cleanly:\n%s", path, err);
        nfailed++;
    }
    return 0;
}

static void test_corpus_parses(void **state)
{
    (void)state;
    for (int i = 0; i < ndirs; i++) assert_int_equal(nftw(dirs[i], visit, 16, FTW_PHYS), 0);
    printf("parsed %d .proto files, %d with diagnostics\n", nfiles, nfailed);
    assert_true(nfiles > 0);
    assert_int_equal(nfailed, 0);
}

int main(int argc, char **argv)
{
    dirs = argv + 1;
    ndirs = argc - 1;
    const struct CMUnitTest tests[] = { cmocka_unit_test(test_corpus_parses) };
    return cmocka_run_group_tests(tests, front_begin, front_end);
}
