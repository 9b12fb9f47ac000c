#include "config.h"

#include "tracetop/err.h"

#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const status_msg[] = {
#define _(id, msg) msg,
	TT_STATUS(_)
#undef _
};

static const char *tt_status_str(enum tt_status code)
{
	if ((unsigned)code >= TT_E_COUNT)
		return "unknown error";
	return status_msg[code];
}

void tt_err_clear(struct tt_err *e)
{
	if (!e)
		return;
	e->code = TT_E_OK;
	e->path[0] = '\0';
	e->offset = TT_NO_OFFSET;
	e->offset_kind = TT_OFF_PLAIN;
	e->msg[0] = '\0';
}

static int err_vset(struct tt_err *e, enum tt_status code, const char *path, uint64_t off,
		    enum tt_offset_kind kind, const char *fmt, va_list ap)
{
	if (e) {
		e->code = code;
		snprintf(e->path, sizeof(e->path), "%s", path ? path : "");
		e->offset = off;
		e->offset_kind = kind;
		if (fmt)
			vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		else
			snprintf(e->msg, sizeof(e->msg), "%s", tt_status_str(code));
	}
	return -(int)code;
}

int tt_err_set(struct tt_err *e, enum tt_status code, const char *path, uint64_t off,
	       const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = err_vset(e, code, path, off, TT_OFF_PLAIN, fmt, ap);
	va_end(ap);
	return r;
}

int tt_err_setk(struct tt_err *e, enum tt_status code, const char *path, uint64_t off,
		enum tt_offset_kind kind, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int r = err_vset(e, code, path, off, kind, fmt, ap);
	va_end(ap);
	return r;
}

void tt_err_format(const struct tt_err *e, char *buf, size_t n)
{
	const char *q = "";
	if (e->offset_kind == TT_OFF_DECOMPRESSED)
		q = " (decompressed)";
	else if (e->offset_kind == TT_OFF_COMPRESSED)
		q = " (compressed)";
	if (e->path[0] && e->offset != TT_NO_OFFSET)
		snprintf(buf, n, "%s:%llu%s: %s", e->path, (unsigned long long)e->offset, q, e->msg);
	else if (e->path[0])
		snprintf(buf, n, "%s: %s", e->path, e->msg);
	else
		snprintf(buf, n, "%s", e->msg);
}

static void (*die_hook)(void);
static void (*_Atomic die_signal_hook)(void);

void tt_set_die_signal_hook(void (*hook)(void))
{
	atomic_store(&die_signal_hook, hook);
}

void tt_run_die_signal_hook(void)
{
	void (*hook)(void) = atomic_exchange(&die_signal_hook, NULL);
	if (hook)
		hook();
}

void tt_set_die_hook(void (*hook)(void))
{
	die_hook = hook;
}

void tt_die(const char *fmt, ...)
{
	void (*hook)(void) = die_hook;
	die_hook = NULL;
	if (hook)
		hook();
	va_list ap;
	va_start(ap, fmt);
	fputs("tracetop: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	abort();
}
