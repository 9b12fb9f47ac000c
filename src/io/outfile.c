/* Output files that never damage anything: see tracetop/outfile.h. */
#include "config.h"

#include "tracetop/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/util.h"

/* ---- the registry of temporary files (read by signal handlers) ---- */

#define NSLOTS 32
static char *_Atomic slots[NSLOTS];

static int reg_add(const char *tmp)
{
	char *copy = tt_strdup(tmp);
	for (int i = 0; i < NSLOTS; i++) {
		char *expect = NULL;
		if (atomic_compare_exchange_strong(&slots[i], &expect, copy))
			return i;
	}
	free(copy); /* (full: removed on the ordinary paths only) */
	return -1;
}

static void reg_del(int slot)
{
	if (slot >= 0)
		free(atomic_exchange(&slots[slot], NULL));
}

void tt_output_cleanup(void)
{
	for (int i = 0; i < NSLOTS; i++) {
		char *p = atomic_load(&slots[i]);
		if (p)
			unlink(p);
	}
}

static void on_signal(int sig)
{
	tt_output_cleanup();
	signal(sig, SIG_DFL);
	raise(sig);
}

void tt_output_signals(void)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM};
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < TT_ARRAY_SIZE(sigs); i++) {
		struct sigaction old;
		/* (a signal ignored by the parent, nohup say, stays ignored) */
		if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(sigs[i], &sa, NULL);
	}
	signal(SIGXFSZ, SIG_IGN);
}

/* ---- checks ---- */

static const char *kind_of(mode_t m)
{
	return S_ISDIR(m)    ? "a directory" :
	       S_ISFIFO(m)   ? "a FIFO" :
	       S_ISCHR(m)    ? "a character device" :
	       S_ISBLK(m)    ? "a block device" :
	       S_ISSOCK(m)   ? "a socket" :
			       "not a regular file";
}

int tt_output_check(const char *path, const char *const *inputs, size_t n, struct tt_err *err)
{
	struct stat st, lst;
	if (lstat(path, &lst) != 0)
		return 0; /* (absent: created; other errors show when it is) */
	if (!S_ISREG(lst.st_mode) && !S_ISLNK(lst.st_mode))
		return tt_err_set(err, TT_E_USAGE, path, TT_NO_OFFSET,
				  "the output is %s, not a regular file: not replaced",
				  kind_of(lst.st_mode));
	if (stat(path, &st) != 0)
		return 0; /* (a dangling symlink: replaced by the output) */
	if (!S_ISREG(st.st_mode))
		return tt_err_set(err, TT_E_USAGE, path, TT_NO_OFFSET,
				  "the output is a symlink to %s, not a regular file: not replaced",
				  kind_of(st.st_mode));
	for (size_t i = 0; i < n; i++) {
		struct stat in;
		if (inputs[i] && stat(inputs[i], &in) == 0 && in.st_dev == st.st_dev &&
		    in.st_ino == st.st_ino)
			return tt_err_set(err, TT_E_USAGE, path, TT_NO_OFFSET,
					  "the output is the input %s: not replaced", inputs[i]);
	}
	return 0;
}

/* ---- writing ---- */

int tt_output_begin(struct tt_outfile *o, const char *path, struct tt_err *err)
{
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->slot = -1;
	int rc = tt_output_check(path, NULL, 0, err);
	if (rc)
		return rc;
	/* .NAME.XXXXXX in the output's own directory (rename stays on one file
	 * system), hidden, unpredictable */
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0;
	size_t n = strlen(path) + 16;
	o->tmp = tt_malloc(n);
	snprintf(o->tmp, n, "%.*s.%s.XXXXXX", (int)dirlen, path, path + dirlen);
	o->fd = mkstemp(o->tmp);
	if (o->fd >= 0)
		o->slot = reg_add(o->tmp);
	if (o->fd < 0) {
		int e = errno;
		free(o->tmp);
		o->tmp = NULL;
		return tt_err_set(err, TT_E_IO, path, TT_NO_OFFSET, "cannot create the output: %s",
				  strerror(e));
	}
	/* mkstemp makes 0600; an output is an ordinary file */
	mode_t um = umask(0);
	umask(um);
	(void)fchmod(o->fd, 0666 & ~um);
	o->path = tt_strdup(path);
	return 0;
}

int tt_output_end(struct tt_outfile *o, bool ok, struct tt_err *err)
{
	int rc = 0;
	if (o->fd >= 0 && close(o->fd) != 0 && ok)
		rc = tt_err_set(err, TT_E_IO, o->path, TT_NO_OFFSET, "cannot write: %s",
				strerror(errno));
	o->fd = -1;
	if (ok && !rc && o->tmp) {
		/* (checked again: the name may have become a FIFO meanwhile) */
		rc = tt_output_check(o->path, NULL, 0, err);
		if (!rc && rename(o->tmp, o->path) != 0)
			rc = tt_err_set(err, TT_E_IO, o->path, TT_NO_OFFSET, "cannot rename %s: %s",
					o->tmp, strerror(errno));
	}
	if ((!ok || rc) && o->tmp)
		unlink(o->tmp);
	reg_del(o->slot);
	o->slot = -1;
	free(o->tmp);
	free(o->path);
	o->tmp = o->path = NULL;
	return rc;
}
