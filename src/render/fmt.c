/* Numbers as text: durations with units, percentages, bytes, bars. */
#include "config.h"

#include "tracetop/render.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

static bool ascii_mode;

void tt_render_set_ascii(bool ascii)
{
	ascii_mode = ascii;
}

bool tt_render_ascii(void)
{
	return ascii_mode;
}

enum tt_unit tt_unit_pick(int64_t max_ns)
{
	if (max_ns < 0)
		max_ns = max_ns == INT64_MIN ? INT64_MAX : -max_ns;
	if (max_ns < 10000)
		return TT_U_NS;
	if (max_ns < 10000000)
		return TT_U_US;
	if (max_ns < 10000000000LL)
		return TT_U_MS;
	return TT_U_S;
}

const char *tt_unit_name(enum tt_unit u)
{
	switch (u) {
	case TT_U_NS:
		return "ns";
	case TT_U_US:
		return ascii_mode ? "us" : "\xC2\xB5s";
	case TT_U_MS:
		return "ms";
	case TT_U_S:
		return "s";
	}
	return "";
}

/* "12.3 ms": value in the given unit, 1 decimal below 100, none above */
static size_t tt_fmt_dur_in(char *buf, size_t n, int64_t ns, enum tt_unit u)
{
	static const double div[] = {1, 1e3, 1e6, 1e9};
	double v = (double)ns / div[u];
	int len;
	if (u == TT_U_NS)
		len = snprintf(buf, n, "%lld %s", (long long)ns, tt_unit_name(u));
	else if (fabs(v) < 100)
		len = snprintf(buf, n, "%.1f %s", v, tt_unit_name(u));
	else
		len = snprintf(buf, n, "%.0f %s", v, tt_unit_name(u));
	return len < 0 ? 0 : (size_t)len;
}

size_t tt_fmt_dur(char *buf, size_t n, int64_t ns)
{
	enum tt_unit u = TT_U_NS;
	int64_t a = ns >= 0 ? ns : ns == INT64_MIN ? INT64_MAX : -ns;
	if (a >= 1000000000)
		u = TT_U_S;
	else if (a >= 1000000)
		u = TT_U_MS;
	else if (a >= 1000)
		u = TT_U_US;
	return tt_fmt_dur_in(buf, n, ns, u);
}

size_t tt_fmt_bytes(char *buf, size_t n, double bytes)
{
	static const char *const u[] = {"B", "KB", "MB", "GB", "TB"};
	int i = 0;
	while (fabs(bytes) >= 1000 && i < 4) {
		bytes /= 1000;
		i++;
	}
	int len = i == 0 ? snprintf(buf, n, "%.0f %s", bytes, u[i]) :
			   snprintf(buf, n, "%.1f %s", bytes, u[i]);
	return len < 0 ? 0 : (size_t)len;
}

size_t tt_fmt_count(char *buf, size_t n, int64_t v)
{
	int len = snprintf(buf, n, "%lld", (long long)v);
	return len < 0 ? 0 : (size_t)len;
}

size_t tt_fmt_real(char *buf, size_t n, double v)
{
	if (isnan(v)) {
		if (n)
			buf[0] = '\0';
		return 0;
	}
	if (v == floor(v) && fabs(v) < 1e15) {
		int len = snprintf(buf, n, "%.0f", v);
		return len < 0 ? 0 : (size_t)len;
	}
	/* shortest text that reads back as the same double: 6 digits, else
	 * the fewest from 7 to 17 found by bisection (a precision that reads
	 * back makes every longer one read back too; 17 always does) */
	int len = snprintf(buf, n, "%.6g", v);
	if (len > 0 && strtod(buf, NULL) == v)
		return (size_t)len;
	int lo = 7, hi = 17;
	while (lo < hi) {
		int mid = (lo + hi) / 2;
		len = snprintf(buf, n, "%.*g", mid, v);
		if (len > 0 && strtod(buf, NULL) == v)
			hi = mid;
		else
			lo = mid + 1;
	}
	len = snprintf(buf, n, "%.*g", lo, v);
	return len < 0 ? 0 : (size_t)len;
}

double tt_round(double x, int decimals)
{
	double p = pow(10.0, decimals);
	return rint(x * p) / p;
}

size_t tt_utf8_fit(char *buf, size_t n, const char *s, size_t cols)
{
	if (!n)
		return 0;
	const char *ell = ascii_mode ? "~" : "\xE2\x80\xA6";
	size_t ell_len = strlen(ell);
	bool cut = tt_utf8_width(s) > cols;
	/* the text, one column short when cut (the ellipsis takes it) */
	size_t k = tt_utf8_cut(s, cut && cols ? cols - 1 : cols, NULL);
	/* whole characters, with room for an ellipsis and the NUL */
	size_t i = 0;
	while (i < k) {
		size_t l = tt_utf8_seqlen(s + i);
		if (i + l + 4 >= n)
			break;
		i += l;
	}
	memcpy(buf, s, i);
	if (cut && cols && i + ell_len < n) {
		memcpy(buf + i, ell, ell_len);
		i += ell_len;
	}
	buf[i] = '\0';
	return i;
}

size_t tt_path_fit(char *buf, size_t n, const char *path, size_t cols)
{
	if (!n)
		return 0;
	size_t w = tt_utf8_width(path);
	if (w <= cols) {
		snprintf(buf, n, "%s", path);
		return strlen(buf);
	}
	const char *ell = ascii_mode ? "~" : "\xE2\x80\xA6";
	/* the tail that fits after the ellipsis, from a '/' when there is one */
	const char *p = path;
	size_t skip = w - (cols ? cols - 1 : 0);
	for (size_t c = 0; *p && c < skip; c++) {
		p++;
		while ((*p & 0xC0) == 0x80)
			p++;
	}
	const char *slash = strchr(p, '/');
	if (slash && slash[1])
		p = slash;
	snprintf(buf, n, "%s%s", cols ? ell : "", p);
	return strlen(buf);
}

size_t tt_bar(char *buf, size_t n, double f, int width)
{
	static const char *const part[] = {"",
					   "\xE2\x96\x8F", "\xE2\x96\x8E", "\xE2\x96\x8D",
					   "\xE2\x96\x8C", "\xE2\x96\x8B", "\xE2\x96\x8A",
					   "\xE2\x96\x89"};
	static const char *full = "\xE2\x96\x88";
	if (!(f > 0))
		f = 0;
	if (f > 1)
		f = 1;
	size_t i = 0;
	if (ascii_mode) {
		int k = (int)lround(f * width);
		for (int c = 0; c < k && i + 1 < n; c++)
			buf[i++] = '#';
	} else {
		int eighths = (int)lround(f * width * 8);
		for (int c = 0; c < eighths / 8 && i + 4 < n; c++) {
			memcpy(buf + i, full, 3);
			i += 3;
		}
		if (eighths % 8 && i + 4 < n) {
			memcpy(buf + i, part[eighths % 8], 3);
			i += 3;
		}
	}
	if (n)
		buf[i] = '\0';
	return i;
}

size_t tt_bar_stacked(char *buf, size_t n, const double *f, const char *const *g, int k,
		      int width)
{
	/* give each segment its rounded share of columns, keeping the total */
	size_t i = 0;
	double acc = 0;
	int used = 0;
	for (int s = 0; s < k; s++) {
		double x = f[s] > 0 ? f[s] : 0;
		acc += x;
		int upto = (int)lround((acc > 1 ? 1 : acc) * width);
		size_t gl = strlen(g[s]);
		for (; used < upto && i + gl < n; used++) {
			memcpy(buf + i, g[s], gl);
			i += gl;
		}
	}
	if (n)
		buf[i] = '\0';
	return i;
}

static const char *const block_shades[] = {"\xE2\x96\x88", "\xE2\x96\x93", "\xE2\x96\x92",
					   "\xE2\x96\x91"};

const char *tt_stack_glyph(const char *ascii, int i)
{
	static char one[4][2]; /* (segment i's ASCII glyph as a string) */
	if (!tt_render_ascii())
		return block_shades[i & 3];
	one[i & 3][0] = (size_t)(i & 3) < strlen(ascii) ? ascii[i & 3] : '#';
	one[i & 3][1] = '\0';
	return one[i & 3];
}

size_t tt_sparkline(char *buf, size_t cap, const float *v, int n, double vmax)
{
	static const char *const uni[] = {" ",
					  "\xE2\x96\x81",
					  "\xE2\x96\x82",
					  "\xE2\x96\x83",
					  "\xE2\x96\x84",
					  "\xE2\x96\x85",
					  "\xE2\x96\x86",
					  "\xE2\x96\x87",
					  "\xE2\x96\x88"};
	static const char asc[] = " .:-=+*#@";
	size_t k = 0;
	for (int i = 0; i < n && k + 4 < cap; i++) {
		/* (in double until it is a level: x and vmax may be infinite) */
		double q = vmax > 0 && v[i] > 0 ? (double)v[i] / vmax * 8 : 0;
		int lvl = q >= 8 ? 8 : q > 0 ? (int)ceil(q) : 0;
		if (tt_render_ascii()) {
			buf[k++] = asc[lvl];
		} else {
			size_t l = strlen(uni[lvl]);
			memcpy(buf + k, uni[lvl], l);
			k += l;
		}
	}
	if (cap)
		buf[k] = '\0';
	return k;
}

int tt_parse_time(const char *s, enum tt_unit def, int64_t *ns, char *why, size_t whyn)
{
	static const int64_t div[] = {1, 1000, 1000000, 1000000000};
	const char *p = s;
	while (*p == ' ')
		p++;
	bool neg = false;
	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	while (*p == ' ')
		p++;
	/* the digits, exactly: integer part and up to 9 decimals, in units of
	 * 10^-9 of the unit */
	uint64_t ip = 0, fr = 0;
	int nd = 0, nfr = 0;
	while (*p >= '0' && *p <= '9') {
		if (ip > 1000000000000000000ULL) {
			snprintf(why, whyn, "'%s': too large", s);
			return -1;
		}
		ip = ip * 10 + (uint64_t)(*p++ - '0');
		nd++;
	}
	if (*p == '.') {
		p++;
		while (*p >= '0' && *p <= '9') {
			if (nfr < 9) {
				fr = fr * 10 + (uint64_t)(*p - '0');
				nfr++;
			}
			p++;
			nd++;
		}
	}
	if (!nd) {
		snprintf(why, whyn, "'%s': not a time (e.g. 12.5ms, 1.2s, 800us)", s);
		return -1;
	}
	for (int i = nfr; i < 9; i++)
		fr *= 10;
	while (*p == ' ')
		p++;
	enum tt_unit u = def;
	if (*p) {
		static const struct {
			const char *name;
			enum tt_unit u;
		} units[] = {{"ns", TT_U_NS}, {"us", TT_U_US}, {"\xC2\xB5s", TT_U_US},
			     {"\xCE\xBCs", TT_U_US}, {"ms", TT_U_MS}, {"s", TT_U_S}};
		size_t len = strlen(p);
		while (len && p[len - 1] == ' ')
			len--;
		bool ok = false;
		for (size_t i = 0; i < TT_ARRAY_SIZE(units) && !ok; i++)
			if (strlen(units[i].name) == len && strncmp(p, units[i].name, len) == 0) {
				u = units[i].u;
				ok = true;
			}
		if (!ok) {
			snprintf(why, whyn, "'%s': unknown unit (ns, us, ms or s)", s);
			return -1;
		}
	}
	uint64_t d = (uint64_t)div[u];
	if (ip > 1000000000000000000ULL / d) {
		snprintf(why, whyn, "'%s': too large", s);
		return -1;
	}
	/* fr is in 10^-9 units: fr * d / 10^9, exactly (d divides 10^9) */
	uint64_t v = ip * d + fr / (1000000000ULL / d);
	if (v > 1000000000000000000ULL) {
		snprintf(why, whyn, "'%s': too large", s);
		return -1;
	}
	*ns = neg ? -(int64_t)v : (int64_t)v;
	return 0;
}

/* may a line break after this byte of a word too long for its line? */
static bool soft_break(char c)
{
	return c == '/' || c == ',' || c == ';' || c == '-' || c == '|';
}

size_t tt_wrap_line(const char *s, size_t cols, size_t *width, const char **next)
{
	size_t i = 0, w = 0, cut = 0, cut_w = 0, soft = 0, soft_w = 0;
	if (!cols)
		cols = 1;
	while (s[i] && s[i] != '\n') {
		const char *q = s + i;
		size_t cw = (size_t)tt_cp_width(tt_utf8_next(&q));
		if (w + cw > cols)
			break;
		if (s[i] == ' ' && i > 0 && s[i - 1] != ' ') {
			cut = i; /* before a run of spaces */
			cut_w = w;
		}
		i = (size_t)(q - s);
		w += cw;
		if (soft_break(s[i - 1]) && s[i] && s[i] != ' ') {
			soft = i;
			soft_w = w;
		}
	}
	size_t len = i, lw = w;
	if (s[i] && s[i] != '\n' && s[i] != ' ') {
		/* a word goes on past the line: break before it, else inside it
		 * after a / , ; - |, else where the line ends */
		if (cut) {
			len = cut;
			lw = cut_w;
		} else if (soft) {
			len = soft;
			lw = soft_w;
		} else if (!i) {
			/* (a character wider than the line goes alone) */
			len = tt_utf8_seqlen(s);
			lw = (size_t)tt_cp_width(tt_utf8_next(&(const char *){s}));
		}
	}
	/* the line without the spaces it ends in */
	while (len > 0 && s[len - 1] == ' ') {
		len--;
		lw--;
	}
	const char *r = s + len;
	while (*r == ' ')
		r++;
	if (*r == '\n')
		r++;
	if (r == s && *r) /* (never stuck) */
		r += tt_utf8_seqlen(r);
	if (width)
		*width = lw;
	if (next)
		*next = r;
	return len;
}
