/* Regular expressions in bounded time: see tracetop/regex.h.
 *
 * The pattern is parsed into a tree, the tree compiled into a program of
 * instructions (a Thompson NFA), and a search runs every thread of the
 * program in step over the text, one character at a time (Pike's VM): a
 * thread that reaches an instruction another one holds at the same
 * position is dropped, so at most one thread per instruction lives at each
 * character, and a search costs at most (characters) x (instructions). */
#include "config.h"

#include "tracetop/regex.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wctype.h>

#include "tracetop/utf8.h"
#include "tracetop/util.h"

#define MAX_PATTERN 4096 /* bytes of a pattern */
#define MAX_DEPTH 64     /* nested groups */
#define MAX_BOUND 255    /* m and n of {m,n} (POSIX's RE_DUP_MAX) */
#define INF (-1)

/* ---- the program ---- */

enum op {
	O_CHAR,   /* a: the code point (folded when icase) */
	O_ANY,    /* any character */
	O_CLASS,  /* a: the class */
	O_SPLIT,  /* go on at a and at b */
	O_JMP,    /* go on at a */
	O_BOL,    /* at the start of the text */
	O_EOL,    /* at its end */
	O_WORDB,  /* between a word character and another one (\b) */
	O_NWORDB, /* not there (\B) */
	O_WBEG,   /* a word starts (\<) */
	O_WEND,   /* a word ends (\>) */
	O_MATCH,
};

struct inst {
	uint8_t op;
	uint32_t a, b;
};

/* named classes, as bits */
enum {
	C_ALPHA = 1, C_DIGIT = 2, C_ALNUM = 4, C_UPPER = 8, C_LOWER = 16, C_SPACE = 32,
	C_PUNCT = 64, C_XDIGIT = 128, C_BLANK = 256, C_CNTRL = 512, C_PRINT = 1024,
	C_GRAPH = 2048, C_WORD = 4096
};

static const struct {
	const char *name;
	uint32_t bit;
} class_names[] = {
	{"alpha", C_ALPHA}, {"digit", C_DIGIT}, {"alnum", C_ALNUM}, {"upper", C_UPPER},
	{"lower", C_LOWER}, {"space", C_SPACE}, {"punct", C_PUNCT}, {"xdigit", C_XDIGIT},
	{"blank", C_BLANK}, {"cntrl", C_CNTRL}, {"print", C_PRINT}, {"graph", C_GRAPH},
};

struct range {
	uint32_t lo, hi;
};

struct cls {
	bool neg;
	uint32_t named; /* C_* bits */
	uint32_t first, n; /* ranges[first .. first + n) */
};

/* ---- the tree ---- */

enum kind { N_EMPTY, N_CHAR, N_ANY, N_CLASS, N_ASSERT, N_CAT, N_ALT, N_REP };

struct node {
	uint8_t kind;
	uint32_t v;          /* N_CHAR: code point; N_CLASS: class; N_ASSERT: op */
	uint32_t first, n;   /* N_CAT, N_ALT: kids[first .. first + n) */
	uint32_t sub;        /* N_REP: the node repeated */
	int min, max;        /* N_REP: max INF for no bound */
};

struct tt_re {
	bool icase;
	struct inst *prog;
	size_t nprog, capprog;
	struct cls *cls;
	size_t ncls, capcls;
	struct range *ranges;
	size_t nranges, capranges;
	/* search scratch: two thread lists (sparse sets) and a stack */
	uint32_t *dense[2], *sparse[2], *stack;
	size_t nlist[2];
};

struct parser {
	struct tt_re *re;
	const char *p, *end;
	struct node *nodes;
	size_t nnodes, capnodes;
	uint32_t *kids;
	size_t nkids, capkids;
	char *why;
	size_t whyn;
	bool bad;
	size_t cost; /* instructions emitted, and the ranges of their classes */
};

static void fail(struct parser *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void fail(struct parser *ps, const char *fmt, ...)
{
	if (ps->bad)
		return;
	ps->bad = true;
	if (!ps->whyn)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(ps->why, ps->whyn, fmt, ap);
	va_end(ap);
}

static uint32_t node_new(struct parser *ps, uint8_t kind)
{
	TT_GROW(ps->nodes, ps->capnodes, ps->nnodes + 1);
	struct node *n = &ps->nodes[ps->nnodes];
	memset(n, 0, sizeof(*n));
	n->kind = kind;
	return (uint32_t)ps->nnodes++;
}

static uint32_t fold(uint32_t c)
{
	if (c < 128)
		return c >= 'A' && c <= 'Z' ? c + 32 : c;
	return (uint32_t)towlower((wint_t)c);
}

/* the code point at ps->p (an invalid byte is itself, as TT_UTF8_BAD) */
static uint32_t next_cp(struct parser *ps)
{
	uint32_t cp;
	size_t k = tt_utf8_decode(ps->p, (size_t)(ps->end - ps->p), &cp);
	if (!k) {
		cp = TT_UTF8_BAD;
		k = 1;
	}
	ps->p += k;
	return cp;
}

static uint32_t class_new(struct parser *ps, bool neg, uint32_t named)
{
	struct tt_re *re = ps->re;
	TT_GROW(re->cls, re->capcls, re->ncls + 1);
	re->cls[re->ncls] = (struct cls){neg, named, (uint32_t)re->nranges, 0};
	return (uint32_t)re->ncls++;
}

static void class_range(struct parser *ps, uint32_t c, uint32_t lo, uint32_t hi)
{
	struct tt_re *re = ps->re;
	TT_GROW(re->ranges, re->capranges, re->nranges + 1);
	re->ranges[re->nranges++] = (struct range){lo, hi};
	re->cls[c].n++;
}

/* one element of a bracket: a character, [.c.] or [=c=] (a single
 * character); false after an error */
static bool bracket_char(struct parser *ps, uint32_t *cp)
{
	if (ps->end - ps->p >= 2 && ps->p[0] == '[' && (ps->p[1] == '.' || ps->p[1] == '=')) {
		char delim = ps->p[1];
		ps->p += 2;
		if (ps->p >= ps->end) {
			fail(ps, "unmatched [");
			return false;
		}
		*cp = next_cp(ps);
		if (ps->end - ps->p < 2 || ps->p[0] != delim || ps->p[1] != ']') {
			fail(ps, "[%c%c] of more than one character is not supported", delim, delim);
			return false;
		}
		ps->p += 2;
		return true;
	}
	*cp = next_cp(ps);
	return true;
}

/* after '[' */
static uint32_t parse_bracket(struct parser *ps)
{
	bool neg = false;
	if (ps->p < ps->end && *ps->p == '^') {
		neg = true;
		ps->p++;
	}
	uint32_t c = class_new(ps, neg, 0);
	bool first = true;
	for (;;) {
		if (ps->p >= ps->end) {
			fail(ps, "unmatched [");
			return c;
		}
		if (*ps->p == ']' && !first) {
			ps->p++;
			return c;
		}
		first = false;
		if (ps->end - ps->p >= 2 && ps->p[0] == '[' && ps->p[1] == ':') {
			const char *a = ps->p + 2, *e = a;
			while (e + 1 < ps->end && !(e[0] == ':' && e[1] == ']'))
				e++;
			if (e + 1 >= ps->end) {
				fail(ps, "unmatched [:");
				return c;
			}
			size_t len = (size_t)(e - a);
			uint32_t bit = 0;
			for (size_t i = 0; i < TT_ARRAY_SIZE(class_names); i++)
				if (strlen(class_names[i].name) == len &&
				    memcmp(class_names[i].name, a, len) == 0)
					bit = class_names[i].bit;
			if (!bit) {
				fail(ps, "unknown class [:%.*s:]", (int)TT_MIN(len, 20), a);
				return c;
			}
			ps->re->cls[c].named |= bit;
			ps->p = e + 2;
			continue;
		}
		uint32_t lo, hi;
		if (!bracket_char(ps, &lo))
			return c;
		hi = lo;
		if (ps->end - ps->p >= 2 && ps->p[0] == '-' && ps->p[1] != ']') {
			ps->p++;
			if (!bracket_char(ps, &hi))
				return c;
			if (hi < lo) {
				fail(ps, "invalid range in [ ]");
				return c;
			}
		}
		class_range(ps, c, lo, hi);
	}
}

static uint32_t parse_alt(struct parser *ps, int depth);

static uint32_t assert_node(struct parser *ps, uint32_t op)
{
	uint32_t n = node_new(ps, N_ASSERT);
	ps->nodes[n].v = op;
	return n;
}

static uint32_t class_node(struct parser *ps, bool neg, uint32_t named)
{
	uint32_t n = node_new(ps, N_CLASS);
	ps->nodes[n].v = class_new(ps, neg, named);
	return n;
}

/* an atom, or UINT32_MAX when none starts here */
static uint32_t parse_atom(struct parser *ps, int depth)
{
	char c = *ps->p;
	switch (c) {
	case '(': {
		if (depth >= MAX_DEPTH) {
			fail(ps, "groups nested more than %d deep", MAX_DEPTH);
			return UINT32_MAX;
		}
		ps->p++;
		uint32_t n = parse_alt(ps, depth + 1);
		if (ps->bad)
			return n;
		if (ps->p >= ps->end || *ps->p != ')') {
			fail(ps, "unmatched (");
			return n;
		}
		ps->p++;
		return n;
	}
	case '[':
		ps->p++;
		{
			uint32_t n = node_new(ps, N_CLASS);
			uint32_t k = parse_bracket(ps);
			ps->nodes[n].v = k;
			return n;
		}
	case '.':
		ps->p++;
		return node_new(ps, N_ANY);
	case '^':
		ps->p++;
		return assert_node(ps, O_BOL);
	case '$':
		ps->p++;
		return assert_node(ps, O_EOL);
	case '\\': {
		ps->p++;
		if (ps->p >= ps->end) {
			fail(ps, "trailing \\");
			return UINT32_MAX;
		}
		char e = *ps->p;
		if (e >= '1' && e <= '9') {
			fail(ps, "back-references (\\%c) are not supported", e);
			return UINT32_MAX;
		}
		switch (e) {
		case 'w':
		case 'W':
			ps->p++;
			return class_node(ps, e == 'W', C_WORD);
		case 's':
		case 'S':
			ps->p++;
			return class_node(ps, e == 'S', C_SPACE);
		case 'd':
		case 'D':
			ps->p++;
			return class_node(ps, e == 'D', C_DIGIT);
		case 'b':
			ps->p++;
			return assert_node(ps, O_WORDB);
		case 'B':
			ps->p++;
			return assert_node(ps, O_NWORDB);
		case '<':
			ps->p++;
			return assert_node(ps, O_WBEG);
		case '>':
			ps->p++;
			return assert_node(ps, O_WEND);
		default:
			break;
		}
		uint32_t n = node_new(ps, N_CHAR);
		uint32_t cp = next_cp(ps);
		ps->nodes[n].v = cp;
		return n;
	}
	case '*':
	case '+':
	case '?':
		fail(ps, "nothing before %c to repeat", c);
		return UINT32_MAX;
	default: {
		uint32_t n = node_new(ps, N_CHAR);
		uint32_t cp = next_cp(ps);
		ps->nodes[n].v = cp;
		return n;
	}
	}
}

/* {m}, {m,}, {m,n} at ps->p: true with the bounds (and ps->p past it), or
 * false when it is not a valid bound (the { is then a character) */
static bool parse_bound(struct parser *ps, int *min, int *max)
{
	const char *p = ps->p + 1;
	long m = 0, n;
	if (p >= ps->end || *p < '0' || *p > '9')
		return false;
	while (p < ps->end && *p >= '0' && *p <= '9' && m <= MAX_BOUND)
		m = m * 10 + (*p++ - '0');
	n = m;
	if (p < ps->end && *p == ',') {
		p++;
		if (p < ps->end && *p >= '0' && *p <= '9') {
			n = 0;
			while (p < ps->end && *p >= '0' && *p <= '9' && n <= MAX_BOUND)
				n = n * 10 + (*p++ - '0');
		} else {
			n = INF;
		}
	}
	if (p >= ps->end || *p != '}')
		return false;
	if (m > MAX_BOUND || n > MAX_BOUND) {
		fail(ps, "a bound above %d in { }", MAX_BOUND);
		return false;
	}
	if (n != INF && n < m) {
		fail(ps, "invalid bound {%ld,%ld}", m, n);
		return false;
	}
	ps->p = p + 1;
	*min = (int)m;
	*max = (int)n;
	return true;
}

static uint32_t parse_repeat(struct parser *ps, int depth)
{
	uint32_t a = parse_atom(ps, depth);
	while (!ps->bad && ps->p < ps->end) {
		int min, max;
		char c = *ps->p;
		if (c == '*') {
			min = 0;
			max = INF;
			ps->p++;
		} else if (c == '+') {
			min = 1;
			max = INF;
			ps->p++;
		} else if (c == '?') {
			min = 0;
			max = 1;
			ps->p++;
		} else if (c == '{' && parse_bound(ps, &min, &max)) {
			/* (parse_bound moved past it) */
		} else {
			break;
		}
		uint32_t r = node_new(ps, N_REP);
		ps->nodes[r].sub = a;
		ps->nodes[r].min = min;
		ps->nodes[r].max = max;
		a = r;
	}
	return a;
}

/* a list of nodes as an N_CAT or N_ALT: the kids in order */
static uint32_t list_node(struct parser *ps, uint8_t kind, const uint32_t *v, size_t n)
{
	if (n == 1)
		return v[0];
	uint32_t x = node_new(ps, n ? kind : N_EMPTY);
	TT_GROW(ps->kids, ps->capkids, ps->nkids + n);
	if (n) /* (an empty list: v may be NULL) */
		memcpy(ps->kids + ps->nkids, v, n * sizeof(*v));
	ps->nodes[x].first = (uint32_t)ps->nkids;
	ps->nodes[x].n = (uint32_t)n;
	ps->nkids += n;
	return x;
}

static uint32_t parse_cat(struct parser *ps, int depth)
{
	uint32_t *v = NULL;
	size_t n = 0, cap = 0;
	while (!ps->bad && ps->p < ps->end && *ps->p != '|' && *ps->p != ')') {
		uint32_t a = parse_repeat(ps, depth);
		if (ps->bad)
			break;
		TT_GROW(v, cap, n + 1);
		v[n++] = a;
	}
	uint32_t x = list_node(ps, N_CAT, v, n);
	free(v);
	return x;
}

static uint32_t parse_alt(struct parser *ps, int depth)
{
	uint32_t *v = NULL;
	size_t n = 0, cap = 0;
	for (;;) {
		uint32_t a = parse_cat(ps, depth);
		TT_GROW(v, cap, n + 1);
		v[n++] = a;
		if (ps->bad || ps->p >= ps->end || *ps->p != '|')
			break;
		ps->p++;
	}
	uint32_t x = list_node(ps, N_ALT, v, n);
	free(v);
	return x;
}

/* ---- compiling ---- */

static bool emit(struct parser *ps, uint8_t op, uint32_t a, uint32_t b, uint32_t *at)
{
	struct tt_re *re = ps->re;
	/* a class costs its ranges too: a search's work per character stays
	 * within the budget */
	ps->cost += 1 + (op == O_CLASS ? re->cls[a].n : 0);
	if (ps->cost > TT_RE_MAX_PROG) {
		fail(ps, "the expression is too large (more than %d instructions once its "
			 "repetitions are written out)",
		     TT_RE_MAX_PROG);
		return false;
	}
	TT_GROW(re->prog, re->capprog, re->nprog + 1);
	re->prog[re->nprog] = (struct inst){op, a, b};
	if (at)
		*at = (uint32_t)re->nprog;
	re->nprog++;
	return true;
}

/* (depth: the tree's, bounded by MAX_DEPTH groups and the pattern's length) */
static bool compile(struct parser *ps, uint32_t x)
{
	struct tt_re *re = ps->re;
	const struct node *n = &ps->nodes[x];
	switch (n->kind) {
	case N_EMPTY:
		return true;
	case N_CHAR:
		return emit(ps, O_CHAR, re->icase ? fold(n->v) : n->v, 0, NULL);
	case N_ANY:
		return emit(ps, O_ANY, 0, 0, NULL);
	case N_CLASS:
		return emit(ps, O_CLASS, n->v, 0, NULL);
	case N_ASSERT:
		return emit(ps, (uint8_t)n->v, 0, 0, NULL);
	case N_CAT:
		for (uint32_t i = 0; i < n->n; i++)
			if (!compile(ps, ps->kids[n->first + i]))
				return false;
		return true;
	case N_ALT: {
		/* SPLIT L1, next; L1: kid; JMP end; next: SPLIT ... last kid; end: */
		uint32_t *jumps = tt_malloc(n->n * sizeof(*jumps));
		bool ok = true;
		uint32_t nj = 0;
		for (uint32_t i = 0; ok && i < n->n; i++) {
			uint32_t split = 0;
			bool last = i + 1 == n->n;
			if (!last)
				ok = emit(ps, O_SPLIT, 0, 0, &split);
			if (ok && !last)
				re->prog[split].a = split + 1;
			ok = ok && compile(ps, ps->kids[n->first + i]);
			if (ok && !last) {
				ok = emit(ps, O_JMP, 0, 0, &jumps[nj]);
				nj++;
				if (ok)
					re->prog[split].b = (uint32_t)re->nprog;
			}
		}
		for (uint32_t j = 0; ok && j < nj; j++)
			re->prog[jumps[j]].a = (uint32_t)re->nprog;
		free(jumps);
		return ok;
	}
	case N_REP: {
		uint32_t sub = n->sub;
		int min = n->min, max = n->max;
		for (int i = 0; i < min; i++)
			if (!compile(ps, sub))
				return false;
		if (max == INF) {
			/* L: SPLIT body, out; body: sub; JMP L; out: */
			uint32_t l;
			if (!emit(ps, O_SPLIT, 0, 0, &l) || !compile(ps, sub) ||
			    !emit(ps, O_JMP, l, 0, NULL))
				return false;
			re->prog[l].a = l + 1;
			re->prog[l].b = (uint32_t)re->nprog;
			return true;
		}
		/* (max - min) optional copies, each skipping to the end */
		uint32_t *splits = tt_malloc((size_t)(max - min + 1) * sizeof(*splits));
		bool ok = true;
		int ns = 0;
		for (int i = min; ok && i < max; i++) {
			ok = emit(ps, O_SPLIT, 0, 0, &splits[ns]);
			if (ok) {
				re->prog[splits[ns]].a = splits[ns] + 1;
				ns++;
				ok = compile(ps, sub);
			}
		}
		for (int i = 0; ok && i < ns; i++)
			re->prog[splits[i]].b = (uint32_t)re->nprog;
		free(splits);
		return ok;
	}
	}
	return false;
}

struct tt_re *tt_re_compile(const char *pattern, bool icase, char *why, size_t whyn)
{
	if (whyn)
		why[0] = '\0';
	size_t len = strlen(pattern);
	if (len > MAX_PATTERN) {
		snprintf(why, whyn, "the expression is longer than %d bytes", MAX_PATTERN);
		return NULL;
	}
	struct tt_re *re = tt_calloc(1, sizeof(*re));
	re->icase = icase;
	struct parser ps = {.re = re, .p = pattern, .end = pattern + len, .why = why, .whyn = whyn};
	uint32_t root = parse_alt(&ps, 0);
	if (!ps.bad && ps.p < ps.end)
		fail(&ps, "unmatched )");
	if (!ps.bad && compile(&ps, root))
		emit(&ps, O_MATCH, 0, 0, NULL);
	free(ps.nodes);
	free(ps.kids);
	if (ps.bad) {
		tt_re_free(re);
		return NULL;
	}
	for (int i = 0; i < 2; i++) {
		re->dense[i] = tt_malloc(re->nprog * sizeof(uint32_t));
		/* (calloc: a sparse set reads entries it never wrote) */
		re->sparse[i] = tt_calloc(re->nprog, sizeof(uint32_t));
	}
	/* (each instruction is visited once per step; a split pushes two) */
	re->stack = tt_malloc((2 * re->nprog + 2) * sizeof(uint32_t));
	return re;
}

void tt_re_free(struct tt_re *re)
{
	if (!re)
		return;
	free(re->prog);
	free(re->cls);
	free(re->ranges);
	for (int i = 0; i < 2; i++) {
		free(re->dense[i]);
		free(re->sparse[i]);
	}
	free(re->stack);
	free(re);
}

/* ---- searching ---- */

static bool is_word(uint32_t c)
{
	if (c < 128)
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		       c == '_';
	return iswalnum((wint_t)c) != 0;
}

static bool named_has(uint32_t bits, uint32_t c)
{
	wint_t w = (wint_t)c;
	return ((bits & C_ALPHA) && iswalpha(w)) || ((bits & C_DIGIT) && c >= '0' && c <= '9') ||
	       ((bits & C_ALNUM) && iswalnum(w)) || ((bits & C_UPPER) && iswupper(w)) ||
	       ((bits & C_LOWER) && iswlower(w)) || ((bits & C_SPACE) && iswspace(w)) ||
	       ((bits & C_PUNCT) && iswpunct(w)) || ((bits & C_XDIGIT) && iswxdigit(w)) ||
	       ((bits & C_BLANK) && iswblank(w)) || ((bits & C_CNTRL) && iswcntrl(w)) ||
	       ((bits & C_PRINT) && iswprint(w)) || ((bits & C_GRAPH) && iswgraph(w)) ||
	       ((bits & C_WORD) && is_word(c));
}

static bool class_has1(const struct tt_re *re, const struct cls *k, uint32_t c)
{
	if (k->named && named_has(k->named, c))
		return true;
	for (uint32_t i = 0; i < k->n; i++) {
		const struct range *r = &re->ranges[k->first + i];
		if (c >= r->lo && c <= r->hi)
			return true;
	}
	return false;
}

static bool class_has(const struct tt_re *re, uint32_t ci, uint32_t c)
{
	const struct cls *k = &re->cls[ci];
	bool in = class_has1(re, k, c);
	if (!in && re->icase) {
		uint32_t lo = fold(c), up = (uint32_t)towupper((wint_t)c);
		in = (lo != c && class_has1(re, k, lo)) || (up != c && class_has1(re, k, up));
	}
	return in != k->neg;
}

/* what the assertions see at a position */
struct at {
	bool start, end;
	bool prev_word, next_word;
};

/* Add the thread at pc to list l and follow what it reaches without
 * reading a character; true when one reaches O_MATCH. */
static bool add(struct tt_re *re, int l, uint32_t pc, const struct at *at)
{
	uint32_t *dense = re->dense[l], *sparse = re->sparse[l], *stack = re->stack;
	size_t sp = 0;
	stack[sp++] = pc;
	while (sp) {
		pc = stack[--sp];
		uint32_t s = sparse[pc];
		if (s < re->nlist[l] && dense[s] == pc)
			continue; /* (held already) */
		sparse[pc] = (uint32_t)re->nlist[l];
		dense[re->nlist[l]++] = pc;
		const struct inst *in = &re->prog[pc];
		bool go = false;
		switch (in->op) {
		case O_MATCH:
			return true;
		case O_JMP:
			stack[sp++] = in->a;
			break;
		case O_SPLIT:
			stack[sp++] = in->b;
			stack[sp++] = in->a;
			break;
		case O_BOL:
			go = at->start;
			break;
		case O_EOL:
			go = at->end;
			break;
		case O_WORDB:
			go = at->prev_word != at->next_word;
			break;
		case O_NWORDB:
			go = at->prev_word == at->next_word;
			break;
		case O_WBEG:
			go = !at->prev_word && at->next_word;
			break;
		case O_WEND:
			go = at->prev_word && !at->next_word;
			break;
		default:
			break; /* (reads a character: stepped by the search) */
		}
		if (go)
			stack[sp++] = pc + 1;
	}
	return false;
}

/* the code point at s[i..n) and its length (an invalid byte: one) */
static uint32_t cp_at(const char *s, size_t i, size_t n, size_t *len)
{
	uint32_t cp;
	size_t k = tt_utf8_decode(s + i, n - i, &cp);
	if (!k) {
		cp = TT_UTF8_BAD;
		k = 1;
	}
	*len = k;
	return cp;
}

bool tt_re_search(struct tt_re *re, const char *s, size_t n)
{
	if (!re->nprog)
		return false;
	size_t pos = 0, clen = 0;
	uint32_t c = n ? cp_at(s, 0, n, &clen) : 0;
	struct at at = {.start = true, .end = n == 0, .prev_word = false,
			.next_word = n && is_word(c)};
	int cur = 0;
	re->nlist[cur] = 0;
	for (;;) {
		/* a match may start at any position */
		if (add(re, cur, 0, &at))
			return true;
		if (pos >= n)
			return false;
		/* the character after this one, for the assertions there */
		size_t npos = pos + clen, nlen = 0;
		uint32_t nc = npos < n ? cp_at(s, npos, n, &nlen) : 0;
		struct at nat = {.start = false, .end = npos >= n, .prev_word = is_word(c),
				 .next_word = npos < n && is_word(nc)};
		uint32_t fc = re->icase ? fold(c) : c;
		int nxt = !cur;
		re->nlist[nxt] = 0;
		for (size_t i = 0; i < re->nlist[cur]; i++) {
			uint32_t pc = re->dense[cur][i];
			const struct inst *in = &re->prog[pc];
			bool step;
			switch (in->op) {
			case O_CHAR:
				step = in->a == fc;
				break;
			case O_ANY:
				step = true;
				break;
			case O_CLASS:
				step = class_has(re, in->a, c);
				break;
			default:
				step = false;
				break;
			}
			if (step && add(re, nxt, pc + 1, &nat))
				return true;
		}
		cur = nxt;
		pos = npos;
		clen = nlen;
		c = nc;
		at = nat;
	}
}
