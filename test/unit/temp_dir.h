/* temp_dir.h: a unit test's scratch directory under /tmp: made fresh, then removed with all it holds. */
#ifndef TEMP_DIR_H
#define TEMP_DIR_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* A new directory /tmp/pbjc_TAG_XXXXXX, its path in dir (64 bytes); false when it cannot be made. */
static inline bool temp_dir_make(char *dir, const char *tag)
{
    snprintf(dir, 64, "/tmp/pbjc_%s_XXXXXX", tag);
    return mkdtemp(dir) != NULL;
}

/* 0 when dir and everything in it are gone. */
static inline int temp_dir_remove(const char *dir)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif
