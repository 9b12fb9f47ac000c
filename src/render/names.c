/* Names shortened the way a person reads them: kernel and operator names
 * lose their `void `, their argument list and their template arguments
 * before anything else, then their middle; names that differ keep showing
 * different text (the part that tells them apart). */
#include "config.h"

#include "tracetop/render.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

#define NLEVELS 5 /* the forms of a name, from whole to most shortened */

static const char *ell(void)
{
	return tt_render_ascii() ? "~" : "\xE2\x80\xA6";
}

/* byte length of the code point at s (not at its end) */
static size_t cp_len(const char *s)
{
	return tt_utf8_seqlen(s);
}

/* byte offset of code point index i of s (the end when s is shorter) */
static size_t cp_off(const char *s, size_t i)
{
	size_t b = 0;
	while (i-- && s[b])
		b += cp_len(s + b);
	return b;
}

/* growing string */
struct sbuf {
	char *s;
	size_t n, cap;
};

static void sb_put(struct sbuf *b, const char *s, size_t len)
{
	TT_GROW(b->s, b->cap, b->n + len + 1);
	memcpy(b->s + b->n, s, len);
	b->n += len;
	b->s[b->n] = '\0';
}

static void sb_str(struct sbuf *b, const char *s)
{
	sb_put(b, s, strlen(s));
}

static char *sb_done(struct sbuf *b)
{
	if (!b->s)
		return tt_strdup("");
	return b->s;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == ':';
}

/* s without its trailing argument list: the last top-level "(...)" that
 * ends the name (a C++ "(anonymous namespace)" is part of the name) */
static char *drop_args(const char *s)
{
	size_t len = strlen(s);
	while (len && s[len - 1] == ' ')
		len--;
	if (!len || s[len - 1] != ')')
		return tt_strndup(s, len);
	int depth = 0;
	size_t i = len;
	while (i-- > 0) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			break;
	}
	if (depth != 0 || i == 0 || i == (size_t)-1)
		return tt_strndup(s, len);
	if (strncmp(s + i, "(anonymous namespace)", 21) == 0)
		return tt_strndup(s, len);
	while (i && s[i - 1] == ' ')
		i--;
	return tt_strndup(s, i);
}

/* s with every top-level template argument list "<...>" (after a name)
 * replaced by "<…>" */
static char *fold_templates(const char *s)
{
	struct sbuf b = {0};
	size_t i = 0, len = strlen(s);
	while (i < len) {
		if (s[i] == '<' && i > 0 && ident_char(s[i - 1])) {
			/* the matching '>' (nested lists counted) */
			int depth = 0;
			size_t j = i;
			for (; j < len; j++) {
				if (s[j] == '<')
					depth++;
				else if (s[j] == '>' && j > 0 && s[j - 1] != '-' && --depth == 0)
					break;
			}
			if (j < len && j > i + 1) {
				sb_put(&b, "<", 1);
				sb_str(&b, ell());
				sb_put(&b, ">", 1);
				i = j + 1;
				continue;
			}
		}
		sb_put(&b, s + i, 1);
		i++;
	}
	return sb_done(&b);
}

/* s without a leading return type: "void ", or a template's
 * "std::enable_if<...>::type " */
static const char *drop_return(const char *s)
{
	static const char *const types[] = {"void ", "int ", "float ", "double ", "bool ",
					    "auto ", "unsigned "};
	for (size_t i = 0; i < TT_ARRAY_SIZE(types); i++)
		if (strncmp(s, types[i], strlen(types[i])) == 0 && s[strlen(types[i])])
			return s + strlen(types[i]);
	/* the first top-level space, after "...>::type" */
	int depth = 0;
	for (size_t i = 0; s[i]; i++) {
		if (s[i] == '<' || s[i] == '(')
			depth++;
		else if ((s[i] == '>' || s[i] == ')') && depth > 0)
			depth--;
		else if (s[i] == ' ' && depth == 0) {
			if (i >= 7 && strncmp(s + i - 7, ">::type", 7) == 0 && s[i + 1])
				return s + i + 1;
			break;
		}
	}
	return s;
}

/* s without the namespaces of its name: "(anonymous namespace)::" and the
 * "a::b::" before the name's last part (in the name itself, not inside its
 * template arguments) */
static char *drop_namespaces(const char *s)
{
	struct sbuf b = {0};
	/* the name: up to its first '<' or '(' that is not "(anonymous" */
	size_t end = 0, last = 0;
	while (s[end]) {
		if (strncmp(s + end, "(anonymous namespace)::", 23) == 0) {
			end += 23;
			last = end;
			continue;
		}
		if (s[end] == ' ') {
			last = 0; /* (words, not a C++ name: "a::b: c") */
			break;
		}
		if (s[end] == '<' || s[end] == '(')
			break;
		if (s[end] == ':' && s[end + 1] == ':') {
			end += 2;
			last = end;
			continue;
		}
		end++;
	}
	if (last == end) /* (nothing after the last "::") */
		last = 0;
	sb_str(&b, s + last);
	return sb_done(&b);
}

/* the forms of s: whole, without its return type, without arguments,
 * templates folded, namespaces dropped */
static void forms(const char *s, char *f[NLEVELS])
{
	f[0] = tt_strdup(s);
	f[1] = tt_strdup(drop_return(s));
	f[2] = drop_args(f[1]);
	f[3] = fold_templates(f[2]);
	f[4] = drop_namespaces(f[3]);
}

static void forms_free(char *f[NLEVELS])
{
	for (int i = 0; i < NLEVELS; i++)
		free(f[i]);
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* may a name be cut right after byte c (its head ends there) or right
 * before it (its tail starts there)? */
static bool word_sep(char c)
{
	return c == '_' || c == ':' || c == ' ' || c == '<' || c == '>' || c == ',' || c == '(' ||
	       c == ')' || c == '.' || c == '/' || c == '-' || c == '#';
}

/* s cut in the middle to cols columns: its head, an ellipsis, its tail;
 * never inside a number, and at a word's edge when one is near */
static char *elide_middle(const char *s, size_t cols)
{
	size_t w = tt_utf8_width(s);
	if (w <= cols)
		return tt_strdup(s);
	struct sbuf b = {0};
	if (cols == 0)
		return sb_done(&b);
	size_t keep = cols - 1, head = (keep + 1) / 2, tail = keep - head;
	/* code points: [0, head) and [w - tail, w) (names are mostly one
	 * column per code point; the widths are counted again below) */
	size_t h = head, t0 = w - tail;
	/* the head ends at a word's edge when one is within 3 */
	for (size_t k = 0; k < 3 && h > 2 + k; k++) {
		const char *p = s + cp_off(s, h - k);
		if (word_sep(p[-1]) || word_sep(*p)) {
			t0 -= k; /* (the tail gets what the head gave up) */
			h -= k;
			break;
		}
	}
	/* the tail starts at one when one is within 3 */
	for (size_t k = 0; k < 3 && t0 + k + 2 < w; k++) {
		const char *p = s + cp_off(s, t0 + k);
		if (word_sep(p[-1]) || word_sep(*p)) {
			t0 += k;
			break;
		}
	}
	/* never inside a number: the head without the digits it would cut,
	 * the tail from the end of the number it would start in */
	while (h > 0 && is_digit(*(s + cp_off(s, h))) && is_digit(*(s + cp_off(s, h - 1))))
		h--;
	while (t0 < w && t0 > h && is_digit(*(s + cp_off(s, t0))) &&
	       is_digit(*(s + cp_off(s, t0 - 1))))
		t0++;
	if (t0 < h)
		t0 = h;
	sb_put(&b, s, cp_off(s, h));
	sb_str(&b, ell());
	sb_str(&b, s + cp_off(s, t0));
	/* (wide characters: cut further from the middle until it fits) */
	while (tt_utf8_width(b.s) > cols && b.n > 0) {
		free(b.s);
		memset(&b, 0, sizeof(b));
		if (h > 0)
			h--;
		else if (t0 < w)
			t0++;
		else
			break;
		sb_put(&b, s, cp_off(s, h));
		sb_str(&b, ell());
		sb_str(&b, s + cp_off(s, t0));
	}
	return sb_done(&b);
}

bool tt_text_is_prose(const char *s)
{
	int depth = 0, spaces = 0;
	for (; *s; s++) {
		if (*s == '(' || *s == '<')
			depth++;
		else if ((*s == ')' || *s == '>') && depth > 0)
			depth--;
		else if (*s == ' ' && depth == 0)
			spaces++;
	}
	return spaces >= 4;
}

/* prose cut at a word to cols columns, with an ellipsis */
static char *cut_words(const char *s, size_t cols)
{
	if (tt_utf8_width(s) <= cols)
		return tt_strdup(s);
	struct sbuf b = {0};
	if (!cols)
		return sb_done(&b);
	size_t end = cp_off(s, cols - 1), sp = end;
	while (sp > 0 && s[sp] != ' ')
		sp--;
	if (sp > end / 2)
		end = sp; /* (a word that long is cut inside) */
	while (end > 0 && s[end - 1] == ' ')
		end--;
	sb_put(&b, s, end);
	sb_str(&b, ell());
	return sb_done(&b);
}

size_t tt_name_fit(char *buf, size_t n, const char *s, size_t cols)
{
	if (!n)
		return 0;
	char *f[NLEVELS];
	if (tt_text_is_prose(s)) {
		for (int k = 0; k < NLEVELS; k++)
			f[k] = NULL;
	} else {
		forms(s, f);
	}
	char *out = f[0] ? NULL : cut_words(s, cols);
	for (int k = 0; k < NLEVELS && !out; k++)
		if (tt_utf8_width(f[k]) <= cols)
			out = tt_strdup(f[k]);
	if (!out)
		out = elide_middle(f[NLEVELS - 1], cols);
	forms_free(f);
	/* (a buffer too small keeps whole code points) */
	size_t len = strlen(out);
	if (len >= n) {
		len = 0;
		while (out[len] && len + cp_len(out + len) < n)
			len += cp_len(out + len);
	}
	memcpy(buf, out, len);
	buf[len] = '\0';
	free(out);
	return len;
}

/* index of the first code point where a and b differ; SIZE_MAX if equal */
static size_t first_diff(const char *a, const char *b)
{
	size_t i = 0, c = 0;
	for (;;) {
		size_t la = a[i] ? cp_len(a + i) : 0, lb = b[i] ? cp_len(b + i) : 0;
		if (!la && !lb)
			return SIZE_MAX;
		if (la != lb || memcmp(a + i, b + i, la) != 0)
			return c;
		i += la;
		c++;
	}
}

static bool sep_char(const char *s)
{
	return !ident_char(*s) || *s == ':';
}

/* s shown so that its code point d shows: a head (the name up to its first
 * '<' or '(', when short), an ellipsis, a window around d, and an ellipsis
 * (and the closing '>') when the window ends before s does */
static char *show_at(const char *s, size_t d, size_t cols)
{
	size_t w = tt_utf8_width(s);
	if (w <= cols)
		return tt_strdup(s);
	if (cols < 8 || d + 1 < cols)
		return elide_middle(s, cols); /* (d is in the head anyway) */
	struct sbuf b = {0};
	/* the head: the name's last part (after its namespaces) up to its
	 * first '<' or '(' (code points [hs, he)); its first third when long */
	size_t hs = 0, he = 0;
	for (size_t i = 0, c = 0; s[i]; i += cp_len(s + i), c++) {
		if (strncmp(s + i, "(anonymous namespace)", 21) == 0) {
			i += 20;
			c += 20;
			continue;
		}
		if (s[i] == ':' && s[i + 1] == ':') {
			hs = c + 2;
			continue;
		}
		if (s[i] == '<' || s[i] == '(' || s[i] == ' ') {
			he = c + 1;
			break;
		}
	}
	if (!he || he - hs > cols / 2 || d < he) {
		hs = 0;
		he = cols / 3;
	}
	size_t hw = he - hs;
	/* the window: from a little before d (the start of its word), to fill */
	bool close = s[strlen(s) - 1] == '>';
	size_t room = cols - hw - 1; /* after the head and its ellipsis */
	size_t start = d;
	for (size_t back = 0; start > he && back < 12; back++, start--)
		if (sep_char(s + cp_off(s, start - 1)))
			break;
	size_t tailw = w - start; /* the rest from the window's start */
	size_t h0 = cp_off(s, hs), h1 = cp_off(s, he);
	if (tailw <= room) {
		/* the window reaches the end */
		start = TT_MAX(w - room, he);
		sb_put(&b, s + h0, h1 - h0);
		sb_str(&b, ell());
		sb_str(&b, s + cp_off(s, start));
		return sb_done(&b);
	}
	size_t endw = close ? 2 : 1; /* "…>" or "…" */
	size_t win = room - endw;
	if (start + win <= d) /* keep d inside */
		start = d + 1 - win;
	sb_put(&b, s + h0, h1 - h0);
	sb_str(&b, ell());
	size_t a = cp_off(s, start), z = cp_off(s, start + win);
	sb_put(&b, s + a, z - a);
	sb_str(&b, ell());
	if (close)
		sb_put(&b, ">", 1);
	return sb_done(&b);
}

struct nent {
	const char *name;
	char *out;
	size_t idx;
};

static int by_out(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct nent *x = a, *y = b;
	int r = strcmp(x->out, y->out);
	if (r)
		return r;
	r = strcmp(x->name, y->name);
	return r ? r : (x->idx < y->idx ? -1 : x->idx > y->idx);
}

static int by_idx(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct nent *x = a, *y = b;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* the words of s: runs of letters and digits */
struct toks {
	const char **s; /* into the string */
	size_t *len;
	size_t n;
};

static bool tok_char(char c)
{
	return ident_char(c) && c != ':' && c != '_';
}

static void toks_of(const char *s, struct toks *t)
{
	size_t cap = 0, cap2 = 0;
	memset(t, 0, sizeof(*t));
	for (size_t i = 0; s[i];) {
		if (!tok_char(s[i])) {
			i++;
			continue;
		}
		size_t j = i;
		while (s[j] && tok_char(s[j]))
			j++;
		TT_GROW(t->s, cap, t->n + 1);
		TT_GROW(t->len, cap2, t->n + 1);
		t->s[t->n] = s + i;
		t->len[t->n++] = j - i;
		i = j;
	}
}

static bool has_letter(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if ((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z'))
			return true;
	return false;
}

static bool toks_has(const struct toks *t, const char *s, size_t len)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->len[i] == len && memcmp(t->s[i], s, len) == 0)
			return true;
	return false;
}

/* the head of a name shown before what tells it apart: the most shortened
 * form up to its first '<' or '(', cut when it would take more than half */
static void head_of(struct sbuf *b, const char *f, size_t cols)
{
	size_t c = 0, i = 0;
	for (; f[i]; i += cp_len(f + i), c++) {
		if (strncmp(f + i, "(anonymous namespace)", 21) == 0) {
			/* (a part of the name, not its argument list) */
			i += 20;
			c += 20;
			continue;
		}
		if (f[i] == '<' || f[i] == '(') {
			i++;
			c++;
			break;
		}
	}
	if (c > cols / 2) {
		c = cols / 3;
		i = cp_off(f, c);
	}
	sb_put(b, f, i);
}

/* Give the members [lo, hi) of a group with one text but several names the
 * text that tells them apart.  Round 0: the head of the name, then for each
 * other name of the group the first word of this name that the other lacks
 * ("elementwise_kernel<…DivFunctor…float…>"); round 1: a window around
 * where the name differs from all the others. */
static void separate(struct nent *e, size_t lo, size_t hi, size_t cols, int round)
{
	size_t n = hi - lo;
	char *(*f)[NLEVELS] = tt_calloc(n, sizeof(*f));
	for (size_t i = 0; i < n; i++)
		forms(e[lo + i].name, f[i]);
	/* the most shortened form in which the group's names all differ */
	int lvl = NLEVELS - 1;
	for (; lvl > 0; lvl--) {
		bool ok = true;
		for (size_t i = 0; i < n && ok; i++)
			for (size_t j = i + 1; j < n && ok; j++)
				if (strcmp(e[lo + i].name, e[lo + j].name) != 0 &&
				    strcmp(f[i][lvl], f[j][lvl]) == 0)
					ok = false;
		if (ok)
			break;
	}
	struct toks *tk = NULL;
	if (round == 0) {
		tk = tt_calloc(n, sizeof(*tk));
		for (size_t i = 0; i < n; i++)
			toks_of(f[i][lvl], &tk[i]);
	}
	for (size_t i = 0; i < n; i++) {
		char *out = NULL;
		if (round == 0) {
			/* the words that tell it apart, in its own order */
			bool *pick = tt_calloc(tk[i].n + 1, sizeof(*pick));
			bool ok = true;
			for (size_t j = 0; j < n && ok; j++) {
				if (strcmp(e[lo + i].name, e[lo + j].name) == 0)
					continue;
				/* the first word the other lacks, one with a letter
				 * when there is one (a name reads better than a
				 * number: "plus" rather than "2") */
				size_t k = tk[i].n;
				for (int pass = 0; pass < 2 && k == tk[i].n; pass++)
					for (k = 0; k < tk[i].n; k++)
						if (!toks_has(&tk[j], tk[i].s[k], tk[i].len[k]) &&
						    (pass || (has_letter(tk[i].s[k], tk[i].len[k]) &&
							      tk[i].len[k] <= cols / 3)))
							break;
				if (k == tk[i].n)
					ok = false; /* (its words are all in the other's) */
				else
					pick[k] = true;
			}
			if (ok) {
				struct sbuf words = {0};
				for (size_t k = 0; k < tk[i].n; k++)
					if (pick[k] && !toks_has(&(struct toks){tk[i].s, tk[i].len, k},
								 tk[i].s[k], tk[i].len[k])) {
						if (words.n)
							sb_str(&words, ell());
						sb_put(&words, tk[i].s[k], tk[i].len[k]);
					}
				/* the words first, the head gets the rest (at least a third) */
				bool close = f[i][lvl][strlen(f[i][lvl]) - 1] == '>';
				size_t endw = close ? 2 : 1;
				/* the head with its namespaces when all fits, else without */
				size_t ww = tt_utf8_width(words.s ? words.s : "");
				struct sbuf hb = {0};
				head_of(&hb, f[i][NLEVELS - 2], 4096);
				if (tt_utf8_width(hb.s ? hb.s : "") + 1 + ww + endw > cols) {
					free(hb.s);
					memset(&hb, 0, sizeof(hb));
					head_of(&hb, f[i][NLEVELS - 1], 4096);
				}
				const char *hs = hb.s ? hb.s : "";
				size_t hw = tt_utf8_width(hs);
				size_t hmin = TT_MIN(hw, cols / 3);
				if (hmin + 1 + endw + 1 <= cols) {
					size_t wroom = cols - hmin - 1 - endw;
					char *w = elide_middle(words.s ? words.s : "", wroom);
					size_t hroom = cols - 1 - endw - TT_MIN(ww, wroom);
					struct sbuf b = {0};
					sb_put(&b, hs, cp_off(hs, TT_MIN(hw, hroom)));
					sb_str(&b, ell());
					sb_str(&b, w);
					sb_str(&b, ell());
					if (close)
						sb_put(&b, ">", 1);
					free(w);
					out = sb_done(&b);
				}
				free(hb.s);
				free(words.s);
			}
			free(pick);
		}
		if (!out) {
			/* where it differs from every other name of the group */
			size_t d = 0;
			for (size_t j = 0; j < n; j++) {
				if (strcmp(e[lo + i].name, e[lo + j].name) == 0)
					continue;
				size_t fd = first_diff(f[i][lvl], f[j][lvl]);
				if (fd != SIZE_MAX && fd > d)
					d = fd;
			}
			out = show_at(f[i][lvl], d, cols);
		}
		free(e[lo + i].out);
		e[lo + i].out = out;
	}
	if (tk) {
		for (size_t i = 0; i < n; i++) {
			free(tk[i].s);
			free(tk[i].len);
		}
		free(tk);
	}
	for (size_t i = 0; i < n; i++)
		forms_free(f[i]);
	free(f);
}

#define SEP_MAX 64 /* members of a group that separate() takes */

char **tt_names_fit(const char *const *names, size_t n, size_t cols)
{
	char **out = tt_calloc(n + 1, sizeof(*out));
	if (!n)
		return out;
	struct nent *e = tt_calloc(n, sizeof(*e));
	char buf[4096];
	for (size_t i = 0; i < n; i++) {
		e[i].name = names[i] ? names[i] : "";
		e[i].idx = i;
		if (tt_utf8_width(e[i].name) <= cols) {
			e[i].out = tt_strdup(e[i].name);
		} else {
			tt_name_fit(buf, sizeof(buf), e[i].name, cols);
			e[i].out = tt_strdup(buf);
		}
	}
	/* rounds: group equal texts; a group of different names is separated,
	 * and what still collides is numbered */
	for (int round = 0; round < 5; round++) {
		tt_msort(e, n, sizeof(*e), by_out, NULL);
		bool again = false;
		for (size_t lo = 0; lo < n;) {
			size_t hi = lo + 1;
			bool mixed = false;
			while (hi < n && strcmp(e[hi].out, e[lo].out) == 0) {
				if (strcmp(e[hi].name, e[lo].name) != 0)
					mixed = true;
				hi++;
			}
			if (mixed) {
				again = true;
				/* separate() compares the members pair by pair: a
				 * group of more than SEP_MAX (thousands of names
				 * shortened alike) is numbered at once, so the work
				 * stays within SEP_MAX comparisons per name */
				if (round < 4 && hi - lo <= SEP_MAX) {
					separate(e, lo, hi, cols, round < 2 ? 0 : 1);
				} else {
					/* last resort: a number after the text, per name */
					size_t k = 0;
					for (size_t i = lo; i < hi; i++) {
						if (i > lo && strcmp(e[i].name, e[i - 1].name) != 0)
							k++;
						if (!k)
							continue;
						char num[24];
						int nl = snprintf(num, sizeof(num), "#%zu", k + 1);
						char *cut = elide_middle(e[i].out, cols > (size_t)nl ?
									     cols - (size_t)nl : 0);
						struct sbuf b = {0};
						sb_str(&b, cut);
						sb_str(&b, num);
						free(cut);
						free(e[i].out);
						e[i].out = sb_done(&b);
					}
				}
			}
			lo = hi;
		}
		if (!again)
			break;
	}
	tt_msort(e, n, sizeof(*e), by_idx, NULL);
	for (size_t i = 0; i < n; i++)
		out[i] = e[i].out;
	free(e);
	return out;
}

void tt_names_free(char **v, size_t n)
{
	if (!v)
		return;
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
