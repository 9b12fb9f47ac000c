/* Numbers: exact µs -> ns conversion from the digits, and a double parser
 * that gives the same result as strtod (so the fast path and cJSON agree). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_int.h"
#include "tracetop/testing.h"

bool num_parse_int(const char *p, size_t n, int64_t *out)
{
	bool neg = false;
	size_t i = 0;
	if (i < n && p[i] == '-') {
		neg = true;
		i++;
	}
	if (i == n || n - i > 16)
		return false;
	uint64_t v = 0;
	for (; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(p[i] - '0');
	}
	if (v >= (UINT64_C(1) << 53))
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

static const double pow10_tab[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
				   1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
				   1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

double num_parse_double(const char *p, size_t n)
{
	/* Clinger's fast path: at most 15 significant digits and a power of
	 * ten up to 22 are exact doubles, so one division or multiplication
	 * rounds correctly, exactly as strtod does. */
	const char *s = p, *e = p + n;
	bool neg = false;
	if (s < e && *s == '-') {
		neg = true;
		s++;
	}
	uint64_t m = 0;
	int digits = 0, exp10 = 0;
	bool ok = true;
	for (; s < e && *s >= '0' && *s <= '9'; s++) {
		if (m || *s != '0')
			digits++;
		m = m * 10 + (uint64_t)(*s - '0');
		if (digits > 15) {
			ok = false;
			break;
		}
	}
	if (ok && s < e && *s == '.') {
		for (s++; s < e && *s >= '0' && *s <= '9'; s++) {
			if (m || *s != '0')
				digits++;
			m = m * 10 + (uint64_t)(*s - '0');
			exp10--;
			if (digits > 15) {
				ok = false;
				break;
			}
		}
	}
	if (ok && s < e && (*s == 'e' || *s == 'E'))
		ok = false;
	if (ok && s == e && exp10 >= -22) {
		double v = (double)m;
		v = exp10 < 0 ? v / pow10_tab[-exp10] : v;
		return neg ? -v : v;
	}
	char tmp[64];
	char *buf = n < sizeof(tmp) ? tmp : malloc(n + 1);
	if (!buf)
		return 0;
	memcpy(buf, p, n);
	buf[n] = '\0';
	double v = strtod(buf, NULL);
	if (buf != tmp)
		free(buf);
	return v;
}

/* value = digits * 10^exp10, digits given as text without sign or dot */
static bool digits_to_ns(const char *dig, size_t nd, int exp10, bool neg, int64_t *ns)
{
	/* strip leading zeros */
	while (nd > 0 && *dig == '0') {
		dig++;
		nd--;
	}
	if (nd == 0) {
		*ns = 0;
		return true;
	}
	int shift = exp10 + 3; /* µs -> ns */
	uint64_t v = 0;
	if (shift >= 0) {
		if ((long)nd + shift > 19)
			return false;
		for (size_t i = 0; i < nd; i++)
			v = v * 10 + (uint64_t)(dig[i] - '0');
		for (int i = 0; i < shift; i++)
			v *= 10;
	} else {
		size_t cut = (size_t)-shift; /* digits dropped on the right */
		size_t keep = nd > cut ? nd - cut : 0;
		if (keep > 19)
			return false;
		for (size_t i = 0; i < keep; i++)
			v = v * 10 + (uint64_t)(dig[i] - '0');
		/* round half to even on the dropped digits */
		int first = 0;
		bool rest = false;
		if (cut <= nd) {
			first = dig[keep] - '0';
			for (size_t i = keep + 1; i < nd; i++)
				if (dig[i] != '0')
					rest = true;
		} else {
			first = 0; /* the dropped part starts with zeros */
			rest = true;
		}
		if (first > 5 || (first == 5 && (rest || (v & 1))))
			v++;
	}
	if (v > (uint64_t)INT64_MAX)
		return false;
	*ns = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

static bool us_to_ns(const char *p, size_t n, int64_t *ns, uint32_t *frac_digits)
{
	const char *s = p, *e = p + n;
	bool neg = false;
	*frac_digits = 0;
	if (s < e && *s == '-') {
		neg = true;
		s++;
	}
	/* common forms: integer, or integer with up to 3 fraction digits */
	uint64_t ip = 0;
	const char *is = s;
	while (s < e && *s >= '0' && *s <= '9' && s - is < 16) {
		ip = ip * 10 + (uint64_t)(*s - '0');
		s++;
	}
	if (ip <= UINT64_C(9223372036854774) && (s == e || (*s == '.' && s + 1 < e))) {
		uint64_t frac = 0;
		int nf = 0;
		if (s < e) {
			const char *f = s + 1;
			while (f < e && *f >= '0' && *f <= '9' && nf < 3) {
				frac = frac * 10 + (uint64_t)(*f - '0');
				f++;
				nf++;
			}
			if (f == e) {
				*frac_digits = (uint32_t)nf;
				for (int i = nf; i < 3; i++)
					frac *= 10;
				uint64_t v = ip * 1000 + frac;
				*ns = neg ? -(int64_t)v : (int64_t)v;
				return true;
			}
		} else {
			uint64_t v = ip * 1000;
			*ns = neg ? -(int64_t)v : (int64_t)v;
			return true;
		}
	}
	/* general form: collect digits and the decimal exponent */
	char dig[400];
	size_t nd = 0;
	int exp10 = 0;
	s = p + (neg ? 1 : 0);
	for (; s < e && *s >= '0' && *s <= '9'; s++)
		if (nd < sizeof(dig))
			dig[nd++] = *s;
		else
			return false;
	if (s < e && *s == '.') {
		for (s++; s < e && *s >= '0' && *s <= '9'; s++) {
			if (nd >= sizeof(dig))
				return false;
			dig[nd++] = *s;
			exp10--;
			(*frac_digits)++;
		}
	}
	if (s < e && (*s == 'e' || *s == 'E')) {
		s++;
		bool eneg = false;
		if (s < e && (*s == '+' || *s == '-'))
			eneg = *s++ == '-';
		long x = 0;
		for (; s < e && *s >= '0' && *s <= '9'; s++) {
			if (x < 100000)
				x = x * 10 + (*s - '0');
		}
		exp10 += (int)(eneg ? -x : x);
		*frac_digits = 0;
		if (exp10 < 0)
			*frac_digits = (uint32_t)-exp10;
	}
	if (exp10 < -1000)
		exp10 = -1000;
	return digits_to_ns(dig, nd, exp10, neg, ns);
}

bool num_us_to_ns(const char *p, size_t n, int64_t *ns, uint32_t *frac_digits)
{
	if (us_to_ns(p, n, ns, frac_digits))
		return true;
	/* out of range: *ns keeps the sign (a huge negative duration is a
	 * negative one) */
	*ns = n && p[0] == '-' ? INT64_MIN : INT64_MAX;
	return false;
}

bool tt_json_us_to_ns(const char *p, size_t n, int64_t *ns)
{
	uint32_t fd;
	return num_us_to_ns(p, n, ns, &fd);
}

bool num_string_int(const char *p, size_t n, int64_t *out)
{
	bool neg = false;
	size_t i = 0;
	if (i < n && (p[i] == '-' || p[i] == '+')) {
		neg = p[i] == '-';
		i++;
	}
	if (i == n)
		return false;
	uint64_t v = 0;
	if (n - i > 2 && p[i] == '0' && (p[i + 1] == 'x' || p[i + 1] == 'X')) {
		i += 2;
		if (n - i > 13)
			return false;
		for (; i < n; i++) {
			int c = p[i], d;
			if (c >= '0' && c <= '9')
				d = c - '0';
			else if (c >= 'a' && c <= 'f')
				d = c - 'a' + 10;
			else if (c >= 'A' && c <= 'F')
				d = c - 'A' + 10;
			else
				return false;
			v = v * 16 + (uint64_t)d;
		}
	} else {
		if (n - i > 16)
			return false;
		for (; i < n; i++) {
			if (p[i] < '0' || p[i] > '9')
				return false;
			v = v * 10 + (uint64_t)(p[i] - '0');
		}
	}
	if (v >= (UINT64_C(1) << 53))
		return false;
	*out = neg ? -(int64_t)v : (int64_t)v;
	return true;
}

bool num_string_double(const char *p, size_t n, double *out)
{
	if (n == 0 || n > 64)
		return false;
	char buf[72];
	memcpy(buf, p, n);
	buf[n] = '\0';
	/* only plain decimal text: no hex floats, inf or nan words */
	for (size_t i = 0; i < n; i++) {
		char c = buf[i];
		if (!((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' ||
		      c == 'E'))
			return false;
	}
	char *endp;
	double v = strtod(buf, &endp);
	if (endp != buf + n || !isfinite(v))
		return false;
	*out = v;
	return true;
}

struct tt_str num_canon(struct tt_scratch *s, double v)
{
	char tmp[40];
	int n;
	if (v == floor(v) && fabs(v) < TT_INT_LIMIT)
		n = snprintf(tmp, sizeof(tmp), "%lld", (long long)v);
	else
		n = snprintf(tmp, sizeof(tmp), "%.17g", v);
	struct tt_str r = {tt_arena_strndup(&s->arena, tmp, (size_t)n), (uint32_t)n};
	return r;
}
