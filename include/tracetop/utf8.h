/* UTF-8: decoding, encoding and display widths.  One module for every
 * room: the JSON checks, the key names, the tables and the grid.
 *
 * Widths follow wcwidth(3) (the C.UTF-8 tables of glibc 2.36, Unicode 14):
 * 0 for combining marks and zero-width characters, 2 for East Asian wide
 * and fullwidth characters (CJK, Hangul, most emoji), 1 otherwise.  The
 * table is compiled in, so widths do not depend on the locale and reports
 * stay the same everywhere.  Controls count 1 (they are shown as a space).
 * libc only. */
#ifndef TRACETOP_UTF8_H
#define TRACETOP_UTF8_H

#include <stddef.h>
#include <stdint.h>

#define TT_UTF8_BAD 0xFFFD /* what an invalid byte reads as */

/* Strict decoding of the code point at s[0..n): its length (1..4) and *cp,
 * or 0 when the bytes are not UTF-8 (a bad or missing continuation, an
 * overlong form, a surrogate, above U+10FFFF). */
size_t tt_utf8_decode(const char *s, size_t n, uint32_t *cp);

/* The code point at *s of a NUL-terminated string (not at its end), and
 * *s moved past it; an invalid byte reads as TT_UTF8_BAD and moves by 1. */
uint32_t tt_utf8_next(const char **s);

/* Bytes of the code point at s as tt_utf8_next reads it (1..4; 0 at the
 * terminating NUL). */
size_t tt_utf8_seqlen(const char *s);

/* The UTF-8 bytes of cp (at most 4) into out; their count. */
size_t tt_utf8_encode(uint32_t cp, char *out);

/* Display columns of one code point: 0, 1 or 2. */
int tt_cp_width(uint32_t cp);

/* Display columns of a NUL-terminated UTF-8 string. */
size_t tt_utf8_width(const char *s);

/* Bytes of the longest prefix of s that takes at most cols columns (zero-
 * width characters after the last one that fits are kept with it; a wide
 * character never is cut in half); *used (optional) gets its columns. */
size_t tt_utf8_cut(const char *s, size_t cols, size_t *used);

#endif
