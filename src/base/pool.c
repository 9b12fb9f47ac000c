/* Threads: tt_parallel_for and tt_thread_start (tracetop/pool.h). */
#include "config.h"

#include "tracetop/pool.h"

#include <stdatomic.h>
#include <stdlib.h>
#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#include "tracetop/util.h"

struct pool {
	size_t n;
	void (*fn)(size_t, void *);
	void *ctx;
	atomic_size_t next;
};

static void *pool_worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		size_t i = atomic_fetch_add(&p->next, 1);
		if (i >= p->n)
			break;
		p->fn(i, p->ctx);
	}
	return NULL;
}

void tt_parallel_for(size_t n, int nthreads, void (*fn)(size_t i, void *ctx), void *ctx)
{
	struct pool p = {.n = n, .fn = fn, .ctx = ctx};
	atomic_init(&p.next, 0);
	size_t nt = nthreads > 0 ? (size_t)nthreads : (size_t)tt_ncpus();
	if (nt > n)
		nt = n;
	if (nt > TT_POOL_MAX)
		nt = TT_POOL_MAX;
	pthread_t th[TT_POOL_MAX];
	size_t started = 0;
	for (size_t i = 1; i < nt; i++) {
		if (!tt_thread_start(&th[started], pool_worker, &p))
			break; /* the policy: fewer threads */
		started++;
	}
	pool_worker(&p);
	for (size_t i = 0; i < started; i++)
		pthread_join(th[i], NULL);
}

bool tt_thread_start(pthread_t *th, void *(*fn)(void *), void *arg)
{
	return pthread_create(th, NULL, fn, arg) == 0;
}

void tt_thread_background(void)
{
#ifdef __linux__
	/* (Linux keeps a nice value per thread: the thread's id, not the
	 * process's; raising it needs no privilege, and nothing undoes it) */
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int now = getpriority(PRIO_PROCESS, (id_t)tid);
	if (now < 5)
		(void)setpriority(PRIO_PROCESS, (id_t)tid, 5);
#endif
}
