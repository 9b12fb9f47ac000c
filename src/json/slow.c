/* The cJSON path: validate the event with our strict lexer (recording the
 * text of "ts" and "dur", which a double cannot hold exactly), then parse it
 * with cJSON into an arena and read the same fields the fast path reads.
 * This is also the oracle the fast path is tested against. */
#include "config.h"

#include <cjson/cJSON.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "json_int.h"
#include "tracetop/util.h"

static _Thread_local struct tt_arena *cj_arena;

static void *cj_malloc(size_t n)
{
	if (cj_arena)
		return tt_arena_alloc(cj_arena, n);
	return malloc(n);
}

static void cj_free(void *p)
{
	if (!cj_arena)
		free(p);
}

static pthread_once_t cj_once = PTHREAD_ONCE_INIT;

static void cj_init(void)
{
	cJSON_Hooks h = {cj_malloc, cj_free};
	cJSON_InitHooks(&h);
}

void cjson_setup(void)
{
	pthread_once(&cj_once, cj_init);
}

/* ---- validation of the event object, capturing ts and dur text ---- */

static int validate_event(struct lx *l, const char **pp, int depth, struct tt_str *ts_txt,
			  struct tt_str *dur_txt, struct tt_scratch *scr)
{
	const char *p = *pp, *end = l->end;
	int r;
	if (depth > TT_MAX_DEPTH)
		return lx_error(l, p, "nesting deeper than %d levels", TT_MAX_DEPTH);
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
		struct tt_str key;
		bool esc;
		if ((r = lx_string(l, &p, &key, &esc)) != LX_OK)
			return r;
		if (esc)
			key = lx_unescape(scr, key);
		p = lx_ws(p, end);
		if (p >= end)
			return LX_MORE;
		if (*p != ':')
			return lx_error(l, p, "expected ':' after a key");
		p = lx_ws(p + 1, end);
		const char *v = p;
		if ((r = lx_value(l, &p, depth + 1)) != LX_OK)
			return r;
		if (*v == '-' || (*v >= '0' && *v <= '9')) {
			struct tt_str t = {v, (uint32_t)(p - v)};
			if (key.n == 2 && memcmp(key.p, "ts", 2) == 0)
				*ts_txt = t;
			else if (key.n == 3 && memcmp(key.p, "dur", 3) == 0)
				*dur_txt = t;
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
		return lx_error(l, p, "expected ',' or '}' after a field of the event");
	}
}

/* Replace \u0000 and lone surrogates by \uFFFD (same length) so that cJSON
 * neither truncates a string nor refuses the event. */
static void patch_escapes(char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] != '\\')
			continue;
		if (s[i + 1] != 'u') {
			i++;
			continue;
		}
		unsigned u = (unsigned)strtoul((char[5]){s[i + 2], s[i + 3], s[i + 4], s[i + 5], 0},
					       NULL, 16);
		bool bad = u == 0 || (u >= 0xDC00 && u <= 0xDFFF);
		if (u >= 0xD800 && u <= 0xDBFF) {
			unsigned lo = 0;
			if (i + 11 < n && s[i + 6] == '\\' && s[i + 7] == 'u')
				lo = (unsigned)strtoul(
					(char[5]){s[i + 8], s[i + 9], s[i + 10], s[i + 11], 0}, NULL,
					16);
			if (lo >= 0xDC00 && lo <= 0xDFFF) {
				i += 11;
				continue;
			}
			bad = true;
		}
		if (bad)
			memcpy(s + i + 2, "FFFD", 4);
		i += 5;
	}
}

/* ---- reading the tree ---- */

static struct tt_str cj_string(const cJSON *c)
{
	struct tt_str s = {c->valuestring, (uint32_t)strlen(c->valuestring)};
	return s;
}

static void cj_str(const cJSON *c, uint8_t *type, struct tt_str *out)
{
	if (cJSON_IsString(c)) {
		*type = TT_V_STR;
		*out = cj_string(c);
	} else if (cJSON_IsNumber(c)) {
		*type = TT_V_NUM;
	} else {
		*type = TT_V_OTHER;
	}
}

static void cj_id(const cJSON *c, struct tt_rawid *id)
{
	if (cJSON_IsNumber(c)) {
		double d = c->valuedouble;
		if (d < TT_INT_LIMIT && d > -TT_INT_LIMIT && d == (double)(int64_t)d) {
			id->type = TT_V_NUM;
			id->num = (int64_t)d;
		} else {
			id->type = TT_V_OTHER;
		}
	} else if (cJSON_IsString(c)) {
		raw_set_id_str(id, cj_string(c));
	} else {
		id->type = TT_V_OTHER;
	}
}

static void cj_time(const cJSON *c, struct tt_str txt, uint8_t *type, int64_t *ns,
		    bool *range_err, uint32_t *fd, bool *is_float)
{
	*fd = 0;
	*is_float = false;
	if (cJSON_IsNumber(c)) {
		*type = TT_V_NUM;
		*range_err = !num_us_to_ns(txt.p, txt.n, ns, fd);
		*is_float = memchr(txt.p, '.', txt.n) || memchr(txt.p, 'e', txt.n) ||
			    memchr(txt.p, 'E', txt.n);
	} else if (cJSON_IsString(c)) {
		*type = TT_V_STR;
	} else {
		*type = TT_V_OTHER;
	}
}

static void cj_args(const cJSON *obj, struct tt_raw_event *ev, struct tt_scratch *scr)
{
	if (!cJSON_IsObject(obj)) {
		ev->flags |= TT_RF_BAD_ARG;
		return;
	}
	ev->flags |= TT_RF_HAS_ARGS;
	ev->have = 0;
	ev->nseries = 0;
	ev->series_dropped = 0;
	uint64_t seen = 0;
	for (const cJSON *c = obj->child; c; c = c->next) {
		size_t kn = strlen(c->string);
		int a = arg_lookup(c->string, kn);
		if (a < 0) {
			if (cJSON_IsNumber(c)) {
				struct tt_str key = {c->string, (uint32_t)kn};
				raw_add_series(ev, key, c->valuedouble);
			}
			continue;
		}
		if (seen & TT_HAVE(a))
			ev->flags |= TT_RF_DUP_KEY;
		seen |= TT_HAVE(a);
		ev->have &= ~TT_HAVE(a);
		switch (tt_arg_kind(a)) {
		case TT_AK_INT:
			if (cJSON_IsNumber(c))
				raw_set_int_from_double(ev, a, c->valuedouble);
			else if (cJSON_IsString(c))
				raw_set_str_int(ev, a, cj_string(c));
			else
				ev->flags |= TT_RF_BAD_ARG;
			break;
		case TT_AK_DBL:
			if (cJSON_IsNumber(c)) {
				ev->d[a] = c->valuedouble;
				ev->have |= TT_HAVE(a);
			} else if (cJSON_IsString(c)) {
				raw_set_str_dbl(ev, a, cj_string(c));
			} else {
				ev->flags |= TT_RF_BAD_ARG;
			}
			break;
		case TT_AK_STR:
			if (cJSON_IsString(c)) {
				ev->s_arg[a] = cj_string(c);
				ev->have |= TT_HAVE(a);
			} else if (cJSON_IsNumber(c)) {
				ev->s_arg[a] = num_canon(scr, c->valuedouble);
				ev->have |= TT_HAVE(a);
			} else {
				ev->flags |= TT_RF_BAD_ARG;
			}
			break;
		case TT_AK_DIM3: {
			int64_t *d = ev->dim[a == TT_A_GRID ? 0 : 1];
			bool ok = cJSON_IsArray(c) && cJSON_GetArraySize(c) == 3;
			int i = 0;
			for (const cJSON *e = ok ? c->child : NULL; e; e = e->next, i++) {
				double x = e->valuedouble;
				if (!cJSON_IsNumber(e) || !(x < TT_INT_LIMIT && x > -TT_INT_LIMIT) ||
				    x != (double)(int64_t)x) {
					ok = false;
					break;
				}
				d[i] = (int64_t)x;
			}
			if (ok)
				ev->have |= TT_HAVE(a);
			else
				ev->flags |= TT_RF_BAD_ARG;
			break;
		}
		case TT_AK_JSON: {
			char *s = cJSON_PrintUnformatted(c);
			if (s) {
				ev->s_arg[a].p = s;
				ev->s_arg[a].n = (uint32_t)strlen(s);
				ev->have |= TT_HAVE(a);
			}
			break;
		}
		}
	}
}

enum { K_PH, K_CAT, K_NAME, K_PID, K_TID, K_TS, K_DUR, K_ID, K_BP, K_S, K_ARGS };

static int top_key(const char *k)
{
	static const char *const names[] = {"ph", "cat", "name", "pid", "tid", "ts",
					    "dur", "id",  "bp",   "s",   "args"};
	for (int i = 0; i < (int)TT_ARRAY_SIZE(names); i++)
		if (strcmp(k, names[i]) == 0)
			return i;
	return -1;
}

enum tt_event_res tt_event_slow(const char *p0, const char *end, uint64_t base, int depth,
				struct tt_raw_event *ev, size_t *used, struct tt_scratch *scr,
				struct tt_err *err)
{
	struct lx l = {p0, base, end, err, false};
	struct tt_str ts_txt = {"", 0}, dur_txt = {"", 0};
	const char *p = p0;
	int r = validate_event(&l, &p, depth, &ts_txt, &dur_txt, scr);
	if (r == LX_MORE)
		return TT_EV_MORE;
	if (r != LX_OK)
		return TT_EV_ERROR;
	size_t n = (size_t)(p - p0);
	const char *text = p0;
	/* a raw NUL (only valid inside a string: the lexer checked) would end
	 * the string in cJSON; as 0x01 it is repaired to U+FFFD like any
	 * control character, as the fast path does */
	bool nul = memchr(p0, 0, n) != NULL;
	if (l.bad_u || nul) {
		char *copy = tt_arena_alloc(&scr->arena, n + 1);
		memcpy(copy, p0, n);
		copy[n] = '\0';
		if (l.bad_u)
			patch_escapes(copy, n);
		for (size_t i = 0; nul && i < n; i++)
			if (copy[i] == '\0')
				copy[i] = 1;
		text = copy;
	}

	cjson_setup();
	struct tt_arena *saved = cj_arena;
	cj_arena = &scr->arena;
	cJSON *root = cJSON_ParseWithLengthOpts(text, n, NULL, 0);
	if (!root) {
		cj_arena = saved;
		lx_error(&l, p0, "event not accepted by cJSON");
		return TT_EV_ERROR;
	}
	raw_reset(ev);
	ev->offset = base;
	ev->flags |= TT_RF_SLOW;
	uint64_t seen = 0;
	for (const cJSON *c = root->child; c; c = c->next) {
		int key = top_key(c->string);
		if (key < 0)
			continue;
		if (seen & (UINT64_C(1) << key))
			ev->flags |= TT_RF_DUP_KEY;
		seen |= UINT64_C(1) << key;
		uint32_t fd;
		bool is_float;
		switch (key) {
		case K_PH:
			cj_str(c, &ev->ph_type, &ev->ph);
			break;
		case K_CAT:
			cj_str(c, &ev->cat_type, &ev->cat);
			break;
		case K_NAME:
			cj_str(c, &ev->name_type, &ev->name);
			break;
		case K_BP:
			cj_str(c, &ev->bp_type, &ev->bp);
			break;
		case K_S:
			cj_str(c, &ev->s_type, &ev->s);
			break;
		case K_PID:
			cj_id(c, &ev->pid);
			break;
		case K_TID:
			cj_id(c, &ev->tid);
			break;
		case K_ID:
			cj_id(c, &ev->id);
			ev->id_type = ev->id.type;
			break;
		case K_TS:
			cj_time(c, ts_txt, &ev->ts_type, &ev->ts_ns, &ev->ts_range_err, &fd,
				&is_float);
			raw_ts_flags(ev, is_float, fd);
			break;
		case K_DUR:
			cj_time(c, dur_txt, &ev->dur_type, &ev->dur_ns, &ev->dur_range_err, &fd,
				&is_float);
			break;
		case K_ARGS:
			cj_args(c, ev, scr);
			break;
		}
	}
	cj_arena = saved;
	raw_finish(ev, scr);
	*used = n;
	return TT_EV_OK;
}

