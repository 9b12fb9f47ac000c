/* The Python stacks of operators (`Call stack` args or python_function
 * events), and the editor command that opens a frame's line. */
#include "config.h"

#include "tracetop/source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/hmap.h"
#include "tracetop/util.h"
#include "optree.h"

/* ---- source helpers ---- */

bool tt_tb_frame_parse(const char *frame, size_t len, char *file, size_t fn, int64_t *line)
{
	/* "path(123): func": the last "(digits)" before ": " */
	const char *end = frame + len;
	const char *colon = NULL;
	for (const char *p = frame; p + 2 <= end; p++)
		if (p[0] == ')' && p + 1 < end && p[1] == ':') {
			colon = p;
			break;
		}
	if (!colon)
		return false;
	const char *open = colon;
	while (open > frame && open[-1] >= '0' && open[-1] <= '9')
		open--;
	if (open == colon || open == frame || open[-1] != '(')
		return false;
	size_t flen = (size_t)(open - 1 - frame);
	if (!flen || flen >= fn || frame[0] == '<')
		return false;
	memcpy(file, frame, flen);
	file[flen] = '\0';
	*line = strtoll(open, NULL, 10);
	return true;
}

size_t tt_tb_editor_command(char *buf, size_t n, const char *editor, const char *file, int64_t line)
{
	if (!editor || !editor[0])
		editor = "vi";
	/* a control character would be shown escaped, not as it is: what a
	 * person pastes would not be the file */
	for (const unsigned char *p = (const unsigned char *)file; *p; p++)
		if (*p < 0x20 || *p == 0x7F) {
			if (n)
				buf[0] = '\0';
			return 0;
		}
	/* "--": no file name is an option; a name starting with - or + gets
	 * a ./ as well, for editors that read +CMD after it */
	bool dot = file[0] == '-' || file[0] == '+';
	int h = snprintf(buf, n, "%s +%lld -- '%s", editor, (long long)line, dot ? "./" : "");
	size_t k = h > 0 ? (size_t)h : 0; /* the whole command's length */
	/* bytes written: the command up to the first piece that does not fit
	 * (a piece is never cut, and no byte is left unwritten before the NUL) */
	size_t w = n ? TT_MIN(k, n - 1) : 0;
	bool full = k >= n;
	for (const char *p = file; *p; p++) {
		const char *piece = *p == '\'' ? "'\\''" : NULL;
		char one[2] = {*p, '\0'};
		const char *s = piece ? piece : one;
		size_t l = strlen(s);
		if (!full && w + l + 1 < n) {
			memcpy(buf + w, s, l);
			w += l;
		} else {
			full = true;
		}
		k += l;
	}
	if (!full && w + 1 < n)
		buf[w++] = '\'';
	if (n)
		buf[w] = '\0';
	return k + 1;
}

/* ---- source ---- */

#define SRC_MAX_FRAMES 256 /* frames of a Python stack shown, innermost first */

struct srcacc {
	uint32_t op;	/* rank string id */
	uint32_t stack; /* local string id */
	bool python;
	uint32_t nframes;
	uint64_t calls;
	int64_t host;
	uint32_t longest;
};

struct src_out {
	bool sel;
	struct tt_strtab local; /* stacks */
	struct srcacc *acc;
	size_t n;
	uint64_t n_python, n_call_stack;
};

struct src_ctx {
	const struct tt_model *m;
	struct src_out *r;
};

/* "a;b;c" -> "a\nb\nc" (frames trimmed, empty ones dropped) */
static uint32_t split_stack(struct tt_strtab *t, const char *s, size_t n, char **buf, size_t *cap,
			    uint32_t *nframes)
{
	TT_GROW(*buf, *cap, n + 1);
	size_t k = 0;
	*nframes = 0;
	const char *end = s + n;
	while (s < end) {
		const char *e = memchr(s, ';', (size_t)(end - s));
		if (!e)
			e = end;
		const char *a = s, *b = e;
		while (a < b && (*a == ' ' || *a == '\t' || *a == '\n'))
			a++;
		while (b > a && (b[-1] == ' ' || b[-1] == '\t' || b[-1] == '\n'))
			b--;
		if (b > a) {
			if (k)
				(*buf)[k++] = '\n';
			memcpy(*buf + k, a, (size_t)(b - a));
			k += (size_t)(b - a);
			(*nframes)++;
		}
		s = e + 1;
	}
	return tt_strtab_intern(t, *buf, k);
}

static void src_rank(size_t ri, void *vctx)
{
	struct src_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct src_out *d = &c->r[ri];
	d->sel = true;
	tt_strtab_init(&d->local);
	bool any_py = false;
	for (uint32_t i = 0; i < r->nev; i++)
		if (tt_ev_kind(r, &r->ev[i]) == TT_K_PYTHON && r->ev[i].ph == 'X') {
			any_py = true;
			d->n_python++;
		}
	struct tt_optree t;
	tt_optree_build(r, &t, any_py);
	uint32_t *memo = NULL, *memo_n = NULL;
	if (any_py) {
		memo = tt_malloc(((size_t)r->nev + 1) * sizeof(*memo));
		memo_n = tt_malloc(((size_t)r->nev + 1) * sizeof(*memo_n));
		memset(memo, 0xff, ((size_t)r->nev + 1) * sizeof(*memo));
	}
	struct tt_hmap h = {0};
	char *buf = NULL;
	size_t bcap = 0, cap = 0;
	for (uint32_t k = 0; k < t.norder; k++) {
		uint32_t i = t.order[k];
		const struct tt_event *e = &r->ev[i];
		uint32_t stack = TT_NONE, nframes = 0;
		bool python = false;
		if ((e->flags & TT_EF_OPINFO) && r->opinfo[e->aux].call_stack != TT_NONE) {
			uint32_t cs = r->opinfo[e->aux].call_stack;
			stack = split_stack(&d->local, tt_str(r, cs), tt_strtab_len(&r->strs, cs),
					    &buf, &bcap, &nframes);
			d->n_call_stack++;
			if (!nframes)
				stack = TT_NONE;
		} else if (any_py && t.py[i] != TT_NONE) {
			uint32_t p = t.py[i];
			if (memo[p] == TT_NONE) {
				size_t bl = 0;
				uint32_t nf = 0, a = p;
				/* the innermost SRC_MAX_FRAMES frames: a walk per
				 * distinct frame, so a deeper nest would cost its
				 * depth squared */
				for (; a != TT_NONE && nf < SRC_MAX_FRAMES; a = t.pyparent[a]) {
					const char *nm = tt_ev_name(r, &r->ev[a]);
					size_t l = tt_strtab_len(&r->strs, r->ev[a].name);
					TT_GROW(buf, bcap, bl + l + 2);
					if (bl)
						buf[bl++] = '\n';
					memcpy(buf + bl, nm, l);
					bl += l;
					nf++;
				}
				if (a != TT_NONE) {
					static const char more[] = "\n\xE2\x80\xA6 (the outer frames left out)";
					TT_GROW(buf, bcap, bl + sizeof(more));
					memcpy(buf + bl, more, sizeof(more) - 1);
					bl += sizeof(more) - 1;
				}
				memo[p] = tt_strtab_intern(&d->local, buf, bl);
				memo_n[p] = nf;
			}
			stack = memo[p];
			nframes = memo_n[p];
			python = true;
		}
		if (stack == TT_NONE)
			continue;
		uint32_t *slot = tt_hmap_slot(&h, ((uint64_t)e->name << 32) | stack);
		if (*slot == TT_NONE) {
			TT_GROW(d->acc, cap, d->n + 1);
			struct srcacc *a = &d->acc[d->n];
			memset(a, 0, sizeof(*a));
			a->op = e->name;
			a->stack = stack;
			a->python = python;
			a->nframes = nframes;
			a->longest = i;
			*slot = (uint32_t)d->n++;
		}
		struct srcacc *a = &d->acc[*slot];
		a->calls++;
		tt_sat_acc(&a->host, e->dur);
		if (e->dur > r->ev[a->longest].dur)
			a->longest = i;
	}
	free(buf);
	free(memo);
	free(memo_n);
	tt_hmap_free(&h);
	tt_optree_free(&t);
}

static int stack_cmp(const void *a, const void *b)
{
	const struct tt_src_stack *x = a, *y = b;
	if (x->host_ns != y->host_ns)
		return x->host_ns > y->host_ns ? -1 : 1;
	int d = strcmp(x->op, y->op);
	return d ? d : strcmp(x->stack, y->stack);
}

static int line_cmp(const void *a, const void *b)
{
	const struct tt_src_line *x = a, *y = b;
	if (x->host_ns != y->host_ns)
		return x->host_ns > y->host_ns ? -1 : 1;
	return strcmp(x->frame, y->frame);
}

void tt_src_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_src *out)
{
	memset(out, 0, sizeof(*out));
	tt_strtab_init(&out->strs);
	struct src_ctx c = {m, tt_calloc(m->nranks + 1, sizeof(*c.r))};
	tt_for_ranks(m, o, src_rank, &c);
	uint32_t *smap = NULL, *lmap = NULL;
	size_t smcap = 0, lmcap = 0, scap = 0, lcap = 0;
	char *buf = NULL;
	size_t bcap = 0;
	/* (line, op) pairs seen, for the distinct ops of a line */
	struct tt_hmap pairs = {0};
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct src_out *d = &c.r[ri];
		if (!d->sel)
			continue;
		const struct tt_rank *r = m->ranks[ri];
		out->n_python += d->n_python;
		out->n_call_stack += d->n_call_stack;
		for (size_t k = 0; k < d->n; k++) {
			const struct srcacc *a = &d->acc[k];
			const char *op = tt_str(r, a->op), *st = tt_strtab_get(&d->local, a->stack);
			size_t ol = tt_strtab_len(&r->strs, a->op),
			       sl = tt_strtab_len(&d->local, a->stack);
			TT_GROW(buf, bcap, ol + sl + 2);
			memcpy(buf, op, ol);
			buf[ol] = '\x1f';
			memcpy(buf + ol + 1, st, sl);
			uint32_t id = tt_tb_key_index(&out->strs, buf, ol + 1 + sl, &smap, &smcap);
			if (smap[id] == TT_NONE) {
				TT_GROW(out->stacks, scap, out->nstacks + 1);
				struct tt_src_stack *w = &out->stacks[out->nstacks];
				memset(w, 0, sizeof(*w));
				w->op = tt_strtab_get(&out->strs,
						      tt_strtab_intern(&out->strs, op, ol));
				w->stack = tt_strtab_get(&out->strs,
							 tt_strtab_intern(&out->strs, st, sl));
				w->nframes = a->nframes;
				w->python = a->python;
				w->ri = ri;
				w->ev = a->longest;
				smap[id] = (uint32_t)out->nstacks++;
			}
			struct tt_src_stack *w = &out->stacks[smap[id]];
			w->calls += a->calls;
			tt_sat_acc(&w->host_ns, a->host);
			if (r->ev[a->longest].dur > m->ranks[w->ri]->ev[w->ev].dur) {
				w->ri = ri;
				w->ev = a->longest;
			}
			/* the innermost frame */
			size_t fl = strcspn(st, "\n");
			uint32_t opid = tt_strtab_intern(&out->strs, op, ol);
			uint32_t lid = tt_tb_key_index(&out->strs, st, fl, &lmap, &lmcap);
			if (lmap[lid] == TT_NONE) {
				TT_GROW(out->lines, lcap, out->nlines + 1);
				struct tt_src_line *ln = &out->lines[out->nlines];
				memset(ln, 0, sizeof(*ln));
				ln->frame = tt_strtab_get(&out->strs, lid);
				lmap[lid] = (uint32_t)out->nlines++;
			}
			struct tt_src_line *ln = &out->lines[lmap[lid]];
			ln->calls += a->calls;
			tt_sat_acc(&ln->host_ns, a->host);
			uint32_t *seen = tt_hmap_slot(&pairs, ((uint64_t)lid << 32) | opid);
			if (*seen == TT_NONE) {
				*seen = 1;
				ln->nops++;
			}
		}
		free(d->acc);
		tt_strtab_free(&d->local);
	}
	if (out->nstacks > 1)
		qsort(out->stacks, out->nstacks, sizeof(*out->stacks), stack_cmp);
	if (out->nlines > 1)
		qsort(out->lines, out->nlines, sizeof(*out->lines), line_cmp);
	tt_hmap_free(&pairs);
	free(buf);
	free(smap);
	free(lmap);
	free(c.r);
}

void tt_src_free(struct tt_src *s)
{
	free(s->stacks);
	free(s->lines);
	tt_strtab_free(&s->strs);
	memset(s, 0, sizeof(*s));
}

