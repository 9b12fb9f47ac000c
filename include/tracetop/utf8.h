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

#include <stdbool.h>
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

/* ---- the terminal's own widths ----
 * curses advances the cursor by the running libc's wcwidth(3), which on
 * another Unicode version than the table above may give a character
 * another width: a run of cells drawn at once would then shift.  The TUI
 * compares the two when it starts and draws a character they measure
 * differently by itself, in the cells the grid gave it. */

/* Note every code point from U+00A0 (surrogates left out) that tt_cp_width
 * gives a cell (width 1 or 2) and libc_width (wcwidth, or a stand-in in
 * tests) measures otherwise; returns how many.  Call once, before drawing
 * (not thread-safe); a later call replaces the set. */
size_t tt_width_check(int (*libc_width)(uint32_t cp));
/* Is cp one of them? */
bool tt_width_differs(uint32_t cp);
/* What to draw for cp in the tt_cp_width(cp) cells the grid gave it, on a
 * terminal whose libc gives it width libc_w: out[] gets code points whose
 * widths by that libc fill those cells exactly: cp itself when the two
 * agree, cp and a space when the libc makes it narrower, else a '?' per
 * cell (a wide glyph would not fit, an unprintable one would not move the
 * cursor).  Returns their count (1 or 2). */
int tt_width_plan(uint32_t cp, int libc_w, uint32_t out[2]);

#endif
