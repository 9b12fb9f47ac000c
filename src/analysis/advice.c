/* The advice rules: findings over every view, with the numbers behind them. */
#include "config.h"

#include "tracetop/advice.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/checked.h"
#include "tracetop/stats.h"
#include "tracetop/overview.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"

const char tt_hint_memory[] =
	"no [memory] events: record them with torch.profiler.profile(profile_memory=True, "
	"record_shapes=True)";
const char tt_hint_stacks[] =
	"no Python stacks (no python_function events, no `Call stack` args): record them with "
	"torch.profiler.profile(with_stack=True)";
const char tt_advice_thresholds[] =
	"GPU idle >= 20 %, exposed communication >= 30 %, low-occupancy kernels >= 20 % of "
	"computation time, SM efficiency < 50 %, short kernels >= 30 %, sync >= 30 % of "
	"collective time, a step >= 1.5x the median, memory >= 90 % of the device";

const char *tt_finding_topic(enum tt_finding_kind k)
{
	static const char *const topics[TT_FIND_NKINDS] = {
		[TT_FIND_IDLE] = "gpu_idle",
		[TT_FIND_EXPOSED_COMM] = "exposed_communication",
		[TT_FIND_LOW_OCC] = "low_occupancy",
		[TT_FIND_LOW_SM] = "low_sm_efficiency",
		[TT_FIND_SHORT_KERNELS] = "short_kernels",
		[TT_FIND_STRAGGLER] = "straggler",
		[TT_FIND_SYNC] = "synchronization",
		[TT_FIND_SLOW_STEP] = "slow_step",
		[TT_FIND_HOT_OP] = "hot_operator",
		[TT_FIND_MEM_PEAK] = "memory_peak",
		[TT_FIND_LOW_GPU_UTIL] = "gpu_utilization",
		[TT_FIND_DATALOADER] = "dataloader",
		[TT_FIND_COMM_SHARE] = "communication",
		[TT_FIND_DATA_PARALLEL] = "data_parallel",
		[TT_FIND_DDP_NO_NCCL] = "ddp_without_nccl",
		[TT_FIND_AMP] = "tensor_cores",
		[TT_FIND_NO_MEMORY] = "no_memory_events",
		[TT_FIND_NO_STACKS] = "no_stacks",
	};
	return (unsigned)k < TT_FIND_NKINDS && topics[k] ? topics[k] : "?";
}

struct findings {
	struct tt_finding *v;
	size_t n, cap;
};

static struct tt_finding *add_finding(struct findings *f, enum tt_finding_kind kind,
				      enum tt_sev sev, double value, const char *pane,
				      const char *where, int64_t rank)
{
	TT_GROW(f->v, f->cap, f->n + 1);
	struct tt_finding *x = &f->v[f->n++];
	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->sev = sev;
	x->value = value;
	x->pane = pane;
	x->where = where;
	x->rank = rank;
	return x;
}

/* x->name = s; a name too long for it loses its trailing argument list
 * "(...)" first (kernel names: the parameters), then its end ("…") */
static void set_name(struct tt_finding *x, const char *s)
{
	s = s ? s : "";
	size_t n = strlen(s);
	if (n >= sizeof(x->name) && s[n - 1] == ')') {
		size_t k = n - 1;
		int depth = 0;
		for (; k > 0; k--) {
			depth += s[k] == ')' ? 1 : s[k] == '(' ? -1 : 0;
			if (depth == 0)
				break;
		}
		if (depth == 0 && k > 0)
			n = k;
	}
	if (n < sizeof(x->name)) {
		snprintf(x->name, sizeof(x->name), "%.*s", (int)n, s);
		return;
	}
	/* cut at a UTF-8 character's start, room for "…" */
	size_t cut = sizeof(x->name) - 4;
	while (cut > 0 && ((unsigned char)s[cut] & 0xC0) == 0x80)
		cut--;
	snprintf(x->name, sizeof(x->name), "%.*s\xe2\x80\xa6", (int)cut, s);
}

static int finding_cmp(const void *a, const void *b)
{
	const struct tt_finding *x = a, *y = b;
	if (x->sev != y->sev)
		return x->sev < y->sev ? -1 : 1;
	if (x->value != y->value)
		return x->value > y->value ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* GPU idle (HTA temporal) and its main cause (HTA idle breakdown) */
static void advise_idle(const struct tt_advice_in *in, struct findings *f)
{
	const struct tt_temporal_row *tr = in->temporal;
	size_t nt = in->ntemporal;
	size_t worst = SIZE_MAX, over = 0, gpu = 0;
	for (size_t i = 0; i < nt; i++) {
		if (!tr[i].has_gpu || isnan(tr[i].idle_pct))
			continue;
		gpu++;
		if (tr[i].idle_pct >= 20)
			over++;
		if (worst == SIZE_MAX || tr[i].idle_pct > tr[worst].idle_pct)
			worst = i;
	}
	if (worst == SIZE_MAX || tr[worst].idle_pct < 20)
		return;
	const struct tt_idle *id = in->idle(in->idle_ctx);
	const struct tt_temporal_row *w = &tr[worst];
	int64_t cat[TT_IDLE_NCAT] = {0}, sum = 0;
	for (size_t j = 0; j < id->nranks; j++) {
		const struct tt_idle_rank *ir = &id->ranks[j];
		if (ir->rank_idx != w->ri)
			continue;
		for (size_t s = ir->first_stream; s < ir->first_stream + ir->nstreams; s++)
			for (int c = 0; c < TT_IDLE_NCAT; c++)
				if (id->streams[s].cat[c].idle_ns > 0) {
					tt_sat_acc(&cat[c], id->streams[s].cat[c].idle_ns);
					tt_sat_acc(&sum, id->streams[s].cat[c].idle_ns);
				}
	}
	int top = 0;
	for (int c = 1; c < TT_IDLE_NCAT; c++)
		if (cat[c] > cat[top])
			top = c;
	struct tt_finding *x = add_finding(f, TT_FIND_IDLE,
					   w->idle_pct >= 40 ? TT_SEV_HIGH : TT_SEV_MEDIUM,
					   w->idle_pct, "idle", "Idle (3)", w->rank);
	x->x[0] = w->idle_pct;
	x->n[0] = (int64_t)over;
	x->n[1] = (int64_t)gpu;
	x->n[2] = sum > 0 ? top : -1;
	x->x[1] = sum > 0 ? 100.0 * (double)cat[top] / (double)sum : NAN;
}

/* communication not hidden under computation (HTA overlap) */
static void advise_overlap(const struct tt_advice_in *in, struct findings *f)
{
	const struct tt_temporal_row *tr = in->temporal;
	size_t nt = in->ntemporal, no = in->noverlap;
	const struct tt_overlap_row *ov = in->overlap;
	double sum = 0, mn = INFINITY, mx = -INFINITY, comm_share = 0;
	size_t n = 0, nshare = 0;
	for (size_t i = 0; i < no; i++) {
		if (!ov[i].ncomm || isnan(ov[i].pct))
			continue;
		double exposed = 100.0 - ov[i].pct;
		sum += exposed;
		mn = fmin(mn, exposed);
		mx = fmax(mx, exposed);
		n++;
		for (size_t j = 0; j < nt; j++)
			if (tr[j].ri == ov[i].ri && tr[j].kernel_ns > 0) {
				comm_share +=
					100.0 * (double)ov[i].comm_ns / (double)tr[j].kernel_ns;
				nshare++;
			}
	}
	if (n) {
		double mean = sum / (double)n;
		double share = nshare ? comm_share / (double)nshare : 0;
		if (mean >= 30 && share >= 5) {
			struct tt_finding *x = add_finding(
				f, TT_FIND_EXPOSED_COMM,
				mean >= 50 && share >= 10 ? TT_SEV_HIGH : TT_SEV_MEDIUM, mean,
				"overlap", "Overlap (5)", -1);
			x->x[0] = mean;
			x->x[1] = mn;
			x->x[2] = mx;
			x->x[3] = share;
			x->n[0] = (int64_t)n;
		}
	}
}

/* kernels: low occupancy and low SM efficiency (utilisation); communication
 * kernels are left out (NCCL runs few blocks on purpose) */
static void advise_util(const struct tt_util *u, struct findings *f)
{
	int64_t total = 0, low = 0;
	uint32_t nlow = 0;
	const char *worst = NULL;
	int64_t worst_ns = 0;
	double acc = 0, cover = 0;
	for (size_t i = 0; i < u->nkernels; i++) {
		const struct tt_util_kernel *k = &u->kernels[i];
		if (tt_kernel_type(k->name, NULL) == TT_KT_COMM)
			continue;
		tt_sat_acc(&total, k->sum_ns);
		if (!isnan(k->sm_eff_ktime_pct)) {
			acc += k->sm_eff_ktime_pct * (double)k->sum_ns;
			cover += (double)k->sum_ns;
		}
		if (!isnan(k->occ_ktime_pct) && k->occ_ktime_pct < TT_OCC_LOW_PCT) {
			tt_sat_acc(&low, k->sum_ns);
			nlow++;
			if (k->sum_ns > worst_ns) {
				worst_ns = k->sum_ns;
				worst = k->name;
			}
		}
	}
	double share = total > 0 ? 100.0 * (double)low / (double)total : 0;
	if (share >= 20) {
		struct tt_finding *x =
			add_finding(f, TT_FIND_LOW_OCC, share >= 40 ? TT_SEV_HIGH : TT_SEV_MEDIUM,
				    share, "utilization", "Utilisation", -1);
		x->x[0] = share;
		x->n[0] = nlow;
		set_name(x, worst);
	}
	if (cover > 0 && acc / cover < 50) {
		struct tt_finding *x = add_finding(f, TT_FIND_LOW_SM, TT_SEV_MEDIUM,
						   100 - acc / cover, "utilization",
						   "Utilisation", -1);
		x->x[0] = acc / cover;
	}
}

/* launches: short kernels (HTA launch stats) */
static void advise_launch(const struct tt_launch *l, struct findings *f)
{
	/* launch delays are left out: a CPU running ahead of a busy GPU gives
	 * long delays, which is what one wants */
	uint64_t rows = 0, shrt = 0;
	for (size_t i = 0; i < l->nranks; i++) {
		rows += l->ranks[i].nrows;
		shrt += l->ranks[i].n_short;
	}
	if (rows >= 100) {
		double p = 100.0 * (double)shrt / (double)rows;
		if (p >= 30) {
			struct tt_finding *x = add_finding(f, TT_FIND_SHORT_KERNELS,
							   p >= 60 ? TT_SEV_HIGH : TT_SEV_MEDIUM,
							   p, "launch", "Launch (6)", -1);
			x->x[0] = p;
			x->n[0] = (int64_t)shrt;
			x->n[1] = (int64_t)rows;
		}
	}
}

/* stragglers and synchronisation (distributed) */
static void advise_dist(const struct tt_dist *d, struct findings *f)
{
	for (size_t i = 0; i < d->nstragglers && i < 3; i++) {
		const struct tt_straggler *s = &d->stragglers[i];
		struct tt_finding *x = add_finding(f, TT_FIND_STRAGGLER, TT_SEV_HIGH, fabs(s->z),
						   "distributed", "Distributed", s->rank);
		set_name(x, s->metric);
		snprintf(x->detail, sizeof(x->detail), "%s", s->reason);
	}
	int64_t lat = 0, sync = 0;
	for (size_t s = 0; s < d->nstats; s++) {
		tt_sat_acc(&lat, d->stats[s].total_ns);
		tt_sat_acc(&sync, d->stats[s].sync_ns);
	}
	double p = lat > 0 ? 100.0 * (double)sync / (double)lat : 0;
	if (d->nranks >= 2 && p >= 30) {
		struct tt_finding *x = add_finding(f, TT_FIND_SYNC,
						   p >= 50 ? TT_SEV_HIGH : TT_SEV_MEDIUM, p,
						   "distributed", "Distributed", -1);
		x->x[0] = p;
		x->n[0] = sync;
	}
}

/* uneven steps */
static void advise_steps(const struct tt_steps *s, struct findings *f)
{
	size_t nk = 0;
	for (size_t i = 0; i < s->nsteps; i++)
		nk += !s->steps[i].pseudo && !s->steps[i].dropped;
	if (nk >= 3) {
		double *d = tt_malloc(nk * sizeof(*d));
		size_t *who = tt_malloc(nk * sizeof(*who));
		size_t slow = 0;
		nk = 0;
		for (size_t i = 0; i < s->nsteps; i++) {
			if (s->steps[i].pseudo || s->steps[i].dropped)
				continue;
			who[nk] = i;
			d[nk] = (double)(s->steps[i].t1 - s->steps[i].t0);
			if (d[nk] > d[slow])
				slow = nk;
			nk++;
		}
		double mx = d[slow];
		slow = who[slow];
		free(who);
		double med = tt_median(d, nk);
		if (med > 0 && mx / med >= 1.5) {
			const struct tt_step *st = &s->steps[slow];
			struct tt_finding *x = add_finding(
				f, TT_FIND_SLOW_STEP, mx / med >= 3 ? TT_SEV_HIGH : TT_SEV_MEDIUM,
				100.0 * mx / med, "steps", "Steps", st->rank);
			x->n[0] = st->num;
			x->x[0] = mx;
			x->x[1] = med;
		}
		free(d);
	}
}

static void advise_memory(const struct tt_mem *mm, struct findings *f)
{
	for (size_t i = 0; i < mm->ndevs; i++) {
		const struct tt_mem_dev *d = &mm->devs[i];
		int64_t peak = TT_MAX(d->peak_alloc, d->peak_reserved);
		double p = d->peak_pct;
		if (peak <= 0 || !(p >= TT_MEM_NEAR_LIMIT_PCT))
			continue;
		struct tt_finding *x = add_finding(f, TT_FIND_MEM_PEAK, TT_SEV_HIGH, p, "memory",
						   "Memory", d->rank);
		x->n[0] = peak;
		x->n[1] = d->device;
		x->x[0] = p;
	}
	if (!mm->ndevs)
		add_finding(f, TT_FIND_NO_MEMORY, TT_SEV_INFO, 0, "memory", "Memory", -1);
}

static void advise_ops(const struct tt_ops *p, const struct tt_src *s, struct findings *f)
{
	int64_t total = 0;
	size_t best = SIZE_MAX;
	for (size_t i = 0; i < p->n; i++) {
		tt_sat_acc(&total, p->rows[i].host_self);
		if (best == SIZE_MAX || p->rows[i].host_self > p->rows[best].host_self)
			best = i;
	}
	if (best != SIZE_MAX && total > 0) {
		double share = 100.0 * (double)p->rows[best].host_self / (double)total;
		if (share >= 20) {
			struct tt_finding *x = add_finding(f, TT_FIND_HOT_OP, TT_SEV_MEDIUM, share,
							   "operators", "Operators", -1);
			const char *nm = p->rows[best].name;
			set_name(x, nm);
			x->x[0] = share;
			x->n[0] = (int64_t)p->rows[best].calls;
			x->n[1] = strcmp(nm, "aten::_local_scalar_dense") == 0 ||
				  strcmp(nm, "aten::item") == 0 || strstr(nm, "Synchronize");
		}
	}
	if (!s->nstacks)
		add_finding(f, TT_FIND_NO_STACKS, TT_SEV_INFO, 0, "source", "Source", -1);
}

/* the ranks over one of the plugin's limits (it advises each worker): one
 * finding names them, the four highest with their share */
struct over {
	size_t n, of, worst_i;
	double worst;
	int64_t major;
	struct {
		int64_t rank;
		double pct;
	} top[4];
};

/* rank (index i) over the limit by pct; true when it is the worst so far */
static bool over_add(struct over *o, int64_t rank, double pct, size_t i)
{
	size_t k = o->n < 4 ? o->n : 4;
	o->n++;
	/* insert into the top four, highest first */
	while (k > 0 && o->top[k - 1].pct < pct) {
		if (k < 4)
			o->top[k] = o->top[k - 1];
		k--;
	}
	if (k < 4) {
		o->top[k].rank = rank;
		o->top[k].pct = pct;
	}
	if (pct <= o->worst)
		return false;
	o->worst = pct;
	o->worst_i = i;
	return true;
}

/* the finding: x[0] the worst share, n[0] ranks over, n[1] ranks, n[2] the
 * compute capability (AMP); rank: the one over, else -1 */
static void over_finding(struct findings *f, const struct over *o, enum tt_finding_kind kind,
			 enum tt_sev sev, const char *pane, const char *where, int64_t rank)
{
	struct tt_finding *x =
		add_finding(f, kind, sev, o->worst, pane, where, o->n == 1 ? rank : -1);
	x->x[0] = o->worst;
	x->n[0] = (int64_t)o->n;
	x->n[1] = (int64_t)o->of;
	x->n[2] = o->major;
	size_t dl = 0;
	for (size_t k = 0; k < o->n && k < 4 && dl < sizeof(x->detail); k++)
		dl += (size_t)snprintf(x->detail + dl, sizeof(x->detail) - dl, "%srank %lld %.1f %%",
				       k ? ", " : "", (long long)o->top[k].rank, o->top[k].pct);
	if (o->n > 4 && dl < sizeof(x->detail))
		snprintf(x->detail + dl, sizeof(x->detail) - dl, ", ...");
}

/* the plugin's recommendations (data.py RunProfileData.analyze) */
static void advise_plugin(const struct tt_model *m, const struct tt_aopts *o,
			  const struct tt_util *u, const struct tt_overview *v, struct findings *f)
{
	/* GPU Utilization under 50 % */
	size_t low = 0, ndev = 0, worst = SIZE_MAX;
	char detail[200] = "";
	size_t dl = 0;
	for (size_t i = 0; i < u->ndevs; i++) {
		const struct tt_util_dev *d = &u->devs[i];
		if (isnan(d->gpu_util_pct))
			continue;
		ndev++;
		if (d->gpu_util_pct >= TT_UTIL_LOW_PCT)
			continue;
		low++;
		if (worst == SIZE_MAX || d->gpu_util_pct < u->devs[worst].gpu_util_pct)
			worst = i;
		if (low <= 4 && dl < sizeof(detail))
			dl += (size_t)snprintf(detail + dl, sizeof(detail) - dl, "%srank %lld GPU %lld %.1f %%",
					       dl ? ", " : "", (long long)d->rank,
					       (long long)d->device, d->gpu_util_pct);
	}
	if (low) {
		const struct tt_util_dev *w = &u->devs[worst];
		struct tt_finding *x =
			add_finding(f, TT_FIND_LOW_GPU_UTIL, TT_SEV_MEDIUM, 100 - w->gpu_util_pct,
				    "utilization", "Utilisation", low == 1 ? w->rank : -1);
		x->n[0] = (int64_t)low;
		x->n[1] = (int64_t)ndev;
		x->x[0] = w->gpu_util_pct;
		snprintf(x->detail, sizeof(x->detail), "%s%s", detail, low > 4 ? ", ..." : "");
	}
	/* the plugin advises each worker over a limit: one finding per topic
	 * names every rank over it */
	struct over amp = {.worst = -1}, dlo = {.worst = -1}, cm = {.worst = -1};
	/* tensor cores: eligible ops, no tensor-core kernel, a capable GPU */
	for (size_t i = 0; i < u->nranks; i++) {
		const struct tt_util_rank *r = &u->ranks[i];
		amp.of++;
		if (r->compute_major < 7 || isnan(r->tc_kernel_pct) || r->tc_kernel_pct != 0 ||
		    !(r->tc_eligible_pct > 0))
			continue;
		over_add(&amp, r->rank, r->tc_eligible_pct, i);
		amp.major = r->compute_major;
	}
	if (amp.n)
		over_finding(f, &amp, TT_FIND_AMP, TT_SEV_MEDIUM, "operators", "Operators",
			     u->ranks[amp.worst_i].rank);
	/* shares of the step time, DataParallel, DDP without NCCL */
	bool dp = false, ddp = false, nccl = false, cap35 = false;
	int64_t dlr = -1, cmr = -1;
	for (size_t i = 0; i < v->nranks; i++) {
		const struct tt_ov_rank *w = &v->ranks[i];
		const struct tt_rank *r = m->ranks[w->ri];
		if (w->avg_total > 0) {
			double a = w->avg_pct[TT_OV_DATALOADER];
			double b = w->avg_pct[TT_OV_COMM];
			dlo.of++;
			cm.of++;
			if (a > 5 && over_add(&dlo, w->rank, a, i))
				dlr = w->rank;
			if (b > 10 && over_add(&cm, w->rank, b, i))
				cmr = w->rank;
		}
		dp |= w->use_dp;
		ddp |= w->use_ddp;
		nccl |= w->nccl;
		for (size_t k = 0; k < r->meta.ndevprops; k++) {
			/* compared, not multiplied: the trace's numbers may be anything */
			int64_t maj = r->meta.devprops[k].compute_major, min = r->meta.devprops[k].compute_minor;
			cap35 |= maj > 3 || (maj == 3 && min >= 5);
		}
	}
	if (dlo.n)
		over_finding(f, &dlo, TT_FIND_DATALOADER, dlo.worst >= 20 ? TT_SEV_HIGH : TT_SEV_MEDIUM,
			     "step-time", "Step time", dlr);
	if (cm.n)
		over_finding(f, &cm, TT_FIND_COMM_SHARE, cm.worst >= 30 ? TT_SEV_HIGH : TT_SEV_MEDIUM,
			     "step-time", "Step time", cmr);
	if (ddp && !nccl && cap35)
		add_finding(f, TT_FIND_DDP_NO_NCCL, TT_SEV_MEDIUM, 0, "distributed", "Distributed", -1);
	if (dp) {
		/* the GPUs the rank used (devices of its GPU ops) */
		for (size_t ri = 0; ri < m->nranks; ri++) {
			const struct tt_rank *r = m->ranks[ri];
			if (!tt_aopts_has_rank(o, r->rank))
				continue;
			int64_t ngpu = 0;
			for (uint32_t ti = 0; ti < r->ntracks; ti++) {
				const struct tt_track *tr = &r->tracks[ti];
				bool seen = false;
				for (uint32_t tj = 0; tj < ti && !seen; tj++)
					seen = r->tracks[tj].kind == TT_TRACK_GPU &&
					       r->tracks[tj].device == tr->device;
				ngpu += tr->kind == TT_TRACK_GPU && !seen;
			}
			if (ngpu > 1) {
				struct tt_finding *x = add_finding(f, TT_FIND_DATA_PARALLEL, TT_SEV_MEDIUM,
								   0, "distributed", "Distributed",
								   r->rank);
				x->n[0] = ngpu;
				break;
			}
		}
	}
}

void tt_advice_from(const struct tt_model *m, const struct tt_aopts *o,
		    const struct tt_advice_in *in, struct tt_advice *out)
{
	struct findings f = {0};
	advise_idle(in, &f);
	advise_overlap(in, &f);
	advise_util(in->util, &f);
	advise_launch(in->launch, &f);
	advise_dist(in->dist, &f);
	advise_steps(in->steps, &f);
	advise_ops(in->ops, in->src, &f);
	advise_memory(in->mem, &f);
	advise_plugin(m, o, in->util, in->overview, &f);
	if (f.n > 1)
		qsort(f.v, f.n, sizeof(*f.v), finding_cmp);
	out->v = f.v;
	out->n = f.n;
}

/* tt_advice_compute's idle breakdown, computed when first asked for */
struct idle_ctx {
	const struct tt_model *m;
	const struct tt_aopts *o;
	double kernel_delay_us;
	struct tt_idle *v;
};

static const struct tt_idle *idle_get(void *ctx)
{
	struct idle_ctx *c = ctx;
	if (!c->v)
		c->v = tt_idle_breakdown(c->m, c->o, c->kernel_delay_us);
	return c->v;
}

void tt_advice_compute(const struct tt_model *m, const struct tt_aopts *o,
		       const struct tt_advice_opts *ao, struct tt_advice *out)
{
	struct tt_advice_in in = {0};
	struct tt_temporal_row *tr = tt_temporal(m, o, &in.ntemporal);
	struct tt_overlap_row *ov = tt_overlap(m, o, &in.noverlap);
	struct tt_util u;
	tt_util_compute(m, o, 1, &u);
	struct tt_launch *l =
		tt_launch_stats(m, o, ao->runtime_cutoff_us, ao->launch_delay_cutoff_us);
	struct tt_dist d;
	tt_dist_compute(m, o, &d);
	struct tt_steps st;
	tt_steps_compute(m, o, &st);
	struct tt_ops p;
	tt_ops_compute(m, o, false, &p);
	struct tt_src s;
	tt_src_compute(m, o, &s);
	struct tt_mem mm;
	tt_mem_compute(m, o, &mm);
	struct tt_overview v;
	tt_overview_compute(m, o, &v);
	struct idle_ctx ic = {m, o, ao->kernel_delay_us, NULL};
	in.temporal = tr;
	in.overlap = ov;
	in.util = &u;
	in.launch = l;
	in.dist = &d;
	in.steps = &st;
	in.ops = &p;
	in.src = &s;
	in.mem = &mm;
	in.overview = &v;
	in.idle = idle_get;
	in.idle_ctx = &ic;
	tt_advice_from(m, o, &in, out);
	tt_temporal_free(tr);
	tt_overlap_free(ov);
	tt_util_free(&u);
	tt_launch_free(l);
	tt_dist_free(&d);
	tt_steps_free(&st);
	tt_ops_free(&p);
	tt_src_free(&s);
	tt_mem_free(&mm);
	tt_overview_free(&v);
	if (ic.v)
		tt_idle_free(ic.v);
}

void tt_advice_free(struct tt_advice *a)
{
	free(a->v);
	memset(a, 0, sizeof(*a));
}
