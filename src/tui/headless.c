/* The explorer without a terminal: keys in, screens out (tests, benchmarks). */
#include "config.h"

#include "tui.h"

#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

int tt_headless_run(struct tt_app *a, int w, int h, const char *keys, FILE *out, bool time_keys)
{
	struct tt_grid g;
	tt_grid_init(&g, w, h);
	char key[32];
	const char *s = keys;
	int64_t worst = 0, total = 0;
	int n = 0;
	tt_app_draw(a, &g); /* the first screen, as a terminal would show it */
	while (s && (s = tt_key_next(s, key, sizeof(key))) != NULL) {
		if (strcmp(key, "<Wait>") == 0) {
			tt_app_wait_prefetch(a);
			continue;
		}
		if (strcmp(key, "<Dump>") == 0) {
			tt_app_draw(a, &g);
			tt_grid_dump(&g, out);
			fputs("----\n", out);
			continue;
		}
		int64_t t0 = tt_now_ns();
		int r = tt_app_key(a, key);
		if (r & TT_R_QUIT)
			break;
		tt_app_draw(a, &g);
		int64_t dt = tt_now_ns() - t0;
		worst = dt > worst ? dt : worst;
		total += dt;
		n++;
		if (time_keys)
			fprintf(stderr, "key %-12s %8.3f ms\n", key, (double)dt / 1e6);
	}
	tt_app_draw(a, &g);
	tt_grid_dump(&g, out);
	if (time_keys && n)
		fprintf(stderr, "keys %d  mean %.3f ms  worst %.3f ms\n", n, (double)total / n / 1e6,
			(double)worst / 1e6);
	tt_grid_free(&g);
	return 0;
}
