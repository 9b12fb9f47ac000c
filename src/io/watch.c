/* Watching a folder: inotify where there is one, else nothing (the caller
 * polls).  include/tracetop/watch.h says why polling stays on anyway. */
#include "config.h"

#include "tracetop/watch.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

#include "tracetop/util.h"

struct tt_watch {
	int fd;
};

struct tt_watch *tt_watch_open(const char *dir, bool poll_only)
{
	struct tt_watch *w = tt_calloc(1, sizeof(*w));
	w->fd = -1;
#ifdef __linux__
	if (!poll_only) {
		int fd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		if (fd >= 0 &&
		    inotify_add_watch(fd, dir,
				      IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO |
					      IN_MOVED_FROM | IN_DELETE | IN_ATTRIB) >= 0)
			w->fd = fd;
		else if (fd >= 0)
			close(fd);
	}
#else
	(void)dir;
	(void)poll_only;
#endif
	return w;
}

int tt_watch_fd(const struct tt_watch *w)
{
	return w ? w->fd : -1;
}

bool tt_watch_drain(struct tt_watch *w)
{
	if (!w || w->fd < 0)
		return false;
	bool any = false;
	/* (aligned as struct inotify_event needs) */
	char buf[8192] __attribute__((aligned(8)));
	for (;;) {
		ssize_t n = read(w->fd, buf, sizeof(buf));
		if (n > 0) {
			any = true;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		break; /* EAGAIN: all read */
	}
	return any;
}

void tt_watch_close(struct tt_watch *w)
{
	if (!w)
		return;
	if (w->fd >= 0)
		close(w->fd);
	free(w);
}
