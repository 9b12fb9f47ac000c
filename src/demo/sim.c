/* The demo job's simulation: ranks in lock step, host threads, streams
 * and all-reduces (the overview is in demo_int.h). */
#include "config.h"

#include <stdlib.h>

#include "demo_int.h"

/* ---- CPU ops ---- */

static struct pend *op_begin(struct rsim *s, struct cthread *th, const char *pfx,
			     const char *name, int64_t num, int cat)
{
	if (th->depth == MAX_DEPTH)
		tt_die("demo: CPU ops nested too deeply");
	uint32_t ext = s->ext++, evidx = s->evidx++;
	int d = th->depth++;
	th->st[d].ext = ext;
	th->st[d].ts = th->t;
	if (!s->out)
		return NULL;
	TT_GROW(th->p, th->cap, th->np + 1);
	struct pend *p = &th->p[th->np];
	th->st[d].pend = th->np++;
	p->pfx = pfx;
	p->name = name;
	p->num = num;
	p->ts = th->t;
	p->dur = 0;
	p->ext = ext;
	p->evidx = evidx;
	p->seq = -1;
	p->cat = (uint8_t)cat;
	p->flow = 0;
	p->fwd_tid = false;
	p->dims = p->types = p->conc = NULL;
	p->comm = -1;
	p->pyline = 0;
	return p;
}

/* The activation the forward op of sequence number seq keeps for its
 * backward: allocated in the forward op, freed in its backward node (so
 * last in, first out); its size and address follow from seq alone. */
static void activation(struct rsim *s, struct cthread *th, int64_t seq, bool alloc)
{
	if (!s->out || seq < 0)
		return;
	int64_t bytes = (int64_t)(1 + mix64((uint64_t)seq % 16) % 12) << 21;
	int64_t addr = 0x7f3a00000000LL + seq * (32LL << 20);
	if (!s->mem_reserved) {
		/* the weights, gradients and optimizer state, from before the trace */
		s->mem_alloc = 1536LL << 20;
		s->mem_reserved = 2048LL << 20;
	}
	s->mem_alloc += alloc ? bytes : -bytes;
	/* the caching allocator reserves in 64 MiB segments and keeps them */
	int64_t seg = 64LL << 20;
	if (s->mem_alloc > s->mem_reserved)
		s->mem_reserved = (s->mem_alloc + seg - 1) / seg * seg;
	demo_emit_memory(s, th, th->t, addr, alloc ? bytes : -bytes);
}

static void op_end(struct rsim *s, struct cthread *th)
{
	int d = --th->depth;
	if (!s->out)
		return;
	th->p[th->st[d].pend].dur = th->t - th->st[d].ts;
	if (d == 0)
		demo_flush_ops(s, th);
}

/* a CPU op with no children that takes lo..hi µs */
static void op_leaf(struct rsim *s, struct cthread *th, const char *name, int cat, int64_t lo,
		    int64_t hi)
{
	op_begin(s, th, NULL, name, -1, cat);
	th->t += urand(&s->rng, lo, hi);
	op_end(s, th);
}

/* ---- runtime calls and GPU activities ---- */

static struct launch rt_call(struct rsim *s, struct cthread *th, const char *name, int cbid,
			     int64_t dur, bool flow)
{
	struct launch l;
	l.ts = th->t;
	l.corr = s->corr++;
	l.ext = th->depth ? th->st[th->depth - 1].ext : 0;
	th->t += dur;
	if (s->out)
		demo_emit_rt(s, th, name, cbid, dur, &l, flow);
	return l;
}

/* start of a GPU op on the compute stream launched by l */
static int64_t gpu_start(struct rsim *s, const struct launch *l)
{
	int64_t a = l->ts + urand(&s->rng, 4, 9);
	int64_t b = s->s7 + urand(&s->rng, 1, 3);
	return TT_MAX(a, b);
}

static int64_t kdur(struct rsim *s, const struct kdef *k)
{
	int64_t d = urand(&s->rng, k->dmin, k->dmax);
	return TT_MAX(1, d * s->speed / 1000);
}

static void launch_kernel(struct rsim *s, struct cthread *th, const struct kdef *k)
{
	th->t += urand(&s->rng, 1, 3);
	struct launch l = rt_call(s, th, demo_kernel_is_gemm(k) ? "cudaLaunchKernel:gemm"
							       : "cudaLaunchKernel",
				  211, urand(&s->rng, 4, 10), true);
	int64_t ts = gpu_start(s, &l);
	int64_t dur = kdur(s, k);
	s->s7 = ts + dur;
	if (s->out)
		demo_emit_kernel(s, k, STREAM_COMPUTE, ts, dur, &l, -1);
	th->t += urand(&s->rng, 1, 3);
}

/* a cudaMemcpyAsync / cudaMemsetAsync and its GPU op on the compute stream;
 * returns the end of the GPU op */
static int64_t mem_op(struct rsim *s, struct cthread *th, bool memset, const char *name,
		      int64_t bytes, int64_t mbps)
{
	th->t += urand(&s->rng, 1, 3);
	struct launch l;
	if (memset)
		l = rt_call(s, th, "cudaMemsetAsync", 51, urand(&s->rng, 4, 9), true);
	else
		l = rt_call(s, th, "cudaMemcpyAsync", 41, urand(&s->rng, 6, 14), true);
	int64_t ts = gpu_start(s, &l);
	int64_t dur = TT_MAX(1, bytes / mbps);
	dur += urand(&s->rng, 0, 1);
	s->s7 = ts + dur;
	if (s->out)
		demo_emit_mem(s, memset ? "gpu_memset" : "gpu_memcpy", name, ts, dur, &l, bytes);
	th->t += urand(&s->rng, 1, 3);
	return ts + dur;
}

/* ---- ops ---- */

static void run_call(struct rsim *s, struct cthread *th, const struct call *c, int64_t seq,
		     char flow, bool fwd_tid)
{
	int n = 0;
	while (n < (int)TT_ARRAY_SIZE(c->chain) && c->chain[n])
		n++;
	if (!n)
		return;
	for (int i = 0; i < n; i++) {
		struct pend *p = op_begin(s, th, NULL, c->chain[i], -1, CAT_OP);
		if (p && i == 0) {
			p->dims = c->dims;
			p->types = c->types;
			p->conc = c->conc;
			p->seq = seq;
			p->flow = flow;
			p->fwd_tid = fwd_tid;
			/* the forward of an nn.Module: its line in the model's file */
			if (flow == 's') {
				uint64_t h = 1469598103934665603ull;
				for (const char *q = c->chain[0]; *q; q++)
					h = (h ^ (uint8_t)*q) * 1099511628211ull;
				p->pyline = 30 + (int)((h % 53) * 4 + (uint64_t)(seq % 16) % 4);
			}
		}
		if (i == n - 1 && flow == 's')
			activation(s, th, seq, true);
		th->t += i == 0 ? urand(&s->rng, 4, 14) : urand(&s->rng, 2, 6);
		if (i == 0 && c->pre) {
			op_leaf(s, th, c->pre, CAT_OP, 2, 7);
			th->t += urand(&s->rng, 1, 3);
		}
	}
	for (int i = 0; i < (int)TT_ARRAY_SIZE(c->k) && c->k[i]; i++)
		launch_kernel(s, th, c->k[i]);
	for (int i = n; i-- > 0;) {
		th->t += urand(&s->rng, 1, 4);
		op_end(s, th);
	}
}

/* Sequence number of op i of layer l in a step: shared by the forward op and
 * its backward node, and the id of their fwdbwd flow. */
static int64_t seq_of(const struct job *j, int step, int layer, int i)
{
	return 1000 + ((int64_t)step * (j->layers + 2) + layer) * 16 + i;
}

static void fwd_ops(struct rsim *s, struct cthread *th, const struct opdef *ops, int n,
		    int step, int layer)
{
	for (int i = 0; i < n; i++) {
		int64_t seq = ops[i].node ? seq_of(s->job, step, layer, i) : -1;
		run_call(s, th, &ops[i].f, seq, seq >= 0 ? 's' : 0, false);
		th->t += urand(&s->rng, 2, 12);
	}
}

static void bwd_op(struct rsim *s, struct cthread *th, const struct opdef *d, int64_t seq)
{
	if (d->node) {
		struct pend *p = op_begin(s, th, EVAL_PFX, d->node, -1, CAT_OP);
		if (p) {
			p->seq = seq;
			p->fwd_tid = true;
		}
		th->t += urand(&s->rng, 2, 6);
		p = op_begin(s, th, NULL, d->node, -1, CAT_OP);
		if (p) {
			p->seq = seq;
			p->fwd_tid = true;
			p->flow = 'f';
		}
		activation(s, th, seq, false);
		th->t += urand(&s->rng, 3, 10);
		for (int i = 0; i < (int)TT_ARRAY_SIZE(d->b); i++) {
			run_call(s, th, &d->b[i], -1, 0, false);
			if (d->b[i].chain[0])
				th->t += urand(&s->rng, 1, 4);
		}
		th->t += urand(&s->rng, 1, 4);
		op_end(s, th);
		th->t += urand(&s->rng, 1, 3);
		op_end(s, th);
		th->t += urand(&s->rng, 3, 12);
	}
	if (d->params) {
		op_begin(s, th, EVAL_PFX, "torch::autograd::AccumulateGrad", -1, CAT_OP);
		th->t += urand(&s->rng, 2, 5);
		op_begin(s, th, NULL, "torch::autograd::AccumulateGrad", -1, CAT_OP);
		th->t += urand(&s->rng, 2, 6);
		run_call(s, th, &demo_acc_call, -1, 0, false);
		th->t += urand(&s->rng, 1, 3);
		op_end(s, th);
		th->t += urand(&s->rng, 1, 3);
		op_end(s, th);
		th->t += urand(&s->rng, 3, 10);
		s->nelems += d->params;
	}
}

static void bwd_ops(struct rsim *s, struct cthread *th, const struct opdef *ops, int n,
		    int step, int layer)
{
	for (int i = n; i-- > 0;)
		bwd_op(s, th, &ops[i], ops[i].node ? seq_of(s->job, step, layer, i) : -1);
}

/* DDP: the gradients of a bucket are ready; all-reduce them on the NCCL
 * stream once the compute stream got there */
static void allreduce(struct rsim *s, struct cthread *th)
{
	struct bucket *bk = &s->bk[s->nb++];
	struct pend *p = op_begin(s, th, NULL, "record_param_comms", -1, CAT_OP);
	if (p)
		p->comm = s->nelems;
	th->t += urand(&s->rng, 4, 10);
	op_begin(s, th, NULL, "nccl:all_reduce", -1, CAT_ANNOT);
	th->t += urand(&s->rng, 3, 8);
	rt_call(s, th, "cudaEventRecord", 135, urand(&s->rng, 2, 5), false);
	th->t += urand(&s->rng, 1, 3);
	rt_call(s, th, "cudaStreamWaitEvent", 147, urand(&s->rng, 1, 4), false);
	th->t += urand(&s->rng, 1, 3);
	struct launch l = rt_call(s, th, "cudaLaunchKernel", 211, urand(&s->rng, 6, 14), true);
	int64_t a = l.ts + urand(&s->rng, 5, 10);
	bk->ready = TT_MAX(a, s->s7);
	bk->nelems = s->nelems;
	bk->corr = l.corr;
	bk->ext = l.ext;
	th->t += urand(&s->rng, 2, 6);
	op_end(s, th);
	th->t += urand(&s->rng, 3, 8);
	op_end(s, th);
	th->t += urand(&s->rng, 4, 12);
	s->nelems = 0;
}

static void foreach_op(struct rsim *s, struct cthread *th, const char *name,
		       const struct kdef *k, int chunks)
{
	op_begin(s, th, NULL, name, -1, CAT_OP);
	th->t += urand(&s->rng, 15, 40);
	for (int i = 0; i < chunks; i++) {
		launch_kernel(s, th, k);
		th->t += urand(&s->rng, 2, 6);
	}
	op_end(s, th);
	th->t += urand(&s->rng, 3, 10);
}

/* ---- one step ---- */

static void step_a(struct rsim *s, int step)
{
	const struct job *j = s->job;
	struct cthread *m = &s->main, *bw = &s->bw;

	op_begin(s, m, NULL, "ProfilerStep#", STEP_BASE + step, CAT_ANNOT);
	m->t += urand(&s->rng, 8, 20);

	/* waiting for the next batch: the straggler's loader is slow */
	int64_t w = s->straggler && s->slow == TT_DEMO_SLOW_HOST ? urand(&s->rng, 560, 660) :
		    s->host_bound					 ? urand(&s->rng, 720, 800) :
								   urand(&s->rng, 150, 200);
	op_begin(s, m, NULL, "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__", -1,
		 CAT_ANNOT);
	m->t += j->nominal * w / 1000;
	op_end(s, m);
	m->t += urand(&s->rng, 5, 15);
	op_leaf(s, m, "Optimizer.zero_grad#SGD.zero_grad", CAT_ANNOT, 20, 60);
	m->t += urand(&s->rng, 5, 15);

	/* the batch to the GPU: from pinned memory in one copy; in the
	 * regressed run the images go one sample at a time from pageable
	 * memory, and each copy blocks the host until it is done */
	static const char *const to_chain[] = {"aten::to", "aten::_to_copy", "aten::copy_"};
	static const int64_t copy_bytes[] = {32LL * 3 * 224 * 224 * 4, 32 * 8};
	bool pageable = j->o->variant == TT_DEMO_REGRESSED;
	for (int c = 0; c < 2; c++) {
		int pieces = pageable && c == 0 ? REG_CHUNKS : 1;
		for (int piece = 0; piece < pieces; piece++) {
			for (int i = 0; i < 3; i++) {
				op_begin(s, m, NULL, to_chain[i], -1, CAT_OP);
				m->t += urand(&s->rng, 3, 9);
			}
			if (pieces > 1) {
				int64_t end = mem_op(s, m, false, "Memcpy HtoD (Pageable -> Device)",
						     copy_bytes[c] / pieces, urand(&s->rng, 6000, 8000));
				m->t = TT_MAX(m->t, end + urand(&s->rng, 1, 3));
			} else {
				mem_op(s, m, false, "Memcpy HtoD (Pinned -> Device)", copy_bytes[c],
				       urand(&s->rng, 20500, 23500));
			}
			for (int i = 0; i < 3; i++) {
				m->t += urand(&s->rng, 1, 4);
				op_end(s, m);
			}
			m->t += urand(&s->rng, 4, 12);
		}
	}

	/* forward */
	op_begin(s, m, NULL, "DistributedDataParallel.forward", -1, CAT_ANNOT);
	m->t += urand(&s->rng, 30, 80);
	for (int l = 0; l < j->layers; l++) {
		const struct opdef *ops;
		int n;
		demo_layer_ops(l, &ops, &n);
		fwd_ops(s, m, ops, n, step, l);
	}
	fwd_ops(s, m, demo_head_ops, demo_nhead_ops, step, j->layers);
	m->t += urand(&s->rng, 5, 20);
	op_end(s, m);
	m->t += urand(&s->rng, 10, 30);
	op_begin(s, m, NULL, "aten::cross_entropy_loss", -1, CAT_OP);
	m->t += urand(&s->rng, 3, 8);
	fwd_ops(s, m, demo_loss_ops, demo_nloss_ops, step, j->layers + 1);
	op_end(s, m);
	m->t += urand(&s->rng, 20, 60);

	/* loss.backward(): the seed gradient, then the autograd thread */
	run_call(s, m, &demo_ones_like_call, -1, 0, false);
	bw->t = TT_MAX(bw->t, m->t) + urand(&s->rng, 10, 30);
	s->nb = 0;
	s->nelems = 0;
	bwd_ops(s, bw, demo_loss_ops, demo_nloss_ops, step, j->layers + 1);
	bwd_ops(s, bw, demo_head_ops, demo_nhead_ops, step, j->layers);
	for (int l = j->layers; l-- > 0;) {
		const struct opdef *ops;
		int n;
		demo_layer_ops(l, &ops, &n);
		bwd_ops(s, bw, ops, n, step, l);
		if (l % BUCKET_LAYERS == 0)
			allreduce(s, bw);
	}
	/* the reducer's finalize: the compute stream waits for the all-reduces */
	bw->t += urand(&s->rng, 10, 30);
	rt_call(s, bw, "cudaStreamWaitEvent", 147, urand(&s->rng, 1, 4), false);
	bw->t += urand(&s->rng, 5, 15);
	m->t = TT_MAX(m->t, bw->t) + urand(&s->rng, 15, 40);
}

static void step_b(struct rsim *s)
{
	const struct job *j = s->job;
	struct cthread *m = &s->main;

	/* the all-reduces: each ends when the last rank has joined it */
	int64_t prev = j->nccl_free;
	for (int b = 0; b < j->nbuckets; b++) {
		const struct bucket *bk = &s->bk[b];
		int64_t ts = TT_MAX(bk->ready, prev);
		int64_t end = j->e_end[b];
		/* a slow link: this rank's part of every all-reduce ends late */
		if (s->straggler && s->slow == TT_DEMO_SLOW_LINK)
			end = TT_MAX(end, ts) + j->nominal / 5 +
			      urand(&s->rng, 0, 20);
		if (s->out) {
			struct launch l = {0, bk->corr, bk->ext};
			demo_emit_kernel(s, &demo_k_nccl, STREAM_NCCL, ts, end - ts, &l, bk->nelems);
		}
		prev = end;
	}
	s->s7 = TT_MAX(s->s7, prev);

	/* optimizer: SGD with momentum, foreach implementation */
	int chunks = TT_MAX(1, (j->layers + 5) / 6);
	op_begin(s, m, NULL, "Optimizer.step#SGD.step", -1, CAT_ANNOT);
	m->t += urand(&s->rng, 40, 120);
	op_begin(s, m, NULL, "aten::zeros", -1, CAT_OP);
	m->t += urand(&s->rng, 3, 8);
	op_begin(s, m, NULL, "aten::zero_", -1, CAT_OP);
	m->t += urand(&s->rng, 2, 5);
	mem_op(s, m, true, "Memset (Device)", 2048, 1000);
	m->t += urand(&s->rng, 1, 3);
	op_end(s, m);
	m->t += urand(&s->rng, 1, 3);
	op_end(s, m);
	m->t += urand(&s->rng, 5, 15);
	foreach_op(s, m, "aten::_foreach_mul_", &demo_k_foreach_mul, chunks);
	foreach_op(s, m, "aten::_foreach_add_", &demo_k_foreach_add, chunks);
	foreach_op(s, m, "aten::_foreach_add_", &demo_k_foreach_add, chunks);
	m->t += urand(&s->rng, 10, 40);
	op_end(s, m);
	m->t += urand(&s->rng, 20, 60);

	/* loss.item(): blocks until the GPU is done */
	op_begin(s, m, NULL, "aten::item", -1, CAT_OP);
	m->t += urand(&s->rng, 2, 5);
	op_begin(s, m, NULL, "aten::_local_scalar_dense", -1, CAT_OP);
	m->t += urand(&s->rng, 3, 8);
	int64_t done = mem_op(s, m, false, "Memcpy DtoH (Device -> Pageable)", 4, 4);
	int64_t wait = TT_MAX(done - m->t, 0) + urand(&s->rng, 2, 6);
	rt_call(s, m, "cudaStreamSynchronize", 131, wait, false);
	m->t += urand(&s->rng, 2, 5);
	op_end(s, m);
	m->t += urand(&s->rng, 1, 3);
	op_end(s, m);

	/* logging and the rest of the Python loop */
	m->t += urand(&s->rng, 150, 400);
	op_end(s, m); /* ProfilerStep */
	s->step_end = m->t;
	m->t += urand(&s->rng, 5, 25);

	if (s->out) {
		struct out *o = s->out;
		demo_put_events(o, &o->cpu);
		demo_put_events(o, &o->rt);
		demo_put_events(o, &o->gpu);
	}
}

/* the end of every bucket's all-reduce in this step */
static void sync_buckets(struct job *j, int step, int64_t *e_end)
{
	int64_t prev = j->nccl_free;
	int n = j->nranks;
	for (int b = 0; b < j->nbuckets; b++) {
		int64_t last = prev;
		int64_t nelems = j->rs[0].bk[b].nelems;
		for (int q = 0; q < n; q++)
			last = TT_MAX(last, j->rs[q].bk[b].ready);
		uint64_t x = (uint64_t)step * 1000003u + (uint64_t)b;
		x = mix64(j->seed ^ mix64(0xa11eull + x));
		int64_t xfer;
		if (n == 1) {
			xfer = urand(&x, 6, 12);
		} else {
			int lg = 0;
			while ((1 << lg) < n && lg < 30)
				lg++;
			/* ring: 2(n-1)/n of the bytes at ~110 GB/s, plus latency */
			int64_t bytes = nelems * 4;
			xfer = 2 * (int64_t)(n - 1) * bytes / ((int64_t)n * 110000);
			xfer = xfer * urand(&x, 950, 1100) / 1000 + 12 + 3 * lg + urand(&x, 0, 8);
		}
		if (j->o->variant == TT_DEMO_REGRESSED && step >= REG_SLOW_FROM)
			xfer = xfer * 100 / REG_BW + j->nominal / 12;
		e_end[b] = last + xfer;
		prev = e_end[b];
	}
}

/* ---- the job ---- */

static void rsim_init(struct job *j, int q, struct out *out)
{
	const struct tt_demo_opts *o = j->o;
	struct rsim *s = &j->rs[q];
	struct bucket *bk = s->bk;
	free(s->main.p);
	free(s->bw.p);
	memset(s, 0, sizeof(*s));
	s->job = j;
	s->rank = q;
	int ns = TT_MIN(TT_MAX(o->nstragglers, 0), TT_DEMO_MAX_STRAGGLERS);
	for (int i = 0; i < ns; i++)
		if (o->stragglers[i] == q) {
			s->straggler = true;
			s->slow = o->straggler_kind[i];
		}
	/* the regressed run's host-bound rank */
	if (o->variant == TT_DEMO_REGRESSED && q == (j->nranks > 2 ? 2 : 0))
		s->host_bound = true;
	/* the default straggler moves to the last rank in small jobs */
	if (ns == 1 && o->stragglers[0] == 5 && j->nranks <= 5) {
		s->straggler = q == j->nranks - 1;
		s->slow = o->straggler_kind[0];
	}
	s->rng = mix64(o->seed ^ mix64(0x5eed0000ull + (uint64_t)q));
	s->speed = urand(&s->rng, 975, 1030);
	if (s->straggler && s->slow == TT_DEMO_SLOW_GPU)
		s->speed = s->speed * 135 / 100;
	s->pid = 4000 + (int64_t)q * 16 + urand(&s->rng, 0, 9);
	s->device = q % NUM_GPUS;
	s->main.tid = s->pid;
	s->bw.tid = s->pid + 160 + urand(&s->rng, 0, 20);
	s->start = j->base + urand(&s->rng, 0, 300);
	s->main.t = s->start;
	s->bw.t = s->start;
	s->s7 = s->start;
	s->corr = 1000 + (uint32_t)urand(&s->rng, 0, 500);
	s->ext = 1;
	s->evidx = 0;
	s->bk = bk;
	s->out = out;
}

void demo_job_init(struct job *j, const struct tt_demo_opts *o)
{
	memset(j, 0, sizeof(*j));
	j->o = o;
	j->nranks = TT_MIN(TT_MAX(o->nranks, 1), MAX_RANKS);
	j->steps = TT_MIN(TT_MAX(o->steps, 1), MAX_STEPS);
	j->layers = TT_MIN(TT_MAX(o->layers, 1), MAX_LAYERS);
	j->nbuckets = (j->layers + BUCKET_LAYERS - 1) / BUCKET_LAYERS;
	j->seed = o->seed;
	j->base = BASE_US + (int64_t)(mix64(o->seed) % 86400) * 1000000;
	j->nominal = demo_nominal_step(j->layers);
	j->etab = tt_calloc((size_t)j->steps * (size_t)j->nbuckets, sizeof(*j->etab));
	j->rs = tt_calloc((size_t)j->nranks, sizeof(*j->rs));
	struct bucket *bk = tt_calloc((size_t)j->nranks * (size_t)j->nbuckets, sizeof(*bk));
	for (int q = 0; q < j->nranks; q++) {
		j->rs[q].bk = bk + (size_t)q * (size_t)j->nbuckets;
		rsim_init(j, q, NULL);
	}
}

/* The job's schedule: every rank in lock step, for timing only, to find
 * when each all-reduce ends. */
void demo_job_schedule(struct job *j)
{
	j->nccl_free = 0;
	for (int step = 0; step < j->steps; step++) {
		int64_t *e = j->etab + (size_t)step * (size_t)j->nbuckets;
		for (int q = 0; q < j->nranks; q++)
			step_a(&j->rs[q], step);
		sync_buckets(j, step, e);
		j->e_end = e;
		for (int q = 0; q < j->nranks; q++)
			step_b(&j->rs[q]);
		j->nccl_free = e[j->nbuckets - 1];
	}
}

void demo_job_free(struct job *j)
{
	if (j->rs) {
		free(j->rs[0].bk);
		for (int q = 0; q < j->nranks; q++) {
			free(j->rs[q].main.p);
			free(j->rs[q].bw.p);
		}
	}
	free(j->rs);
	free(j->etab);
}

/* the text handed to a sink in pieces of about this many bytes */
#define SINK_CHUNK ((size_t)32 << 20)

/* Replay one rank against the schedule, this time with text: the whole
 * document in out->doc (sink NULL), or given to sink as the steps are
 * written, about SINK_CHUNK bytes at a time (so that a long job's text
 * need not fit in memory; what is left at the end stays in out->doc).
 * Returns 0, or the sink's error, which stops the writing. */
static int rank_emit(struct job *j, int rank, struct out *out,
		     int (*sink)(void *ctx, const char *p, size_t n), void *ctx)
{
	memset(out, 0, sizeof(*out));
	out->first = true;
	rsim_init(j, rank, out);
	struct rsim *s = &j->rs[rank];
	/* about 40 kB per layer and step; pages never touched cost nothing */
	size_t est = 65536 + (size_t)j->nranks * 8 +
		     (size_t)j->steps * (size_t)(j->layers + 2) * 48000;
	sb_need(&out->doc, sink ? TT_MIN(est, 2 * SINK_CHUNK) : est);
	demo_write_header(j, s, &out->doc);
	j->nccl_free = 0;
	int rc = 0;
	for (int step = 0; step < j->steps && !rc; step++) {
		j->e_end = j->etab + (size_t)step * (size_t)j->nbuckets;
		step_a(s, step);
		step_b(s);
		j->nccl_free = j->e_end[j->nbuckets - 1];
		if (sink && out->doc.n >= SINK_CHUNK) {
			rc = sink(ctx, out->doc.p, out->doc.n);
			out->doc.n = 0;
		}
	}

	/* metadata, the profiler span and the window markers */
	struct sbuf *tail = &out->cpu;
	uint64_t x = mix64(j->seed ^ mix64(0x7ace0000ull + (uint64_t)rank));
	int64_t t0 = s->start - urand(&x, 1500, 3000);
	int64_t t1 = s->step_end + urand(&x, 50, 200);
	int64_t wend = t1 + urand(&x, 100, 600);
	demo_write_tail(s, tail, t0, t1, wend);
	demo_put_events(out, tail);
	demo_write_trailer(s, &out->doc);

	free(out->cpu.p);
	free(out->rt.p);
	free(out->gpu.p);
	s->out = NULL;
	return rc;
}

char *demo_rank_text(struct job *j, int rank, size_t *len)
{
	struct out out;
	rank_emit(j, rank, &out, NULL, NULL);
	*len = out.doc.n;
	sb_need(&out.doc, 1);
	out.doc.p[out.doc.n] = '\0';
	return out.doc.p;
}

int demo_rank_write(struct job *j, int rank, int (*sink)(void *ctx, const char *p, size_t n),
		    void *ctx)
{
	struct out out;
	int rc = rank_emit(j, rank, &out, sink, ctx);
	if (!rc && out.doc.n)
		rc = sink(ctx, out.doc.p, out.doc.n);
	free(out.doc.p);
	return rc;
}
