/* fuzz_parse.c: libFuzzer target: any bytes through the lexer, grammar and builder must
 * give diagnostics, never a crash, a leak or undefined behaviour. Run with
 * -close_fd_mask=2: the diagnostics are expected and only slow the run. */
#include <stdint.h>
#include <string.h>
#include "diag.h"
#include "parser.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = ir_alloc(size + 1);
    memcpy(text, data, size);
    diag_reset();
    parser_parse("fuzz.proto", "fuzz.proto", text, size);
    ir_free_all();
    return 0;
}
