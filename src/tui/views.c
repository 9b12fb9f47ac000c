/* The views menu (v): every registered view without a pane key, with its
 * one-line use; Enter opens one. */
#include "config.h"

#include "registry.h"

#include <stdio.h>

#include "tracetop/util.h"

static int views_open(struct tt_pane *p)
{
	static const struct tt_col cols[] = {
		{.name = "view", .type = TT_C_STR, .width = 16},
		{.name = "what", .type = TT_C_STR, .width = 90, .free_text = true},
		{.name = "index", .type = TT_C_INT, .hidden_text = true},
	};
	struct tt_table *t = tt_table_new("views", cols, (int)TT_ARRAY_SIZE(cols));
	size_t n;
	const struct tt_view *v = tt_views(&n);
	for (size_t i = 0; i < n; i++) {
		if (v[i].key)
			continue;
		size_t k = tt_table_add_row(t);
		tt_table_set_str(t, k, 0, v[i].ops->title);
		tt_table_set_str(t, k, 1, tt_view_use(&v[i]));
		tt_table_set_int(t, k, 2, (int64_t)i);
	}
	tt_pane_set_table(p, t);
	tt_pane_head(p, TT_ROLE_DIM, "more views (the TensorBoard profiler's, and many ranks). "
				     "Enter opens one; Esc comes back here");
	return 0;
}

static struct tt_pane *views_drill(struct tt_pane *p, size_t row)
{
	int64_t i = (int64_t)tt_cell_num(tt_table_cell(p->table, row, 2));
	size_t n;
	const struct tt_view *v = tt_views(&n);
	if (i < 0 || (size_t)i >= n)
		return NULL;
	return tt_pane_new(p->app, v[i].ops);
}

const struct tt_pane_ops tt_views_ops = {
	.name = "views",
	.title = "Views",
	.help = "More views: GPU utilisation, the distributed view, operators, memory, Python "
		"source, steps and advice (the TensorBoard profiler plugin's views), and the "
		"heatmap of ranks.  Enter opens one.",
	.open = views_open,
	.drill = views_drill,
};

struct tt_pane *tt_views_menu(struct tt_app *a)
{
	struct tt_pane *p = tt_pane_new(a, &tt_views_ops);
	snprintf(p->subtitle, sizeof(p->subtitle), "more views");
	return p;
}
