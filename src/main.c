/* main.c: the command-line driver (temporary: parses its arguments). */
#include <stdio.h>
#include <stdlib.h>
#include "parser.h"
#include "diag.h"
int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        FILE *fp = fopen(argv[i], "rb");
        if (!fp) { perror(argv[i]); return 2; }
        fseek(fp, 0, SEEK_END); long n = ftell(fp); fseek(fp, 0, SEEK_SET);
        char *buf = malloc((size_t)n + 1);
        size_t got = fread(buf, 1, (size_t)n, fp); buf[got] = 0; fclose(fp);
        parser_parse(argv[i], argv[i], buf, got);
    }
    return diag_error_count() ? 1 : 0;
}
