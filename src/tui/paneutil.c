/* Small helpers the pane files share: reading cells by column name,
 * adding bar columns, finding a rank. */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "paneutil.h"

double pane_num(const struct tt_table *t, size_t row, const char *name)
{
	int c = tt_table_col(t, name);
	return c < 0 ? NAN : tt_cell_num(tt_table_cell(t, row, c));
}

const char *pane_str(const struct tt_table *t, size_t row, const char *name)
{
	int c = tt_table_col(t, name);
	if (c < 0)
		return "";
	const struct tt_cell *x = tt_table_cell(t, row, c);
	return x->kind == TT_CV_S ? x->v.s : "";
}

void pane_add_bar(struct tt_table *t, const char *of, const char *title, enum tt_role role,
		  double max)
{
	int src = tt_table_col(t, of);
	if (src < 0)
		return;
	struct tt_col c = {
		.name = "bar", .title = title, .type = TT_C_BAR, .bar_of = src, .bar_max = max};
	c.role[0] = (uint8_t)role;
	tt_table_add_col(t, &c);
}

void pane_free_state(struct tt_pane *p)
{
	free(p->state);
}

size_t pane_rank_index(const struct tt_model *m, int64_t rank)
{
	for (size_t i = 0; i < m->nranks; i++)
		if (m->ranks[i]->rank == rank)
			return i;
	return SIZE_MAX;
}
