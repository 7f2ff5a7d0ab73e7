/* fuzz_parse.c: libFuzzer target: any bytes through the lexer, grammar and builder, and the
 * SourceCodeInfo walk over the tokens kept, must give diagnostics, never a crash, a leak or
 * undefined behaviour. The diagnostics are expected: they go to /dev/null through a buffered stream (written
 * to stderr, unbuffered, they took over 1,600 write calls per input). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "parser.h"
#include "srcinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *quiet;
    if (!quiet) quiet = fopen("/dev/null", "w");
    diag_output(quiet);
    ir_pool pool = { 0 };                    /* one run per input: its pool freed at the end */
    diag_counts counts = { 0 };
    ir_program prog = { .keep_tokens = true, .pool = &pool, .diag = &counts };
    char *text = ir_pool_alloc(&pool, size + 1);
    memcpy(text, data, size);
    ir_file *f = parser_parse(&prog, "fuzz.proto", "fuzz.proto", text, size);
    wbuf info = { 0 };
    srcinfo_put(&info, 9, f);
    free(info.p);
    ir_pool_free(&pool);
    return 0;
}
