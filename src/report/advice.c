/* tracetop report advice: the findings of analysis/advice.c as text. */
#include "config.h"

#include "tracetop/report.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/advice.h"
#include "tracetop/results.h"
#include "tracetop/util.h"

static const char *idle_cause(int c)
{
	switch (c) {
	case TT_IDLE_HOST_WAIT:
		return "host wait: the CPU launches kernels too late (CPU-bound)";
	case TT_IDLE_KERNEL_WAIT:
		return "kernel wait: short gaps between kernels (launch overhead)";
	default:
		return "other: long gaps (synchronisation, data loading, collectives)";
	}
}

static void fmt_dur(char *buf, size_t n, double ns)
{
	tt_fmt_dur(buf, n, (int64_t)llround(ns));
}

void tt_finding_text(const struct tt_finding *x, char *buf, size_t n)
{
	char a[32], b[32];
	switch (x->kind) {
	case TT_FIND_IDLE: {
		char others[64] = "";
		if (x->n[1] > 1)
			snprintf(others, sizeof(others), " (%lld of %lld ranks idle >= 20 %%)",
				 (long long)x->n[0], (long long)x->n[1]);
		if (x->n[2] >= 0)
			snprintf(buf, n,
				 "GPU idle %.0f %% on rank %lld%s, mostly %s: %.0f %% of its idle "
				 "time",
				 x->x[0], (long long)x->rank, others, idle_cause((int)x->n[2]),
				 x->x[1]);
		else
			snprintf(buf, n, "GPU idle %.0f %% on rank %lld%s", x->x[0],
				 (long long)x->rank, others);
		break;
	}
	case TT_FIND_EXPOSED_COMM:
		if (x->n[0] > 1)
			snprintf(buf, n,
				 "communication %.0f %% exposed (not overlapped by computation) on "
				 "%lld ranks (%.0f-%.0f %%); it takes %.0f %% of the GPU span",
				 x->x[0], (long long)x->n[0], x->x[1], x->x[2], x->x[3]);
		else
			snprintf(buf, n,
				 "communication %.0f %% exposed (not overlapped by computation); it "
				 "takes %.0f %% of the GPU span",
				 x->x[0], x->x[3]);
		break;
	case TT_FIND_LOW_OCC:
		snprintf(buf, n,
			 "kernels with est. occupancy under 15 %% take %.0f %% of the time of "
			 "computation kernels (%lld kernels; most: %.80s)",
			 x->x[0], (long long)x->n[0], x->name);
		break;
	case TT_FIND_LOW_SM:
		snprintf(buf, n,
			 "computation kernels keep only %.0f %% of the SMs busy (est. SM "
			 "efficiency, time-weighted): small grids; batch more work per kernel or "
			 "fuse",
			 x->x[0]);
		break;
	case TT_FIND_SHORT_KERNELS:
		snprintf(buf, n,
			 "%.0f %% of kernels run shorter than their launch call (%lld of %lld): "
			 "launch-bound; fuse kernels or use CUDA graphs",
			 x->x[0], (long long)x->n[0], (long long)x->n[1]);
		break;
	case TT_FIND_STRAGGLER:
		snprintf(buf, n, "rank %lld stands out (%s): %s", (long long)x->rank, x->name,
			 x->detail);
		break;
	case TT_FIND_SYNC:
		fmt_dur(a, sizeof(a), (double)x->n[0]);
		snprintf(buf, n,
			 "ranks wait for each other: %.0f %% of collective time (%s over the ranks) "
			 "is synchronisation, not data transfer",
			 x->x[0], a);
		break;
	case TT_FIND_SLOW_STEP:
		fmt_dur(a, sizeof(a), x->x[0]);
		fmt_dur(b, sizeof(b), x->x[1]);
		snprintf(buf, n, "step %lld on rank %lld takes %s, %.1fx the median step (%s)",
			 (long long)x->n[0], (long long)x->rank, a, x->x[0] / x->x[1], b);
		break;
	case TT_FIND_HOT_OP:
		snprintf(buf, n,
			 "%.80s takes %.0f %% of the host self time of all operators (%lld "
			 "calls)%s",
			 x->name, x->x[0], (long long)x->n[0],
			 x->n[1] ? ": the host waits for the GPU there (.item(), .cpu(), a "
				   "synchronize)"
				 : "");
		break;
	case TT_FIND_MEM_PEAK:
		tt_fmt_bytes(a, sizeof(a), (double)x->n[0]);
		snprintf(buf, n,
			 "memory peak %s on rank %lld cuda:%lld is %.0f %% of the device: close to "
			 "out of memory",
			 a, (long long)x->rank, (long long)x->n[1], x->x[0]);
		break;
	case TT_FIND_LOW_GPU_UTIL:
		snprintf(buf, n,
			 "GPU Utilization under 50 %% on %lld of %lld GPUs (%s), over the steps: "
			 "too little work per step; a larger batch may help (the plugin's advice)",
			 (long long)x->n[0], (long long)x->n[1], x->detail);
		break;
	case TT_FIND_DATALOADER:
		snprintf(buf, n,
			 "DataLoader over 5 %% of the step time on %lld of %lld ranks (%s): use "
			 "DataLoader(num_workers=...) to load data in parallel (the plugin's advice)",
			 (long long)x->n[0], (long long)x->n[1], x->detail);
		break;
	case TT_FIND_COMM_SHARE:
		snprintf(buf, n,
			 "communication over 10 %% of the step time on %lld of %lld ranks (%s): try "
			 "gradient compression or accumulation, or a larger batch (the plugin's "
			 "advice)",
			 (long long)x->n[0], (long long)x->n[1], x->detail);
		break;
	case TT_FIND_DATA_PARALLEL:
		snprintf(buf, n,
			 "DataParallel on %lld GPUs (rank %lld): DistributedDataParallel is faster "
			 "for multi-GPU training",
			 (long long)x->n[0], (long long)x->rank);
		break;
	case TT_FIND_DDP_NO_NCCL:
		snprintf(buf, n, "DistributedDataParallel without NCCL: the NCCL backend is the "
				 "fastest for DDP on GPUs");
		break;
	case TT_FIND_AMP:
		snprintf(buf, n,
			 "tensor-core eligible operators launch part of the operators' kernel "
			 "time on %lld of %lld ranks (%s), and no kernel uses tensor cores "
			 "(compute capability %lld): automatic mixed precision (torch.autocast) "
			 "would use them (the plugin's advice)",
			 (long long)x->n[0], (long long)x->n[1], x->detail, (long long)x->n[2]);
		break;
	case TT_FIND_NKINDS:
		buf[0] = '\0';
		break;
	case TT_FIND_NO_MEMORY:
		snprintf(buf, n, "%s", tt_hint_memory);
		break;
	case TT_FIND_NO_STACKS:
		snprintf(buf, n, "%s", tt_hint_stacks);
		break;
	}
}

int tt_report_advice(struct tt_results *res, const struct tt_report_opts *o,
		     struct tt_table ***out, size_t *n, struct tt_err *err)
{
	(void)err;
	(void)o;
	static const struct tt_col cols[] = {
		{.name = "severity", .type = TT_C_STR},
		{.name = "finding", .type = TT_C_STR, .width = 120, .free_text = true},
		{.name = "see", .type = TT_C_STR},
		{.name = "value", .type = TT_C_NUM, .prec = 1, .hidden_text = true},
		{.name = "rank", .type = TT_C_INT, .hidden_text = true},
		{.name = "pane", .type = TT_C_STR, .hidden_text = true},
		{.name = "topic", .type = TT_C_STR, .hidden_text = true},
	};
	static const char *const sevs[] = {"high", "medium", "info"};
	const struct tt_advice *adv = tt_res_advice(res);
	struct tt_table *t = tt_table_new("advice", cols, (int)TT_ARRAY_SIZE(cols));
	tt_table_set_title(t, "Findings, most important first, with the numbers behind them and "
			      "the pane that shows more");
	size_t real = 0;
	char text[400];
	for (size_t i = 0; i < adv->n; i++) {
		const struct tt_finding *x = &adv->v[i];
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, sevs[x->sev]);
		tt_finding_text(x, text, sizeof(text));
		tt_table_set_str(t, k, 1, text);
		char see[64];
		snprintf(see, sizeof(see), "see %s", x->where);
		tt_table_set_str(t, k, 2, see);
		tt_table_set_num(t, k, 3, x->value);
		if (x->rank >= 0)
			tt_table_set_int(t, k, 4, x->rank);
		tt_table_set_str(t, k, 5, x->pane);
		tt_table_set_str(t, k, 6, tt_finding_topic(x->kind));
		real += x->sev != TT_SEV_INFO;
	}
	if (!real)
		tt_table_add_note(t, "no finding above the thresholds (%s)", tt_advice_thresholds);
	*out = tt_malloc(sizeof(**out));
	(*out)[0] = t;
	*n = 1;
	return 0;
}
