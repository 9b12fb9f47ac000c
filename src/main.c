#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/model.h"

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	char **files;
	size_t nbad;
	size_t n = tt_expand_paths((const char *const *)argv + 1, (size_t)argc - 1, &files, &nbad,
				   NULL, NULL);
	struct tt_model *m;
	struct tt_load_opts o = {0};
	o.verify = getenv("TT_VERIFY") != NULL;
	o.no_fast = getenv("TT_SLOW") != NULL;
	int64_t t = 0;
	(void)t;
	int rc = tt_model_load(&m, files, n, &o);
	for (size_t i = 0; i < m->nfailures; i++) {
		char buf[600];
		tt_err_format(&m->failures[i].err, buf, sizeof(buf));
		fprintf(stderr, "tracetop: %s\n", buf);
	}
	for (size_t i = 0; i < m->nranks; i++) {
		struct tt_rank *r = m->ranks[i];
		printf("%s rank %lld events %u tracks %u kernels %u links %u fast %llu slow %llu bytes %zu\n",
		       r->file, (long long)r->rank, r->nev, r->ntracks, r->n_kernel, r->nlinks,
		       (unsigned long long)r->report.fast_events,
		       (unsigned long long)r->report.slow_events, tt_rank_memsize(r));
	}
	tt_model_free(m);
	tt_paths_free(files, n);
	return rc ? 2 : 0;
}
