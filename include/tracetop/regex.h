/* Regular expressions whose cost is bounded: POSIX extended syntax, matched
 * by a Thompson NFA (Pike's VM), never by backtracking.  libc only.
 *
 * A search costs at most (bytes of the text) x (instructions of the
 * program), whatever the pattern and the text: no pattern takes exponential
 * time, and a program is at most TT_RE_MAX_PROG instructions (counted
 * repetitions are expanded, so a{1000}{1000} is refused, not run).
 * Back-references (\1 .. \9), which no such bound can hold for, are refused
 * with a message saying so.
 *
 * Syntax: the POSIX extended one (regex(7)): . [...] [^...] with ranges and
 * [:alpha:] classes, ^ $, ( ) grouping, | alternation, * + ? {m} {m,}
 * {m,n} (m, n <= 255); \ before a special character quotes it; GNU's \w \W
 * \s \S (word and space characters) and \b \B \< \> (word boundaries), and
 * \d \D (digits).  A { that does not start a valid bound is itself.  Text
 * is UTF-8 (a character is one code point; an invalid byte one character of
 * its own); case is ignored on request (towlower/towupper: the locale's). */
#ifndef TRACETOP_REGEX_H
#define TRACETOP_REGEX_H

#include <stdbool.h>
#include <stddef.h>

/* instructions a compiled pattern may have (a class counts its ranges) */
#define TT_RE_MAX_PROG 4000

struct tt_re;

/* Compile pattern; NULL with the reason in why (e.g. "back-references (\1)
 * are not supported", "unmatched (") when it is not valid. */
struct tt_re *tt_re_compile(const char *pattern, bool icase, char *why, size_t whyn);

/* Does re match somewhere in s[0..n)?  Uses scratch space of re: one
 * search at a time per compiled pattern. */
bool tt_re_search(struct tt_re *re, const char *s, size_t n);

void tt_re_free(struct tt_re *re);

#endif
