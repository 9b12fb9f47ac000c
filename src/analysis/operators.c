/* The operator view: host and device self / total time per operator, the
 * GPU ops under an operator, and the sizes of op inputs. */
#include "config.h"

#include "tracetop/operators.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/hmap.h"
#include "tracetop/util.h"
#include "optree.h"

int tt_tb_dtype_size(const char *type, size_t n)
{
	static const struct {
		const char *name;
		int size;
	} sizes[] = {
		{"float", 4},
		{"float32", 4},
		{"double", 8},
		{"float64", 8},
		{"half", 2},
		{"c10::half", 2},
		{"float16", 2},
		{"bfloat16", 2},
		{"c10::bfloat16", 2},
		{"long", 8},
		{"long int", 8},
		{"int64", 8},
		{"long long", 8},
		{"int", 4},
		{"int32", 4},
		{"short", 2},
		{"int16", 2},
		{"short int", 2},
		{"char", 1},
		{"signed char", 1},
		{"unsigned char", 1},
		{"byte", 1},
		{"bool", 1},
		{"uint8", 1},
		{"int8", 1},
		{"complexfloat", 8},
		{"c10::complex<float>", 8},
		{"complexdouble", 16},
		{"c10::complex<double>", 16},
		{"float8_e4m3fn", 1},
		{"float8_e5m2", 1},
		{"c10::float8_e4m3fn", 1},
		{"c10::float8_e5m2", 1},
	};
	char low[32];
	if (n == 0 || n >= sizeof(low))
		return 0;
	for (size_t i = 0; i < n; i++)
		low[i] = (char)tolower((unsigned char)type[i]);
	low[n] = '\0';
	for (size_t i = 0; i < TT_ARRAY_SIZE(sizes); i++)
		if (strcmp(low, sizes[i].name) == 0)
			return sizes[i].size;
	return 0;
}

static const char *skip_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* the next string of a JSON list of strings: [*s, *s + *n); returns the
 * position after it, or NULL at the end of the list */
static const char *next_json_str(const char *p, const char **s, size_t *n)
{
	p = skip_ws(p);
	if (*p == '[' || *p == ',')
		p = skip_ws(p + 1);
	if (*p != '"')
		return NULL;
	p++;
	*s = p;
	while (*p && *p != '"') {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	*n = (size_t)(p - *s);
	return *p ? p + 1 : p;
}

int64_t tt_tb_input_bytes(const char *dims, const char *types)
{
	if (!dims || !types)
		return -1;
	const char *d = skip_ws(dims), *t = types;
	if (*d != '[')
		return -1;
	d++;
	int64_t total = 0;
	bool known = false;
	for (;;) {
		d = skip_ws(d);
		if (*d == ',')
			d = skip_ws(d + 1);
		if (*d != '[')
			break;
		/* one input: a list of integers (nested lists count as unknown) */
		d++;
		int64_t prod = 1;
		bool ok = true;
		for (;;) {
			d = skip_ws(d);
			if (*d == ',')
				d = skip_ws(d + 1);
			if (*d == ']') {
				d++;
				break;
			}
			if (*d == '\0')
				return known ? total : -1;
			if ((*d >= '0' && *d <= '9') || *d == '-') {
				char *e;
				long long v = strtoll(d, &e, 10);
				if (v < 0 || (v > 0 && prod > INT64_MAX / v))
					ok = false;
				else
					prod *= v;
				d = e;
			} else {
				ok = false;
				/* skip a nested value */
				int depth = 0;
				while (*d && !(depth == 0 && (*d == ',' || *d == ']'))) {
					if (*d == '[')
						depth++;
					else if (*d == ']')
						depth--;
					d++;
				}
			}
		}
		const char *ts = NULL;
		size_t tn = 0;
		if (t)
			t = next_json_str(t, &ts, &tn);
		int size = ts ? tt_tb_dtype_size(ts, tn) : 0;
		if (ok && size > 0) {
			known = true;
			if (prod <= (INT64_MAX - total) / size)
				total += prod * size;
		}
	}
	return known ? total : -1;
}

/* ---- tensor cores (the plugin's tensor_core.py lists) ---- */

bool tt_tb_kernel_uses_tc(const char *name)
{
	static const char *const pat[] = {
		"h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "dgrad_1x1_stride_2x2",
		"first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group",
		"xmma_implicit_gemm", "xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm",
		"xmma_gemm", "xmma_sparse_gemm", "c1688"};
	for (size_t i = 0; i < TT_ARRAY_SIZE(pat); i++)
		if (strstr(name, pat[i]))
			return true;
	return false;
}

bool tt_tb_op_tc_eligible(const char *name)
{
	static const char *const ops[] = {
		"aten::_convolution", "aten::conv1d", "aten::conv2d", "aten::conv3d",
		"aten::conv_tbc", "aten::conv_transpose1d", "aten::conv_transpose2d",
		"aten::conv_transpose3d", "aten::convolution", "aten::cudnn_convolution",
		"aten::cudnn_convolution_transpose", "aten::prelu", "aten::addmm", "aten::addmv",
		"aten::addr", "aten::matmul", "aten::mm", "aten::mv", "aten::linear",
		"aten::addbmm", "aten::baddbmm", "aten::bmm", "aten::chain_matmul",
		"aten::linalg_multi_dot", "aten::_thnn_fused_lstm_cell",
		"aten::_thnn_fused_gru_cell", "aten::lstm_cell", "aten::gru_cell",
		"aten::rnn_tanh_cell", "aten::rnn_relu_cell", "CudnnConvolutionBackward",
		"BmmBackward0", "aten::cudnn_convolution_transpose_backward",
		"CudnnConvolutionTransposeBackward", "MmBackward",
		"aten::cudnn_convolution_backward_weight", "aten::addmm_", "AddmvBackward",
		"MvBackward", "aten::cudnn_convolution_transpose_backward_weight",
		"aten::cudnn_convolution_transpose_backward_input", "AddmmBackward",
		"aten::cudnn_convolution_backward_input", "AddbmmBackward",
		"aten::cudnn_convolution_backward"};
	for (size_t i = 0; i < TT_ARRAY_SIZE(ops); i++)
		if (strcmp(name, ops[i]) == 0)
			return true;
	return false;
}

/* ---- the per-node figures of the plugin's tree ---- */

static void tt_tb_node_stats(const struct tt_rank *r, const struct tt_tbtree *t,
			     struct tt_tb_nodestat *ns)
{
	size_t nn = (size_t)t->norder + 1;
	ns->pos = tt_malloc(((size_t)r->nev + 1) * sizeof(*ns->pos)); /* (nodes only) */
	/* (not calloc: each node's figures are zeroed in order below before
	 * anything adds to them, so that a fresh page is first touched by a
	 * write -- one fault -- not read from the zero page and then copied) */
	ns->node = tt_malloc(nn * sizeof(*ns->node));
	ns->tc_eligible = tt_malloc(nn);
	struct tt_tb_node *nd = ns->node;
	int8_t *tc = tt_malloc((size_t)r->strs.n + 1);
	memset(tc, -1, (size_t)r->strs.n + 1);
	const uint32_t *pos = ns->pos;
	for (uint32_t k = 0; k < t->norder; k++) {
		uint32_t i = t->order[k], p = t->parent[i];
		const struct tt_event *e = &r->ev[i];
		ns->pos[i] = k;
		nd[k] = (struct tt_tb_node){0};
		if (p != TT_NONE)
			tt_sat_acc(&nd[pos[p]].child, e->dur); /* (parents come first) */
		ns->tc_eligible[k] = t->kind[i] != TT_TBN_STEP &&
				     (t->nflags[e->name] & TT_NF_TC_ELIGIBLE);
	}
	/* (the links are sorted by launching event: one sweep finds each
	 * call's) */
	uint32_t lnk = 0;
	for (uint32_t i = 0; i < r->nev; i++) {
		const struct tt_event *e = &r->ev[i];
		uint32_t o = t->owner[i];
		if (o == TT_NONE || !tt_tb_is_runtime(r, e))
			continue;
		/* the host time of the call is the innermost node's: the node's
		 * children already cover it (the plugin, charging it by External id
		 * to an op around a child, subtracts it twice) */
		tt_sat_acc(&nd[pos[o]].runtime, e->dur);
		/* the GPU work: an annotation is a range, not a caller */
		uint32_t go = t->gpu_owner[o]; /* (tt_tbtree_gpu_owner(t, i)) */
		if (go == TT_NONE)
			continue;
		struct tt_tb_node *w = &nd[pos[go]];
		while (lnk < r->nlinks && r->links[lnk].cpu < i)
			lnk++;
		for (uint32_t l = lnk; l < r->nlinks && r->links[l].cpu == i; l++) {
			const struct tt_event *g = &r->ev[r->links[l].gpu];
			if (!tt_tb_is_gpu_op(r, g))
				continue;
			tt_sat_acc(&w->dself, g->dur);
			w->gself++;
			if (tt_ev_kind(r, g) != TT_K_KERNEL)
				continue;
			tt_sat_acc(&w->kself, g->dur);
			if (tc[g->name] < 0)
				tc[g->name] = tt_tb_kernel_uses_tc(tt_ev_name(r, g));
			if (tc[g->name])
				tt_sat_acc(&w->tcself, g->dur);
		}
	}
	free(tc);
	/* children after parents in order: add up from the end (a node's
	 * children have added theirs when it is met; the durations are not
	 * negative, so the sums saturate alike in any order); a cpu_op with a
	 * tensor-core eligible child is eligible too */
	for (uint32_t k = t->norder; k-- > 0;) {
		uint32_t i = t->order[k], p = t->parent[i];
		struct tt_tb_node *c = &nd[k];
		tt_sat_acc(&c->dtotal, c->dself);
		c->gtotal += c->gself;
		tt_sat_acc(&c->tctotal, c->tcself);
		if (c->tcself > 0 && t->kind[i] != TT_TBN_STEP)
			ns->tc_eligible[k] = 1;
		if (p == TT_NONE)
			continue;
		uint32_t pp = pos[p];
		tt_sat_acc(&nd[pp].dtotal, c->dtotal);
		nd[pp].gtotal += c->gtotal;
		tt_sat_acc(&nd[pp].tctotal, c->tctotal);
		if (ns->tc_eligible[k] && t->kind[p] != TT_TBN_STEP &&
		    tt_ev_kind(r, &r->ev[p]) == TT_K_CPU_OP)
			ns->tc_eligible[pp] = 1;
	}
}

static void *node_stats_build(const struct tt_rank *r, void *ctx)
{
	(void)ctx;
	struct tt_tb_nodestat *ns = tt_malloc(sizeof(*ns));
	tt_tb_node_stats(r, tt_tbtree_of(r), ns);
	return ns;
}

static void tt_tb_node_stats_free(struct tt_tb_nodestat *ns)
{
	free(ns->pos);
	free(ns->node);
	free(ns->tc_eligible);
	memset(ns, 0, sizeof(*ns));
}

static void node_stats_drop(void *v)
{
	tt_tb_node_stats_free(v);
	free(v);
}

const struct tt_tb_nodestat *tt_tb_node_stats_of(const struct tt_rank *r)
{
	return tt_rank_memo(r, TT_MEMO_TB_NODESTAT, node_stats_build, NULL, node_stats_drop);
}

/* ---- operators ---- */

struct opacc {
	uint32_t name, dims; /* rank string ids (dims TT_NONE: absent) */
	bool tc_eligible;    /* the first call's (call_keys) */
	uint32_t first;      /* position in t->order of that call, UINT32_MAX: none */
	uint64_t calls, gself, gtotal;
	int64_t htotal, hself, dtotal, dself, runtime, tcself, tctotal;
	int64_t longest_dur;
	uint32_t longest;
};

struct ops_out {
	bool sel;
	struct opacc *acc;
	size_t n;
	bool any_shapes;
	uint32_t ndropped, nmerged;
};

struct ops_ctx {
	const struct tt_model *m;
	bool by_shapes;
	struct ops_out *r;
};

static uint32_t dims_of(const struct tt_rank *r, const struct tt_event *e)
{
	if (!(e->flags & TT_EF_OPINFO))
		return TT_NONE;
	return r->opinfo[e->aux].input_dims;
}

/* a node's place in the plugin's listing of operators */
struct postkey {
	uint32_t thread, depth;
	int64_t end;
	uint32_t k; /* position in t->order */
};

static int postkey_cmp(const void *a, const void *b)
{
	const struct postkey *x = a, *y = b;
	if (x->thread != y->thread)
		return x->thread < y->thread ? -1 : 1;
	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	if (x->depth != y->depth)
		return x->depth > y->depth ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

struct thfirst {
	int64_t first;
	uint32_t th;
};

static int thfirst_cmp(const void *a, const void *b)
{
	const struct thfirst *x = a, *y = b;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return x->th < y->th ? -1 : x->th > y->th;
}

/* The plugin lists a thread's operators in post-order (children before
 * their parent), threads by their first node's start, and a grouped row
 * takes its tensor-core eligibility from the first call it meets.  The
 * key of each node of t (by position) in that order (postkey_cmp): within
 * a thread, post-order is by end, a descendant (deeper) first at equal
 * ends.  (A row's first call is the least key of its calls: no sort.) */
static struct postkey *call_keys(const struct tt_rank *r, const struct tt_tbtree *t,
				 const struct tt_tb_nodestat *ns)
{
	size_t nn = (size_t)t->norder + 1;
	uint32_t *trank = tt_tb_none_array(r->ntracks);
	int64_t *tfirst = tt_malloc(((size_t)r->ntracks + 1) * sizeof(*tfirst));
	struct postkey *v = tt_malloc(nn * sizeof(*v));
	for (uint32_t k = 0; k < t->norder; k++) {
		const struct tt_event *e = &r->ev[t->order[k]];
		uint32_t th = e->track, p = t->parent[t->order[k]];
		if (r->tracks[th].kind != TT_TRACK_CPU)
			th = r->opinfo[e->aux].thread; /* a stray op (optree.c) */
		if (trank[th] == TT_NONE || e->ts < tfirst[th]) {
			trank[th] = 0;
			tfirst[th] = e->ts;
		}
		v[k] = (struct postkey){th, p != TT_NONE ? v[ns->pos[p]].depth + 1 : 0,
					tt_ev_end(e), k};
	}
	/* the threads' ranks by first start (then track) */
	uint32_t nth = 0;
	for (uint32_t th = 0; th < r->ntracks; th++)
		if (trank[th] != TT_NONE)
			trank[nth++] = th; /* (reused: the threads with nodes) */
	/* (sorted: a trace may hold an operator per thread) */
	struct thfirst *tf = tt_malloc(((size_t)nth + 1) * sizeof(*tf));
	for (uint32_t i = 0; i < nth; i++)
		tf[i] = (struct thfirst){tfirst[trank[i]], trank[i]};
	if (nth > 1)
		qsort(tf, nth, sizeof(*tf), thfirst_cmp);
	for (uint32_t i = 0; i < nth; i++)
		trank[i] = tf[i].th;
	free(tf);
	uint32_t *rank_of = tt_tb_none_array(r->ntracks);
	for (uint32_t i = 0; i < nth; i++)
		rank_of[trank[i]] = i;
	for (uint32_t k = 0; k < t->norder; k++)
		v[k].thread = rank_of[v[k].thread];
	free(rank_of);
	free(tfirst);
	free(trank);
	return v;
}

static void ops_rank(size_t ri, void *vctx)
{
	struct ops_ctx *c = vctx;
	const struct tt_rank *r = c->m->ranks[ri];
	struct ops_out *d = &c->r[ri];
	d->sel = true;
	const struct tt_tbtree *t = tt_tbtree_of(r);
	d->ndropped = t->ndropped;
	d->nmerged = t->nmerged;
	const struct tt_tb_nodestat *ns = tt_tb_node_stats_of(r);
	struct postkey *key = call_keys(r, t, ns);
	uint32_t *by_name =
		c->by_shapes ? NULL : tt_malloc(((size_t)r->strs.n + 1) * sizeof(*by_name));
	if (by_name)
		memset(by_name, 0xff, ((size_t)r->strs.n + 1) * sizeof(*by_name));
	struct tt_hmap h = {0};
	size_t cap = 0;
	for (uint32_t k = 0; k < t->norder; k++) {
		uint32_t i = t->order[k];
		const struct tt_event *e = &r->ev[i];
		if (t->kind[i] != TT_TBN_OP)
			continue;
		uint32_t dims = dims_of(r, e);
		if (dims != TT_NONE)
			d->any_shapes = true;
		uint32_t *slot;
		if (by_name)
			slot = &by_name[e->name];
		else
			slot = tt_hmap_slot(&h, ((uint64_t)e->name << 32) | dims);
		if (*slot == TT_NONE) {
			TT_GROW(d->acc, cap, d->n + 1);
			struct opacc *a = &d->acc[d->n];
			memset(a, 0, sizeof(*a));
			a->name = e->name;
			a->dims = by_name ? TT_NONE : dims;
			a->longest_dur = -1;
			a->first = UINT32_MAX;
			*slot = (uint32_t)d->n++;
		}
		struct opacc *a = &d->acc[*slot];
		a->calls++;
		tt_sat_acc(&a->htotal, e->dur);
		const struct tt_tb_node *nd = &ns->node[k];
		tt_sat_acc(&a->hself, tt_sat_sub(tt_sat_sub(e->dur, nd->child), nd->runtime));
		tt_sat_acc(&a->runtime, nd->runtime);
		tt_sat_acc(&a->dself, nd->dself);
		tt_sat_acc(&a->dtotal, nd->dtotal);
		a->gself += nd->gself;
		a->gtotal += nd->gtotal;
		tt_sat_acc(&a->tcself, nd->tcself);
		tt_sat_acc(&a->tctotal, nd->tctotal);
		if (a->first == UINT32_MAX || postkey_cmp(&key[k], &key[a->first]) < 0) {
			a->first = k;
			a->tc_eligible = ns->tc_eligible[k];
		}
		if (e->dur > a->longest_dur) {
			a->longest_dur = e->dur;
			a->longest = i;
		}
	}
	tt_hmap_free(&h);
	free(by_name);
	free(key);
}

static int oprow_cmp(const void *a, const void *b)
{
	const struct tt_op_row *x = a, *y = b;
	if (x->dev_self != y->dev_self)
		return x->dev_self > y->dev_self ? -1 : 1;
	if (x->host_self != y->host_self)
		return x->host_self > y->host_self ? -1 : 1;
	int d = strcmp(x->name, y->name);
	if (d)
		return d;
	return strcmp(x->shapes ? x->shapes : "", y->shapes ? y->shapes : "");
}

void tt_ops_compute(const struct tt_model *m, const struct tt_aopts *o, bool by_shapes,
		    struct tt_ops *out)
{
	memset(out, 0, sizeof(*out));
	tt_strtab_init(&out->keys);
	struct ops_ctx c = {m, by_shapes, tt_calloc(m->nranks + 1, sizeof(*c.r))};
	tt_for_ranks(m, o, ops_rank, &c);
	uint32_t *map = NULL;
	size_t mcap = 0, rcap = 0;
	int64_t *last = NULL;
	char *buf = NULL;
	size_t bcap = 0;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		struct ops_out *d = &c.r[ri];
		if (!d->sel)
			continue;
		const struct tt_rank *r = m->ranks[ri];
		out->any_shapes |= d->any_shapes;
		out->ndropped += d->ndropped;
		out->nmerged += d->nmerged;
		for (size_t k = 0; k < d->n; k++) {
			const struct opacc *a = &d->acc[k];
			const char *nm = tt_str(r, a->name);
			size_t nl = tt_strtab_len(&r->strs, a->name);
			const char *dm = a->dims != TT_NONE ? tt_str(r, a->dims) : "";
			size_t dl = a->dims != TT_NONE ? tt_strtab_len(&r->strs, a->dims) : 0;
			/* the key: name, or name \x1f dims */
			size_t kl = nl + (by_shapes ? 1 + dl : 0);
			TT_GROW(buf, bcap, kl + 1);
			memcpy(buf, nm, nl);
			if (by_shapes) {
				buf[nl] = '\x1f';
				memcpy(buf + nl + 1, dm, dl);
			}
			uint32_t id = tt_tb_key_index(&out->keys, buf, kl, &map, &mcap);
			if (map[id] == TT_NONE) {
				TT_GROW(out->rows, rcap, out->n + 1);
				last = tt_realloc_array(last, rcap, sizeof(*last));
				struct tt_op_row *w = &out->rows[out->n];
				memset(w, 0, sizeof(*w));
				w->name = tt_strtab_get(&out->keys,
							tt_strtab_intern(&out->keys, nm, nl));
				if (by_shapes && a->dims != TT_NONE)
					w->shapes = tt_strtab_get(
						&out->keys, tt_strtab_intern(&out->keys, dm, dl));
				w->ev = TT_NONE;
				last[out->n] = -1;
				map[id] = (uint32_t)out->n++;
			}
			size_t wi = map[id];
			struct tt_op_row *w = &out->rows[wi];
			if (last[wi] != (int64_t)ri) {
				w->nranks++;
				last[wi] = (int64_t)ri;
			}
			w->calls += a->calls;
			tt_sat_acc(&w->host_total, a->htotal);
			tt_sat_acc(&w->host_self, a->hself);
			tt_sat_acc(&w->dev_total, a->dtotal);
			tt_sat_acc(&w->dev_self, a->dself);
			tt_sat_acc(&w->runtime_ns, a->runtime);
			tt_sat_acc(&w->tc_self_ns, a->tcself);
			tt_sat_acc(&w->tc_total_ns, a->tctotal);
			if (w->nranks == 1 && last[wi] == (int64_t)ri)
				w->tc_eligible = a->tc_eligible; /* (the first rank's) */
			w->gpu_ops_self += a->gself;
			w->gpu_ops_total += a->gtotal;
			if (w->ev == TT_NONE || a->longest_dur > m->ranks[w->ri]->ev[w->ev].dur) {
				w->ri = ri;
				w->ev = a->longest;
			}
		}
		free(d->acc);
	}
	if (out->n > 1)
		qsort(out->rows, out->n, sizeof(*out->rows), oprow_cmp);
	free(buf);
	free(map);
	free(last);
	free(c.r);
}

void tt_ops_free(struct tt_ops *p)
{
	free(p->rows);
	tt_strtab_free(&p->keys);
	memset(p, 0, sizeof(*p));
}

/* ---- kernels under an operator ---- */

static int opk_cmp(const void *a, const void *b)
{
	const struct tt_op_kernel *x = a, *y = b;
	if (x->sum_ns != y->sum_ns)
		return x->sum_ns > y->sum_ns ? -1 : 1;
	return strcmp(x->name, y->name);
}

size_t tt_op_kernels(const struct tt_model *m, const struct tt_aopts *o, const char *op,
		     const char *shapes, struct tt_op_kernel **out)
{
	struct tt_strtab names;
	tt_strtab_init(&names);
	uint32_t *map = NULL;
	size_t mcap = 0, n = 0, cap = 0;
	struct tt_op_kernel *v = NULL;
	for (size_t ri = 0; ri < m->nranks; ri++) {
		const struct tt_rank *r = m->ranks[ri];
		if (!tt_aopts_has_rank(o, r->rank))
			continue;
		uint32_t nid = tt_strtab_find(&r->strs, op, strlen(op));
		uint32_t did = shapes ? tt_strtab_find(&r->strs, shapes, strlen(shapes)) : TT_NONE;
		if (nid == TT_NO_STR || (shapes && did == TT_NO_STR))
			continue;
		const struct tt_tbtree *t = tt_tbtree_of(r);
		for (uint32_t l = 0; l < r->nlinks; l++) {
			uint32_t g = r->links[l].gpu, own = tt_tbtree_gpu_owner(t, r->links[l].cpu);
			if (own == TT_NONE || !tt_tb_is_gpu_op(r, &r->ev[g]))
				continue;
			bool self = false, under = false;
			for (uint32_t a = own; a != TT_NONE; a = t->parent[a]) {
				const struct tt_event *e = &r->ev[a];
				if (e->name != nid || (shapes && dims_of(r, e) != did))
					continue;
				under = true;
				self = a == own;
				break;
			}
			if (!under)
				continue;
			const struct tt_event *ge = &r->ev[g];
			uint32_t id = tt_tb_key_index(&names, tt_ev_name(r, ge),
						tt_strtab_len(&r->strs, ge->name), &map, &mcap);
			if (map[id] == TT_NONE) {
				TT_GROW(v, cap, n + 1);
				memset(&v[n], 0, sizeof(v[n]));
				v[n].ri = ri;
				v[n].longest = g;
				map[id] = (uint32_t)n++;
			}
			struct tt_op_kernel *k = &v[map[id]];
			k->count++;
			tt_sat_acc(&k->sum_ns, ge->dur);
			if (self) {
				k->count_self++;
				tt_sat_acc(&k->self_ns, ge->dur);
			}
			if (ge->dur > m->ranks[k->ri]->ev[k->longest].dur) {
				k->ri = ri;
				k->longest = g;
			}
		}
	}
	/* names point into the model: the longest instance's rank */
	for (size_t i = 0; i < n; i++)
		v[i].name = tt_ev_name(m->ranks[v[i].ri], &m->ranks[v[i].ri]->ev[v[i].longest]);
	if (n > 1)
		qsort(v, n, sizeof(*v), opk_cmp);
	free(map);
	tt_strtab_free(&names);
	*out = v;
	return n;
}

