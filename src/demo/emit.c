/* The demo job's JSON text: Kineto's layout, written with a small string
 * buffer (no printf per field), byte-identical for the same job. */
#include "config.h"

#include <stdio.h>

#include "demo_int.h"

/* v / 1e6 with up to six decimals and no trailing zeros (1, 1.375) */
static void sb_micro(struct sbuf *b, int64_t v)
{
	if (v < 0) {
		SB_LIT(b, "-");
		v = -v;
	}
	sb_int(b, v / 1000000);
	int64_t f = v % 1000000;
	if (!f)
		return;
	char tmp[8];
	int n = 6;
	for (int i = 5; i >= 0; i--) {
		tmp[i + 1] = (char)('0' + f % 10);
		f /= 10;
	}
	tmp[0] = '.';
	while (tmp[n] == '0')
		n--;
	sb_mem(b, tmp, (size_t)n + 1);
}

/* ,\n  {"ph": "X", "cat": CAT, "name": NAME, "pid": P, "tid": T, "ts": TS, "dur": D, "args": { */
static void ev_x_head(struct sbuf *b, const char *cat, const char *pfx, const char *name,
		      int64_t num, int64_t pid, int64_t tid, int64_t ts, int64_t dur)
{
	SB_LIT(b, ",\n  {\"ph\": \"X\", \"cat\": \"");
	sb_str(b, cat);
	SB_LIT(b, "\", \"name\": \"");
	if (pfx)
		sb_str(b, pfx);
	sb_str(b, name);
	if (num >= 0)
		sb_int(b, num);
	SB_LIT(b, "\", \"pid\": ");
	sb_int(b, pid);
	SB_LIT(b, ", \"tid\": ");
	sb_int(b, tid);
	SB_LIT(b, ", \"ts\": ");
	sb_int(b, ts);
	SB_LIT(b, ", \"dur\": ");
	sb_int(b, dur);
	SB_LIT(b, ", \"args\": {");
}

static void ev_flow(struct sbuf *b, char ph, const char *cat, int64_t id, int64_t pid,
		    int64_t tid, int64_t ts)
{
	SB_LIT(b, ",\n  {\"ph\": \"");
	sb_mem(b, &ph, 1);
	SB_LIT(b, "\", \"id\": ");
	sb_int(b, id);
	SB_LIT(b, ", \"pid\": ");
	sb_int(b, pid);
	SB_LIT(b, ", \"tid\": ");
	sb_int(b, tid);
	SB_LIT(b, ", \"ts\": ");
	sb_int(b, ts);
	SB_LIT(b, ", \"cat\": \"");
	sb_str(b, cat);
	SB_LIT(b, "\", \"name\": \"");
	sb_str(b, cat);
	if (ph == 'f')
		SB_LIT(b, "\", \"bp\": \"e\"}");
	else
		SB_LIT(b, "\"}");
}

void demo_flush_ops(const struct rsim *s, struct cthread *th)
{
	struct sbuf *b = &s->out->cpu;
	int64_t n = s->job->nranks;
	for (size_t i = 0; i < th->np; i++) {
		const struct pend *p = &th->p[i];
		ev_x_head(b, p->cat == CAT_OP ? "cpu_op" : "user_annotation", p->pfx, p->name,
			  p->num, s->pid, th->tid, p->ts, p->dur);
		SB_LIT(b, "\"External id\": ");
		sb_int(b, p->ext);
		if (p->seq >= 0) {
			SB_LIT(b, ", \"Sequence number\": ");
			sb_int(b, p->seq);
			if (p->fwd_tid)
				SB_LIT(b, ", \"Fwd thread id\": 1");
		}
		if (p->dims) {
			SB_LIT(b, ", \"Input Dims\": ");
			sb_str(b, p->dims);
		}
		if (p->types) {
			SB_LIT(b, ", \"Input type\": ");
			sb_str(b, p->types);
		}
		if (p->conc) {
			SB_LIT(b, ", \"Concrete Inputs\": ");
			sb_str(b, p->conc);
		}
		if (p->comm >= 0) {
			SB_LIT(b, ", \"Collective name\": \"allreduce\", \"dtype\": \"Float\", "
				  "\"In msg nelems\": ");
			sb_int(b, p->comm);
			SB_LIT(b, ", \"Out msg nelems\": ");
			sb_int(b, p->comm);
			SB_LIT(b, ", \"In split size\": \"[]\", \"Out split size\": \"[]\", "
				  "\"Global rank start\": 0, \"Global rank stride\": 1, "
				  "\"Group size\": ");
			sb_int(b, n);
			SB_LIT(b, ", \"Process Group Name\": \"0\", "
				  "\"Process Group Description\": \"default_pg\"");
			if (n <= 64) {
				SB_LIT(b, ", \"Process Group Ranks\": \"[");
				for (int64_t q = 0; q < n; q++) {
					if (q)
						SB_LIT(b, ", ");
					sb_int(b, q);
				}
				SB_LIT(b, "]\"");
			}
		}
		if (p->pyline > 0) {
			/* innermost frame first, as Kineto records it */
			SB_LIT(b, ", \"Call stack\": \"demo/model.py(");
			sb_int(b, p->pyline);
			SB_LIT(b, "): forward;torch/nn/modules/module.py(1527): _call_impl;"
				  "torch/nn/parallel/distributed.py(1523): forward;"
				  "demo/train.py(88): train_step;demo/train.py(131): <module>\"");
		}
		SB_LIT(b, ", \"Ev Idx\": ");
		sb_int(b, p->evidx);
		SB_LIT(b, "}}");
		if (p->flow)
			ev_flow(b, p->flow, "fwdbwd", p->seq, s->pid, th->tid, p->ts);
	}
	th->np = 0;
}

void demo_emit_memory(const struct rsim *s, const struct cthread *th, int64_t ts, int64_t addr,
		      int64_t bytes)
{
	struct sbuf *b = &s->out->cpu;
	SB_LIT(b, ",\n  {\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", "
		  "\"name\": \"[memory]\", \"pid\": ");
	sb_int(b, s->pid);
	SB_LIT(b, ", \"tid\": ");
	sb_int(b, th->tid);
	SB_LIT(b, ", \"ts\": ");
	sb_int(b, ts);
	SB_LIT(b, ", \"args\": {\"Total Reserved\": ");
	sb_int(b, s->mem_reserved);
	SB_LIT(b, ", \"Total Allocated\": ");
	sb_int(b, s->mem_alloc);
	SB_LIT(b, ", \"Device Id\": ");
	sb_int(b, s->device);
	SB_LIT(b, ", \"Device Type\": 1, \"Addr\": ");
	sb_int(b, addr);
	SB_LIT(b, ", \"Bytes\": ");
	sb_int(b, bytes);
	SB_LIT(b, "}}");
}

static bool amd(const struct rsim *s)
{
	return s->job->o->vendor == TT_DEMO_AMD;
}

/* the runtime call's name: CUDA's, or HIP's on AMD ("cudaLaunchKernel:gemm"
 * is a GEMM launch: hipExtModuleLaunchKernel there) */
static const char *rt_name(const struct rsim *s, const char *name)
{
	static const char *const map[][2] = {
		{"cudaLaunchKernel:gemm", "hipExtModuleLaunchKernel"},
		{"cudaLaunchKernel", "hipLaunchKernel"},
		{"cudaMemcpyAsync", "hipMemcpyWithStream"},
		{"cudaMemsetAsync", "hipMemsetAsync"},
		{"cudaEventRecord", "hipEventRecord"},
		{"cudaStreamWaitEvent", "hipStreamWaitEvent"},
		{"cudaStreamSynchronize", "hipStreamSynchronize"},
	};
	for (size_t i = 0; i < TT_ARRAY_SIZE(map); i++)
		if (strcmp(name, map[i][0]) == 0)
			return amd(s) ? map[i][1] : i == 0 ? "cudaLaunchKernel" : name;
	return name;
}

/* the kernel's name: the catalogue's, or its ROCm counterpart on AMD */
static const char *kernel_name(const struct rsim *s, const char *name)
{
	static const char *const map[][2] = {
		{"sm80_xmma_fprop", "Cijk_Ailk_Bljk_SB_MT128x128x16_MI32x32x2x1_SN_1LDSB0_GRVW4"},
		{"sm80_xmma_wgrad", "Cijk_Alik_Bljk_SB_MT128x128x16_MI32x32x2x1_SN_1LDSB0_GRVW4"},
		{"sm80_xmma_dgrad", "Cijk_Ailk_Bjlk_SB_MT64x128x16_MI32x32x2x1_SN_1LDSB0_GRVW2"},
		{"void cudnn::ops::nchwToNhwc", "batched_transpose_32x32_dword"},
		{"void cudnn::ops::nhwcToNchw", "batched_transpose_16x32_dword"},
		{"void cudnn::bn_fw", "MIOpenBatchNormFwdTrainSpatial"},
		{"void cudnn::bn_bw", "MIOpenBatchNormBwdSpatial"},
		{"void cudnn::cnn::conv2d_grouped", "naive_conv_fwd_nchw_float_double_float"},
		{"void cudnn::cnn::dgrad2d_grouped", "naive_conv_bwd_nchw_float_double_float"},
		{"void cudnn::cnn::wgrad2d_grouped", "naive_conv_wrw_nchw_float_double_float"},
	};
	if (!amd(s))
		return name;
	for (size_t i = 0; i < TT_ARRAY_SIZE(map); i++)
		if (strncmp(name, map[i][0], strlen(map[i][0])) == 0)
			return map[i][1];
	return name;
}

bool demo_kernel_is_gemm(const struct kdef *k)
{
	return strncmp(k->name, "sm80_xmma", 9) == 0;
}

void demo_emit_rt(const struct rsim *s, const struct cthread *th, const char *name, int cbid,
		  int64_t dur, const struct launch *l, bool flow)
{
	struct sbuf *b = &s->out->rt;
	ev_x_head(b, "cuda_runtime", NULL, rt_name(s, name), -1, s->pid, th->tid, l->ts, dur);
	SB_LIT(b, "\"External id\": ");
	sb_int(b, l->ext);
	/* ROCm's runtime calls carry their stream as a hex string */
	if (amd(s))
		SB_LIT(b, ", \"stream\": \"0x0\"");
	SB_LIT(b, ", \"cbid\": ");
	sb_int(b, cbid);
	SB_LIT(b, ", \"correlation\": ");
	sb_int(b, l->corr);
	SB_LIT(b, "}}");
	if (flow)
		ev_flow(b, 's', "ac2g", l->corr, s->pid, th->tid, l->ts);
}

static void gpu_head(struct sbuf *b, const char *cat, const char *name, int64_t dev,
		     int64_t stream, int64_t ts, int64_t dur, const struct launch *l, bool queued)
{
	ev_x_head(b, cat, NULL, name, -1, dev, stream, ts, dur);
	SB_LIT(b, "\"External id\": ");
	sb_int(b, l->ext);
	if (queued)
		SB_LIT(b, ", \"queued\": 0");
	SB_LIT(b, ", \"device\": ");
	sb_int(b, dev);
	SB_LIT(b, ", \"context\": 1, \"stream\": ");
	sb_int(b, stream);
	SB_LIT(b, ", \"correlation\": ");
	sb_int(b, l->corr);
}

void demo_emit_kernel(const struct rsim *s, const struct kdef *k, int64_t stream, int64_t ts,
			int64_t dur, const struct launch *l, int64_t comm)
{
	struct sbuf *b = &s->out->gpu;
	gpu_head(b, "kernel", kernel_name(s, k->name), s->device, stream, ts, dur, l, true);
	int64_t blocks = (int64_t)k->grid[0] * k->grid[1] * k->grid[2];
	int64_t threads = (int64_t)k->block[0] * k->block[1] * k->block[2];
	int64_t warps = (threads + 31) / 32;
	SB_LIT(b, ", \"registers per thread\": ");
	sb_int(b, k->regs);
	SB_LIT(b, ", \"shared memory\": ");
	sb_int(b, k->shmem);
	SB_LIT(b, ", \"blocks per SM\": ");
	sb_micro(b, blocks * 1000000 / NUM_SMS);
	SB_LIT(b, ", \"warps per SM\": ");
	sb_micro(b, blocks * warps * 1000000 / NUM_SMS);
	SB_LIT(b, ", \"grid\": [");
	sb_int(b, k->grid[0]);
	SB_LIT(b, ", ");
	sb_int(b, k->grid[1]);
	SB_LIT(b, ", ");
	sb_int(b, k->grid[2]);
	SB_LIT(b, "], \"block\": [");
	sb_int(b, k->block[0]);
	SB_LIT(b, ", ");
	sb_int(b, k->block[1]);
	SB_LIT(b, ", ");
	sb_int(b, k->block[2]);
	SB_LIT(b, "], \"est. achieved occupancy %\": ");
	sb_int(b, k->occ);
	if (comm >= 0) {
		SB_LIT(b, ", \"Collective name\": \"allreduce\", \"In msg nelems\": ");
		sb_int(b, comm);
		SB_LIT(b, ", \"Out msg nelems\": ");
		sb_int(b, comm);
		SB_LIT(b, ", \"Group size\": ");
		sb_int(b, s->job->nranks);
		SB_LIT(b, ", \"dtype\": \"Float\", \"Process Group Name\": \"0\", "
			  "\"Process Group Description\": \"default_pg\"");
	}
	SB_LIT(b, "}}");
	ev_flow(b, 'f', "ac2g", l->corr, s->device, stream, ts);
}

void demo_emit_mem(const struct rsim *s, const char *cat, const char *name, int64_t ts, int64_t dur,
		     const struct launch *l, int64_t bytes)
{
	struct sbuf *b = &s->out->gpu;
	gpu_head(b, cat, name, s->device, STREAM_COMPUTE, ts, dur, l, false);
	SB_LIT(b, ", \"bytes\": ");
	sb_int(b, bytes);
	SB_LIT(b, ", \"memory bandwidth (GB/s)\": ");
	sb_micro(b, bytes * 1000 / (dur > 0 ? dur : 1));
	SB_LIT(b, "}}");
	ev_flow(b, 'f', "ac2g", l->corr, s->device, STREAM_COMPUTE, ts);
}

void demo_put_events(struct out *o, struct sbuf *src)
{
	if (!src->n)
		return;
	/* events start with ",\n"; the first of the array drops the comma */
	size_t skip = o->first ? 1 : 0;
	sb_mem(&o->doc, src->p + skip, src->n - skip);
	src->n = 0;
	o->first = false;
}

static void meta_ev(struct sbuf *b, const char *name, int64_t ts, int64_t pid, int64_t tid,
		    const char *key, const char *sval, int64_t ival)
{
	SB_LIT(b, ",\n  {\"name\": \"");
	sb_str(b, name);
	SB_LIT(b, "\", \"ph\": \"M\", \"ts\": ");
	sb_int(b, ts);
	SB_LIT(b, ", \"pid\": ");
	sb_int(b, pid);
	SB_LIT(b, ", \"tid\": ");
	sb_int(b, tid);
	SB_LIT(b, ", \"args\": {\"");
	sb_str(b, key);
	SB_LIT(b, "\": ");
	if (sval) {
		SB_LIT(b, "\"");
		sb_str(b, sval);
		SB_LIT(b, "\"");
	} else {
		sb_int(b, ival);
	}
	SB_LIT(b, "}}");
}

static void write_meta(const struct rsim *s, struct sbuf *b, int64_t ts)
{
	char buf[64];
	meta_ev(b, "process_name", ts, s->pid, 0, "name", "python", 0);
	meta_ev(b, "process_labels", ts, s->pid, 0, "labels", "CPU", 0);
	meta_ev(b, "process_sort_index", ts, s->pid, 0, "sort_index", NULL, s->pid);
	for (int g = 0; g < NUM_GPUS; g++) {
		meta_ev(b, "process_name", ts, g, 0, "name", "python", 0);
		snprintf(buf, sizeof(buf), "GPU %d", g);
		meta_ev(b, "process_labels", ts, g, 0, "labels", buf, 0);
		meta_ev(b, "process_sort_index", ts, g, 0, "sort_index", NULL, 16777216 + g);
	}
	static const int streams[] = {STREAM_COMPUTE, STREAM_NCCL};
	for (int i = 0; i < 2; i++) {
		snprintf(buf, sizeof(buf), "stream %d ", streams[i]);
		meta_ev(b, "thread_name", ts, s->device, streams[i], "name", buf, 0);
		meta_ev(b, "thread_sort_index", ts, s->device, streams[i], "sort_index", NULL,
			streams[i]);
	}
	snprintf(buf, sizeof(buf), "thread %lld (pt_main_thread)", (long long)s->main.tid);
	meta_ev(b, "thread_name", ts, s->pid, s->main.tid, "name", buf, 0);
	meta_ev(b, "thread_sort_index", ts, s->pid, s->main.tid, "sort_index", NULL, s->main.tid);
	snprintf(buf, sizeof(buf), "thread %lld (pt_autograd_0)", (long long)s->bw.tid);
	meta_ev(b, "thread_name", ts, s->pid, s->bw.tid, "name", buf, 0);
	meta_ev(b, "thread_sort_index", ts, s->pid, s->bw.tid, "sort_index", NULL, s->bw.tid);
}

void demo_write_header(const struct job *j, const struct rsim *s, struct sbuf *b)
{
	SB_LIT(b, "{\n  \"schemaVersion\": 1,\n  \"deviceProperties\": [");
	for (int g = 0; g < NUM_GPUS; g++) {
		if (g)
			SB_LIT(b, ",");
		SB_LIT(b, "\n    {\n");
		SB_LIT(b, "      \"id\": ");
		sb_int(b, g);
		if (j->o->vendor == TT_DEMO_AMD)
			SB_LIT(b, ", \"name\": \"AMD Instinct MI300X\", "
				  "\"totalGlobalMem\": 205822885888,\n"
				  "      \"computeMajor\": 9, \"computeMinor\": 4,\n"
				  "      \"maxThreadsPerBlock\": 1024, "
				  "\"maxThreadsPerMultiprocessor\": 2048,\n"
				  "      \"regsPerBlock\": 65536, \"regsPerMultiprocessor\": 65536, "
				  "\"warpSize\": 64,\n"
				  "      \"sharedMemPerBlock\": 65536, "
				  "\"sharedMemPerMultiprocessor\": 65536,\n"
				  "      \"numSms\": 304, \"sharedMemPerBlockOptin\": 65536\n    }");
		else
			SB_LIT(b, ", \"name\": \"NVIDIA A100-SXM4-80GB\", "
				  "\"totalGlobalMem\": 85899345920,\n"
				  "      \"computeMajor\": 8, \"computeMinor\": 0,\n"
				  "      \"maxThreadsPerBlock\": 1024, "
				  "\"maxThreadsPerMultiprocessor\": 2048,\n"
				  "      \"regsPerBlock\": 65536, \"regsPerMultiprocessor\": 65536, "
				  "\"warpSize\": 32,\n"
				  "      \"sharedMemPerBlock\": 49152, "
				  "\"sharedMemPerMultiprocessor\": 167936,\n"
				  "      \"numSms\": 108, \"sharedMemPerBlockOptin\": 166912\n    }");
	}
	SB_LIT(b, "\n  ],\n  \"distributedInfo\": {\"backend\": \"nccl\", \"rank\": ");
	sb_int(b, s->rank);
	SB_LIT(b, ", \"world_size\": ");
	sb_int(b, j->nranks);
	SB_LIT(b, ", \"pg_count\": 1, \"pg_config\": [{\"pg_name\": \"0\", \"pg_desc\": "
		  "\"default_pg\", \"backend_config\": \"cuda:nccl\", \"pg_size\": ");
	sb_int(b, j->nranks);
	SB_LIT(b, ", \"ranks\": [");
	for (int q = 0; q < j->nranks; q++) {
		if (q)
			SB_LIT(b, ", ");
		sb_int(b, q);
	}
	SB_LIT(b, "]}], \"nccl_version\": \"2.20.5\"},\n  \"record_shapes\": 1,\n"
		  "  \"trace_id\": \"");
	char id[40];
	snprintf(id, sizeof(id), "%016llX%016llX", (unsigned long long)mix64(j->seed),
		 (unsigned long long)mix64(j->seed ^ mix64((uint64_t)s->rank + 1)));
	sb_str(b, id);
	SB_LIT(b, "\",\n  \"job_name\": \"tracetop-demo-convnext-ddp\",\n  \"username\": "
		  "\"tracetop\",\n  \"host_name\": \"demo-node-");
	sb_int(b, s->rank / NUM_GPUS);
	SB_LIT(b, "\",\n  \"demo_seed\": ");
	sb_int(b, (int64_t)(j->seed & INT64_MAX));
	SB_LIT(b, ",\n  \"demo_straggler\": ");
	if (s->straggler)
		SB_LIT(b, "true");
	else
		SB_LIT(b, "false");
	if (s->straggler && s->slow == TT_DEMO_SLOW_GPU)
		SB_LIT(b, ",\n  \"demo_straggler_cause\": \"slow GPU\"");
	else if (s->straggler && s->slow == TT_DEMO_SLOW_LINK)
		SB_LIT(b, ",\n  \"demo_straggler_cause\": \"slow link\"");
	SB_LIT(b, ",\n  \"traceEvents\": [");
}

void demo_write_trailer(const struct rsim *s, struct sbuf *b)
{
	SB_LIT(b, "\n  ],\n  \"traceName\": \"/tmp/tracetop-demo/libkineto_activities_");
	sb_int(b, s->pid);
	SB_LIT(b, ".json\",\n  \"displayTimeUnit\": \"ms\"\n}\n");
}

void demo_write_tail(const struct rsim *s, struct sbuf *b, int64_t t0, int64_t t1, int64_t wend)
{
	write_meta(s, b, t0);
	SB_LIT(b, ",\n  {\"ph\": \"X\", \"cat\": \"Trace\", \"name\": \"PyTorch Profiler (0)\", "
		      "\"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\", \"ts\": ");
	sb_int(b, t0);
	SB_LIT(b, ", \"dur\": ");
	sb_int(b, t1 - t0);
	SB_LIT(b, ", \"args\": {\"Op count\": 0}}");
	SB_LIT(b, ",\n  {\"name\": \"process_sort_index\", \"ph\": \"M\", \"ts\": ");
	sb_int(b, t0);
	SB_LIT(b, ", \"pid\": \"Spans\", \"tid\": 0, \"args\": {\"sort_index\": 536870912}}");
	SB_LIT(b, ",\n  {\"name\": \"Iteration Start: PyTorch Profiler\", \"ph\": \"i\", "
		      "\"s\": \"g\", \"pid\": \"Traces\", \"tid\": \"Trace PyTorch Profiler\", "
		      "\"ts\": ");
	sb_int(b, t0);
	SB_LIT(b, "}");
	SB_LIT(b, ",\n  {\"name\": \"Record Window End\", \"ph\": \"i\", \"s\": \"g\", "
		      "\"pid\": \"\", \"tid\": \"\", \"ts\": ");
	sb_int(b, wend);
	SB_LIT(b, "}");
}
