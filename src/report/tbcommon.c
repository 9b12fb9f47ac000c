/* Pieces the TensorBoard view reports share. */
#include "config.h"

#include "tracetop/report.h"

#include <stdio.h>
#include <string.h>

#include "tracetop/grid.h"
#include "tracetop/util.h"
#include "tb_int.h"

/* *out = a new array holding t[0..k) */
void tt_tb_give(struct tt_table ***out, size_t *n, struct tt_table **t, size_t k)
{
	*out = tt_malloc((k ? k : 1) * sizeof(**out));
	memcpy(*out, t, k * sizeof(*t));
	*n = k;
}

/* Is a long table (a time series) wanted: CSV/JSON output, or --table
 * naming it? */
bool tt_tb_want(const struct tt_report_opts *o, const char *table)
{
	return o->format != TT_FMT_TABLE || (o->table && strcmp(o->table, table) == 0);
}

/* bytes >= 0: an integer cell (CSV/JSON) and its "1.5 GB" text (text table) */
void tt_tb_set_bytes(struct tt_table *t, size_t row, int col_int, int col_text, int64_t bytes)
{
	if (bytes < 0)
		return;
	char b[32];
	tt_table_set_int(t, row, col_int, bytes);
	tt_fmt_bytes(b, sizeof(b), (double)bytes);
	tt_table_set_str(t, row, col_text, b);
}


void tt_tb_dev_label(char *buf, size_t n, int64_t device)
{
	if (device < 0)
		snprintf(buf, n, "cpu");
	else
		snprintf(buf, n, "cuda:%lld", (long long)device);
}
