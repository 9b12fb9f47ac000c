/* model room private interface */
#ifndef TRACETOP_MODEL_INT_H
#define TRACETOP_MODEL_INT_H

#include "tracetop/model.h"

struct builder;

/* A builder collects the events of one file (or one chunk of a file) and
 * turns them into a rank.  It is the sink given to tt_scan(). */
struct builder *builder_new(uint64_t max_memory);
void builder_free(struct builder *b);
int builder_event(void *ctx, const struct tt_raw_event *ev, struct tt_err *err);
/* Append everything b2 collected after what b collected (chunks of one file,
 * in file order).  b2 is emptied. */
void builder_merge(struct builder *b, struct builder *b2);
/* Finish: sort, pair, link.  The builder gives its rank away. */
struct tt_rank *builder_finish(struct builder *b, struct tt_trace_meta *meta,
			       struct tt_load_report *rep);
/* The rank's span (t0, t1: work events, markers left out) and its counts
 * by kind (n_kernel ... n_steps), from its events and tracks. */
void rank_stats(struct tt_rank *r);
/* Forget a mapped cache (registered when mapped, so that a SIGBUS in it
 * ends the program with a line naming it) and unmap it (cache.c). */
void cache_unmap(const void *p, size_t n);
/* What a .tts records of the bytes a rank was read from (cache.c): taken
 * on the descriptor the loader reads, when it opens it and again when it
 * is done; false when fd is not a regular file or cannot be read. */
struct src_id {
	uint64_t size, hash, dev, ino;
	int64_t mtime_ns;
};
bool src_id_take(int fd, struct src_id *id);
/* Set r's src_* from the identities at the start and the end of its read
 * (either may be NULL: not a file). */
void src_id_keep(struct tt_rank *r, const struct src_id *start, const struct src_id *end);
/* Count a loaded rank's memory (its arrays) in tt_mem_used() until it is
 * freed: the --max-memory budget is for the whole model. */
void rank_account(struct tt_rank *r);
/* the report the builder counts its own warnings into */
struct tt_load_report *builder_report(struct builder *b);

/* Is a file name one a folder's listing takes as a trace (*.json,
 * *.json.gz, *.gz, *.trace, *.tts; not hidden)? */
bool tt_trace_like(const char *name);

#endif
