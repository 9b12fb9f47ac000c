/* Load warnings: their messages and counting (tracetop/warn.h). */
#include "config.h"

#include "tracetop/warn.h"

static const char *const warn_msg[] = {
#define _(id, sev, msg) msg,
	TT_WARNINGS(_)
#undef _
};
static const char warn_sev[] = {
#define _(id, sev, msg) sev,
	TT_WARNINGS(_)
#undef _
};

const char *tt_warning_msg(enum tt_warning w)
{
	return (unsigned)w < TT_W_COUNT ? warn_msg[w] : "";
}

char tt_warning_severity(enum tt_warning w)
{
	return (unsigned)w < TT_W_COUNT ? warn_sev[w] : 'n';
}

void tt_report_warn(struct tt_load_report *r, enum tt_warning w, uint64_t off)
{
	if (r->count[w]++ == 0)
		r->first_off[w] = off;
}

void tt_report_merge(struct tt_load_report *dst, const struct tt_load_report *src)
{
	for (int w = 0; w < TT_W_COUNT; w++) {
		if (!src->count[w])
			continue;
		if (!dst->count[w] || src->first_off[w] < dst->first_off[w])
			dst->first_off[w] = src->first_off[w];
		dst->count[w] += src->count[w];
	}
	dst->events_seen += src->events_seen;
	dst->fast_events += src->fast_events;
	dst->slow_events += src->slow_events;
}
