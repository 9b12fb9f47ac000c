/* io room: watching a folder for files that appear and grow.
 *
 * inotify tells a local folder's changes at once; on a network file system
 * it misses what other machines write, so the caller polls as well (a
 * watch is only a hint to look sooner).  Without inotify (another kernel,
 * no watches left) the watch has no descriptor and polling does it all. */
#ifndef TRACETOP_WATCH_H
#define TRACETOP_WATCH_H

#include <stdbool.h>

struct tt_watch;

/* Watch folder dir (files created, written, closed, moved in or out,
 * deleted).  poll_only: no inotify.  Never fails: a watch that cannot use
 * inotify polls (tt_watch_fd() is -1). */
struct tt_watch *tt_watch_open(const char *dir, bool poll_only);
/* A descriptor that is readable when the folder changed, or -1 (polling
 * only).  Owned by the watch. */
int tt_watch_fd(const struct tt_watch *w);
/* Read what the descriptor holds; true when anything changed since the
 * last call.  Never blocks. */
bool tt_watch_drain(struct tt_watch *w);
void tt_watch_close(struct tt_watch *w);

#endif
