/* The rank list parser of tracetop/ranklist.h. */
#include "config.h"

#include "tracetop/ranklist.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/err.h"
#include "tracetop/util.h"

static int fail(char *why, size_t whysz, const char *fmt, ...) TT_PRINTF(3, 4);

static int fail(char *why, size_t whysz, const char *fmt, ...)
{
	if (why && whysz) {
		va_list ap;
		va_start(ap, fmt);
		vsnprintf(why, whysz, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/* A decimal number at *p (digits only; no sign), saturated at INT64_MAX.
 * false when *p is not a digit. */
static bool number(const char **p, int64_t *v)
{
	const char *s = *p;
	if (*s < '0' || *s > '9')
		return false;
	int64_t x = 0;
	for (; *s >= '0' && *s <= '9'; s++) {
		int d = *s - '0';
		x = x > (INT64_MAX - d) / 10 ? INT64_MAX : x * 10 + d;
	}
	*p = s;
	*v = x;
	return true;
}

static const char *spaces(const char *p)
{
	while (*p == ' ')
		p++;
	return p;
}

int tt_ranks_parse(const char *s, int64_t **out, size_t *n, char *why, size_t whysz)
{
	*out = NULL;
	*n = 0;
	int64_t *v = NULL;
	size_t nv = 0, cap = 0;
	const char *p = s;
	for (;;) {
		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		int64_t a, b;
		if (!number(&p, &a))
			goto syntax;
		b = a;
		const char *q = spaces(p);
		if (*q == '-') {
			p = spaces(q + 1);
			if (!number(&p, &b))
				goto syntax;
		}
		if (*p && *p != ' ' && *p != ',')
			goto syntax;
		if (a > TT_RANK_MAX || b > TT_RANK_MAX) {
			free(v);
			return fail(why, whysz, "ranks go up to %lld", (long long)TT_RANK_MAX);
		}
		if (b < a) {
			free(v);
			return fail(why, whysz, "range %lld-%lld runs backwards", (long long)a,
				    (long long)b);
		}
		/* (both are at most TT_RANK_MAX: no overflow below) */
		if ((uint64_t)(b - a) + 1 > TT_RANKS_LIST_MAX - nv) {
			free(v);
			return fail(why, whysz, "more than %zu ranks", TT_RANKS_LIST_MAX);
		}
		TT_GROW(v, cap, nv + (size_t)(b - a) + 1);
		for (int64_t k = a; k <= b; k++)
			v[nv++] = k;
	}
	if (!nv)
		return fail(why, whysz, "no rank given");
	*out = v;
	*n = nv;
	return 0;
syntax:
	free(v);
	if (!*p)
		return fail(why, whysz, "a number is missing at the end");
	return fail(why, whysz, "not a number: '%.8s%s'", p, strlen(p) > 8 ? "..." : "");
}

size_t tt_ranks_format(const int64_t *v, size_t n, char *buf, size_t bufsz)
{
	if (!bufsz)
		return 0;
	buf[0] = '\0';
	size_t k = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		while (j + 1 < n && v[j] < INT64_MAX && v[j + 1] == v[j] + 1)
			j++;
		char item[48];
		int len = j > i ? snprintf(item, sizeof(item), "%s%lld-%lld", i ? "," : "",
					    (long long)v[i], (long long)v[j]) :
				  snprintf(item, sizeof(item), "%s%lld", i ? "," : "", (long long)v[i]);
		/* room for this item, and for ",..." unless it is the last */
		size_t need = (size_t)len + (j + 1 < n ? 4 : 0);
		if (k + need + 1 > bufsz) {
			if (k + 5 <= bufsz)
				k += (size_t)snprintf(buf + k, bufsz - k, ",...");
			break;
		}
		memcpy(buf + k, item, (size_t)len + 1);
		k += (size_t)len;
		i = j + 1;
	}
	return k;
}
