/* Visible escapes for text shown on terminals: see tracetop/escape.h. */
#include "config.h"

#include "tracetop/escape.h"

#include <stdarg.h>
#include <string.h>

#include "tracetop/utf8.h"

bool tt_cp_needs_escape(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x061C || cp == 0x200E ||
	       cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069) ||
	       cp == 0x2028 || cp == 0x2029;
}

size_t tt_cp_escape(uint32_t cp, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t k = 0;
	out[k++] = '\\';
	if (cp < 0x100) {
		out[k++] = 'x';
		out[k++] = hex[cp >> 4 & 15];
		out[k++] = hex[cp & 15];
	} else {
		out[k++] = 'u';
		for (int sh = 12; sh >= 0; sh -= 4)
			out[k++] = hex[cp >> sh & 15];
	}
	out[k] = '\0';
	return k;
}

size_t tt_text_escape(char *out, size_t n, const char *s)
{
	if (!n)
		return 0;
	size_t k = 0, len = strlen(s);
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		size_t l = tt_utf8_decode(s + i, len - i, &cp);
		char esc[8];
		const char *piece = s + i;
		size_t pl = l;
		if (l == 0) { /* an invalid byte: its value */
			pl = tt_cp_escape((unsigned char)s[i], esc);
			piece = esc;
			l = 1;
		} else if (tt_cp_needs_escape(cp)) {
			pl = tt_cp_escape(cp, esc);
			piece = esc;
		}
		if (k + pl >= n)
			break;
		memcpy(out + k, piece, pl);
		k += pl;
		i += l;
	}
	out[k] = '\0';
	return k;
}

/* s escaped, to f. */
static void tt_fputs_escaped(const char *s, FILE *f)
{
	char buf[1024];
	size_t len = strlen(s);
	/* (in pieces that end on a code point: at most 6 bytes out per byte in) */
	while (len) {
		size_t take = len < 160 ? len : 160;
		while (take < len && take > 0 && ((unsigned char)s[take] & 0xC0) == 0x80)
			take--;
		if (!take)
			take = len < 160 ? len : 160;
		char piece[168];
		memcpy(piece, s, take);
		piece[take] = '\0';
		tt_text_escape(buf, sizeof(buf), piece);
		fputs(buf, f);
		s += take;
		len -= take;
	}
}

void tt_msg(const char *fmt, ...)
{
	char raw[4096];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	fputs("tracetop: ", stderr);
	tt_fputs_escaped(raw, stderr);
	fputc('\n', stderr);
}
