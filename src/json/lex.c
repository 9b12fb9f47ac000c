/* Validating skips over JSON text: strings, numbers, literals, containers.
 * Strict RFC 8259 grammar; NaN and Infinity are named in the error. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json_int.h"
#include "tracetop/utf8.h"

int lx_error(struct lx *l, const char *p, const char *fmt, ...)
{
	if (l->err) {
		va_list ap;
		va_start(ap, fmt);
		l->err->code = TT_E_SYNTAX;
		l->err->offset = lx_off(l, p);
		vsnprintf(l->err->msg, sizeof(l->err->msg), fmt, ap);
		va_end(ap);
	}
	return LX_ERR;
}

const unsigned char lx_ws_tab[256] = {[' '] = 1, ['\n'] = 1, ['\r'] = 1, ['\t'] = 1};

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static int read_u4(const char *p)
{
	int v = 0;
	for (int i = 0; i < 4; i++) {
		int h = hexval((unsigned char)p[i]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

int lx_string(struct lx *l, const char **pp, struct tt_str *raw, bool *esc)
{
	const char *start = *pp + 1, *p = start, *end = l->end;
	bool e = false;
	for (;;) {
		p = lx_find_quote(p, end);
		if ((size_t)(p - start) > TT_MAX_STRING)
			return lx_error(l, start - 1, "string longer than %u MiB", TT_MAX_STRING >> 20);
		if (p >= end)
			return LX_MORE;
		if (*p == '"')
			break;
		/* backslash */
		e = true;
		if (p + 1 >= end)
			return LX_MORE;
		switch (p[1]) {
		case '"':
		case '\\':
		case '/':
		case 'b':
		case 'f':
		case 'n':
		case 'r':
		case 't':
			p += 2;
			break;
		case 'u': {
			if (end - p < 6)
				return LX_MORE;
			int u = read_u4(p + 2);
			if (u < 0)
				return lx_error(l, p, "expected 4 hex digits after \\u");
			if (u == 0) {
				l->bad_u = true;
			} else if (u >= 0xD800 && u <= 0xDBFF) {
				/* a high surrogate must be followed by a low one */
				int lo = -1;
				if (end - p < 7 || (p[6] == '\\' && end - p < 8))
					return LX_MORE;
				if (p[6] == '\\' && p[7] == 'u') {
					if (end - p < 12)
						return LX_MORE;
					lo = read_u4(p + 8);
				}
				if (lo >= 0xDC00 && lo <= 0xDFFF) {
					p += 6;
				} else {
					l->bad_u = true;
				}
			} else if (u >= 0xDC00 && u <= 0xDFFF) {
				l->bad_u = true;
			}
			p += 6;
			break;
		}
		default:
			return lx_error(l, p, "invalid escape '\\%c' in string",
					(p[1] >= 32 && p[1] < 127) ? p[1] : '?');
		}
	}
	if (raw) {
		raw->p = start;
		raw->n = (uint32_t)(p - start);
	}
	if (esc)
		*esc = e;
	*pp = p + 1;
	return LX_OK;
}

struct tt_str lx_unescape(struct tt_scratch *s, struct tt_str raw)
{
	char *out = tt_arena_alloc(&s->arena, (size_t)raw.n + 1);
	char *o = out;
	const char *p = raw.p, *e = raw.p + raw.n;
	while (p < e) {
		if (*p != '\\') {
			*o++ = *p++;
			continue;
		}
		char c = p[1];
		p += 2;
		switch (c) {
		case 'b':
			*o++ = '\b';
			break;
		case 'f':
			*o++ = '\f';
			break;
		case 'n':
			*o++ = '\n';
			break;
		case 'r':
			*o++ = '\r';
			break;
		case 't':
			*o++ = '\t';
			break;
		case 'u': {
			unsigned u = (unsigned)read_u4(p);
			p += 4;
			if (u >= 0xD800 && u <= 0xDBFF && p + 6 <= e && p[0] == '\\' && p[1] == 'u') {
				unsigned lo = (unsigned)read_u4(p + 2);
				if (lo >= 0xDC00 && lo <= 0xDFFF) {
					u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
					p += 6;
				}
			}
			if (u == 0 || (u >= 0xD800 && u <= 0xDFFF))
				u = 0xFFFD;
			o += tt_utf8_encode(u, o);
			break;
		}
		default: /* " \ / */
			*o++ = c;
			break;
		}
	}
	*o = '\0';
	struct tt_str r = {out, (uint32_t)(o - out)};
	return r;
}

int lx_bad_value(struct lx *l, const char *p)
{
	const char *end = l->end;
	const char *q = p;
	if (q < end && *q == '-')
		q++;
	if (end - q >= 3 && memcmp(q, "NaN", 3) == 0)
		return lx_error(l, p, "NaN is not valid JSON");
	if (end - q >= 8 && memcmp(q, "Infinity", 8) == 0)
		return lx_error(l, p, "%sInfinity is not valid JSON", q > p ? "-" : "");
	if (p >= end)
		return LX_MORE;
	if ((unsigned char)*p >= 32 && (unsigned char)*p < 127)
		return lx_error(l, p, "expected a value, found '%c'", *p);
	return lx_error(l, p, "expected a value, found byte 0x%02x", (unsigned char)*p);
}

static inline bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

int lx_number(struct lx *l, const char **pp, bool *is_int)
{
	const char *p = *pp, *end = l->end, *start = p;
	bool integer = true;
	if (p < end && *p == '-')
		p++;
	if (p >= end)
		return LX_MORE;
	if (*p == '0') {
		p++;
	} else if (*p >= '1' && *p <= '9') {
		while (p < end && is_digit(*p))
			p++;
	} else {
		return lx_bad_value(l, start);
	}
	if (p < end && *p == '.') {
		integer = false;
		p++;
		if (p >= end)
			return LX_MORE;
		if (!is_digit(*p))
			return lx_error(l, p, "expected a digit after '.'");
		while (p < end && is_digit(*p))
			p++;
	}
	if (p < end && (*p == 'e' || *p == 'E')) {
		integer = false;
		p++;
		if (p < end && (*p == '+' || *p == '-'))
			p++;
		if (p >= end)
			return LX_MORE;
		if (!is_digit(*p))
			return lx_error(l, p, "expected a digit in the exponent");
		while (p < end && is_digit(*p))
			p++;
	}
	/* a number must not run into the end of the buffer: more digits may follow */
	if (p >= end)
		return LX_MORE;
	/* cJSON reads at most 63 characters of a number; longer ones are refused
	 * everywhere so that both parsing paths agree */
	if (p - start > 63)
		return lx_error(l, start, "number longer than 63 characters");
	*pp = p;
	if (is_int)
		*is_int = integer;
	return LX_OK;
}

int lx_int(struct lx *l, const char **pp, bool *is_int, int64_t *v, bool *exact)
{
	const char *p = *pp, *end = l->end;
	bool neg = false;
	if (p < end && *p == '-') {
		neg = true;
		p++;
	}
	const char *d = p;
	uint64_t x = 0;
	while (p < end && (unsigned)(*p - '0') < 10) {
		x = x * 10 + (uint64_t)(*p - '0');
		p++;
	}
	/* the common case: a short integer that ends before the buffer does */
	size_t nd = (size_t)(p - d);
	if (p < end && nd > 0 && nd <= 16 && (nd == 1 || *d != '0') && *p != '.' && *p != 'e' &&
	    *p != 'E') {
		*is_int = true;
		*exact = x < (UINT64_C(1) << 53);
		*v = neg ? -(int64_t)x : (int64_t)x;
		*pp = p;
		return LX_OK;
	}
	*exact = false;
	return lx_number(l, pp, is_int);
}

static int literal(struct lx *l, const char **pp, const char *word, size_t n)
{
	const char *p = *pp;
	size_t have = (size_t)(l->end - p);
	if (memcmp(p, word, have < n ? have : n) != 0)
		return lx_bad_value(l, p);
	if (have < n)
		return LX_MORE;
	*pp = p + n;
	return LX_OK;
}

int lx_value(struct lx *l, const char **pp, int depth)
{
	const char *p = *pp, *end = l->end;
	int r;
	if (p >= end)
		return LX_MORE;
	switch (*p) {
	case '"':
		return lx_string(l, pp, NULL, NULL);
	case '{':
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
			if ((r = lx_string(l, &p, NULL, NULL)) != LX_OK)
				return r;
			p = lx_ws(p, end);
			if (p >= end)
				return LX_MORE;
			if (*p != ':')
				return lx_error(l, p, "expected ':' after a key");
			p = lx_ws(p + 1, end);
			if ((r = lx_value(l, &p, depth + 1)) != LX_OK)
				return r;
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
			return lx_error(l, p, "expected ',' or '}' in an object");
		}
	case '[':
		if (depth > TT_MAX_DEPTH)
			return lx_error(l, p, "nesting deeper than %d levels", TT_MAX_DEPTH);
		p = lx_ws(p + 1, end);
		if (p >= end)
			return LX_MORE;
		if (*p == ']') {
			*pp = p + 1;
			return LX_OK;
		}
		for (;;) {
			if ((r = lx_value(l, &p, depth + 1)) != LX_OK)
				return r;
			p = lx_ws(p, end);
			if (p >= end)
				return LX_MORE;
			if (*p == ',') {
				p = lx_ws(p + 1, end);
				continue;
			}
			if (*p == ']') {
				*pp = p + 1;
				return LX_OK;
			}
			return lx_error(l, p, "expected ',' or ']' in an array");
		}
	case 't':
		return literal(l, pp, "true", 4);
	case 'f':
		return literal(l, pp, "false", 5);
	case 'n':
		return literal(l, pp, "null", 4);
	default:
		return lx_number(l, pp, NULL);
	}
}
