/* tui room private: the one list of the explorer's views (registry.c), and
 * the panes that read it (help.c, views.c).  app.c, help.c, views.c and
 * headless.c include this header; pane files never do (see pane.h for the
 * rule). */
#ifndef TRACETOP_REGISTRY_H
#define TRACETOP_REGISTRY_H

#include <stddef.h>

#include "pane.h"

/* A view the user can reach by name: on a pane key (1..9, 0) or from the
 * views menu (v).  The name, the title and the long help are the pane's own
 * (ops->name, ops->title, ops->help); the registry adds how it is reached
 * and how it is named where room is short. */
struct tt_view {
	char key;                      /* '1'..'9', '0'; 0: reached from the views menu */
	const char *brief;             /* the title in narrow title bars ("Ovlp") */
	const char *use;               /* one line: what it shows; NULL: the report's
					* one-line help (tracetop report --list) */
	const struct tt_pane_ops *ops;
};

/* Views on pane keys, in key order 1..9, 0 (the title bar's order). */
#define TT_NTOP 10
const struct tt_view *tt_view_top(int i);
/* Every view, pane keys first, then the views menu's order; n gets the count. */
const struct tt_view *tt_views(size_t *n);
/* The view named name (ops->name), or NULL. */
const struct tt_view *tt_view_named(const char *name);
/* Its one-line use (never NULL). */
const char *tt_view_use(const struct tt_view *v);
/* The ops to open for v in app a when `rows` table rows fit: the Overview
 * becomes the heatmap when the ranks do not fit. */
const struct tt_pane_ops *tt_view_ops(const struct tt_view *v, const struct tt_app *a, int rows);

/* ---- panes over the registry (app.c opens them) ---- */

/* The help of pane `of`: its long help and the keys bound in its section
 * and everywhere (help.c). */
struct tt_pane *tt_help_new(struct tt_app *a, const struct tt_pane *of);
extern const struct tt_pane_ops tt_help_ops;
/* The menu of the views without a pane key (views.c). */
struct tt_pane *tt_views_menu(struct tt_app *a);
extern const struct tt_pane_ops tt_views_ops;

#endif
