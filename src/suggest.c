/* suggest.c: "did you mean": the known word nearest to a misspelt one. */
#include "suggest.h"

#include <stdlib.h>
#include <string.h>

/* Levenshtein distance of a and b, by one row of the table. */
static size_t edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    size_t *row = malloc((lb + 1) * sizeof *row);
    if (!row) abort();
    for (size_t j = 0; j <= lb; j++) row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    size_t d = row[lb];
    free(row);
    return d;
}

ptrdiff_t suggest_nearest(const char *word, const char *const *candidates, size_t n, size_t max_edits)
{
    size_t lw = strlen(word);
    ptrdiff_t best = -1;
    size_t best_edits = max_edits;
    for (size_t i = 0; i < n; i++) {
        size_t lc = strlen(candidates[i]);
        if ((lw > lc ? lw - lc : lc - lw) > best_edits) continue;     /* needs more edits than that */
        size_t d = edit_distance(word, lw, candidates[i], lc);
        if (d < best_edits || (d == best_edits && best < 0)) best = (ptrdiff_t)i, best_edits = d;
    }
    return best;
}
