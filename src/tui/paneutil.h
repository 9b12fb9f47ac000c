/* tui room private: small helpers the pane files share */
#ifndef TRACETOP_PANEUTIL_H
#define TRACETOP_PANEUTIL_H

#include <stddef.h>
#include <stdint.h>

#include "tracetop/ui.h"

/* Cell (row, column named name) of t as a number; NAN when there is no
 * such column. */
double pane_num(const struct tt_table *t, size_t row, const char *name);
/* Cell (row, column named name) of t as text; "" when there is no such
 * column or the cell is not text. */
const char *pane_str(const struct tt_table *t, size_t row, const char *name);
/* Append a bar column drawing column `of` (nothing when t has no such
 * column), coloured by role, scaled to max (0: the column's maximum). */
void pane_add_bar(struct tt_table *t, const char *of, const char *title, enum tt_role role,
		  double max);
/* A pane's free_state when its state is one malloc'd block. */
void pane_free_state(struct tt_pane *p);
/* Index in m->ranks of rank number `rank`, or SIZE_MAX. */
size_t pane_rank_index(const struct tt_model *m, int64_t rank);

#endif
