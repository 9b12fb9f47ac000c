/* Two tables of the same shape side by side: a's value, b's value and the
 * difference for each chosen column, rows joined on their key columns
 * (render.h, tt_table_diff). */
#include "config.h"

#include "tracetop/render.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

/* a string that lives as long as the table */
static const char *tstr(struct tt_table *t, const char *fmt, ...) TT_PRINTF(2, 3);
static const char *tstr(struct tt_table *t, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	size_t n = strlen(buf);
	char *s = tt_arena_alloc(&t->strs, n + 1);
	memcpy(s, buf, n + 1);
	return s;
}

/* the text of one key cell: its string, integer or real */
static const char *key_text(const struct tt_table *t, size_t r, int c, char *buf, size_t n)
{
	const struct tt_cell *x = tt_table_cell(t, r, c);
	if (x->kind == TT_CV_S)
		return x->v.s;
	if (x->kind == TT_CV_I)
		snprintf(buf, n, "%lld", (long long)x->v.i);
	else if (x->kind == TT_CV_D)
		snprintf(buf, n, "%.17g", x->v.d);
	else if (n)
		buf[0] = '\0';
	return buf;
}

/* The key of row r of t (side 0: a, 1: b) as one string: each key cell's
 * text, side b's in a's terms through o->map_key. */
static char *row_key(const struct tt_table *t, size_t r, int side,
		     const struct tt_table_diff_opts *o)
{
	size_t cap = 64, n = 0;
	char *k = tt_malloc(cap);
	k[0] = '\0';
	for (int c = 0; c < o->nkeys && c < t->ncols; c++) {
		char buf[256];
		const char *s = NULL;
		if (side && o->map_key)
			s = o->map_key(o->ctx, t, r, c, buf, sizeof(buf));
		if (!s)
			s = key_text(t, r, c, buf, sizeof(buf));
		size_t l = strlen(s);
		if (n + l + 2 > cap) {
			cap = 2 * (n + l + 2);
			k = tt_realloc_array(k, cap, 1);
		}
		memcpy(k + n, s, l);
		n += l;
		k[n++] = '\x1f';
		k[n] = '\0';
	}
	return k;
}

/* "ta | tb", the head they share said once ("queue, stream 20 | 14"): up
 * to the last space or punctuation before they differ */
static void pair_text(const char *ta, const char *tb, char *buf, size_t n)
{
	size_t i = 0, cut = 0;
	for (; ta[i] && ta[i] == tb[i]; i++)
		if (ta[i] == ' ' || ta[i] == ',' || ta[i] == ':' || ta[i] == '/')
			cut = i + 1;
	snprintf(buf, n, "%s | %s", ta, tb + cut);
}

struct keyed {
	const char *key;
	size_t row;
};

static int keyed_cmp(const void *x, const void *y, void *ctx)
{
	const struct keyed *a = x, *b = y;
	(void)ctx;
	int r = strcmp(a->key, b->key);
	return r ? r : (a->row < b->row ? -1 : a->row > b->row);
}

static bool additive(enum tt_ctype t)
{
	return t == TT_C_DUR || t == TT_C_INT;
}

/* the cell of a side, copied into t (nothing when row is SIZE_MAX) */
static void put_cell(struct tt_table *t, size_t k, int col, const struct tt_table *s, size_t row,
		     int sc)
{
	if (row == SIZE_MAX)
		return;
	const struct tt_cell *x = tt_table_cell(s, row, sc);
	if (x->kind == TT_CV_S)
		tt_table_set_str(t, k, col, x->v.s);
	else if (x->kind == TT_CV_I)
		tt_table_set_int(t, k, col, x->v.i);
	else if (x->kind == TT_CV_D)
		tt_table_set_num(t, k, col, x->v.d);
}

struct tt_table *tt_table_diff(const struct tt_table *a, const struct tt_table *b,
			       const struct tt_table_diff_opts *o)
{
	const char *la = o->la ? o->la : "Control", *lb = o->lb ? o->lb : "Test";
	int nk = TT_MIN(o->nkeys, a->ncols);
	int nval = 0; /* output columns of the values */
	for (int i = 0; i < o->ncols; i++)
		if (o->cols[i] >= nk && o->cols[i] < a->ncols && o->cols[i] < b->ncols)
			nval += a->cols[o->cols[i]].type == TT_C_STR ? 2 : 3;
	/* keys, b's keys (hidden), per value: a, b, Δ (not of text); the bar;
	 * |Δ|; the rows */
	int ncols = 2 * nk + nval + 4;
	int nv;
	struct tt_col *cols = tt_calloc((size_t)ncols, sizeof(*cols));
	struct tt_table *t = tt_table_new(a->name, cols, ncols);
	free(cols);
	/* short side names in the titles of the other columns: "C", "T" */
	char sa[2] = {la[0], 0}, sb[2] = {lb[0], 0};
	bool initials = sa[0] && sb[0] && sa[0] != sb[0];
	int c = 0;
	for (int i = 0; i < nk; i++)
		t->cols[c++] = a->cols[i];
	for (int i = 0; i < nk; i++) {
		struct tt_col *x = &t->cols[c++];
		*x = a->cols[i];
		x->name = tstr(t, "%s_%s", lb, a->cols[i].name);
		x->hidden_text = true;
	}
	int first_value = c;
	int vcol[64], vat[64]; /* source column, first output column of each value */
	int bar = -1;
	nv = 0;
	for (int i = 0; i < o->ncols && nv < 64; i++) {
		int sc = o->cols[i];
		if (sc < nk || sc >= a->ncols || sc >= b->ncols)
			continue;
		vcol[nv] = sc;
		vat[nv] = c;
		nv++;
		const struct tt_col *src = &a->cols[sc];
		const char *title = src->title ? src->title : src->name;
		for (int s = 0; s < (src->type == TT_C_STR ? 2 : 3); s++) {
			struct tt_col *x = &t->cols[c++];
			*x = *src;
			x->hidden_csv = false;
			/* Control, Test and Δ in one unit, their largest value's */
			x->unit_group = nv;
			x->name = s == 0 ? tstr(t, "%s_%s", la, src->name) :
				  s == 1 ? tstr(t, "%s_%s", lb, src->name) :
					   tstr(t, "diff_%s", src->name);
			if (nv == 1)
				/* the primary value: the sides' names */
				x->title = s == 0 ? la : s == 1 ? lb : "Δ";
			else if (s == 2)
				x->title = tstr(t, "Δ %s", title);
			else
				x->title = tstr(t, "%s %s", initials ? (s ? sb : sa) : (s ? lb : la),
						title);
		}
		if (nv == 1) {
			/* the primary difference's bar, beside it */
			bar = c++;
			t->cols[bar] = (struct tt_col){.name = "bar", .title = "Δ", .type = TT_C_BAR,
						       .bar_of = c - 2, .signed_bar = true};
			t->cols[bar].role[0] = o->more_role;
			t->cols[bar].role[1] = o->less_role;
		}
	}
	if (bar < 0) {
		bar = c++;
		t->cols[bar] = (struct tt_col){.name = "bar", .type = TT_C_NUM, .hidden_text = true,
					       .hidden_csv = true};
	}
	int absc = c++, arow = c++, brow = c++;
	(void)first_value;
	t->cols[absc] = (struct tt_col){.name = "abs_diff", .type = nv ? a->cols[vcol[0]].type :
									 TT_C_NUM,
					.hidden_text = true, .hidden_csv = true};
	t->cols[arow] = (struct tt_col){.name = "row_a", .type = TT_C_INT, .hidden_text = true,
					.hidden_csv = true};
	t->cols[brow] = (struct tt_col){.name = "row_b", .type = TT_C_INT, .hidden_text = true,
					.hidden_csv = true};
	if (a->title)
		t->title = tt_strdup(a->title);
	t->nkeys = nk; /* (a key column may turn to text: "3 | 1") */
	/* b's rows by key */
	struct keyed *kb = tt_malloc((b->nrows + 1) * sizeof(*kb));
	for (size_t r = 0; r < b->nrows; r++)
		kb[r] = (struct keyed){row_key(b, r, 1, o), r};
	tt_msort(kb, b->nrows, sizeof(*kb), keyed_cmp, NULL);
	bool *used = tt_calloc(b->nrows + 1, sizeof(*used));
	size_t npairs = a->nrows + b->nrows;
	size_t(*pair)[2] = tt_malloc((npairs + 1) * sizeof(*pair));
	size_t np = 0;
	for (size_t r = 0; r < a->nrows; r++) {
		char *k = row_key(a, r, 0, o);
		/* the first unused b row with this key */
		size_t lo = 0, hi = b->nrows;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (strcmp(kb[mid].key, k) < 0)
				lo = mid + 1;
			else
				hi = mid;
		}
		size_t br = SIZE_MAX;
		for (; lo < b->nrows && strcmp(kb[lo].key, k) == 0; lo++)
			if (!used[lo]) {
				used[lo] = true;
				br = kb[lo].row;
				break;
			}
		free(k);
		pair[np][0] = r;
		pair[np][1] = br;
		np++;
	}
	/* rows only in b, in b's order */
	bool *bseen = tt_calloc(b->nrows + 1, sizeof(*bseen));
	for (size_t i = 0; i < b->nrows; i++)
		if (used[i])
			bseen[kb[i].row] = true;
	for (size_t r = 0; r < b->nrows; r++)
		if (!bseen[r]) {
			pair[np][0] = SIZE_MAX;
			pair[np][1] = r;
			np++;
		}
	for (size_t i = 0; i < b->nrows; i++)
		free((char *)kb[i].key);
	free(kb);
	free(used);
	free(bseen);
	for (size_t i = 0; i < np; i++) {
		size_t ra = pair[i][0], rb = pair[i][1];
		size_t k = tt_table_add_row(t);
		for (int j = 0; j < nk; j++) {
			put_cell(t, k, j, ra != SIZE_MAX ? a : b, ra != SIZE_MAX ? ra : rb, j);
			put_cell(t, k, nk + j, b, rb, j);
			if (ra == SIZE_MAX || rb == SIZE_MAX)
				continue;
			/* a row of both sides whose keys differ says both: "3 | 1" */
			char xa[256], xb[256], buf[600];
			const char *ta = key_text(a, ra, j, xa, sizeof(xa));
			const char *tb = key_text(b, rb, j, xb, sizeof(xb));
			const char *shown = o->pair_text ? o->pair_text(o->ctx, a, ra, b, rb, j, ta, tb,
									buf, sizeof(buf)) :
							   NULL;
			if (!shown && strcmp(ta, tb) != 0) {
				pair_text(ta, tb, buf, sizeof(buf));
				shown = buf;
			}
			if (shown) {
				tt_table_set_str(t, k, j, shown);
				t->cols[j].type = TT_C_STR; /* (a number in a text column) */
			}
		}
		for (int v = 0; v < nv; v++) {
			int sc = vcol[v], col = vat[v];
			put_cell(t, k, col, a, ra, sc);
			put_cell(t, k, col + 1, b, rb, sc);
			const struct tt_cell *x = ra != SIZE_MAX ? tt_table_cell(a, ra, sc) : NULL;
			const struct tt_cell *y = rb != SIZE_MAX ? tt_table_cell(b, rb, sc) : NULL;
			if (a->cols[sc].type == TT_C_STR)
				continue;
			bool add = additive(a->cols[sc].type);
			/* something only on one side: the other had none of it
			 * (a time or a count); a share or a mean is not there */
			bool hx = x && x->kind != TT_CV_NONE && x->kind != TT_CV_S;
			bool hy = y && y->kind != TT_CV_NONE && y->kind != TT_CV_S;
			if (!(hx && hy) && !(add && (hx || hy)))
				continue;
			if ((!hx || x->kind == TT_CV_I) && (!hy || y->kind == TT_CV_I)) {
				int64_t d = (hy ? y->v.i : 0) - (hx ? x->v.i : 0);
				tt_table_set_int(t, k, col + 2, d);
				if (v == 0)
					tt_table_set_int(t, k, absc, d < 0 ? -d : d);
			} else {
				double d = (hy ? tt_cell_num(y) : 0) - (hx ? tt_cell_num(x) : 0);
				tt_table_set_num(t, k, col + 2, d);
				if (v == 0)
					tt_table_set_num(t, k, absc, fabs(d));
			}
		}
		tt_table_set_int(t, k, arow, ra == SIZE_MAX ? -1 : (int64_t)ra);
		tt_table_set_int(t, k, brow, rb == SIZE_MAX ? -1 : (int64_t)rb);
	}
	free(pair);
	return t;
}
