/* unhex.h: hex text to bytes, for the decode tests' inputs. */
#ifndef DECODE_UNHEX_H
#define DECODE_UNHEX_H
#include <stdlib.h>

/* hex text -> bytes in buf; returns the length */
static size_t unhex(const char *hex, uint8_t *buf)
{
    size_t n = 0;
    for (; hex[0] && hex[1]; hex += 2) {
        char two[3] = {hex[0], hex[1], 0};
        buf[n++] = (uint8_t)strtoul(two, NULL, 16);
    }
    return n;
}
#endif
