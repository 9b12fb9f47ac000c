/* GPU streams of a rank by what they carry, and the streams of two ranks
 * paired by it (diff.h). */
#include "config.h"

#include "tracetop/diff.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

const char *tt_stream_kind_name(enum tt_stream_kind k)
{
	static const char *const n[] = {"compute", "comm", "memory", "other"};
	return (unsigned)k < TT_ARRAY_SIZE(n) ? n[k] : "?";
}

/* The GPU streams of r (its TT_TRACK_GPU tracks, in track order) with
 * what each carries.  *out malloc'd (free it); returns the count.  One
 * pass over the rank's GPU events. */
static size_t tt_stream_infos(const struct tt_rank *r, struct tt_stream_info **out)
{
	size_t n = 0;
	for (uint32_t t = 0, i0, i1; tt_next_gpu_track(r, &t, &i0, &i1);)
		n++;
	struct tt_stream_info *v = tt_calloc(n + 1, sizeof(*v));
	uint8_t *tcache = tt_calloc((size_t)r->strs.n + 1, 1); /* type + 1, 0 = not yet */
	/* the time of each name on the stream: its busiest name */
	int64_t *by_name = tt_calloc((size_t)r->strs.n + 1, sizeof(*by_name));
	uint32_t *touched = NULL;
	size_t ntouched = 0, cap = 0;
	size_t k = 0;
	for (uint32_t t = 0, i0, i1; tt_next_gpu_track(r, &t, &i0, &i1);) {
		struct tt_stream_info *s = &v[k++];
		int64_t by_type[4] = {0};
		s->stream = r->tracks[t - 1].stream;
		s->device = r->tracks[t - 1].device;
		s->top = TT_NONE;
		ntouched = 0;
		for (uint32_t i = i0; i < i1; i++) {
			const struct tt_event *e = &r->ev[i];
			if (!(e->flags & TT_EF_STREAM) || e->ph != 'X' || (e->flags & TT_EF_MARKER))
				continue;
			uint8_t ty = TT_KT_OTHER;
			if (e->name < r->strs.n) {
				if (!tcache[e->name])
					tcache[e->name] =
						(uint8_t)(tt_kernel_type(tt_str(r, e->name), NULL) + 1);
				ty = (uint8_t)(tcache[e->name] - 1);
				if (!by_name[e->name]) {
					TT_GROW(touched, cap, ntouched + 1);
					touched[ntouched++] = e->name;
				}
				by_name[e->name] += e->dur + 1; /* (+1: a zero-length one counts) */
			}
			by_type[ty] += e->dur;
			s->busy_ns += e->dur;
			s->nevents++;
		}
		/* the kind: the type of kernel with the most time (compute,
		 * communication, memory), else other */
		s->kind = TT_SK_OTHER;
		int64_t best = 0;
		static const uint8_t kinds[3] = {TT_SK_COMPUTE, TT_SK_COMM, TT_SK_MEMORY};
		for (int ty = 0; ty < 3; ty++)
			if (by_type[ty] > best) {
				best = by_type[ty];
				s->kind = kinds[ty];
			}
		best = 0;
		for (size_t j = 0; j < ntouched; j++) {
			uint32_t id = touched[j];
			if (by_name[id] > best || (by_name[id] == best && id < s->top)) {
				best = by_name[id];
				s->top = id;
			}
			by_name[id] = 0;
		}
	}
	free(touched);
	free(by_name);
	free(tcache);
	*out = v;
	return n;
}

struct cand {
	const struct tt_stream_info *s;
	const struct tt_rank *r;
	bool used;
};

static const char *top_name(const struct cand *c)
{
	return c->s->top != TT_NONE ? tt_str(c->r, c->s->top) : "";
}

static int by_busy(const void *x, const void *y, void *ctx)
{
	const struct cand *a = x, *b = y;
	(void)ctx;
	if (a->s->busy_ns != b->s->busy_ns)
		return a->s->busy_ns > b->s->busy_ns ? -1 : 1;
	return a->s->stream < b->s->stream ? -1 : a->s->stream > b->s->stream;
}

size_t tt_diff_stream_pairs(const struct tt_rank *a, const struct tt_rank *b,
			    struct tt_stream_pair **out)
{
	struct tt_stream_info *si[2];
	size_t n[2] = {tt_stream_infos(a, &si[0]), tt_stream_infos(b, &si[1])};
	const struct tt_rank *r[2] = {a, b};
	struct cand *c[2];
	for (int s = 0; s < 2; s++) {
		c[s] = tt_calloc(n[s] + 1, sizeof(*c[s]));
		for (size_t i = 0; i < n[s]; i++)
			c[s][i] = (struct cand){&si[s][i], r[s], false};
		/* the busiest first: the order of the last rule */
		tt_msort(c[s], n[s], sizeof(*c[s]), by_busy, NULL);
	}
	struct tt_stream_pair *p = tt_calloc(n[0] + n[1] + 1, sizeof(*p));
	size_t np = 0;
	/* 1: the same number carrying the same kind; 2: the same kind and the
	 * same busiest name; 3: the same kind, the busiest with the busiest */
	for (int how = TT_SP_NUMBER; how <= TT_SP_ORDER; how++)
		for (size_t i = 0; i < n[0]; i++) {
			struct cand *x = &c[0][i];
			if (x->used)
				continue;
			for (size_t j = 0; j < n[1]; j++) {
				struct cand *y = &c[1][j];
				if (y->used || y->s->kind != x->s->kind)
					continue;
				if (how == TT_SP_NUMBER && y->s->stream != x->s->stream)
					continue;
				if (how == TT_SP_NAME && strcmp(top_name(x), top_name(y)) != 0)
					continue;
				x->used = y->used = true;
				p[np++] = (struct tt_stream_pair){{x->s->stream, y->s->stream},
								  x->s->kind, (uint8_t)how};
				break;
			}
		}
	/* the streams of one side only */
	for (int s = 0; s < 2; s++)
		for (size_t i = 0; i < n[s]; i++)
			if (!c[s][i].used) {
				struct tt_stream_pair q = {{-1, -1}, c[s][i].s->kind, TT_SP_ALONE};
				q.stream[s] = c[s][i].s->stream;
				p[np++] = q;
			}
	for (int s = 0; s < 2; s++) {
		free(c[s]);
		free(si[s]);
	}
	*out = p;
	return np;
}
