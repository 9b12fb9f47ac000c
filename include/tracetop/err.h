/* Errors and warnings: one X-macro of status codes, one error record.
 *
 * Fallible functions return 0 or -TT_E_<id> and fill an optional struct tt_err
 * with the file, the byte offset and a message.  The core never prints. */
#ifndef TRACETOP_ERR_H
#define TRACETOP_ERR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define TT_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define TT_NORETURN __attribute__((noreturn))
#else
#define TT_PRINTF(f, a)
#define TT_NORETURN
#endif

#define TT_STATUS(_)                                              \
	_(OK, "no error")                                         \
	_(IO, "cannot read the file")                             \
	_(NOMEM, "out of memory")                                 \
	_(EMPTY, "empty file")                                    \
	_(GZIP, "bad gzip data")                                  \
	_(COMPRESSED, "compressed with an unsupported method")    \
	_(NOTJSON, "not a JSON trace")                            \
	_(SYNTAX, "JSON syntax error")                            \
	_(TRUNCATED, "file ends early")                           \
	_(TYPE, "wrong type")                                     \
	_(LIMIT, "limit exceeded")                                \
	_(NOEVENTS, "no traceEvents")                             \
	_(RANGE, "number out of range")                           \
	_(USAGE, "usage error")                                   \
	_(CACHE, "bad cache file")                                \
	_(NOTFOUND, "not found")

enum tt_status {
#define _(id, msg) TT_E_##id,
	TT_STATUS(_)
#undef _
	TT_E_COUNT
};

/* offset value meaning "no byte offset applies" */
#define TT_NO_OFFSET UINT64_MAX

enum tt_offset_kind {
	TT_OFF_PLAIN = 0,        /* byte of a plain file */
	TT_OFF_DECOMPRESSED = 1, /* byte of the inflated text of a gzip file */
	TT_OFF_COMPRESSED = 2,   /* byte of the compressed gzip stream */
};

struct tt_err {
	enum tt_status code;
	char path[256];    /* file being read, "" if none */
	uint64_t offset;   /* TT_NO_OFFSET if not applicable */
	enum tt_offset_kind offset_kind;
	char msg[256];
};

/* Fill *e (if not NULL) and return -code. */
int tt_err_set(struct tt_err *e, enum tt_status code, const char *path, uint64_t off,
	       const char *fmt, ...) TT_PRINTF(5, 6);
/* Same with the offset kind. */
int tt_err_setk(struct tt_err *e, enum tt_status code, const char *path, uint64_t off,
		enum tt_offset_kind kind, const char *fmt, ...) TT_PRINTF(6, 7);
void tt_err_clear(struct tt_err *e);

/* Format "PATH:OFFSET: MSG" (offset qualified for gzip) into buf. */
void tt_err_format(const struct tt_err *e, char *buf, size_t n);

/* Out of memory and other unrecoverable states: run the fatal hook (the TUI
 * installs one that restores the terminal), print, abort. */
TT_NORETURN void tt_die(const char *fmt, ...) TT_PRINTF(1, 2);
void tt_set_die_hook(void (*hook)(void));
/* The fatal hook of a signal handler, which may interrupt any code on any
 * thread (curses, malloc): it must be async-signal-safe (write, tcsetattr,
 * dup2 and the like, on data prepared beforehand).  The TUI installs one
 * that puts the terminal back while curses runs. */
void tt_set_die_signal_hook(void (*hook)(void));
/* Run it once (a fatal signal's handler, before it exits). */
void tt_run_die_signal_hook(void);

#endif
