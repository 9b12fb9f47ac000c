/* Text from a trace or a file name, made safe to show: control characters
 * (C0, DEL, C1), invalid UTF-8 bytes and the invisible direction and line
 * controls (U+061C, U+200E/F, U+202A..U+202E, U+2066..U+2069, U+2028/9) are
 * written as visible escapes, \x1b, \u202e, so that a name can neither
 * drive the terminal (retitle it, clear it) nor reorder or break a line.
 * CSV and JSON keep the text exact (quoted); terminals, text tables, the
 * explorer and messages on stderr show it escaped.  libc only. */
#ifndef TRACETOP_ESCAPE_H
#define TRACETOP_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "tracetop/err.h"

/* Does code point cp need an escape? */
bool tt_cp_needs_escape(uint32_t cp);
/* The escape of code point cp ("\x1b" below U+0100, "\u202e" above) into
 * out (at least 7 bytes); its length. */
size_t tt_cp_escape(uint32_t cp, char *out);
/* s escaped into out[0..n) (NUL-terminated, never cut inside a UTF-8
 * sequence or an escape); the bytes written. */
size_t tt_text_escape(char *out, size_t n, const char *s);
/* A message line on stderr: "tracetop: " and the formatted text, escaped
 * as a whole (file names and messages may hold anything), then '\n'. */
void tt_msg(const char *fmt, ...) TT_PRINTF(1, 2);

#endif
