/* main.c: decode an ms.Holder from stdin and print it in text format (test/front/msgset/print.sh). */
#include <stdio.h>
#include "set.pb.h"
#include "elem.pb.h"
int main(void) {
    static uint8_t buf[4096]; size_t n = fread(buf, 1, sizeof buf, stdin);
    pbj_arena a; pbj_arena_init(&a, NULL, 0);
    ms_Holder h; if (ms_Holder_decode(&h, buf, n, &a, NULL) != PBJ_OK) return 1;
    pbj_text t; pbj_text_init(&t); ms_Holder_print(&h, &t); fputs(t.data, stdout); pbj_text_free(&t);
    pbj_arena_free(&a); return 0;
}
