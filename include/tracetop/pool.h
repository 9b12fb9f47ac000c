/* Threads: one way to spread work over the cores, with one failure policy.
 *
 * The policy: a thread the system refuses to start is not an error.  The
 * work is done by the threads that did start (the calling thread always
 * takes part), so a refusal costs speed, never a result and never an exit.
 * libc and POSIX threads only. */
#ifndef TRACETOP_POOL_H
#define TRACETOP_POOL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#define TT_POOL_MAX 64 /* threads at most, the caller included */

/* Run fn(i, ctx) once for each i in [0, n), on up to nthreads threads
 * (<= 0: one per CPU; never more than n or TT_POOL_MAX), the calling thread
 * among them.  Items are handed out in increasing order from a shared
 * counter, so the first items start first (sort the big ones first) and fn
 * must not care which thread runs it.  Returns when every item is done;
 * fn's writes are visible to the caller then. */
void tt_parallel_for(size_t n, int nthreads, void (*fn)(size_t i, void *ctx), void *ctx);

/* Start a helper thread running fn(arg) beside the caller (a producer for
 * its consumers).  false when the system refuses: the caller then does
 * without it (the policy above), e.g. does the work inline. */
bool tt_thread_start(pthread_t *th, void *(*fn)(void *), void *arg);
/* Lower the calling thread's priority a little (nice +5; on Linux a
 * thread's own, inherited by the threads it starts): for work done ahead
 * of need, so that the thread drawing the screen wins the cores it shares
 * with it.  Within the process only as far as the scheduler groups it
 * (Linux's autogroup: a session's processes share one weight).  Does
 * nothing where a thread has no priority of its own. */
void tt_thread_background(void);

#endif
