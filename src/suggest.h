/* suggest.h: "did you mean": the known word nearest to a misspelt one. */
#ifndef PBJC_SUGGEST_H
#define PBJC_SUGGEST_H

#include <stddef.h>

/* The index of the candidate fewest edits (Levenshtein: insert, delete or
 * replace one byte) from word, at most max_edits away; the first of equally
 * near ones. -1 when none is that near. */
ptrdiff_t suggest_nearest(const char *word, const char *const *candidates, size_t n, size_t max_edits);

#endif
