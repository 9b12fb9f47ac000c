/* json room private interface: lexing helpers shared by the scanner, the fast
 * path and the validator that runs before cJSON. */
#ifndef TRACETOP_JSON_INT_H
#define TRACETOP_JSON_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "tracetop/arena.h"
#include "tracetop/trace.h"

enum { LX_OK = 0, LX_MORE = 1, LX_ERR = 2, LX_FALLBACK = 3 };

/* A text window: buf[0] is at text offset base; end is one past the last byte. */
struct lx {
	const char *buf;
	uint64_t base;
	const char *end;
	struct tt_err *err;
	bool bad_u; /* saw \u0000 or a lone surrogate (patched before cJSON) */
};

struct tt_scratch {
	struct tt_arena arena;
};

static inline uint64_t lx_off(const struct lx *l, const char *p)
{
	return l->base + (uint64_t)(p - l->buf);
}

int lx_error(struct lx *l, const char *p, const char *fmt, ...) TT_PRINTF(3, 4);

extern const unsigned char lx_ws_tab[256];

static inline const char *lx_ws(const char *p, const char *end)
{
	/* most positions are not whitespace; Kineto indents with runs of spaces */
	while (p < end && lx_ws_tab[(unsigned char)*p])
		p++;
	return p;
}

/* first '"' or '\\' in [p, end), or end */
static inline const char *lx_find_quote(const char *p, const char *end)
{
#if defined(__SSE2__)
	const __m128i q = _mm_set1_epi8('"');
	const __m128i b = _mm_set1_epi8('\\');
	while (end - p >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		int m = _mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, q), _mm_cmpeq_epi8(v, b)));
		if (m)
			return p + __builtin_ctz((unsigned)m);
		p += 16;
	}
#endif
	while (p < end && *p != '"' && *p != '\\')
		p++;
	return p;
}

/* A number at *pp (validated as lx_number does); *v gets its value when it
 * is a plain integer of at most 16 digits below 2^53 (*exact = true). */
int lx_int(struct lx *l, const char **pp, bool *is_int, int64_t *v, bool *exact);

/* *pp at '"': skip the string (validated), *pp after the closing quote.
 * raw gets the bytes between the quotes; *esc whether a backslash occurs. */
int lx_string(struct lx *l, const char **pp, struct tt_str *raw, bool *esc);
/* Unescape raw string bytes (validated by lx_string) into the scratch arena. */
struct tt_str lx_unescape(struct tt_scratch *s, struct tt_str raw);
/* Skip a number, validating strict JSON grammar.  *is_int: no fraction or
 * exponent. */
int lx_number(struct lx *l, const char **pp, bool *is_int);
/* Skip any value at nesting depth `depth` (the value's own level). */
int lx_value(struct lx *l, const char **pp, int depth);
/* Error for a token that is not a value (names NaN/Infinity). */
int lx_bad_value(struct lx *l, const char *p);

/* numbers */
bool num_parse_int(const char *p, size_t n, int64_t *out);  /* plain JSON integer, |v| < 2^53 */
double num_parse_double(const char *p, size_t n);           /* same result as strtod */
bool num_us_to_ns(const char *p, size_t n, int64_t *ns, uint32_t *frac_digits);
/* integer from a numeric string: decimal or 0x hex, optional sign */
bool num_string_int(const char *p, size_t n, int64_t *out);
bool num_string_double(const char *p, size_t n, double *out);
/* canonical text of a number kept as a string arg */
struct tt_str num_canon(struct tt_scratch *s, double v);

#define TT_INT_LIMIT 9007199254740992.0 /* 2^53: larger integers are out of range */
/* |ts| and baseTimeNanoseconds up to 4e18 ns (trace.h) */
#define TT_TS_LIMIT_NS TT_MAX_TS_NS

/* arg key lookup: TT_A_* or -1 */
int arg_lookup(const char *k, size_t n);
/* what kind of value an arg holds (tt_arg_kind, inline for the fast path) */
static inline enum tt_arg_kind arg_kind(int a)
{
	switch ((enum tt_arg)a) {
	case TT_A_BW:
	case TT_A_OCC:
	case TT_A_BPSM:
	case TT_A_WPSM:
		return TT_AK_DBL;
	case TT_A_GRID:
	case TT_A_BLOCK:
		return TT_AK_DIM3;
	case TT_A_COLL:
	case TT_A_DTYPE:
	case TT_A_PG_NAME:
	case TT_A_PG_ID:
	case TT_A_PG_RANKS:
	case TT_A_CALL_STACK:
	case TT_A_M_NAME:
	case TT_A_M_LABELS:
	case TT_A_MEM_DEVTYPE:
		return TT_AK_STR;
	case TT_A_INPUT_DIMS:
	case TT_A_INPUT_DIMS_OLD:
	case TT_A_INPUT_TYPE:
	case TT_A_INPUT_STRIDES:
	case TT_A_CONCRETE:
		return TT_AK_JSON;
	default:
		return TT_AK_INT;
	}
}

/* shared finishing steps of both paths */
void raw_reset(struct tt_raw_event *ev);
void raw_finish(struct tt_raw_event *ev, struct tt_scratch *scr);
/* repair one kept string (invalid UTF-8, controls) if it needs it */
void raw_fix_str(struct tt_raw_event *ev, struct tt_scratch *scr, struct tt_str *s);
/* integer-valued double -> int arg, with the 2^53 rule */
void raw_set_int_from_double(struct tt_raw_event *ev, int a, double v);
void raw_set_str_int(struct tt_raw_event *ev, int a, struct tt_str s);
void raw_set_str_dbl(struct tt_raw_event *ev, int a, struct tt_str s);
void raw_add_series(struct tt_raw_event *ev, struct tt_str key, double v);
void raw_set_id_str(struct tt_rawid *id, struct tt_str s);
/* ts form flags (last "ts" key wins) */
void raw_ts_flags(struct tt_raw_event *ev, bool is_float, uint32_t frac_digits);

/* check required fields and types after parsing; error rejects the file */
int raw_check(const struct tt_raw_event *ev, struct tt_err *err);

/* cJSON glue (slow.c) */
void cjson_setup(void);

#endif
