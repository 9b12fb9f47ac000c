/* report room, private: pieces the TensorBoard view reports share. */
#ifndef TRACETOP_REPORT_TB_INT_H
#define TRACETOP_REPORT_TB_INT_H

#include "tracetop/report.h"

/* *out = a new array holding t[0..k); *n = k. */
void tt_tb_give(struct tt_table ***out, size_t *n, struct tt_table **t, size_t k);

/* Is a long table (a time series) wanted: CSV/JSON output, or --table
 * naming it? */
bool tt_tb_want(const struct tt_report_opts *o, const char *table);

/* bytes >= 0: an integer cell (CSV/JSON) in col_int and its "1.5 GB" text
 * (text table) in col_text; nothing for bytes < 0. */
void tt_tb_set_bytes(struct tt_table *t, size_t row, int col_int, int col_text, int64_t bytes);

/* "cpu" for device < 0, else "cuda:N". */
void tt_tb_dev_label(char *buf, size_t n, int64_t device);

#endif
