/* Rank lists as users type them: "0,2,4-7".  One parser for the --ranks
 * option and the explorer's r prompt.  libc only. */
#ifndef TRACETOP_RANKLIST_H
#define TRACETOP_RANKLIST_H

#include <stddef.h>
#include <stdint.h>

#define TT_RANK_MAX ((INT64_C(1) << 24) - 1) /* the largest rank a list may name */
#define TT_RANKS_LIST_MAX ((size_t)1 << 20)  /* ranks in one list, repeats counted */

/* Parse s: rank numbers and ranges a-b (a <= b), separated by commas or
 * spaces.  Each rank is 0..TT_RANK_MAX and the list
 * names at most TT_RANKS_LIST_MAX ranks, so the work and memory are bounded
 * whatever s says.  Returns 0 with *out (malloc'd, the ranks in the order
 * given; the caller frees it) and *n >= 1, or -1 with *out = NULL, *n = 0
 * and a short reason in why[0..whysz) (why may be NULL; at most 40
 * characters, e.g. "ranks go up to 16777215"). */
int tt_ranks_parse(const char *s, int64_t **out, size_t *n, char *why, size_t whysz);

/* The list v[0..n) as text that tt_ranks_parse reads back: runs of
 * consecutive numbers as ranges, "0-7,9,12-15", in the order given.  When
 * it does not fit in buf[0..bufsz) it ends after the last whole item with
 * ",..." (so a number is never cut).  Returns the length written. */
size_t tt_ranks_format(const int64_t *v, size_t n, char *buf, size_t bufsz);

#endif
