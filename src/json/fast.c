/* The event fast path: one pass over an event object that extracts the
 * fields tracetop keeps and validates everything it skips.  Whatever it does
 * not reproduce exactly as the cJSON path would (escapes in keys, \u escapes
 * in kept strings, unusual JSON-text args) makes it answer TT_EV_FALLBACK,
 * and the caller parses that one event through cJSON instead.
 *
 * Speed: the common Kineto shapes take inline paths that touch each byte
 * about once: strings are scanned 16 bytes at a time, and the same pass
 * notes whether a string holds anything but printable ASCII (only those are
 * checked for UTF-8 repair at the end); integers and timestamps are
 * converted while their digits are read, 8 at a time.  Anything else (a
 * string with a backslash, a number that is not a plain integer or a time
 * with at most 3 fraction digits, the end of the buffer) goes through the
 * general lexer in lex.c, which gives the same answers. */
#include "config.h"

/* The hottest code of the loader: gcc's -O3 (unrolling, if-conversion)
 * takes about 9% off its instructions and its time here. */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC optimize("O3")
#endif

#include <string.h>

#include "json_int.h"

#define SEEN(k) (UINT64_C(1) << (k))
enum { K_PH, K_CAT, K_NAME, K_PID, K_TID, K_TS, K_DUR, K_ID, K_BP, K_S, K_ARGS };

#if defined(__GNUC__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#endif

/* kept strings that may need UTF-8 repair, repaired once the event is
 * parsed (a later duplicate key replaces the value and its mark) */
enum { F_PH, F_CAT, F_NAME, F_BP, F_S, F_PID, F_TID, F_ID };
struct fix {
	uint32_t top;    /* F_* bits */
	uint64_t args;   /* TT_A_* bits: s_arg[] */
	uint32_t series; /* series[] index bits */
};

static inline bool num_start(char c)
{
	return c == '-' || (c >= '0' && c <= '9');
}

static inline bool is_digit(char c)
{
	return (unsigned)(c - '0') < 10;
}

/* whitespace: Kineto writes one space after ':' and ',' */
static inline const char *skip_ws(const char *p, const char *end)
{
	if (LIKELY(p < end) && (unsigned char)*p > ' ')
		return p;
	if (p + 1 < end && *p == ' ' && (unsigned char)p[1] > ' ')
		return p + 1;
	return lx_ws(p, end);
}

/* ---- strings ---- */

/* The closing quote of a string whose bytes start at s, when the string
 * has no backslash and lies at least 16 bytes before end; else NULL (the
 * general lexer takes over).  *odd: a byte outside printable ASCII. */
static inline const char *str_end(const char *s, const char *end, bool *odd)
{
#if defined(__SSE2__)
	const __m128i q = _mm_set1_epi8('"'), b = _mm_set1_epi8('\\');
	const __m128i sp = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F);
	const char *p = s;
	unsigned weird = 0;
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned stop = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, b)));
		/* as signed bytes, controls and non-ASCII are both below 0x20 */
		unsigned w = (unsigned)_mm_movemask_epi8(
			_mm_or_si128(_mm_cmplt_epi8(v, sp), _mm_cmpeq_epi8(v, del)));
		if (stop) {
			unsigned at = (unsigned)__builtin_ctz(stop);
			weird |= w & ((1u << at) - 1);
			p += at;
			if (*p != '"' || p - s > (ptrdiff_t)TT_MAX_STRING)
				return NULL;
			*odd = weird != 0;
			return p;
		}
		weird |= w;
		p += 16;
	}
#else
	(void)s;
	(void)end;
	(void)odd;
#endif
	return NULL;
}

static bool has_odd(const char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)p[i] < 0x20 || (unsigned char)p[i] >= 0x7F)
			return true;
	return false;
}

/* A string value at *pp (its '"'): the raw bytes, unescaped if it has
 * escapes (\u escapes: fallback).  *odd: may need repair. */
static inline int get_string(struct lx *l, const char **pp, struct tt_str *out, bool *odd,
			     struct tt_scratch *scr)
{
	const char *s = *pp + 1;
	const char *q = str_end(s, l->end, odd);
	if (LIKELY(q != NULL)) {
		out->p = s;
		out->n = (uint32_t)(q - s);
		*pp = q + 1;
		return LX_OK;
	}
	bool esc;
	int r = lx_string(l, pp, out, &esc);
	if (r != LX_OK)
		return r;
	*odd = true;
	if (esc) {
		if (memmem(out->p, out->n, "\\u", 2))
			return LX_FALLBACK;
		*out = lx_unescape(scr, *out);
	}
	return LX_OK;
}

/* ---- numbers ---- */

static const uint64_t pow10_u64[9] = {1,      10,      100,      1000,     10000,
					100000, 1000000, 10000000, 100000000};

/* decimal digits at p: their value (modulo 2^64) and the end */
static inline const char *digits(const char *p, const char *end, uint64_t *v)
{
	uint64_t x = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/* 8 bytes at a time: how many digits lead, then their value at once */
	while (end - p >= 8) {
		uint64_t w;
		memcpy(&w, p, 8);
		uint64_t t = w ^ UINT64_C(0x3030303030303030); /* digits become 0..9 */
		uint64_t non = (((t & UINT64_C(0x7F7F7F7F7F7F7F7F)) + UINT64_C(0x7676767676767676)) | t) &
			       UINT64_C(0x8080808080808080);
		unsigned n = non ? (unsigned)__builtin_ctzll(non) >> 3 : 8;
		if (n == 0)
			break;
		/* the n digits to the top bytes; zero bytes below read as 0 */
		uint64_t d = n == 8 ? t : t << (8 * (8 - n));
		d = (d * 10) + (d >> 8);
		d = (((d & UINT64_C(0x000000FF000000FF)) * UINT64_C(0x000F424000000064)) +
		     (((d >> 16) & UINT64_C(0x000000FF000000FF)) * UINT64_C(0x0000271000000001))) >>
		    32;
		x = x * pow10_u64[n] + d;
		p += n;
		if (n < 8) {
			*v = x;
			return p;
		}
	}
#endif
	while (p < end && is_digit(*p)) {
		x = x * 10 + (uint64_t)(*p - '0');
		p++;
	}
	*v = x;
	return p;
}

/* A plain integer at *pp: at most 16 digits, no leading zero, below 2^53,
 * and ending before the buffer does.  Else false, and the caller takes the
 * general path (which agrees with this one wherever both apply). */
static inline bool fast_int(const char **pp, const char *end, int64_t *v)
{
	const char *p = *pp;
	bool neg = *p == '-';
	p += neg;
	const char *d = p;
	uint64_t x;
	p = digits(p, end, &x);
	size_t nd = (size_t)(p - d);
	if (UNLIKELY(p >= end || nd - 1 > 15 || (nd > 1 && *d == '0') || *p == '.' ||
		     (*p | 0x20) == 'e' || x >= (UINT64_C(1) << 53)))
		return false;
	*v = neg ? -(int64_t)x : (int64_t)x;
	*pp = p;
	return true;
}

/* A time in µs at *pp as exact ns: an integer of at most 16 digits with at
 * most 3 fraction digits (the forms num_us_to_ns converts directly). */
static inline bool fast_time(const char **pp, const char *end, int64_t *ns, uint32_t *fd,
			     bool *is_float)
{
	const char *p = *pp;
	bool neg = *p == '-';
	p += neg;
	const char *d = p;
	uint64_t ip;
	p = digits(p, end, &ip);
	size_t nd = (size_t)(p - d);
	if (UNLIKELY(p >= end || nd == 0 || nd > 16 || (nd > 1 && *d == '0') ||
		     ip > UINT64_C(9223372036854774)))
		return false;
	uint64_t frac = 0;
	uint32_t nf = 0;
	if (*p == '.') {
		p++;
		while (p < end && is_digit(*p) && nf < 4) {
			frac = frac * 10 + (uint64_t)(*p - '0');
			p++;
			nf++;
		}
		if (nf == 0 || nf > 3 || p >= end)
			return false;
		*is_float = true;
		for (uint32_t i = nf; i < 3; i++)
			frac *= 10;
	} else {
		*is_float = false;
	}
	if (UNLIKELY(*p == 'e' || *p == 'E'))
		return false;
	uint64_t v = ip * 1000 + frac;
	*ns = neg ? -(int64_t)v : (int64_t)v;
	*fd = nf;
	*pp = p;
	return true;
}

/* ---- kept fields ---- */

/* A string value for a kept field.  Non-strings are typed and skipped. */
static inline int get_str(struct lx *l, const char **pp, uint8_t *type, struct tt_str *out,
			  struct tt_scratch *scr, int depth, uint32_t *fx, uint32_t bit)
{
	const char *p = *pp;
	*fx &= ~bit;
	if (LIKELY(*p == '"')) {
		bool odd;
		int r = get_string(l, pp, out, &odd, scr);
		if (r != LX_OK)
			return r;
		*type = TT_V_STR;
		if (odd)
			*fx |= bit;
		return LX_OK;
	}
	if (num_start(*p)) {
		*type = TT_V_NUM;
		return lx_number(l, pp, NULL);
	}
	*type = TT_V_OTHER;
	return lx_value(l, pp, depth);
}

/* pid, tid, id: integer or string */
static int get_id(struct lx *l, const char **pp, struct tt_rawid *id, struct tt_scratch *scr,
		  int depth, uint32_t *fx, uint32_t bit)
{
	const char *p = *pp;
	int r;
	*fx &= ~bit;
	if (num_start(*p)) {
		int64_t v;
		if (LIKELY(fast_int(pp, l->end, &v))) {
			id->type = TT_V_NUM;
			id->num = v;
			return LX_OK;
		}
		bool is_int, exact;
		if ((r = lx_int(l, pp, &is_int, &v, &exact)) != LX_OK)
			return r;
		size_t n = (size_t)(*pp - p);
		if (exact || (is_int && num_parse_int(p, n, &v))) {
			id->type = TT_V_NUM;
			id->num = v;
			return LX_OK;
		}
		double d = num_parse_double(p, n);
		if (d < TT_INT_LIMIT && d > -TT_INT_LIMIT && d == (double)(int64_t)d) {
			id->type = TT_V_NUM;
			id->num = (int64_t)d;
		} else {
			id->type = TT_V_OTHER;
		}
		return LX_OK;
	}
	uint8_t t;
	struct tt_str s;
	uint32_t f = 0;
	if ((r = get_str(l, pp, &t, &s, scr, depth, &f, 1)) != LX_OK)
		return r;
	if (t == TT_V_STR) {
		/* the trailing digits are read before any repair, as raw_finish does */
		raw_set_id_str(id, s);
		if (f)
			*fx |= bit;
	} else {
		id->type = TT_V_OTHER;
	}
	return LX_OK;
}

static inline int get_time(struct lx *l, const char **pp, uint8_t *type, int64_t *ns,
			   bool *range_err, uint32_t *fd, bool *is_float, struct tt_scratch *scr,
			   int depth)
{
	const char *p = *pp;
	int r;
	*is_float = false;
	if (LIKELY(num_start(*p))) {
		*type = TT_V_NUM;
		if (LIKELY(fast_time(pp, l->end, ns, fd, is_float))) {
			*range_err = false;
			return LX_OK;
		}
		bool is_int;
		if ((r = lx_number(l, pp, &is_int)) != LX_OK)
			return r;
		*is_float = !is_int;
		*range_err = !num_us_to_ns(p, (size_t)(*pp - p), ns, fd);
		return LX_OK;
	}
	struct tt_str s;
	uint32_t f = 0;
	*fd = 0;
	return get_str(l, pp, type, &s, scr, depth, &f, 1);
}

/* ---- JSON-text args (Input Dims, Input type): minified copy ----
 *
 * The common shapes, [[2048, 1], []] and ["float", "Scalar"], are copied
 * without their whitespace in one pass that also checks the grammar.  Any
 * other shape (objects, escapes, reals, long integers) answers LX_FALLBACK:
 * cJSON's printer may write those differently. */

#define MINIFY_MAX 16384 /* longer JSON-text args go through cJSON */

static inline bool is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static int minify(struct lx *l, const char **pp, char **o, int depth)
{
	const char *p = *pp, *end = l->end;
	/* the copy is never longer than the text it comes from, so bounding
	 * the text read bounds the output (MINIFY_MAX bytes) */
	const char *lim = end - p > MINIFY_MAX - 4 ? p + MINIFY_MAX - 4 : end;
	int more = lim == end ? LX_MORE : LX_FALLBACK;
	char *w = *o;
	int level = 0;
	for (;;) {
		/* a value */
		if (p >= lim)
			return more;
		char c = *p;
		if (c == '[') {
			if (depth + level > TT_MAX_DEPTH)
				return lx_error(l, p, "nesting deeper than %d levels", TT_MAX_DEPTH);
			*w++ = '[';
			p++;
			level++;
			/* an empty array closes at once */
			while (p < lim && is_ws(*p))
				p++;
			if (p >= lim)
				return more;
			if (*p != ']')
				continue;
			*w++ = ']';
			p++;
			level--;
		} else if (c == '"') {
			const char *q = p + 1;
			while (q < lim && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20)
				q++;
			if (q >= lim)
				return more;
			if (*q != '"')
				return LX_FALLBACK;
			memcpy(w, p, (size_t)(q + 1 - p));
			w += q + 1 - p;
			p = q + 1;
		} else if (c == '-' || is_digit(c)) {
			const char *q = p + (c == '-');
			if (q >= lim)
				return more;
			if (*q == '0' && c == '-')
				return LX_FALLBACK; /* -0: cJSON prints 0 */
			if (!is_digit(*q))
				return lx_bad_value(l, p);
			const char *d = q;
			if (*q == '0')
				q++;
			else
				while (q < lim && is_digit(*q))
					q++;
			if (q >= lim)
				return more;
			/* integers of up to 15 digits print the same in cJSON */
			if (*q == '.' || *q == 'e' || *q == 'E' || is_digit(*q) || q - d > 15)
				return LX_FALLBACK;
			memcpy(w, p, (size_t)(q - p));
			w += q - p;
			p = q;
		} else if (c == 't' || c == 'f' || c == 'n') {
			const char *q = p;
			int r = lx_value(l, &q, depth + level);
			if (r != LX_OK)
				return r;
			memcpy(w, p, (size_t)(q - p));
			w += q - p;
			p = q;
		} else if (c == '{') {
			return LX_FALLBACK;
		} else if (is_ws(c)) {
			p++;
			continue;
		} else {
			return lx_bad_value(l, p);
		}
		/* after a value: ',' (another value follows) or ']' */
		for (;;) {
			if (level == 0)
				goto done;
			if (p >= lim)
				return more;
			c = *p;
			if (c == ',') {
				*w++ = ',';
				p++;
				break;
			}
			if (c == ']') {
				*w++ = ']';
				p++;
				level--;
				continue;
			}
			if (!is_ws(c))
				return lx_error(l, p, "expected ',' or ']' in an array");
			p++;
		}
	}
done:
	*pp = p;
	*o = w;
	return LX_OK;
}

/* [a, b, c] of integers; anything else is validated and flagged */
static int get_dim3(struct lx *l, const char **pp, int64_t d[3], bool *ok, int depth)
{
	const char *p = *pp, *end = l->end, *start = p;
	int r;
	*ok = false;
	if (*p == '[') {
		p = skip_ws(p + 1, end);
		int n = 0;
		bool good = true;
		for (;;) {
			if (p >= end)
				return LX_MORE;
			if (n == 0 && *p == ']')
				break;
			if (!num_start(*p)) {
				good = false;
				break;
			}
			const char *s = p;
			int64_t v;
			if (n < 3 && fast_int(&p, end, &v)) {
				d[n] = v;
			} else {
				bool is_int;
				if ((r = lx_number(l, &p, &is_int)) != LX_OK)
					return r;
				if (n >= 3) {
					good = false;
				} else if (is_int && num_parse_int(s, (size_t)(p - s), &v)) {
					d[n] = v;
				} else {
					double x = num_parse_double(s, (size_t)(p - s));
					if (x < TT_INT_LIMIT && x > -TT_INT_LIMIT &&
					    x == (double)(int64_t)x)
						d[n] = (int64_t)x;
					else
						good = false;
				}
			}
			n++;
			p = skip_ws(p, end);
			if (p >= end)
				return LX_MORE;
			if (*p == ']')
				break;
			if (*p != ',')
				return lx_error(l, p, "expected ',' or ']' in an array");
			p = skip_ws(p + 1, end);
		}
		if (good && n == 3 && *p == ']') {
			*pp = p + 1;
			*ok = true;
			return LX_OK;
		}
	}
	/* not three integers: validate the whole value from its start */
	*pp = start;
	return lx_value(l, pp, depth);
}

/* a value that is not kept: validated and skipped */
static inline int skip_value(struct lx *l, const char **pp, int depth)
{
	const char *p = *pp;
	if (*p == '"') {
		bool odd;
		const char *q = str_end(p + 1, l->end, &odd);
		if (LIKELY(q != NULL)) {
			*pp = q + 1;
			return LX_OK;
		}
		return lx_string(l, pp, NULL, NULL);
	}
	return lx_value(l, pp, depth);
}

static int parse_args(struct lx *l, const char **pp, struct tt_raw_event *ev,
		      struct tt_scratch *scr, int depth, struct fix *fx)
{
	const char *p = *pp, *end = l->end;
	int r;
	if (*p != '{') {
		ev->flags |= TT_RF_BAD_ARG;
		return lx_value(l, pp, depth);
	}
	if (depth > TT_MAX_DEPTH)
		return lx_error(l, p, "nesting deeper than %d levels", TT_MAX_DEPTH);
	ev->flags |= TT_RF_HAS_ARGS;
	ev->have = 0;
	ev->nseries = 0;
	ev->series_dropped = 0;
	fx->args = 0;
	fx->series = 0;
	uint64_t seen = 0;
	p = skip_ws(p + 1, end);
	if (p >= end)
		return LX_MORE;
	if (*p == '}') {
		*pp = p + 1;
		return LX_OK;
	}
	for (;;) {
		if (p >= end)
			return LX_MORE;
		if (*p != '"')
			return lx_error(l, p, "expected '\"' to start a key");
		const char *k = p + 1;
		bool kodd;
		const char *q = str_end(k, end, &kodd);
		if (UNLIKELY(!q)) {
			q = lx_find_quote(k, end);
			if (q >= end)
				return LX_MORE;
			if (*q == '\\')
				return LX_FALLBACK;
			kodd = has_odd(k, (size_t)(q - k));
		}
		size_t kn = (size_t)(q - k);
		if (kn > TT_MAX_STRING)
			return lx_error(l, p, "string longer than %u MiB", TT_MAX_STRING >> 20);
		p = q + 1;
		if (UNLIKELY(p >= end || *p != ':')) {
			p = lx_ws(p, end);
			if (p >= end)
				return LX_MORE;
			if (*p != ':')
				return lx_error(l, p, "expected ':' after a key");
		}
		p = skip_ws(p + 1, end);
		if (p >= end)
			return LX_MORE;
		int a = arg_lookup(k, kn);
		if (a >= 0) {
			if (seen & SEEN(a))
				ev->flags |= TT_RF_DUP_KEY;
			seen |= SEEN(a);
			ev->have &= ~TT_HAVE(a);
			fx->args &= ~TT_HAVE(a);
		}
		const char *v = p;
		if (a < 0) {
			if (num_start(*p)) {
				struct tt_str key = {k, (uint32_t)kn};
				int64_t x;
				double dv;
				/* -0 is a double of its own */
				if (LIKELY(fast_int(&p, end, &x)) && !(x == 0 && *v == '-')) {
					dv = (double)x;
				} else {
					p = v;
					if ((r = lx_number(l, &p, NULL)) != LX_OK)
						return r;
					dv = num_parse_double(v, (size_t)(p - v));
				}
				if (kodd && ev->nseries < TT_MAX_SERIES)
					fx->series |= 1u << ev->nseries;
				raw_add_series(ev, key, dv);
			} else if ((r = skip_value(l, &p, depth + 1)) != LX_OK) {
				return r;
			}
		} else {
			switch (arg_kind(a)) {
			case TT_AK_INT:
				if (num_start(*p)) {
					int64_t x;
					if (LIKELY(fast_int(&p, end, &x))) {
						ev->i[a] = x;
						ev->have |= TT_HAVE(a);
						break;
					}
					bool is_int, exact;
					if ((r = lx_int(l, &p, &is_int, &x, &exact)) != LX_OK)
						return r;
					if (exact || (is_int && num_parse_int(v, (size_t)(p - v), &x))) {
						ev->i[a] = x;
						ev->have |= TT_HAVE(a);
					} else {
						raw_set_int_from_double(
							ev, a, num_parse_double(v, (size_t)(p - v)));
					}
				} else if (*p == '"') {
					uint8_t t;
					struct tt_str s;
					uint32_t f = 0;
					if ((r = get_str(l, &p, &t, &s, scr, depth + 1, &f, 1)) != LX_OK)
						return r;
					raw_set_str_int(ev, a, s);
				} else {
					ev->flags |= TT_RF_BAD_ARG;
					if ((r = lx_value(l, &p, depth + 1)) != LX_OK)
						return r;
				}
				break;
			case TT_AK_DBL:
				if (num_start(*p)) {
					if ((r = lx_number(l, &p, NULL)) != LX_OK)
						return r;
					ev->d[a] = num_parse_double(v, (size_t)(p - v));
					ev->have |= TT_HAVE(a);
				} else if (*p == '"') {
					uint8_t t;
					struct tt_str s;
					uint32_t f = 0;
					if ((r = get_str(l, &p, &t, &s, scr, depth + 1, &f, 1)) != LX_OK)
						return r;
					raw_set_str_dbl(ev, a, s);
				} else {
					ev->flags |= TT_RF_BAD_ARG;
					if ((r = lx_value(l, &p, depth + 1)) != LX_OK)
						return r;
				}
				break;
			case TT_AK_STR:
				if (*p == '"') {
					uint8_t t;
					uint32_t f = 0;
					if ((r = get_str(l, &p, &t, &ev->s_arg[a], scr, depth + 1, &f,
							 1)) != LX_OK)
						return r;
					ev->have |= TT_HAVE(a);
					if (f)
						fx->args |= TT_HAVE(a);
				} else if (num_start(*p)) {
					if ((r = lx_number(l, &p, NULL)) != LX_OK)
						return r;
					ev->s_arg[a] =
						num_canon(scr, num_parse_double(v, (size_t)(p - v)));
					ev->have |= TT_HAVE(a);
				} else {
					ev->flags |= TT_RF_BAD_ARG;
					if ((r = lx_value(l, &p, depth + 1)) != LX_OK)
						return r;
				}
				break;
			case TT_AK_DIM3: {
				bool ok;
				int64_t *d = ev->dim[a == TT_A_GRID ? 0 : 1];
				if ((r = get_dim3(l, &p, d, &ok, depth + 1)) != LX_OK)
					return r;
				if (ok)
					ev->have |= TT_HAVE(a);
				else
					ev->flags |= TT_RF_BAD_ARG;
				break;
			}
			case TT_AK_JSON: {
				char *out = tt_arena_alloc(&scr->arena, MINIFY_MAX), *o = out;
				if ((r = minify(l, &p, &o, depth + 1)) != LX_OK)
					return r;
				ev->s_arg[a].p = out;
				ev->s_arg[a].n = (uint32_t)(o - out);
				ev->have |= TT_HAVE(a);
				if (has_odd(out, (size_t)(o - out)))
					fx->args |= TT_HAVE(a);
				break;
			}
			}
		}
		/* Kineto's separator, ", \"" */
		if (LIKELY(end - p >= 3 && p[0] == ',' && p[1] == ' ' && p[2] == '"')) {
			p += 2;
			continue;
		}
		p = skip_ws(p, end);
		if (p >= end)
			return LX_MORE;
		if (*p == ',') {
			p = skip_ws(p + 1, end);
			continue;
		}
		if (*p == '}') {
			*pp = p + 1;
			return LX_OK;
		}
		return lx_error(l, p, "expected ',' or '}' in args");
	}
}

/* UTF-8 repair of the kept strings that had other bytes than printable
 * ASCII (raw_finish checks every string; the result is the same) */
static void apply_fixes(struct tt_raw_event *ev, struct tt_scratch *scr, const struct fix *fx)
{
	uint32_t t = fx->top;
	if (t & (1u << F_PH))
		raw_fix_str(ev, scr, &ev->ph);
	if (t & (1u << F_CAT))
		raw_fix_str(ev, scr, &ev->cat);
	if (t & (1u << F_NAME))
		raw_fix_str(ev, scr, &ev->name);
	if (t & (1u << F_BP))
		raw_fix_str(ev, scr, &ev->bp);
	if (t & (1u << F_S))
		raw_fix_str(ev, scr, &ev->s);
	if (t & (1u << F_PID))
		raw_fix_str(ev, scr, &ev->pid.str);
	if (t & (1u << F_TID))
		raw_fix_str(ev, scr, &ev->tid.str);
	if (t & (1u << F_ID))
		raw_fix_str(ev, scr, &ev->id.str);
	uint64_t h = fx->args & ev->have;
	while (h) {
		int a = __builtin_ctzll(h);
		h &= h - 1;
		raw_fix_str(ev, scr, &ev->s_arg[a]);
	}
	uint32_t s = fx->series;
	while (s) {
		int i = __builtin_ctz(s);
		s &= s - 1;
		if ((uint32_t)i < ev->nseries)
			raw_fix_str(ev, scr, &ev->series[i].key);
	}
}

/* The common top-level keys with their ':' ("ph":, "cat":, ...), matched
 * 8 bytes at a time: K_* and *after (past the ':'), or -1 when the key is
 * another one or written differently (the general path reads it). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define W4(a, b, c, d) ((uint64_t)(a) | (uint64_t)(b) << 8 | (uint64_t)(c) << 16 | (uint64_t)(d) << 24)
#define W5(a, b, c, d, e) (W4(a, b, c, d) | (uint64_t)(e) << 32)
#define W6(a, b, c, d, e, f) (W5(a, b, c, d, e) | (uint64_t)(f) << 40)
#define W7(a, b, c, d, e, f, g) (W6(a, b, c, d, e, f) | (uint64_t)(g) << 48)
#define M4 UINT64_C(0xFFFFFFFF)
#define M5 UINT64_C(0xFFFFFFFFFF)
#define M6 UINT64_C(0xFFFFFFFFFFFF)
#define M7 UINT64_C(0xFFFFFFFFFFFFFF)

static inline int match_key(const char *p, const char *end, const char **after)
{
	if (end - p < 8)
		return -1;
	uint64_t w;
	memcpy(&w, p, 8);
	switch (p[1]) {
	case 'p':
		if ((w & M5) == W5('"', 'p', 'h', '"', ':')) {
			*after = p + 5;
			return K_PH;
		}
		if ((w & M6) == W6('"', 'p', 'i', 'd', '"', ':')) {
			*after = p + 6;
			return K_PID;
		}
		break;
	case 'c':
		if ((w & M6) == W6('"', 'c', 'a', 't', '"', ':')) {
			*after = p + 6;
			return K_CAT;
		}
		break;
	case 'n':
		if ((w & M7) == W7('"', 'n', 'a', 'm', 'e', '"', ':')) {
			*after = p + 7;
			return K_NAME;
		}
		break;
	case 't':
		if ((w & M5) == W5('"', 't', 's', '"', ':')) {
			*after = p + 5;
			return K_TS;
		}
		if ((w & M6) == W6('"', 't', 'i', 'd', '"', ':')) {
			*after = p + 6;
			return K_TID;
		}
		break;
	case 'd':
		if ((w & M6) == W6('"', 'd', 'u', 'r', '"', ':')) {
			*after = p + 6;
			return K_DUR;
		}
		break;
	case 'a':
		if ((w & M7) == W7('"', 'a', 'r', 'g', 's', '"', ':')) {
			*after = p + 7;
			return K_ARGS;
		}
		break;
	case 'i':
		if ((w & M5) == W5('"', 'i', 'd', '"', ':')) {
			*after = p + 5;
			return K_ID;
		}
		break;
	case 'b':
		if ((w & M5) == W5('"', 'b', 'p', '"', ':')) {
			*after = p + 5;
			return K_BP;
		}
		break;
	case 's':
		if ((w & M4) == W4('"', 's', '"', ':')) {
			*after = p + 4;
			return K_S;
		}
		break;
	}
	return -1;
}
#else
static inline int match_key(const char *p, const char *end, const char **after)
{
	(void)p;
	(void)end;
	(void)after;
	return -1;
}
#endif

enum tt_event_res tt_event_fast(const char *p0, const char *end, uint64_t base, int depth,
				struct tt_raw_event *ev, size_t *used, struct tt_scratch *scr,
				struct tt_err *err)
{
	struct lx l = {p0, base, end, err, false};
	raw_reset(ev);
	ev->offset = base;
	const char *p = p0;
	uint64_t seen = 0;
	struct fix fx = {0, 0, 0};
	int r = LX_OK;
	if (depth > TT_MAX_DEPTH) {
		lx_error(&l, p, "nesting deeper than %d levels", TT_MAX_DEPTH);
		return TT_EV_ERROR;
	}
	p = skip_ws(p + 1, end);
	if (p >= end)
		return TT_EV_MORE;
	if (*p == '}') {
		p++;
		goto done;
	}
	for (;;) {
		if (p >= end)
			return TT_EV_MORE;
		if (*p != '"') {
			lx_error(&l, p, "expected '\"' to start a key");
			return TT_EV_ERROR;
		}
		const char *after;
		int key = match_key(p, end, &after);
		if (LIKELY(key >= 0)) {
			p = skip_ws(after, end);
			if (p >= end)
				return TT_EV_MORE;
			goto have_key;
		}
		const char *k = p + 1;
		bool kodd;
		const char *q = str_end(k, end, &kodd);
		if (UNLIKELY(!q)) {
			q = lx_find_quote(k, end);
			if (q >= end)
				return TT_EV_MORE;
			if (*q == '\\' || (size_t)(q - k) > TT_MAX_STRING)
				return TT_EV_FALLBACK;
		}
		size_t kn = (size_t)(q - k);
		p = q + 1;
		if (UNLIKELY(p >= end || *p != ':')) {
			p = lx_ws(p, end);
			if (p >= end)
				return TT_EV_MORE;
			if (*p != ':') {
				lx_error(&l, p, "expected ':' after a key");
				return TT_EV_ERROR;
			}
		}
		p = skip_ws(p + 1, end);
		if (p >= end)
			return TT_EV_MORE;
		switch (kn) {
		case 1:
			if (k[0] == 's')
				key = K_S;
			break;
		case 2:
			if (k[0] == 'p' && k[1] == 'h')
				key = K_PH;
			else if (k[0] == 't' && k[1] == 's')
				key = K_TS;
			else if (k[0] == 'i' && k[1] == 'd')
				key = K_ID;
			else if (k[0] == 'b' && k[1] == 'p')
				key = K_BP;
			break;
		case 3:
			if (memcmp(k, "cat", 3) == 0)
				key = K_CAT;
			else if (memcmp(k, "pid", 3) == 0)
				key = K_PID;
			else if (memcmp(k, "tid", 3) == 0)
				key = K_TID;
			else if (memcmp(k, "dur", 3) == 0)
				key = K_DUR;
			break;
		case 4:
			if (memcmp(k, "name", 4) == 0)
				key = K_NAME;
			else if (memcmp(k, "args", 4) == 0)
				key = K_ARGS;
			break;
		}
		if (key >= 0) {
		have_key:
			if (seen & SEEN(key))
				ev->flags |= TT_RF_DUP_KEY;
			seen |= SEEN(key);
		}
		uint32_t fd = 0;
		bool is_float = false;
		switch (key) {
		case K_PH:
			r = get_str(&l, &p, &ev->ph_type, &ev->ph, scr, depth + 1, &fx.top,
				    1u << F_PH);
			break;
		case K_CAT:
			r = get_str(&l, &p, &ev->cat_type, &ev->cat, scr, depth + 1, &fx.top,
				    1u << F_CAT);
			break;
		case K_NAME:
			r = get_str(&l, &p, &ev->name_type, &ev->name, scr, depth + 1, &fx.top,
				    1u << F_NAME);
			break;
		case K_BP:
			r = get_str(&l, &p, &ev->bp_type, &ev->bp, scr, depth + 1, &fx.top,
				    1u << F_BP);
			break;
		case K_S:
			r = get_str(&l, &p, &ev->s_type, &ev->s, scr, depth + 1, &fx.top,
				    1u << F_S);
			break;
		case K_PID:
			r = get_id(&l, &p, &ev->pid, scr, depth + 1, &fx.top, 1u << F_PID);
			break;
		case K_TID:
			r = get_id(&l, &p, &ev->tid, scr, depth + 1, &fx.top, 1u << F_TID);
			break;
		case K_ID:
			r = get_id(&l, &p, &ev->id, scr, depth + 1, &fx.top, 1u << F_ID);
			ev->id_type = ev->id.type;
			break;
		case K_TS:
			r = get_time(&l, &p, &ev->ts_type, &ev->ts_ns, &ev->ts_range_err, &fd,
				     &is_float, scr, depth + 1);
			raw_ts_flags(ev, is_float, fd);
			break;
		case K_DUR:
			r = get_time(&l, &p, &ev->dur_type, &ev->dur_ns, &ev->dur_range_err, &fd,
				     &is_float, scr, depth + 1);
			break;
		case K_ARGS:
			r = parse_args(&l, &p, ev, scr, depth + 1, &fx);
			break;
		default:
			r = skip_value(&l, &p, depth + 1);
			break;
		}
		if (UNLIKELY(r != LX_OK))
			goto out;
		if (LIKELY(end - p >= 3 && p[0] == ',' && p[1] == ' ' && p[2] == '"')) {
			p += 2;
			continue;
		}
		p = skip_ws(p, end);
		if (p >= end)
			return TT_EV_MORE;
		if (*p == ',') {
			p = skip_ws(p + 1, end);
			continue;
		}
		if (*p == '}') {
			p++;
			break;
		}
		lx_error(&l, p, "expected ',' or '}' after a field of the event");
		return TT_EV_ERROR;
	}
done:
	if (fx.top | fx.args | fx.series)
		apply_fixes(ev, scr, &fx);
	*used = (size_t)(p - p0);
	return TT_EV_OK;
out:
	if (r == LX_MORE)
		return TT_EV_MORE;
	if (r == LX_FALLBACK)
		return TT_EV_FALLBACK;
	return TT_EV_ERROR;
}
