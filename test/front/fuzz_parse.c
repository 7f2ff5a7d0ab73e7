/* fuzz_parse.c: libFuzzer target: any bytes through the lexer, grammar and builder, and the
 * SourceCodeInfo walk over the tokens kept, must give diagnostics, never a crash, a leak or
 * undefined behaviour. Run with -close_fd_mask=2: the diagnostics are expected and only slow the run. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "diag.h"
#include "parser.h"
#include "srcinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ir_alloc(size + 1);
    memcpy(text, data, size);
    diag_reset();
    ir_file *f = parser_parse("fuzz.proto", "fuzz.proto", text, size, true);
    wbuf info = { 0 };
    srcinfo_put(&info, 9, f);
    free(info.p);
    ir_free_all();
    return 0;
}
