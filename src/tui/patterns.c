/* Pane 8, Patterns: frequent kernel sequences under an operator (the
 * report's table, formatted from the patterns in the app's results). */
#include "config.h"

#include "tracetop/util.h"
#include "pane.h"

static int patterns_open(struct tt_pane *p)
{
	if (tt_pane_report(p, "patterns", "frequent_cuda_kernel_sequences"))
		return -1;
	pane_add_bar_at(p->table, TT_PAT_GPU, "GPU time", TT_ROLE_BAR_COMP, 0);
	tt_pane_set_table(p, p->table);
	tt_pane_head(p, TT_ROLE_DIM,
		     "frequent kernel sequences launched under one operator (HTA); `tracetop "
		     "report patterns --op NAME` picks the operator");
	return 0;
}

const struct tt_pane_ops tt_patterns_ops = {
	.name = "patterns",
	.title = "Patterns",
	.help = "HTA's frequent CUDA kernel sequences: for the operator chosen (the aten:: op "
		"with the most calls launching at least 3 kernels, or --op NAME), each distinct "
		"sequence of kernels its calls launch, with how often it occurs and its total "
		"GPU and CPU time.",
	.open = patterns_open,
	.needs = TT_NEED(TT_RES_PATTERNS),
};
