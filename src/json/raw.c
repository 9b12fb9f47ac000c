/* The raw event record: arg table, the finishing steps shared by the fast
 * path and the cJSON path, required-field checks, and record comparison. */
#include "config.h"

#include <math.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_int.h"
#include "tracetop/utf8.h"
#include "tracetop/util.h"

static const char *const arg_keys[] = {
#define _(id, key) key,
	TT_ARGS(_)
#undef _
};

const char *tt_arg_key(enum tt_arg a)
{
	return (unsigned)a < TT_A_COUNT ? arg_keys[a] : "";
}

enum tt_arg_kind tt_arg_kind(enum tt_arg a)
{
	return arg_kind(a);
}

/* keys by length, then bytes: one switch, no setup */
int arg_lookup(const char *k, size_t n)
{
	switch (n) {
	case 4:
		if (memcmp(k, arg_keys[TT_A_CBID], 4) == 0)
			return TT_A_CBID;
		if (memcmp(k, arg_keys[TT_A_GRID], 4) == 0)
			return TT_A_GRID;
		if (memcmp(k, arg_keys[TT_A_M_NAME], 4) == 0)
			return TT_A_M_NAME;
		if (memcmp(k, arg_keys[TT_A_MEM_ADDR], 4) == 0)
			return TT_A_MEM_ADDR;
		break;
	case 5:
		if (memcmp(k, arg_keys[TT_A_BYTES], 5) == 0)
			return TT_A_BYTES;
		if (memcmp(k, arg_keys[TT_A_BLOCK], 5) == 0)
			return TT_A_BLOCK;
		if (memcmp(k, arg_keys[TT_A_DTYPE], 5) == 0)
			return TT_A_DTYPE;
		if (memcmp(k, arg_keys[TT_A_MEM_BYTES], 5) == 0)
			return TT_A_MEM_BYTES;
		break;
	case 6:
		if (memcmp(k, arg_keys[TT_A_STREAM], 6) == 0)
			return TT_A_STREAM;
		if (memcmp(k, arg_keys[TT_A_DEVICE], 6) == 0)
			return TT_A_DEVICE;
		if (memcmp(k, arg_keys[TT_A_M_LABELS], 6) == 0)
			return TT_A_M_LABELS;
		break;
	case 9:
		if (memcmp(k, arg_keys[TT_A_MEM_DEVICE], 9) == 0)
			return TT_A_MEM_DEVICE;
		break;
	case 10:
		if (memcmp(k, arg_keys[TT_A_GROUP_SIZE], 10) == 0)
			return TT_A_GROUP_SIZE;
		if (memcmp(k, arg_keys[TT_A_INPUT_DIMS], 10) == 0)
			return TT_A_INPUT_DIMS;
		if (memcmp(k, arg_keys[TT_A_INPUT_DIMS_OLD], 10) == 0)
			return TT_A_INPUT_DIMS_OLD;
		if (memcmp(k, arg_keys[TT_A_INPUT_TYPE], 10) == 0)
			return TT_A_INPUT_TYPE;
		if (memcmp(k, arg_keys[TT_A_CALL_STACK], 10) == 0)
			return TT_A_CALL_STACK;
		if (memcmp(k, arg_keys[TT_A_M_SORT], 10) == 0)
			return TT_A_M_SORT;
		break;
	case 11:
		if (memcmp(k, arg_keys[TT_A_CORR], 11) == 0)
			return TT_A_CORR;
		if (memcmp(k, arg_keys[TT_A_EXT], 11) == 0)
			return TT_A_EXT;
		if (memcmp(k, arg_keys[TT_A_MEM_DEVTYPE], 11) == 0)
			return TT_A_MEM_DEVTYPE;
		break;
	case 12:
		if (memcmp(k, arg_keys[TT_A_WPSM], 12) == 0)
			return TT_A_WPSM;
		break;
	case 13:
		if (memcmp(k, arg_keys[TT_A_SHMEM], 13) == 0)
			return TT_A_SHMEM;
		if (memcmp(k, arg_keys[TT_A_BPSM], 13) == 0)
			return TT_A_BPSM;
		if (memcmp(k, arg_keys[TT_A_IN_NELEMS], 13) == 0)
			return TT_A_IN_NELEMS;
		if (memcmp(k, arg_keys[TT_A_FWD_TID], 13) == 0)
			return TT_A_FWD_TID;
		if (memcmp(k, arg_keys[TT_A_INPUT_STRIDES], 13) == 0)
			return TT_A_INPUT_STRIDES;
		break;
	case 14:
		if (memcmp(k, arg_keys[TT_A_OUT_NELEMS], 14) == 0)
			return TT_A_OUT_NELEMS;
		if (memcmp(k, arg_keys[TT_A_MEM_RESERVED], 14) == 0)
			return TT_A_MEM_RESERVED;
		if (memcmp(k, arg_keys[TT_A_WAIT_STREAM], 14) == 0)
			return TT_A_WAIT_STREAM;
		break;
	case 15:
		if (memcmp(k, arg_keys[TT_A_COLL], 15) == 0)
			return TT_A_COLL;
		if (memcmp(k, arg_keys[TT_A_SEQ], 15) == 0)
			return TT_A_SEQ;
		if (memcmp(k, arg_keys[TT_A_MEM_ALLOC], 15) == 0)
			return TT_A_MEM_ALLOC;
		if (memcmp(k, arg_keys[TT_A_CONCRETE], 15) == 0)
			return TT_A_CONCRETE;
		break;
	case 16:
		if (memcmp(k, arg_keys[TT_A_PG_ID], 16) == 0)
			return TT_A_PG_ID;
		break;
	case 18:
		if (memcmp(k, arg_keys[TT_A_PG_NAME], 18) == 0)
			return TT_A_PG_NAME;
		break;
	case 19:
		if (memcmp(k, arg_keys[TT_A_PG_RANKS], 19) == 0)
			return TT_A_PG_RANKS;
		break;
	case 20:
		if (memcmp(k, arg_keys[TT_A_REGS], 20) == 0)
			return TT_A_REGS;
		break;
	case 23:
		if (memcmp(k, arg_keys[TT_A_BW], 23) == 0)
			return TT_A_BW;
		break;
	case 25:
		if (memcmp(k, arg_keys[TT_A_OCC], 25) == 0)
			return TT_A_OCC;
		break;
	case 33:
		if (memcmp(k, arg_keys[TT_A_WAIT_CORR], 33) == 0)
			return TT_A_WAIT_CORR;
		break;
	}
	return -1;
}

void raw_reset(struct tt_raw_event *ev)
{
	/* only the presence markers need resetting; values are read behind them */
	ev->flags = 0;
	ev->ph_type = ev->cat_type = ev->name_type = ev->ts_type = ev->dur_type = 0;
	ev->id_type = ev->bp_type = ev->s_type = 0;
	ev->pid.type = ev->tid.type = ev->id.type = 0;
	ev->ts_range_err = ev->dur_range_err = false;
	ev->ts_ns = ev->dur_ns = 0;
	ev->have = 0;
	ev->nseries = 0;
	ev->series_dropped = 0;
}

void raw_set_int_from_double(struct tt_raw_event *ev, int a, double v)
{
	if (v == floor(v) && fabs(v) < TT_INT_LIMIT) {
		ev->i[a] = (int64_t)v;
		ev->have |= TT_HAVE(a);
	} else {
		ev->have &= ~TT_HAVE(a);
		ev->flags |= TT_RF_BIG_INT;
	}
}

void raw_set_str_int(struct tt_raw_event *ev, int a, struct tt_str s)
{
	int64_t v;
	if (a == TT_A_STREAM) {
		/* ROCm traces give runtime calls a stream as a string ("0x0"):
		 * HTA reads it as no stream, so those calls stay on the CPU side */
		ev->have &= ~TT_HAVE(a);
		ev->flags |= TT_RF_NUM_STRING;
		return;
	}
	if (num_string_int(s.p, s.n, &v)) {
		ev->i[a] = v;
		ev->have |= TT_HAVE(a);
		ev->flags |= TT_RF_NUM_STRING;
	} else {
		ev->have &= ~TT_HAVE(a);
		ev->flags |= TT_RF_BAD_ARG;
	}
}

void raw_set_str_dbl(struct tt_raw_event *ev, int a, struct tt_str s)
{
	double v;
	if (num_string_double(s.p, s.n, &v)) {
		ev->d[a] = v;
		ev->have |= TT_HAVE(a);
		ev->flags |= TT_RF_NUM_STRING;
	} else {
		ev->have &= ~TT_HAVE(a);
		ev->flags |= TT_RF_BAD_ARG;
	}
}

void raw_add_series(struct tt_raw_event *ev, struct tt_str key, double v)
{
	if (ev->nseries < TT_MAX_SERIES) {
		ev->series[ev->nseries].key = key;
		ev->series[ev->nseries].value = v;
		ev->nseries++;
	} else {
		ev->series_dropped++;
	}
}

void raw_set_id_str(struct tt_rawid *id, struct tt_str s)
{
	id->type = TT_V_STR;
	id->str = s;
	/* the trailing integer of e.g. "stream 7" */
	size_t i = s.n;
	while (i > 0 && s.p[i - 1] >= '0' && s.p[i - 1] <= '9')
		i--;
	int64_t v = 0;
	if (i < s.n && s.n - i <= 15) {
		for (size_t j = i; j < s.n; j++)
			v = v * 10 + (s.p[j] - '0');
	}
	id->num = v;
}

void raw_ts_flags(struct tt_raw_event *ev, bool is_float, uint32_t frac_digits)
{
	ev->flags &= ~(uint32_t)(TT_RF_TS_FLOAT | TT_RF_TS_SHORTFRAC | TT_RF_TS_FRAC3);
	if (ev->ts_type != TT_V_NUM)
		return;
	if (is_float)
		ev->flags |= TT_RF_TS_FLOAT;
	if (frac_digits == 1 || frac_digits == 2)
		ev->flags |= TT_RF_TS_SHORTFRAC;
	else if (frac_digits == 3)
		ev->flags |= TT_RF_TS_FRAC3;
}

/* ---- string repair ---- */

/* the length of the valid UTF-8 sequence at p (not ASCII), or 0 */
static size_t utf8_seq_len(const unsigned char *p, size_t left)
{
	uint32_t cp;
	return tt_utf8_decode((const char *)p, left, &cp);
}

static bool needs_repair(struct tt_str s)
{
	const unsigned char *p = (const unsigned char *)s.p;
	uint32_t i = 0;
#if defined(__SSE2__)
	/* plain printable ASCII, 16 bytes at a time: as signed bytes, both
	 * controls (< 0x20) and non-ASCII (>= 0x80) are below 0x20 */
	const __m128i lo = _mm_set1_epi8(0x20), del = _mm_set1_epi8(0x7F);
	if (s.n >= 16) {
		for (; i + 16 <= s.n; i += 16) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
			__m128i bad = _mm_or_si128(_mm_cmplt_epi8(v, lo), _mm_cmpeq_epi8(v, del));
			if (_mm_movemask_epi8(bad))
				break;
		}
		if (i + 16 > s.n && i < s.n) {
			/* the tail, as one block overlapping the previous one */
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + s.n - 16));
			__m128i bad = _mm_or_si128(_mm_cmplt_epi8(v, lo), _mm_cmpeq_epi8(v, del));
			if (!_mm_movemask_epi8(bad))
				return false;
		}
	}
#endif
	for (; i < s.n; i++) {
		if (p[i] < 0x20 || p[i] == 0x7F)
			return true;
		if (p[i] >= 0x80) {
			size_t k = utf8_seq_len(p + i, s.n - i);
			if (!k)
				return true;
			i += (uint32_t)k - 1;
		}
	}
	return false;
}

static struct tt_str repair(struct tt_scratch *scr, struct tt_str s)
{
	char *out = tt_arena_alloc(&scr->arena, (size_t)s.n * 3 + 1);
	char *o = out;
	const unsigned char *p = (const unsigned char *)s.p;
	for (uint32_t i = 0; i < s.n;) {
		size_t k = 1;
		if (p[i] < 0x20 || p[i] == 0x7F) {
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3;
		} else if (p[i] < 0x80) {
			*o++ = (char)p[i];
		} else if ((k = utf8_seq_len(p + i, s.n - i)) != 0) {
			memcpy(o, p + i, k);
			o += k;
		} else {
			k = 1;
			memcpy(o, "\xEF\xBF\xBD", 3);
			o += 3;
		}
		i += (uint32_t)k;
	}
	*o = '\0';
	struct tt_str r = {out, (uint32_t)(o - out)};
	return r;
}

void raw_fix_str(struct tt_raw_event *ev, struct tt_scratch *scr, struct tt_str *s)
{
	if (s->n && needs_repair(*s)) {
		*s = repair(scr, *s);
		ev->flags |= TT_RF_BAD_UTF8;
	}
}

void raw_finish(struct tt_raw_event *ev, struct tt_scratch *scr)
{
	if (ev->ph_type == TT_V_STR)
		raw_fix_str(ev, scr, &ev->ph);
	if (ev->cat_type == TT_V_STR)
		raw_fix_str(ev, scr, &ev->cat);
	if (ev->name_type == TT_V_STR)
		raw_fix_str(ev, scr, &ev->name);
	if (ev->bp_type == TT_V_STR)
		raw_fix_str(ev, scr, &ev->bp);
	if (ev->s_type == TT_V_STR)
		raw_fix_str(ev, scr, &ev->s);
	if (ev->pid.type == TT_V_STR)
		raw_fix_str(ev, scr, &ev->pid.str);
	if (ev->tid.type == TT_V_STR)
		raw_fix_str(ev, scr, &ev->tid.str);
	if (ev->id.type == TT_V_STR)
		raw_fix_str(ev, scr, &ev->id.str);
	uint64_t h = ev->have;
	while (h) {
		int a = __builtin_ctzll(h);
		h &= h - 1;
		enum tt_arg_kind k = tt_arg_kind(a);
		if (k == TT_AK_STR || k == TT_AK_JSON)
			raw_fix_str(ev, scr, &ev->s_arg[a]);
	}
	for (uint32_t i = 0; i < ev->nseries; i++)
		raw_fix_str(ev, scr, &ev->series[i].key);
}

/* ---- required fields ---- */

static bool ph_needs_ts(char c)
{
	switch (c) {
	case 'X':
	case 'B':
	case 'E':
	case 'i':
	case 'I':
	case 'C':
	case 's':
	case 't':
	case 'f':
	case '\0': /* (as strchr() found the terminator) */
		return true;
	default:
		return false;
	}
}

static int type_error(struct tt_err *err, const struct tt_raw_event *ev, const char *what)
{
	if (err) {
		err->code = TT_E_TYPE;
		err->offset = ev->offset;
		snprintf(err->msg, sizeof(err->msg), "event %llu: %s",
			 (unsigned long long)ev->index, what);
	}
	return -TT_E_TYPE;
}

int raw_check(const struct tt_raw_event *ev, struct tt_err *err)
{
	if (ev->ph_type == TT_V_ABSENT)
		return 1 + TT_W_NO_PH;
	if (ev->ph_type != TT_V_STR)
		return type_error(err, ev, "'ph' is not a string");
	if (ev->pid.type == TT_V_OTHER)
		return type_error(err, ev, "'pid' is neither an integer nor a string");
	if (ev->tid.type == TT_V_OTHER)
		return type_error(err, ev, "'tid' is neither an integer nor a string");
	char ph = ev->ph.n == 1 ? ev->ph.p[0] : '?';
	if (ev->ph.n == 1 && ph_needs_ts(ph)) {
		if (ev->ts_type == TT_V_ABSENT)
			return 1 + TT_W_NO_TS;
		if (ev->ts_type != TT_V_NUM)
			return type_error(err, ev, "'ts' is not a number");
		if (ev->ts_range_err)
			return type_error(err, ev, "'ts' is beyond the int64 nanosecond range");
		if (ev->ts_ns > TT_TS_LIMIT_NS || ev->ts_ns < -TT_TS_LIMIT_NS)
			return type_error(err, ev, "'ts' is more than 4e18 ns (127 years) from 1970");
	}
	if (ph == 'X') {
		if (ev->dur_type == TT_V_ABSENT)
			return 1 + TT_W_NO_DUR;
		if (ev->dur_type != TT_V_NUM)
			return type_error(err, ev, "'dur' is not a number");
		/* a duration beyond int64 ns is over 7 days (or negative):
		 * the event is dropped and counted, the file is not rejected */
		if (ev->dur_range_err)
			return 1 + (ev->dur_ns < 0 ? TT_W_NEG_DUR : TT_W_LONG_DUR);
	}
	return 0;
}

/* ---- comparison ---- */

static bool str_eq(struct tt_str a, struct tt_str b)
{
	return a.n == b.n && (a.n == 0 || memcmp(a.p, b.p, a.n) == 0);
}

static bool id_eq(const struct tt_rawid *a, const struct tt_rawid *b)
{
	if (a->type != b->type)
		return false;
	if (a->type == TT_V_NUM)
		return a->num == b->num;
	if (a->type == TT_V_STR)
		return str_eq(a->str, b->str) && a->num == b->num;
	return true;
}

const char *tt_raw_diff(const struct tt_raw_event *a, const struct tt_raw_event *b)
{
	if (a->offset != b->offset)
		return "offset";
	if ((a->flags & ~TT_RF_SLOW) != (b->flags & ~TT_RF_SLOW))
		return "flags";
#define CMPSTR(f)                                                             \
	if (a->f##_type != b->f##_type ||                                     \
	    (a->f##_type == TT_V_STR && !str_eq(a->f, b->f)))                 \
		return #f;
	CMPSTR(ph)
	CMPSTR(cat)
	CMPSTR(name)
	CMPSTR(bp)
	CMPSTR(s)
#undef CMPSTR
	if (!id_eq(&a->pid, &b->pid))
		return "pid";
	if (!id_eq(&a->tid, &b->tid))
		return "tid";
	if (!id_eq(&a->id, &b->id))
		return "id";
	if (a->ts_type != b->ts_type || a->ts_range_err != b->ts_range_err ||
	    (a->ts_type == TT_V_NUM && !a->ts_range_err && a->ts_ns != b->ts_ns))
		return "ts";
	if (a->dur_type != b->dur_type || a->dur_range_err != b->dur_range_err ||
	    (a->dur_type == TT_V_NUM && !a->dur_range_err && a->dur_ns != b->dur_ns))
		return "dur";
	if (a->have != b->have)
		return "args (which are present)";
	uint64_t h = a->have;
	while (h) {
		int x = __builtin_ctzll(h);
		h &= h - 1;
		switch (tt_arg_kind(x)) {
		case TT_AK_INT:
			if (a->i[x] != b->i[x])
				return tt_arg_key(x);
			break;
		case TT_AK_DBL:
			if (memcmp(&a->d[x], &b->d[x], sizeof(double)) != 0)
				return tt_arg_key(x);
			break;
		case TT_AK_STR:
		case TT_AK_JSON:
			if (!str_eq(a->s_arg[x], b->s_arg[x]))
				return tt_arg_key(x);
			break;
		case TT_AK_DIM3: {
			int k = x == TT_A_GRID ? 0 : 1;
			if (memcmp(a->dim[k], b->dim[k], sizeof(a->dim[k])) != 0)
				return tt_arg_key(x);
			break;
		}
		}
	}
	if (a->nseries != b->nseries || a->series_dropped != b->series_dropped)
		return "counter series";
	for (uint32_t i = 0; i < a->nseries; i++)
		if (!str_eq(a->series[i].key, b->series[i].key) ||
		    memcmp(&a->series[i].value, &b->series[i].value, sizeof(double)) != 0)
			return "counter series";
	return NULL;
}

/* ---- scratch ---- */

struct tt_scratch *tt_scratch_new(void)
{
	struct tt_scratch *s = tt_calloc(1, sizeof(*s));
	tt_arena_init(&s->arena, 256 * 1024);
	return s;
}

void tt_scratch_free(struct tt_scratch *s)
{
	if (!s)
		return;
	tt_arena_free(&s->arena);
	free(s);
}

void tt_scratch_reset(struct tt_scratch *s)
{
	tt_arena_reset(&s->arena);
}
