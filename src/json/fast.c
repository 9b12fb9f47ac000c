/* The event fast path: one pass over an event object that extracts the
 * fields tracetop keeps and validates everything it skips.  Whatever it does
 * not reproduce exactly as the cJSON path would (escapes in keys, \u escapes
 * in kept strings, unusual JSON-text args) makes it answer TT_EV_FALLBACK,
 * and the caller parses that one event through cJSON instead. */
#include "config.h"

#include <string.h>

#include "json_int.h"

#define SEEN(k) (UINT64_C(1) << (k))
enum { K_PH, K_CAT, K_NAME, K_PID, K_TID, K_TS, K_DUR, K_ID, K_BP, K_S, K_ARGS };

static inline bool num_start(char c)
{
	return c == '-' || (c >= '0' && c <= '9');
}

/* A string value for a kept field.  Non-strings are typed and skipped. */
static int get_str(struct lx *l, const char **pp, uint8_t *type, struct tt_str *out,
		   struct tt_scratch *scr, int depth)
{
	const char *p = *pp;
	int r;
	if (*p == '"') {
		bool esc;
		if ((r = lx_string(l, pp, out, &esc)) != LX_OK)
			return r;
		if (esc) {
			if (memmem(out->p, out->n, "\\u", 2))
				return LX_FALLBACK;
			*out = lx_unescape(scr, *out);
		}
		*type = TT_V_STR;
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
		  int depth)
{
	const char *p = *pp;
	int r;
	if (num_start(*p)) {
		bool is_int, exact;
		int64_t v;
		if ((r = lx_int(l, pp, &is_int, &v, &exact)) != LX_OK)
			return r;
		size_t n = (size_t)(*pp - p);
		if (exact || (is_int && num_parse_int(p, n, &v))) {
			id->type = TT_V_NUM;
			id->num = v;
			return LX_OK;
		}
		double d = num_parse_double(p, n);
		if (d == (double)(int64_t)d && d < TT_INT_LIMIT && d > -TT_INT_LIMIT) {
			id->type = TT_V_NUM;
			id->num = (int64_t)d;
		} else {
			id->type = TT_V_OTHER;
		}
		return LX_OK;
	}
	uint8_t t;
	struct tt_str s;
	if ((r = get_str(l, pp, &t, &s, scr, depth)) != LX_OK)
		return r;
	if (t == TT_V_STR)
		raw_set_id_str(id, s);
	else
		id->type = TT_V_OTHER;
	return LX_OK;
}

static int get_time(struct lx *l, const char **pp, uint8_t *type, int64_t *ns, bool *range_err,
		    uint32_t *fd, bool *is_float, struct tt_scratch *scr, int depth)
{
	const char *p = *pp;
	int r;
	*is_float = false;
	if (num_start(*p)) {
		bool is_int;
		if ((r = lx_number(l, pp, &is_int)) != LX_OK)
			return r;
		*is_float = !is_int;
		*type = TT_V_NUM;
		*range_err = !num_us_to_ns(p, (size_t)(*pp - p), ns, fd);
		return LX_OK;
	}
	struct tt_str s;
	*fd = 0;
	return get_str(l, pp, type, &s, scr, depth);
}

/* ---- JSON-text args (Input Dims, Input type): minified copy ----
 *
 * The common shapes, [[2048, 1], []] and ["float", "Scalar"], are copied
 * without their whitespace in one pass that also checks the grammar.  Any
 * other shape (objects, escapes, reals, long integers) answers LX_FALLBACK:
 * cJSON's printer may write those differently. */

#define MINIFY_MAX 16384 /* longer JSON-text args go through cJSON */

static int minify(struct lx *l, const char **pp, char **o, int depth)
{
	const char *p = *pp, *end = l->end;
	char *w = *o, *wend = *o + MINIFY_MAX - 4;
	int level = 0;
	bool want_value = true; /* a value may come next (else ',' or ']') */
	for (;;) {
		if (p >= end)
			return LX_MORE;
		char c = *p;
		if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
			p++;
			continue;
		}
		if (w >= wend)
			return LX_FALLBACK;
		if (want_value) {
			if (c == '[') {
				if (depth + level > TT_MAX_DEPTH)
					return lx_error(l, p, "nesting deeper than %d levels",
							TT_MAX_DEPTH);
				*w++ = '[';
				p++;
				level++;
				/* an empty array closes at once */
				while (p < end && (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t'))
					p++;
				if (p >= end)
					return LX_MORE;
				if (*p == ']') {
					*w++ = ']';
					p++;
					level--;
					want_value = false;
					if (level == 0)
						break;
				}
				continue;
			}
			if (c == '"') {
				const char *q = p + 1;
				while (q < end && *q != '"' && *q != '\\' && (unsigned char)*q >= 0x20)
					q++;
				if (q >= end)
					return LX_MORE;
				if (*q != '"')
					return LX_FALLBACK;
				if (q + 1 - p > wend - w)
					return LX_FALLBACK;
				memcpy(w, p, (size_t)(q + 1 - p));
				w += q + 1 - p;
				p = q + 1;
			} else if (c == '-' || (c >= '0' && c <= '9')) {
				const char *q = p + (c == '-');
				if (q >= end)
					return LX_MORE;
				if (*q == '0' && c == '-')
					return LX_FALLBACK; /* -0: cJSON prints 0 */
				if (*q < '0' || *q > '9')
					return lx_bad_value(l, p);
				const char *d = q;
				if (*q == '0')
					q++;
				else
					while (q < end && *q >= '0' && *q <= '9')
						q++;
				if (q >= end)
					return LX_MORE;
				/* integers of up to 15 digits print the same in cJSON */
				if (*q == '.' || *q == 'e' || *q == 'E' || (*q >= '0' && *q <= '9') ||
				    q - d > 15)
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
			} else {
				return lx_bad_value(l, p);
			}
			want_value = false;
			if (level == 0)
				break;
			continue;
		}
		/* after a value */
		if (c == ',' && level > 0) {
			*w++ = ',';
			p++;
			want_value = true;
			/* a ']' right after ',' is invalid */
			continue;
		}
		if (c == ']' && level > 0) {
			*w++ = ']';
			p++;
			level--;
			if (level == 0)
				break;
			continue;
		}
		return lx_error(l, p, "expected ',' or ']' in an array");
	}
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
		p = lx_ws(p + 1, end);
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
			bool is_int;
			if ((r = lx_number(l, &p, &is_int)) != LX_OK)
				return r;
			int64_t v;
			if (n >= 3) {
				good = false;
			} else if (is_int && num_parse_int(s, (size_t)(p - s), &v)) {
				d[n] = v;
			} else {
				double x = num_parse_double(s, (size_t)(p - s));
				if (x == (double)(int64_t)x && x < TT_INT_LIMIT && x > -TT_INT_LIMIT)
					d[n] = (int64_t)x;
				else
					good = false;
			}
			n++;
			p = lx_ws(p, end);
			if (p >= end)
				return LX_MORE;
			if (*p == ']')
				break;
			if (*p != ',')
				return lx_error(l, p, "expected ',' or ']' in an array");
			p = lx_ws(p + 1, end);
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

static int parse_args(struct lx *l, const char **pp, struct tt_raw_event *ev,
		      struct tt_scratch *scr, int depth)
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
	uint64_t seen = 0;
	p = lx_ws(p + 1, end);
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
		const char *k = p + 1, *q = lx_find_quote(k, end);
		if (q >= end)
			return LX_MORE;
		if (*q == '\\')
			return LX_FALLBACK;
		size_t kn = (size_t)(q - k);
		if (kn > TT_MAX_STRING)
			return lx_error(l, p, "string longer than %u MiB", TT_MAX_STRING >> 20);
		p = lx_ws(q + 1, end);
		if (p >= end)
			return LX_MORE;
		if (*p != ':')
			return lx_error(l, p, "expected ':' after a key");
		p = lx_ws(p + 1, end);
		if (p >= end)
			return LX_MORE;
		int a = arg_lookup(k, kn);
		if (a >= 0) {
			if (seen & SEEN(a))
				ev->flags |= TT_RF_DUP_KEY;
			seen |= SEEN(a);
			ev->have &= ~TT_HAVE(a);
		}
		const char *v = p;
		if (a < 0) {
			if (num_start(*p)) {
				if ((r = lx_number(l, &p, NULL)) != LX_OK)
					return r;
				struct tt_str key = {k, (uint32_t)kn};
				raw_add_series(ev, key, num_parse_double(v, (size_t)(p - v)));
			} else if ((r = lx_value(l, &p, depth + 1)) != LX_OK) {
				return r;
			}
		} else {
			switch (tt_arg_kind(a)) {
			case TT_AK_INT:
				if (num_start(*p)) {
					bool is_int, exact;
					int64_t x;
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
					if ((r = get_str(l, &p, &t, &s, scr, depth + 1)) != LX_OK)
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
					if ((r = get_str(l, &p, &t, &s, scr, depth + 1)) != LX_OK)
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
					if ((r = get_str(l, &p, &t, &ev->s_arg[a], scr, depth + 1)) !=
					    LX_OK)
						return r;
					ev->have |= TT_HAVE(a);
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
				break;
			}
			}
		}
		p = lx_ws(p, end);
		if (p >= end)
			return LX_MORE;
		if (*p == ',') {
			p = lx_ws(p + 1, end);
			continue;
		}
		if (*p == '}') {
			*pp = p + 1;
			return LX_OK;
		}
		return lx_error(l, p, "expected ',' or '}' in args");
	}
}

enum tt_event_res tt_event_fast(const char *p0, const char *end, uint64_t base, int depth,
				struct tt_raw_event *ev, size_t *used, struct tt_scratch *scr,
				struct tt_err *err)
{
	struct lx l = {p0, base, end, err, false};
	raw_reset(ev);
	ev->offset = base;
	const char *p = p0;
	uint64_t seen = 0;
	int r = LX_OK;
	if (depth > TT_MAX_DEPTH) {
		lx_error(&l, p, "nesting deeper than %d levels", TT_MAX_DEPTH);
		return TT_EV_ERROR;
	}
	p = lx_ws(p + 1, end);
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
		const char *k = p + 1, *q = lx_find_quote(k, end);
		if (q >= end)
			return TT_EV_MORE;
		if (*q == '\\')
			return TT_EV_FALLBACK;
		size_t kn = (size_t)(q - k);
		p = lx_ws(q + 1, end);
		if (p >= end)
			return TT_EV_MORE;
		if (*p != ':') {
			lx_error(&l, p, "expected ':' after a key");
			return TT_EV_ERROR;
		}
		p = lx_ws(p + 1, end);
		if (p >= end)
			return TT_EV_MORE;
		int key = -1;
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
			if (seen & SEEN(key))
				ev->flags |= TT_RF_DUP_KEY;
			seen |= SEEN(key);
		}
		uint32_t fd = 0;
		bool is_float = false;
		switch (key) {
		case K_PH:
			r = get_str(&l, &p, &ev->ph_type, &ev->ph, scr, depth + 1);
			break;
		case K_CAT:
			r = get_str(&l, &p, &ev->cat_type, &ev->cat, scr, depth + 1);
			break;
		case K_NAME:
			r = get_str(&l, &p, &ev->name_type, &ev->name, scr, depth + 1);
			break;
		case K_BP:
			r = get_str(&l, &p, &ev->bp_type, &ev->bp, scr, depth + 1);
			break;
		case K_S:
			r = get_str(&l, &p, &ev->s_type, &ev->s, scr, depth + 1);
			break;
		case K_PID:
			r = get_id(&l, &p, &ev->pid, scr, depth + 1);
			break;
		case K_TID:
			r = get_id(&l, &p, &ev->tid, scr, depth + 1);
			break;
		case K_ID:
			r = get_id(&l, &p, &ev->id, scr, depth + 1);
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
			r = parse_args(&l, &p, ev, scr, depth + 1);
			break;
		default:
			r = lx_value(&l, &p, depth + 1);
			break;
		}
		if (r != LX_OK)
			goto out;
		p = lx_ws(p, end);
		if (p >= end)
			return TT_EV_MORE;
		if (*p == ',') {
			p = lx_ws(p + 1, end);
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
	raw_finish(ev, scr);
	*used = (size_t)(p - p0);
	return TT_EV_OK;
out:
	if (r == LX_MORE)
		return TT_EV_MORE;
	if (r == LX_FALLBACK)
		return TT_EV_FALLBACK;
	return TT_EV_ERROR;
}
