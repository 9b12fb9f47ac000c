/* The timeline pane (placeholder until the timeline lands). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "tracetop/ui.h"
#include "tracetop/util.h"

struct tl_state {
	size_t ri;
	uint32_t ev;
	int64_t t;
};

static int tl_open(struct tt_pane *p)
{
	struct tl_state *s = p->state;
	if (!s) {
		s = tt_calloc(1, sizeof(*s));
		s->ev = TT_NONE;
		p->state = s;
	}
	snprintf(p->msg, sizeof(p->msg), "the timeline is not built yet");
	return -1;
}

static void tl_close(struct tt_pane *p)
{
	free(p->state);
}

const struct tt_pane_ops tt_timeline_ops = {
	.name = "timeline",
	.title = "Timeline",
	.open = tl_open,
	.close = tl_close,
};

struct tt_pane *tt_timeline_new(struct tt_app *a, size_t ri, uint32_t ev, int64_t t)
{
	struct tt_pane *p = tt_pane_new(a, &tt_timeline_ops);
	struct tl_state *s = tt_calloc(1, sizeof(*s));
	s->ri = ri;
	s->ev = ev;
	s->t = t;
	p->state = s;
	return p;
}
