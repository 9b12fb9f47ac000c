/* ttgen SHAPE N DIR [SEED]: write an adversarial trace (advgen.h) of about
 * N events into DIR (created), one file a rank: DIR/rank-R.json.
 * ttgen --list: the shapes. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "advgen.h"

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "--list") == 0) {
		for (int i = 0; i < ADV_NSHAPES; i++)
			printf("%-10s %s\n", adv_shape_names[i], adv_shape_help[i]);
		return 0;
	}
	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: ttgen SHAPE N DIR [SEED]   (ttgen --list: the shapes)\n");
		return 2;
	}
	int s = adv_shape_find(argv[1]);
	char *e;
	unsigned long long n = strtoull(argv[2], &e, 10);
	if (s < 0 || *e || n < 8 || n > 100000000) {
		fprintf(stderr, "ttgen: bad shape or size (ttgen --list; N from 8 to 1e8)\n");
		return 2;
	}
	uint32_t seed = argc == 5 ? (uint32_t)strtoul(argv[4], NULL, 10) : 1;
	if (mkdir(argv[3], 0777) != 0 && errno != EEXIST) {
		perror(argv[3]);
		return 1;
	}
	struct adv_file *f;
	size_t nf = adv_make((enum adv_shape)s, (size_t)n, seed, &f);
	int rc = 0;
	for (size_t i = 0; i < nf && !rc; i++) {
		char path[4096];
		snprintf(path, sizeof(path), "%s/%s", argv[3], f[i].name);
		FILE *o = fopen(path, "wb");
		if (!o || fwrite(f[i].text, 1, f[i].len, o) != f[i].len || fclose(o) != 0) {
			perror(path);
			rc = 1;
		}
	}
	adv_free(f, nf);
	return rc;
}
