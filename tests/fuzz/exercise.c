/* Shared by the fuzz targets past the loader: see exercise.h. */
#include "config.h"

#include "exercise.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tracetop/keymap.h"
#include "tracetop/report.h"
#include "tracetop/util.h"
#include "tui/tui.h"

/* Abort with a message (a harness failure, not bad input). */
__attribute__((noreturn)) static void fz_die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort();
}

uint32_t fz_seed(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static char tmpdir[64];
static char *tmp_files[16];
static size_t ntmp_files;

static void tmp_cleanup(void)
{
	for (size_t i = 0; i < ntmp_files; i++) {
		unlink(tmp_files[i]);
		free(tmp_files[i]);
	}
	rmdir(tmpdir);
}

const char *fz_tmp_path(const char *name)
{
	static char buf[160];
	if (!tmpdir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(tmpdir, sizeof(tmpdir), "%s/fuzz.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(tmpdir))
			fz_die("cannot make a temporary directory", tmpdir);
		atexit(tmp_cleanup);
	}
	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	size_t i;
	for (i = 0; i < ntmp_files; i++)
		if (strcmp(tmp_files[i], buf) == 0)
			break;
	if (i == ntmp_files && ntmp_files < TT_ARRAY_SIZE(tmp_files))
		tmp_files[ntmp_files++] = tt_strdup(buf);
	return buf;
}

void fz_write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0)
		fz_die("cannot write", path);
}

/* ---- reports ---- */

static FILE *devnull(void)
{
	static FILE *f;
	if (!f && !(f = fopen("/dev/null", "w")))
		fz_die("cannot open /dev/null", NULL);
	return f;
}

static void reports(const struct tt_model *m, uint32_t seed)
{
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.a.threads = 1;
	o.a.exact = seed & 1;
	o.a.include_last_step = seed & 2;
	if (seed & 4)
		o.top = 1 + (int)(seed >> 8) % 4;
	if (seed & 8) {
		o.num_kernels = 1;
		o.duration_ratio = 0.0;
		o.no_memory = true;
		o.explain = true;
		o.kernel_delay_us = 0;
		o.runtime_cutoff_us = 0;
		o.launch_delay_cutoff_us = 0;
		o.min_pattern_len = 1;
		o.short_names = true;
		o.iteration = (int64_t)(seed >> 12) % 4;
	}
	if (seed & 16) {
		o.gpu_only = seed & 32;
		o.cpu_only = !o.gpu_only;
	}
	static const enum tt_format fmts[] = {TT_FMT_TABLE, TT_FMT_CSV, TT_FMT_JSON};
	for (const char *const *name = tt_report_names; *name; name++) {
		bool diff = strcmp(*name, "diff") == 0;
		for (size_t f = 0; f < TT_ARRAY_SIZE(fmts); f++) {
			o.format = fmts[f];
			struct tt_err err;
			tt_err_clear(&err);
			tt_report_run(*name, m, diff ? m : NULL, &o, devnull(), &err);
		}
	}
}

/* ---- the explorer, headless ---- */

/* keys that visit a pane: move, drill in and out, sort, filter, zoom,
 * ranks, metrics, marks and links; never 'q' (quit) or 'w' (write a file) */
static const char pane_keys[] =
	"jj<Enter>j<Enter><Enter><Escape>sSlh+=-/k<Enter>nN<Escape>G<Enter><Escape><Escape>"
	"g][am<Tab><S-Tab>c+<Tab>m-<PageDown><PageUp><End><Home>r0<Enter>a/<Escape>W<Escape>"
	"<Enter><Enter><Enter>jjjjj<Enter><Enter><Escape><Escape><Escape><Escape>";

static void explorer(const struct tt_model *m, uint32_t seed, bool full)
{
	struct tt_report_opts o;
	tt_report_opts_init(&o);
	o.a.threads = 1;
	o.a.exact = seed & 64;
	struct tt_keymap *keys = tt_keymap_new();
	struct tt_app *a = tt_app_new(m, NULL, &o, keys, "fuzz");
	/* the top panes 1..9, 0, then the views behind 'v' (one j more each) */
	static const char tops[] = "1234567890";
	enum { NVIEWS = 12 };
	size_t cap = 64 + (sizeof(pane_keys) + 80) * (10 + NVIEWS);
	char *script = tt_malloc(cap);
	size_t n = 0;
	unsigned pick_top = (seed >> 8) % 10, pick_view = (seed >> 16) % NVIEWS;
	for (unsigned i = 0; i < 10; i++)
		if (full || i == pick_top)
			n += (size_t)snprintf(script + n, cap - n, "%c%s", tops[i], pane_keys);
	for (unsigned v = 0; v < NVIEWS; v++) {
		if (!full && v != pick_view)
			continue;
		n += (size_t)snprintf(script + n, cap - n, "v");
		for (unsigned j = 0; j < v; j++)
			n += (size_t)snprintf(script + n, cap - n, "j");
		n += (size_t)snprintf(script + n, cap - n, "<Enter>%s<Escape>", pane_keys);
	}
	snprintf(script + n, cap - n, "?<PageDown><Escape>1");
	/* (a small screen and an ordinary one) */
	int w = seed & 128 ? 80 : 41, h = seed & 128 ? 24 : 12;
	tt_headless_run(a, w, h, script, devnull(), false);
	free(script);
	tt_app_free(a);
	tt_keymap_free(keys);
}

void fz_exercise(const struct tt_model *m, uint32_t seed, bool full)
{
	if (!m || !m->nranks)
		return;
	/* (FUZZ_NO_EXPLORER=1 leaves the explorer out, FUZZ_NO_REPORTS=1 the
	 * reports: to look for one kind of bug while another is being fixed) */
	static int no_reports = -1, no_explorer = -1;
	if (no_reports < 0) {
		no_reports = getenv("FUZZ_NO_REPORTS") != NULL;
		no_explorer = getenv("FUZZ_NO_EXPLORER") != NULL;
	}
	if (!no_reports)
		reports(m, seed);
	if (!no_explorer)
		explorer(m, seed, full);
}

/* ---- replay without libFuzzer ---- */

bool fz_full;

int fz_replay_main(int argc, char **argv)
{
	int bad = 0;
	fz_full = true;
	for (int i = 1; i < argc; i++) {
		char *buf = NULL;
		size_t len = 0, cap = 0;
		FILE *f = fopen(argv[i], "rb");
		if (!f) {
			perror(argv[i]);
			bad = 1;
			continue;
		}
		for (;;) {
			if (cap - len < 65536) {
				cap = cap ? cap * 2 : 65536;
				buf = tt_realloc_array(buf, cap, 1);
			}
			size_t k = fread(buf + len, 1, cap - len, f);
			len += k;
			if (k == 0)
				break;
		}
		fclose(f);
		LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
		free(buf);
		printf("ok - %s\n", argv[i]);
	}
	return bad;
}
