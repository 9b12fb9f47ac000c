/* The explorer's logic: panes, navigation, the prompt, the generic list. */
#include "config.h"

#include "tracetop/ui.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/util.h"

/* ---- panes ---- */

struct tt_pane *tt_pane_new(struct tt_app *a, const struct tt_pane_ops *ops)
{
	struct tt_pane *p = tt_calloc(1, sizeof(*p));
	p->ops = ops;
	p->app = a;
	p->sort_col = -1;
	return p;
}

static void pane_clear(struct tt_pane *p)
{
	if (p->ops->close)
		p->ops->close(p);
	p->state = NULL;
	tt_table_free(p->table);
	p->table = NULL;
	free(p->rows);
	p->rows = NULL;
	p->nrows = 0;
	free(p->row_role);
	p->row_role = NULL;
	for (size_t i = 0; i < p->nhead; i++)
		free(p->head[i].text);
	free(p->head);
	p->head = NULL;
	p->nhead = 0;
	p->msg[0] = '\0';
	p->opened = false;
}

void tt_pane_free(struct tt_pane *p)
{
	if (!p)
		return;
	pane_clear(p);
	free(p);
}

void tt_pane_head(struct tt_pane *p, enum tt_role role, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	p->head = tt_realloc_array(p->head, p->nhead + 1, sizeof(*p->head));
	p->head[p->nhead].role = (uint8_t)role;
	p->head[p->nhead].text = tt_strdup(buf);
	p->nhead++;
}

size_t tt_pane_row(const struct tt_pane *p)
{
	if (!p->table || p->cursor >= p->nrows)
		return SIZE_MAX;
	return p->rows[p->cursor];
}

void tt_pane_goto(struct tt_pane *p, size_t row)
{
	for (size_t i = 0; i < p->nrows; i++)
		if (p->rows[i] == row) {
			p->cursor = i;
			return;
		}
}

struct sort_ctx {
	const struct tt_table *t;
	int col;
	bool desc;
};

static int row_cmp(const void *a, const void *b, void *vctx)
{
	const struct sort_ctx *c = vctx;
	size_t ra = *(const size_t *)a, rb = *(const size_t *)b;
	const struct tt_cell *x = tt_table_cell(c->t, ra, c->col), *y = tt_table_cell(c->t, rb, c->col);
	bool nx = x->kind == TT_CV_NONE, ny = y->kind == TT_CV_NONE;
	int r;
	if (nx || ny) {
		r = nx == ny ? 0 : nx ? 1 : -1;
		return r ? r : (ra < rb ? -1 : 1);
	}
	if (x->kind == TT_CV_S || y->kind == TT_CV_S) {
		r = strcmp(x->kind == TT_CV_S ? x->v.s : "", y->kind == TT_CV_S ? y->v.s : "");
	} else {
		double dx = tt_cell_num(x), dy = tt_cell_num(y);
		r = dx < dy ? -1 : dx > dy;
	}
	if (c->desc)
		r = -r;
	return r ? r : (ra < rb ? -1 : 1);
}

static void pane_order(struct tt_pane *p)
{
	size_t keep = tt_pane_row(p);
	free(p->rows);
	p->rows = tt_malloc((p->table->nrows + 1) * sizeof(*p->rows));
	p->nrows = 0;
	for (size_t r = 0; r < p->table->nrows; r++)
		if (!p->filter[0] || tt_table_row_matches(p->table, r, p->filter))
			p->rows[p->nrows++] = r;
	if (p->sort_col >= 0) {
		struct sort_ctx c = {p->table, p->sort_col, p->sort_desc};
		tt_msort(p->rows, p->nrows, sizeof(*p->rows), row_cmp, &c);
	}
	p->cursor = 0;
	p->top = 0;
	if (keep != SIZE_MAX)
		tt_pane_goto(p, keep);
}

void tt_pane_refilter(struct tt_pane *p)
{
	if (p->table)
		pane_order(p);
}

void tt_pane_sort(struct tt_pane *p, int c, bool desc)
{
	p->sort_col = c;
	p->sort_desc = desc;
	if (p->table)
		pane_order(p);
}

void tt_pane_set_table(struct tt_pane *p, struct tt_table *t)
{
	if (p->table != t) {
		tt_table_free(p->table);
		p->table = t;
		free(p->row_role);
		p->row_role = NULL;
	}
	/* row roles survive a column added to the same table */
	if (!p->row_role)
		p->row_role = tt_calloc(t->nrows + 1, 1);
	pane_order(p);
}

int tt_pane_report(struct tt_pane *p, const char *name, const char *table)
{
	struct tt_table *keep = tt_app_table(p->app, name, table, p->msg, sizeof(p->msg));
	if (!keep)
		return -1;
	for (size_t i = 0; i < keep->nnotes; i++)
		tt_pane_head(p, TT_ROLE_DIM, "%s", keep->notes[i]);
	tt_pane_set_table(p, keep);
	return 0;
}

static void pane_open(struct tt_pane *p)
{
	if (p->opened)
		return;
	p->opened = true;
	if (p->ops->open && p->ops->open(p) != 0 && !p->msg[0])
		snprintf(p->msg, sizeof(p->msg), "nothing to show");
	/* a pane opens on its first row, whatever sorting open() did */
	p->cursor = 0;
	p->top = 0;
}

/* ---- the app ---- */

struct tt_app *tt_app_new(const struct tt_model *m, const struct tt_model *m2,
			  const struct tt_report_opts *o, struct tt_keymap *keys, const char *label)
{
	struct tt_app *a = tt_calloc(1, sizeof(*a));
	a->m = m;
	a->m2 = m2;
	a->keys = keys;
	a->ropts = *o;
	if (o->a.ranks && o->a.nranks) {
		a->ranks = tt_malloc(o->a.nranks * sizeof(*a->ranks));
		memcpy(a->ranks, o->a.ranks, o->a.nranks * sizeof(*a->ranks));
		a->nranks = o->a.nranks;
	}
	a->ropts.a.ranks = a->ranks;
	a->ropts.a.nranks = a->nranks;
	snprintf(a->label, sizeof(a->label), "%s", label ? label : "");
	a->w = 80;
	a->h = 24;
	tt_app_prefetch(a);
	return a;
}

static void pop_all(struct tt_app *a)
{
	while (a->depth > 0)
		tt_pane_free(a->stack[--a->depth]);
}

void tt_app_free(struct tt_app *a)
{
	if (!a)
		return;
	pop_all(a);
	for (int i = 0; i < 10; i++)
		tt_pane_free(a->top[i]);
	tt_rcache_free(a);
	free(a->ranks);
	free(a);
}

struct tt_pane *tt_app_pane(struct tt_app *a)
{
	if (a->depth > 0)
		return a->stack[a->depth - 1];
	if (!a->top[a->cur]) {
		/* more ranks than rows: the Overview is a heatmap */
		const struct tt_pane_ops *ops = tt_top_panes[a->cur];
		if (a->cur == 0 && tt_heatmap_wanted(a, a->h - 6))
			ops = &tt_heatmap_ops;
		a->top[a->cur] = tt_pane_new(a, ops);
	}
	pane_open(a->top[a->cur]);
	return a->top[a->cur];
}

const char *tt_app_section(struct tt_app *a)
{
	return tt_app_pane(a)->ops->name;
}

void tt_app_status(struct tt_app *a, enum tt_role role, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->status, sizeof(a->status), fmt, ap);
	va_end(ap);
	a->status_role = (uint8_t)role;
}

void tt_app_show(struct tt_app *a, int i)
{
	if (i < 0 || i > 9)
		return;
	pop_all(a);
	a->cur = i;
	a->status[0] = '\0';
	tt_app_pane(a);
}

void tt_app_push(struct tt_app *a, struct tt_pane *p)
{
	if (a->depth == (int)TT_ARRAY_SIZE(a->stack)) {
		tt_pane_free(p);
		tt_app_status(a, TT_ROLE_WARNING, "too deep: go back first");
		return;
	}
	a->stack[a->depth++] = p;
	pane_open(p);
}

void tt_app_open_timeline(struct tt_app *a, size_t ri, uint32_t ev, int64_t t)
{
	tt_app_push(a, tt_timeline_new(a, ri, ev, t));
}

/* the ranks changed: every pane is built again when shown */
static void ranks_changed(struct tt_app *a)
{
	a->ropts.a.ranks = a->ranks;
	a->ropts.a.nranks = a->nranks;
	tt_rcache_invalidate(a);
	pop_all(a);
	for (int i = 0; i < 10; i++) {
		tt_pane_free(a->top[i]);
		a->top[i] = NULL;
	}
	char buf[160] = "all ranks";
	if (a->nranks) {
		size_t k = 0;
		k += (size_t)snprintf(buf, sizeof(buf), "rank%s ", a->nranks > 1 ? "s" : "");
		for (size_t i = 0; i < a->nranks && k < sizeof(buf) - 16; i++)
			k += (size_t)snprintf(buf + k, sizeof(buf) - k, "%s%lld", i ? "," : "",
					      (long long)a->ranks[i]);
	}
	tt_app_status(a, TT_ROLE_DEFAULT, "showing %s", buf);
}

static bool parse_ranks(struct tt_app *a, const char *s)
{
	int64_t *v = NULL;
	size_t n = 0, cap = 0;
	const char *p = s;
	while (*p == ' ')
		p++;
	if (!*p || strcmp(p, "all") == 0) {
		free(a->ranks);
		a->ranks = NULL;
		a->nranks = 0;
		return true;
	}
	while (*p) {
		char *end;
		long long x = strtoll(p, &end, 10), y = x;
		if (end == p || x < 0)
			goto bad;
		p = end;
		if (*p == '-') {
			y = strtoll(p + 1, &end, 10);
			if (end == p + 1 || y < x || y - x > 100000)
				goto bad;
			p = end;
		}
		for (long long k = x; k <= y; k++) {
			TT_GROW(v, cap, n + 1);
			v[n++] = k;
		}
		while (*p == ',' || *p == ' ')
			p++;
	}
	free(a->ranks);
	a->ranks = v;
	a->nranks = n;
	return true;
bad:
	free(v);
	return false;
}

static void step_rank(struct tt_app *a, int dir)
{
	const struct tt_model *m = a->m;
	if (!m->nranks)
		return;
	size_t i = 0;
	if (a->nranks == 1) {
		for (size_t k = 0; k < m->nranks; k++)
			if (m->ranks[k]->rank == a->ranks[0])
				i = k;
		i = (i + m->nranks + (size_t)dir) % m->nranks;
	} else {
		i = dir > 0 ? 0 : m->nranks - 1;
	}
	free(a->ranks);
	a->ranks = tt_malloc(sizeof(*a->ranks));
	a->ranks[0] = m->ranks[i]->rank;
	a->nranks = 1;
	ranks_changed(a);
}

static void write_csv(struct tt_app *a, struct tt_pane *p)
{
	if (!p->table) {
		tt_app_status(a, TT_ROLE_WARNING, "this view has no table to write");
		return;
	}
	char path[256];
	for (int i = 0; i < 1000; i++) {
		if (i == 0)
			snprintf(path, sizeof(path), "tracetop-%s.csv", p->ops->name);
		else
			snprintf(path, sizeof(path), "tracetop-%s-%d.csv", p->ops->name, i);
		if (access(path, F_OK) != 0)
			break;
	}
	FILE *f = fopen(path, "w");
	if (!f) {
		tt_app_status(a, TT_ROLE_ERROR, "cannot write %s: %s", path, strerror(errno));
		return;
	}
	/* the rows as shown: filtered and sorted */
	struct tt_table *t = tt_table_new(p->table->name, p->table->cols, p->table->ncols);
	for (size_t i = 0; i < p->nrows; i++) {
		size_t r = tt_table_add_row(t);
		for (int c = 0; c < t->ncols; c++) {
			const struct tt_cell *x = tt_table_cell(p->table, p->rows[i], c);
			if (x->kind == TT_CV_S)
				tt_table_set_str(t, r, c, x->v.s);
			else if (x->kind == TT_CV_I)
				tt_table_set_int(t, r, c, x->v.i);
			else if (x->kind == TT_CV_D)
				tt_table_set_num(t, r, c, x->v.d);
		}
	}
	tt_table_print(t, TT_FMT_CSV, NULL, f);
	tt_table_free(t);
	bool ok = !ferror(f);
	ok = (fclose(f) == 0) && ok;
	char cwd[200];
	if (!getcwd(cwd, sizeof(cwd)))
		snprintf(cwd, sizeof(cwd), ".");
	if (ok)
		tt_app_status(a, TT_ROLE_DEFAULT, "wrote %zu rows to %s/%s", p->nrows, cwd, path);
	else
		tt_app_status(a, TT_ROLE_ERROR, "error writing %s", path);
}

static void open_help(struct tt_app *a);

/* ---- the generic list ---- */

static int list_key(struct tt_pane *p, enum tt_action act)
{
	size_t page = p->page > 1 ? (size_t)p->page - 1 : 1;
	if (!p->table)
		return TT_R_UNHANDLED;
	switch (act) {
	case TT_ACT_MOVE_DOWN:
		if (p->cursor + 1 < p->nrows)
			p->cursor++;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_UP:
		if (p->cursor > 0)
			p->cursor--;
		return TT_R_REDRAW;
	case TT_ACT_PAGE_DOWN:
		p->cursor = p->nrows ? TT_MIN(p->cursor + page, p->nrows - 1) : 0;
		p->top = TT_MIN(p->top + page, p->cursor);
		return TT_R_REDRAW;
	case TT_ACT_PAGE_UP:
		p->cursor = p->cursor > page ? p->cursor - page : 0;
		p->top = p->top > page ? p->top - page : 0;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_FIRST:
		p->cursor = 0;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_LAST:
		p->cursor = p->nrows ? p->nrows - 1 : 0;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_RIGHT:
		p->xoff += 8;
		return TT_R_REDRAW;
	case TT_ACT_MOVE_LEFT:
		p->xoff = p->xoff > 8 ? p->xoff - 8 : 0;
		return TT_R_REDRAW;
	case TT_ACT_SORT_NEXT: {
		/* the next column that can be sorted: not a bar, not hidden */
		int c = p->sort_col;
		for (int k = 0; k < p->table->ncols; k++) {
			c = (c + 1) % p->table->ncols;
			const struct tt_col *col = &p->table->cols[c];
			if (col->type != TT_C_BAR && col->type != TT_C_STACK && !col->hidden_text)
				break;
		}
		/* numbers sort largest first, names A to Z; the view goes to the
		 * top, where the largest values now are */
		tt_pane_sort(p, c, p->table->cols[c].type != TT_C_STR);
		p->cursor = p->top = 0;
		tt_app_status(p->app, TT_ROLE_DEFAULT, "sorted by %s",
			      p->table->cols[c].title ? p->table->cols[c].title :
							p->table->cols[c].name);
		return TT_R_REDRAW;
	}
	case TT_ACT_SORT_REVERSE:
		if (p->sort_col >= 0) {
			tt_pane_sort(p, p->sort_col, !p->sort_desc);
			p->cursor = p->top = 0;
		} else {
			tt_app_status(p->app, TT_ROLE_DIM, "not sorted yet: press s first");
		}
		return TT_R_REDRAW;
	case TT_ACT_NEXT_MATCH:
	case TT_ACT_PREV_MATCH: {
		if (!p->filter[0] || !p->nrows) {
			tt_app_status(p->app, TT_ROLE_WARNING, "no filter: press / first");
			return TT_R_REDRAW;
		}
		int dir = act == TT_ACT_NEXT_MATCH ? 1 : -1;
		for (size_t k = 1; k <= p->nrows; k++) {
			size_t i = (p->cursor + p->nrows + (size_t)(dir * (long)k)) % p->nrows;
			if (tt_table_row_matches(p->table, p->rows[i], p->filter)) {
				p->cursor = i;
				break;
			}
		}
		return TT_R_REDRAW;
	}
	case TT_ACT_ENTER: {
		size_t row = tt_pane_row(p);
		if (row == SIZE_MAX || !p->ops->drill)
			return TT_R_UNHANDLED;
		struct tt_pane *np = p->ops->drill(p, row);
		if (np)
			tt_app_push(p->app, np);
		return TT_R_REDRAW;
	}
	default:
		return TT_R_UNHANDLED;
	}
}

/* ---- actions ---- */

int tt_app_action(struct tt_app *a, enum tt_action act)
{
	struct tt_pane *p = tt_app_pane(a);
	if (p->ops->key) {
		int r = p->ops->key(p, act);
		if (!(r & TT_R_UNHANDLED))
			return r;
	}
	int r = list_key(p, act);
	if (!(r & TT_R_UNHANDLED))
		return r;
	switch (act) {
	case TT_ACT_QUIT:
		return TT_R_QUIT;
	case TT_ACT_BACK:
		if (a->depth > 0) {
			tt_pane_free(a->stack[--a->depth]);
			a->status[0] = '\0';
		} else if (p->filter[0]) {
			p->filter[0] = '\0';
			tt_pane_refilter(p);
			tt_app_status(a, TT_ROLE_DEFAULT, "filter cleared: %zu rows", p->nrows);
		}
		return TT_R_REDRAW;
	case TT_ACT_NEXT_PANE:
		tt_app_show(a, (a->cur + 1) % 10);
		return TT_R_REDRAW;
	case TT_ACT_PREV_PANE:
		tt_app_show(a, (a->cur + 9) % 10);
		return TT_R_REDRAW;
	case TT_ACT_PANE_1:
	case TT_ACT_PANE_2:
	case TT_ACT_PANE_3:
	case TT_ACT_PANE_4:
	case TT_ACT_PANE_5:
	case TT_ACT_PANE_6:
	case TT_ACT_PANE_7:
	case TT_ACT_PANE_8:
	case TT_ACT_PANE_9:
	case TT_ACT_PANE_0:
		tt_app_show(a, (int)(act - TT_ACT_PANE_1));
		return TT_R_REDRAW;
	case TT_ACT_FILTER:
	case TT_ACT_PICK_RANKS:
		a->prompt = (int)act;
		a->input[0] = '\0';
		if (act == TT_ACT_FILTER)
			snprintf(a->input, sizeof(a->input), "%s", p->filter);
		return TT_R_REDRAW;
	case TT_ACT_PREV_RANK:
		step_rank(a, -1);
		return TT_R_REDRAW;
	case TT_ACT_NEXT_RANK:
		step_rank(a, 1);
		return TT_R_REDRAW;
	case TT_ACT_ALL_RANKS:
		free(a->ranks);
		a->ranks = NULL;
		a->nranks = 0;
		ranks_changed(a);
		return TT_R_REDRAW;
	case TT_ACT_WRITE_CSV:
		write_csv(a, p);
		return TT_R_REDRAW;
	case TT_ACT_HELP:
		open_help(a);
		return TT_R_REDRAW;
	case TT_ACT_VIEWS:
		if (p->ops->name && strcmp(p->ops->name, "views") == 0)
			return TT_R_NONE;
		tt_app_push(a, tt_views_menu(a));
		return TT_R_REDRAW;
	case TT_ACT_REDRAW:
		return TT_R_REDRAW;
	case TT_ACT_NONE:
		return TT_R_NONE;
	default:
		tt_app_status(a, TT_ROLE_DIM, "%s: not in this pane (press ? for its keys)",
			      tt_action_name(act));
		return TT_R_REDRAW;
	}
}

static int prompt_key(struct tt_app *a, const char *key)
{
	size_t n = strlen(a->input);
	if (strcmp(key, "<Escape>") == 0) {
		a->prompt = 0;
		return TT_R_REDRAW;
	}
	if (strcmp(key, "<Enter>") == 0) {
		int kind = a->prompt;
		a->prompt = 0;
		struct tt_pane *p = tt_app_pane(a);
		if (kind == TT_ACT_FILTER) {
			/* (a longer input is cut to the filter's size) */
			snprintf(p->filter, sizeof(p->filter), "%.*s", (int)sizeof(p->filter) - 1,
				 a->input);
			tt_pane_refilter(p);
			if (p->filter[0])
				tt_app_status(a, TT_ROLE_DEFAULT, "%zu row%s match%s '%s' (Esc clears)",
					      p->nrows, p->nrows == 1 ? "" : "s",
					      p->nrows == 1 ? "es" : "", p->filter);
		} else if (parse_ranks(a, a->input)) {
			ranks_changed(a);
		} else {
			tt_app_status(a, TT_ROLE_ERROR, "not a rank list: '%s' (e.g. 0,2,4-7)",
				      a->input);
		}
		return TT_R_REDRAW;
	}
	if (strcmp(key, "<Backspace>") == 0) {
		while (n > 0 && (a->input[n - 1] & 0xC0) == 0x80)
			n--;
		if (n > 0)
			a->input[n - 1] = '\0';
		return TT_R_REDRAW;
	}
	const char *ch = strcmp(key, "<Space>") == 0 ? " " : key;
	if (ch[0] && (ch[0] != '<' || !ch[1]) && n + strlen(ch) < sizeof(a->input) - 1) {
		memcpy(a->input + n, ch, strlen(ch) + 1);
		return TT_R_REDRAW;
	}
	return TT_R_NONE;
}

int tt_app_key(struct tt_app *a, const char *key)
{
	if (a->prompt)
		return prompt_key(a, key);
	enum tt_action act = tt_keymap_lookup(a->keys, tt_app_section(a), key);
	if (act == TT_ACT_NONE) {
		tt_app_status(a, TT_ROLE_DIM, "%s: no action (press ? for help)", key);
		return TT_R_REDRAW;
	}
	return tt_app_action(a, act);
}

/* ---- help ---- */

struct help_state {
	const char *section;
	const char *pane_help;
	const char *title;
	int scroll;
};

/* the keys of one section, grouped by action: "j <Down>   move down one row" */
struct help_keys {
	enum tt_action act[TT_ACT_COUNT];
	char keys[TT_ACT_COUNT][64];
	int n;
};

static void help_collect(void *vctx, const char *key, enum tt_action act)
{
	struct help_keys *h = vctx;
	int i = 0;
	while (i < h->n && h->act[i] != act)
		i++;
	if (i == h->n) {
		if (h->n == TT_ACT_COUNT)
			return;
		h->act[h->n] = act;
		h->keys[h->n++][0] = '\0';
	}
	size_t k = strlen(h->keys[i]);
	snprintf(h->keys[i] + k, sizeof(h->keys[i]) - k, "%s%s", k ? " " : "", key);
}

struct help_line_ctx {
	struct tt_grid *g;
	int y, y0, h, skip;
};

static void help_line(struct help_line_ctx *c, enum tt_role role, const char *key,
		      const char *text)
{
	if (c->skip > 0) {
		c->skip--;
		return;
	}
	if (c->y >= c->y0 + c->h)
		return;
	if (!c->g) { /* counting */
		c->y++;
		return;
	}
	int kw = 0;
	if (key) {
		kw = tt_grid_put(c->g, 2, c->y, TT_ROLE_HELP_KEY, key, c->g->w - 4);
		kw = TT_MAX(kw + 1, 22);
	}
	tt_grid_put(c->g, 2 + kw, c->y, role, text, -1);
	c->y++;
}

static void help_section(struct help_line_ctx *c, const struct tt_keymap *k, const char *section,
			 const char *title)
{
	struct help_keys *h = tt_calloc(1, sizeof(*h));
	tt_keymap_foreach(k, section, help_collect, h);
	if (h->n) {
		help_line(c, TT_ROLE_HEADER, NULL, title);
		for (int i = 0; i < h->n; i++)
			help_line(c, TT_ROLE_DEFAULT, h->keys[i], tt_action_help(h->act[i]));
		help_line(c, TT_ROLE_DEFAULT, NULL, "");
	}
	free(h);
}

static void help_lines(struct tt_pane *p, struct help_line_ctx *c, int w);

static void help_draw(struct tt_pane *p, struct tt_grid *g, int y, int h)
{
	struct help_state *s = p->state;
	/* never scrolled past the end */
	struct help_line_ctx n = {NULL, 0, 0, 1 << 20, 0};
	help_lines(p, &n, g->w);
	s->scroll = TT_MAX(0, TT_MIN(s->scroll, n.y - h));
	struct help_line_ctx c = {g, y, y, h, s->scroll};
	help_lines(p, &c, g->w);
}

static void help_lines(struct tt_pane *p, struct help_line_ctx *c, int w)
{
	struct help_state *s = p->state;
	if (s->pane_help) {
		/* the pane's help text, wrapped */
		const char *t = s->pane_help;
		w -= 4;
		while (*t && w > 0) {
			int len = (int)strlen(t);
			int cut = len <= w ? len : w;
			if (len > w)
				while (cut > 0 && t[cut] != ' ')
					cut--;
			if (cut <= 0)
				cut = TT_MIN(len, w);
			char line[512];
			snprintf(line, sizeof(line), "%.*s", cut, t);
			help_line(c, TT_ROLE_DEFAULT, NULL, line);
			t += cut;
			while (*t == ' ')
				t++;
		}
		help_line(c, TT_ROLE_DEFAULT, NULL, "");
	}
	if (s->section && strcmp(s->section, "generic") != 0) {
		char title[120];
		snprintf(title, sizeof(title), "Keys of %s", s->title);
		help_section(c, p->app->keys, s->section, title);
	}
	help_section(c, p->app->keys, "generic", "Keys everywhere");
}

static int help_key(struct tt_pane *p, enum tt_action act)
{
	struct help_state *s = p->state;
	if (act == TT_ACT_MOVE_DOWN || act == TT_ACT_PAGE_DOWN)
		s->scroll += act == TT_ACT_MOVE_DOWN ? 1 : 10;
	else if (act == TT_ACT_MOVE_UP || act == TT_ACT_PAGE_UP)
		s->scroll = TT_MAX(0, s->scroll - (act == TT_ACT_MOVE_UP ? 1 : 10));
	else if (act == TT_ACT_HELP || act == TT_ACT_QUIT)
		return tt_app_action(p->app, TT_ACT_BACK);
	else
		return TT_R_UNHANDLED;
	return TT_R_REDRAW;
}

static void help_close(struct tt_pane *p)
{
	free(p->state);
}

static const struct tt_pane_ops help_ops = {
	.name = "help",
	.title = "Help",
	.draw = help_draw,
	.key = help_key,
	.close = help_close,
};

static void open_help(struct tt_app *a)
{
	struct tt_pane *cur = tt_app_pane(a);
	if (cur->ops == &help_ops)
		return;
	struct tt_pane *p = tt_pane_new(a, &help_ops);
	struct help_state *s = tt_calloc(1, sizeof(*s));
	s->section = cur->ops->name;
	s->pane_help = cur->ops->help;
	s->title = cur->ops->title;
	p->state = s;
	snprintf(p->subtitle, sizeof(p->subtitle), "help: %s (j/k scroll, Esc or ? go back)",
		 cur->ops->title);
	tt_app_push(a, p);
}

/* ---- drawing ---- */

/* Text wrapped at spaces into width w, at most maxl rows from (x, y); with
 * g NULL only counts.  Returns the rows used. */
static int put_wrapped(struct tt_grid *g, int x, int y, enum tt_role role, const char *t, int w,
		       int maxl)
{
	int rows = 0;
	if (w < 1 || maxl < 1)
		return 0;
	while (*t && rows < maxl) {
		/* columns and bytes of the longest prefix that fits, cut at a space */
		int cols = 0, cut_cols = 0;
		size_t i = 0, cut = 0;
		while (t[i] && cols < w) {
			size_t k = 1;
			while ((t[i + k] & 0xC0) == 0x80)
				k++;
			i += k;
			cols++;
			if (t[i] == ' ' || !t[i]) {
				cut = i;
				cut_cols = cols;
			}
		}
		if (!t[i] || rows == maxl - 1 || !cut) {
			cut = i; /* the rest fits, the last row, or one long word */
			cut_cols = cols;
		}
		if (g) {
			char line[1024];
			snprintf(line, sizeof(line), "%.*s", (int)TT_MIN(cut, sizeof(line) - 1), t);
			tt_grid_put(g, x, y + rows, role, line, cut_cols);
		}
		rows++;
		t += cut;
		while (*t == ' ')
			t++;
	}
	return rows;
}

static void draw_title(struct tt_app *a, struct tt_grid *g)
{
	tt_grid_fill(g, 0, 0, g->w, ' ', TT_ROLE_TITLE);
	/* shorter titles on narrower screens: every pane key stays visible, and
	 * the short names stay distinct (Overview and Overlap both start "Over") */
	static const char *const brief[10] = {"Over", "Temp", "Idle", "Kern", "Ovlp",
					      "Lnch", "Cntr", "Patt", "Time", "Diff"};
	int x = tt_grid_put(g, 0, 0, TT_ROLE_TITLE, g->w >= 90 ? " tracetop " : " tt", -1);
	for (int i = 0; i < 10 && x < g->w; i++) {
		char b[40];
		int key = i == 9 ? 0 : i + 1;
		if (g->w >= 118)
			snprintf(b, sizeof(b), " %d %s ", key, tt_top_panes[i]->title);
		else if (g->w >= 90)
			snprintf(b, sizeof(b), " %d %s ", key, brief[i]);
		else if (g->w >= 74 || i == a->cur)
			snprintf(b, sizeof(b), " %d %s", key, brief[i]);
		else
			snprintf(b, sizeof(b), " %d", key);
		x += tt_grid_put(g, x, 0, i == a->cur ? TT_ROLE_TITLE_FOCUS : TT_ROLE_TITLE, b, -1);
	}
}

static void draw_status(struct tt_app *a, struct tt_grid *g, struct tt_pane *p)
{
	int y = g->h - 1;
	tt_grid_fill(g, 0, y, g->w, ' ', TT_ROLE_STATUS);
	if (a->prompt) {
		const char *what = a->prompt == TT_ACT_FILTER ? "filter: " : "ranks (e.g. 0,2,4-7 or all): ";
		int x = tt_grid_put(g, 0, y, TT_ROLE_STATUS, what, -1);
		x += tt_grid_put(g, x, y, TT_ROLE_STATUS, a->input, -1);
		tt_grid_put(g, x, y, TT_ROLE_CURSOR, " ", 1);
		return;
	}
	char right[160];
	char ranks[64] = "all ranks";
	if (a->nranks == 1)
		snprintf(ranks, sizeof(ranks), "rank %lld", (long long)a->ranks[0]);
	else if (a->nranks > 1)
		snprintf(ranks, sizeof(ranks), "%zu ranks", a->nranks);
	if (p->table && p->nrows)
		snprintf(right, sizeof(right), " %zu/%zu  %s  ?:help q:quit ", p->cursor + 1, p->nrows,
			 ranks);
	else
		snprintf(right, sizeof(right), " %s  ?:help q:quit ", ranks);
	int rw = (int)tt_utf8_width(right);
	const char *left = a->status[0] ? a->status : a->label;
	char fit[700]; /* cut with an ellipsis, not in the middle of a word */
	tt_utf8_fit(fit, sizeof(fit), left, (size_t)TT_MAX(0, g->w - rw - 2));
	tt_grid_put(g, 1, y, a->status[0] ? (enum tt_role)a->status_role : TT_ROLE_STATUS, fit,
		    g->w - rw - 2);
	if (a->status[0] && a->status_role == TT_ROLE_DEFAULT)
		tt_grid_paint(g, 1, y, g->w - rw - 2, TT_ROLE_STATUS);
	tt_grid_put(g, g->w - rw, y, TT_ROLE_STATUS, right, rw);
}

void tt_app_draw(struct tt_app *a, struct tt_grid *g)
{
	int64_t t0 = tt_now_ns();
	tt_grid_clear(g);
	a->w = g->w;
	a->h = g->h;
	if (g->w < TT_UI_MIN_W || g->h < TT_UI_MIN_H) {
		char msg[120];
		snprintf(msg, sizeof(msg), "terminal too small (%dx%d): tracetop needs %dx%d", g->w,
			 g->h, TT_UI_MIN_W, TT_UI_MIN_H);
		/* wrap onto as many rows as there are */
		int len = (int)strlen(msg);
		for (int y = 0, off = 0; y < g->h && off < len; y++, off += g->w)
			tt_grid_put(g, 0, y, TT_ROLE_WARNING, msg + off, g->w);
		return;
	}
	struct tt_pane *p = tt_app_pane(a);
	draw_title(a, g);
	/* subtitle: where we are */
	int y = 1;
	char sub[400];
	const char *title = a->depth ? a->stack[0]->ops->title : tt_top_panes[a->cur]->title;
	(void)title;
	int k = snprintf(sub, sizeof(sub), "%s", tt_top_panes[a->cur]->title);
	for (int i = 0; i < a->depth && k < (int)sizeof(sub) - 4; i++)
		k += snprintf(sub + k, sizeof(sub) - (size_t)k, " > %s",
			      a->stack[i]->subtitle[0] ? a->stack[i]->subtitle : a->stack[i]->ops->title);
	if (!a->depth && p->subtitle[0])
		snprintf(sub + k, sizeof(sub) - (size_t)k, ": %s", p->subtitle);
	if (p->filter[0]) {
		k = (int)strlen(sub);
		snprintf(sub + k, sizeof(sub) - (size_t)k, "   filter: %s", p->filter);
	}
	tt_grid_put(g, 1, y++, TT_ROLE_HEADER, sub, g->w - 2);
	int body = g->h - 1 - y;
	/* the lines above the table wrap when the table keeps enough rows */
	int want = 0;
	for (size_t i = 0; i < p->nhead; i++)
		want += put_wrapped(NULL, 1, 0, 0, p->head[i].text, g->w - 2, 1000);
	int need = p->table ? (int)p->nrows + 1 : 2;
	bool wrap = body - want >= TT_MIN(need, TT_MAX(body / 2, 4));
	for (size_t i = 0; i < p->nhead && body > 3; i++) {
		int n = 1;
		if (wrap)
			n = put_wrapped(g, 1, y, (enum tt_role)p->head[i].role, p->head[i].text,
					g->w - 2, body - 3);
		else
			tt_grid_put(g, 1, y, (enum tt_role)p->head[i].role, p->head[i].text, g->w - 2);
		y += n;
		body -= n;
	}
	if (p->ops->draw) {
		p->ops->draw(p, g, y, body);
	} else if (p->table && p->nrows) {
		int rows = body - 1;
		p->page = rows;
		if (p->cursor >= p->nrows)
			p->cursor = p->nrows - 1;
		if (p->cursor < p->top)
			p->top = p->cursor;
		if (rows > 0 && p->cursor >= p->top + (size_t)rows)
			p->top = p->cursor - (size_t)rows + 1;
		struct tt_table_view v = {p->rows, p->nrows, p->top, p->cursor, true,
					  p->sort_col, p->sort_desc, p->filter[0] ? p->filter : NULL,
					  p->xoff, p->row_role};
		tt_table_draw(p->table, &v, g, y, body);
	} else {
		const char *m = p->msg[0] ? p->msg :
				p->table ? (p->filter[0] ? "no row matches the filter (Esc clears it)" :
							   "no rows") :
					   "nothing to show";
		tt_grid_put(g, 2, y + 1, TT_ROLE_DIM, m, g->w - 4);
	}
	draw_status(a, g, p);
	a->last_draw_ns = tt_now_ns() - t0;
}
