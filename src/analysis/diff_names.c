/* The small parts of a diff: HTA's short names (shorten_name in
 * hta/utils/utils.py), the names of changes, verdicts and metrics, the time
 * verdict with its threshold and floor, the options, and the --map parser.
 * The comparison itself is in diff.c. */
#include "config.h"

#include "tracetop/diff.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

/* ---- short names ---- */

size_t tt_diff_short_name(const char *name, char *out)
{
	size_t n = strlen(name);
	/* nothing to strip: the name as it is ("## backward ##",
	 * "autograd::engine::evaluate_function: AddmmBackward0") */
	if (!strchr(name, '<') && !strchr(name, '(')) {
		memcpy(out, name, n + 1);
		return n;
	}
	size_t sp = 0; /* out is the stack */
	for (const char *c = name; *c; c++) {
		if (c[0] == '-' && c[1] == '>') {
			c++;
			continue;
		}
		if (*c == '>' || *c == ')') {
			char open = *c == '>' ? '<' : '(';
			while (sp && out[sp - 1] != open)
				sp--;
			if (sp)
				sp--;
		} else {
			out[sp++] = *c;
		}
	}
	out[sp] = '\0';
	/* what follows the last space (Python's split(" ")[-1]) */
	const char *last = strrchr(out, ' ');
	size_t len = last ? sp - (size_t)(last + 1 - out) : sp;
	if (!len) {
		/* "Memset (Device)" would become "": keep the name */
		memcpy(out, name, n + 1);
		return n;
	}
	if (last)
		memmove(out, last + 1, len + 1);
	return len;
}

/* ---- the comparison ---- */

const char *tt_diff_change_name(enum tt_diff_change c)
{
	static const char *const n[] = {"added", "deleted", "increased", "decreased",
					"unchanged"};
	return (unsigned)c < TT_DIFF_NCHANGE ? n[c] : "?";
}

const char *tt_diff_verdict_name(enum tt_diff_verdict v)
{
	static const char *const n[] = {"unchanged", "slower", "faster"};
	return (unsigned)v < TT_ARRAY_SIZE(n) ? n[v] : "?";
}

const char *tt_diff_metric_name(enum tt_diff_metric m)
{
	static const char *const n[] = {"step",          "gpu_busy", "computation",
					"communication", "memory",   "gpu_idle"};
	return (unsigned)m < TT_ARRAY_SIZE(n) ? n[m] : "?";
}

const char *tt_diff_metric_title(enum tt_diff_metric m)
{
	static const char *const n[] = {"step",          "GPU busy", "computation",
					"communication", "memory",   "GPU idle"};
	return (unsigned)m < TT_ARRAY_SIZE(n) ? n[m] : "?";
}

enum tt_diff_verdict tt_diff_judge(double a, double b, double threshold, int64_t floor_ns)
{
	if (isnan(a) || isnan(b))
		return TT_DIFF_SAME;
	double lim = fmax(threshold * fabs(a), (double)floor_ns);
	double d = b - a;
	return d > lim ? TT_DIFF_SLOWER : -d > lim ? TT_DIFF_FASTER : TT_DIFF_SAME;
}

void tt_diff_opts_init(struct tt_diff_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->iteration = TT_DIFF_COMMON;
	o->threshold = TT_DIFF_THRESHOLD;
	o->floor_ns = TT_DIFF_FLOOR_NS;
}

int tt_diff_map_parse(const char *s, struct tt_diff_pair **out, size_t *n, char *msg,
		      size_t msgn)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	const char *p = s;
	while (*p) {
		char *e;
		long long a = strtoll(p, &e, 10);
		if (e == p || *e != ':')
			goto bad;
		p = e + 1;
		long long b = strtoll(p, &e, 10);
		if (e == p || (*e && *e != ','))
			goto bad;
		TT_GROW(*out, cap, *n + 1);
		(*out)[(*n)++] = (struct tt_diff_pair){a, b};
		p = *e ? e + 1 : e;
		if (*e && !*p)
			goto bad;
	}
	if (*n)
		return 0;
bad:
	snprintf(msg, msgn, "bad rank map '%s' (e.g. 3:1 or 0:4,1:5: control rank:test rank)", s);
	free(*out);
	*out = NULL;
	*n = 0;
	return -1;
}
