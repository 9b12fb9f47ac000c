/* bench/scale: make a large trace from a small one, deterministically.
 *
 *   scale IN OUT K
 *
 * Writes the events of IN (plain or gzip Kineto JSON) K times into OUT, each
 * copy shifted in time by the span of the trace and with its correlation,
 * External id and flow ids offset so that links stay one-to-one.  Metadata is
 * copied once.  Used by `make bench` only. */
#include "config.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/io.h"

/* print like Kineto: a space after ':' and ',' outside strings */
static void put_spaced(FILE *out, const char *s)
{
	bool in = false;
	for (; *s; s++) {
		fputc(*s, out);
		if (*s == '\\' && in) {
			fputc(*++s, out);
			continue;
		}
		if (*s == '"')
			in = !in;
		else if (!in && (*s == ':' || *s == ','))
			fputc(' ', out);
	}
}

static void shift(cJSON *ev, double dt, double did)
{
	cJSON *ts = cJSON_GetObjectItemCaseSensitive(ev, "ts");
	if (cJSON_IsNumber(ts))
		cJSON_SetNumberValue(ts, ts->valuedouble + dt);
	cJSON *id = cJSON_GetObjectItemCaseSensitive(ev, "id");
	if (cJSON_IsNumber(id))
		cJSON_SetNumberValue(id, id->valuedouble + did);
	cJSON *args = cJSON_GetObjectItemCaseSensitive(ev, "args");
	static const char *const keys[] = {"correlation", "External id"};
	for (size_t i = 0; args && i < 2; i++) {
		cJSON *c = cJSON_GetObjectItemCaseSensitive(args, keys[i]);
		if (cJSON_IsNumber(c))
			cJSON_SetNumberValue(c, c->valuedouble + did);
	}
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: scale IN OUT K\n");
		return 2;
	}
	char *text;
	size_t len;
	struct tt_err err;
	if (tt_read_file(argv[1], &text, &len, &err)) {
		fprintf(stderr, "scale: %s: %s\n", argv[1], err.msg);
		return 1;
	}
	int k = atoi(argv[3]);
	cJSON *root = cJSON_ParseWithLength(text, len);
	free(text);
	cJSON *evs = root ? cJSON_GetObjectItemCaseSensitive(root, "traceEvents") : NULL;
	if (!cJSON_IsArray(evs) || k < 1) {
		fprintf(stderr, "scale: %s: not a Kineto trace\n", argv[1]);
		return 1;
	}
	double t0 = INFINITY, t1 = -INFINITY;
	cJSON *e;
	cJSON_ArrayForEach(e, evs)
	{
		cJSON *ts = cJSON_GetObjectItemCaseSensitive(e, "ts");
		cJSON *dur = cJSON_GetObjectItemCaseSensitive(e, "dur");
		if (!cJSON_IsNumber(ts) || ts->valuedouble <= 0)
			continue;
		t0 = fmin(t0, ts->valuedouble);
		t1 = fmax(t1, ts->valuedouble + (cJSON_IsNumber(dur) ? dur->valuedouble : 0));
	}
	double span = ceil(t1 - t0) + 1000;
	FILE *out = fopen(argv[2], "w");
	if (!out) {
		perror(argv[2]);
		return 1;
	}
	/* metadata first, then the events K times */
	fputs("{", out);
	cJSON *m;
	cJSON_ArrayForEach(m, root)
	{
		if (strcmp(m->string, "traceEvents") == 0)
			continue;
		char *s = cJSON_PrintUnformatted(m);
		fprintf(out, "\"%s\": %s, ", m->string, s);
		free(s);
	}
	fputs("\"traceEvents\": [\n", out);
	bool first = true;
	for (int r = 0; r < k; r++) {
		cJSON_ArrayForEach(e, evs)
		{
			cJSON *c = cJSON_Duplicate(e, 1);
			if (r)
				shift(c, r * span, r * 10000000.0);
			char *s = cJSON_PrintUnformatted(c);
			fputs(first ? "" : ",\n", out);
			put_spaced(out, s);
			first = false;
			free(s);
			cJSON_Delete(c);
		}
	}
	fputs("\n]}\n", out);
	fclose(out);
	cJSON_Delete(root);
	return 0;
}
