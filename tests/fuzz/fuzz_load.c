/* libFuzzer target for the whole loader (issue 7).
 *
 * Each input is fed
 *   (a) as a plain in-memory trace through tt_model_load_mem(), with the
 *       differential check of the fast path against cJSON on every event
 *       (a disagreement aborts: it is a bug, not bad input);
 *   (b) gzip-compressed in the harness (two members, through the pipelined
 *       inflate thread), which must give the same result as (a); and once
 *       more cut before its end (a truncated gzip stream).  Inputs that start
 *       with 1f 8b already went through the gzip reader as they are in (a);
 *   (c) as a file x.tts to tt_rank_open_cache(), raw and with its header
 *       patched (magic, version, size, CRC) so that the section checks are
 *       reached; a cache must be refused or accepted, never trusted blindly;
 *   (d) written to a file and loaded with four threads: split into parts
 *       (the parallel path for big plain files), and the gzip of (b) parsed
 *       in blocks (the one for big gzip files); each must succeed or fail as
 *       (a) did, with the same events; and when (a) loaded, the rank is saved
 *       as .tts and reopened, which must give the same rank back.
 *
 * An input that is a recipe (tests/tools/advgen.h) stands for the
 * generated adversarial trace it names (up to 60,000 events, edited here
 * and there): the 64 KiB inputs of a fuzzer reach big traces that way.
 *
 * The same file builds without libFuzzer (FUZZ_REPLAY): main() then runs
 * every file named on the command line once, so the regression inputs run
 * under `make check` with the ordinary compiler. */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "tracetop/model.h"
#include "tracetop/util.h"
#include "advgen.h"
#include "tts_fix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char tmpdir[64];
static const char *const tmp_names[] = {"x.tts", "x.json", "x.json.gz", "rt.tts"};

static void die(const char *what, const char *detail)
{
	fprintf(stderr, "fuzz_load: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
	abort();
}

static void tmp_cleanup(void)
{
	char buf[128];
	for (size_t i = 0; i < TT_ARRAY_SIZE(tmp_names); i++) {
		snprintf(buf, sizeof(buf), "%s/%s", tmpdir, tmp_names[i]);
		unlink(buf);
	}
	rmdir(tmpdir);
}

/* a file in this process's temporary directory (one of tmp_names) */
static const char *tmp_path(const char *name)
{
	static char buf[128];
	if (!tmpdir[0]) {
		const char *t = getenv("TMPDIR");
		snprintf(tmpdir, sizeof(tmpdir), "%s/fuzz_load.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(tmpdir))
			die("cannot make a temporary directory", tmpdir);
		atexit(tmp_cleanup);
	}
	snprintf(buf, sizeof(buf), "%s/%s", tmpdir, name);
	return buf;
}

static void write_file(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0)
		die("cannot write", path);
}

/* gzip of [p, p+n) appended to *out (one member) */
static void gz_member(const uint8_t *p, size_t n, uint8_t **out, size_t *len, size_t *cap)
{
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	if (deflateInit2(&zs, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		die("deflateInit2", NULL);
	size_t need = *len + deflateBound(&zs, (uLong)n) + 64;
	if (need > *cap) {
		*out = tt_realloc_array(*out, need, 1);
		*cap = need;
	}
	zs.next_in = (Bytef *)(uintptr_t)p;
	zs.avail_in = (uInt)n;
	zs.next_out = *out + *len;
	zs.avail_out = (uInt)(*cap - *len);
	if (deflate(&zs, Z_FINISH) != Z_STREAM_END)
		die("deflate", NULL);
	*len += zs.total_out;
	deflateEnd(&zs);
}

static int load_mem(struct tt_model **m, const char *name, const void *p, size_t n,
		    const struct tt_load_opts *o)
{
	const char *names[1] = {name};
	const void *datas[1] = {p};
	size_t lens[1] = {n};
	return tt_model_load_mem(m, names, datas, lens, 1, o);
}

static const struct tt_err *failure(const struct tt_model *m)
{
	return m->nfailures ? &m->failures[0].err : NULL;
}

static void check_failure(const struct tt_model *m)
{
	const struct tt_err *e = failure(m);
	/* (a prefix: key names in other messages may hold any text) */
	static const char disagree[] = "fast path and cJSON disagree on '";
	if (e && strncmp(e->msg, disagree, sizeof(disagree) - 1) == 0)
		die("the fast path and cJSON disagree", e->msg);
}

/* the events of two ranks must be the same, string ids aside */
static void same_events(const struct tt_rank *a, const struct tt_rank *b, const char *what)
{
	char msg[160];
	if (a->nev != b->nev || a->ntracks != b->ntracks || a->nlinks != b->nlinks ||
	    a->nsamples != b->nsamples || a->nflows != b->nflows) {
		snprintf(msg, sizeof(msg), "%s: %u/%u events, %u/%u tracks, %u/%u links", what,
			 a->nev, b->nev, a->ntracks, b->ntracks, a->nlinks, b->nlinks);
		die("models differ", msg);
	}
	for (uint32_t i = 0; i < a->nev; i++) {
		const struct tt_event *x = &a->ev[i], *y = &b->ev[i];
		if (x->ts != y->ts || x->dur != y->dur || x->corr != y->corr || x->ext != y->ext ||
		    x->ph != y->ph || x->flags != y->flags || x->track != y->track ||
		    strcmp(tt_ev_name(a, x), tt_ev_name(b, y)) != 0 ||
		    strcmp(tt_str(a, a->cats[x->cat].name), tt_str(b, b->cats[y->cat].name)) != 0) {
			snprintf(msg, sizeof(msg), "%s: event %u", what, i);
			die("models differ", msg);
		}
	}
	if (a->t0 != b->t0 || a->t1 != b->t1 || a->rank != b->rank) {
		snprintf(msg, sizeof(msg), "%s: span or rank", what);
		die("models differ", msg);
	}
}

/* ---- .tts files (the header and checksum: tts_fix.h) ---- */

/* (c) the cache reader on the raw bytes, then with a plausible header */
static void fuzz_cache(const uint8_t *data, size_t size)
{
	const char *path = tmp_path("x.tts");
	struct tt_rank *r;
	struct tt_err err;
	write_file(path, data, size);
	if (tt_rank_open_cache(&r, path, &err) == 0)
		tt_rank_free(r);
	if (size < TTS_HDR)
		return;
	uint8_t *copy = tt_malloc(size);
	memcpy(copy, data, size);
	tts_fix(copy, size);
	write_file(path, copy, size);
	free(copy);
	if (tt_rank_open_cache(&r, path, &err) == 0)
		tt_rank_free(r);
}

/* the harness's idea of the .tts header matches a file the writer made */
static void check_tts_copy(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		die("cannot read", path);
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, k;
	do {
		if (cap - len < 65536) {
			cap = cap ? cap * 2 : 65536;
			buf = tt_realloc_array(buf, cap, 1);
		}
		k = fread(buf + len, 1, cap - len, f);
		len += k;
	} while (k > 0);
	fclose(f);
	uint32_t version = 0;
	uint64_t sum = 0;
	if (len >= TTS_HDR) {
		memcpy(&version, buf + TTS_VERSION_OFF, 4);
		memcpy(&sum, buf + TTS_SUM_OFF, 8);
	}
	bool same = len >= TTS_HDR && version == tts_version &&
		    sum == tts_sum(buf + TTS_HDR, len - TTS_HDR);
	free(buf);
	if (!same)
		die("the .tts format changed (version or checksum)",
		    "update tts_version and tts_sum() in tests/fuzz/tts_fix.h");
}

/* load one file with four threads: plain files from 64 bytes on are split
 * into parts, gzip files are inflated and parsed in blocks */
static void load_file(const char *name, const void *data, size_t size,
		      const struct tt_model *ref, const char *what)
{
	const char *tp = tmp_path(name);
	char path[128];
	snprintf(path, sizeof(path), "%s", tp);
	write_file(path, data, size);
	/* (no --max-events: it turns splitting off) */
	struct tt_load_opts o = {.verify = true, .threads = 4, .max_memory = 256 << 20,
				 .no_cache = true, .split_min = 64};
	char *files[1] = {path};
	struct tt_model *m = NULL;
	int rc = tt_model_load(&m, files, 1, &o);
	check_failure(m);
	bool ok = ref->nranks == 1;
	if ((rc == 0) != ok) {
		const struct tt_err *e = failure(ok ? m : ref);
		char msg[400];
		snprintf(msg, sizeof(msg), "%s: %s", what, e ? e->msg : "?");
		die(ok ? "a trace that loads from memory fails from a file" :
			 "a trace that fails from memory loads from a file",
		    msg);
	}
	if (ok)
		same_events(ref->ranks[0], m->ranks[0], what);
	tt_model_free(m);
	unlink(path);
}

/* (d) the file paths, and the .tts round trip of a trace that loaded */
static void fuzz_file_paths(const uint8_t *data, size_t size, const uint8_t *gz, size_t glen,
			    const struct tt_model *ref)
{
	load_file("x.json", data, size, ref, "split load");
	if (gz)
		load_file("x.json.gz", gz, glen, ref, "gzip file in blocks");
	if (ref->nranks != 1)
		return;
	const char *tp = tmp_path("rt.tts");
	char tts_path[128];
	snprintf(tts_path, sizeof(tts_path), "%s", tp);
	struct tt_err err;
	if (tt_rank_save(ref->ranks[0], tts_path, &err) != 0)
		die("cannot save a .tts cache", err.msg);
	struct tt_rank *r;
	check_tts_copy(tts_path);
	if (tt_rank_open_cache(&r, tts_path, &err) != 0)
		die("a .tts cache just written is refused", err.msg);
	same_events(ref->ranks[0], r, ".tts round trip");
	tt_rank_free(r);
	unlink(tts_path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a recipe (tests/tools/advgen.h): its generated files, each through
	 * all of the below (the first few of a job of many ranks) */
	struct adv_file *f;
	size_t nf = adv_recipe(data, size, 60000, &f);
	if (nf) {
		for (size_t i = 0; i < nf && i < 3; i++)
			LLVMFuzzerTestOneInput((const uint8_t *)f[i].text, f[i].len);
		adv_free(f, nf);
		return 0;
	}
	struct tt_load_opts o = {.verify = true, .threads = 1, .max_memory = 256 << 20,
				 .max_events = 200000};

	/* (a) plain, from memory (gzip when the bytes start with 1f 8b) */
	struct tt_model *m = NULL;
	int rc = load_mem(&m, "fuzz.json", data, size, &o);
	check_failure(m);
	bool is_gzip = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;

	/* (b) compressed here: two members, inflated on a second thread */
	uint8_t *gz = NULL;
	size_t glen = 0, gcap = 0;
	if (!is_gzip) {
		gz_member(data, size / 2, &gz, &glen, &gcap);
		gz_member(data + size / 2, size - size / 2, &gz, &glen, &gcap);
		struct tt_load_opts og = o;
		og.threads = 2;
		struct tt_model *mg = NULL;
		int rcg = load_mem(&mg, "fuzz.json.gz", gz, glen, &og);
		check_failure(mg);
		if ((rc == 0) != (rcg == 0))
			die("plain and gzip input disagree on success",
			    rc ? failure(m)->msg : failure(mg)->msg);
		if (rc == 0)
			same_events(m->ranks[0], mg->ranks[0], "gzip");
		else if (failure(m)->code != failure(mg)->code ||
			 failure(m)->offset != failure(mg)->offset)
			die("plain and gzip input fail differently", failure(mg)->msg);
		tt_model_free(mg);

		/* the same stream cut short (trailer and some data lost) */
		size_t cut = glen > 24 ? glen - 9 - data[size ? size - 1 : 0] % 16 : glen / 2;
		mg = NULL;
		load_mem(&mg, "fuzz-cut.json.gz", gz, cut, &o);
		check_failure(mg);
		tt_model_free(mg);
	}

	/* (d) the file paths: split loading, gzip blocks, .tts round trip */
	if (!is_gzip && size > 0)
		fuzz_file_paths(data, size, gz, glen, m);
	free(gz);
	tt_model_free(m);

	/* (c) the cache reader */
	fuzz_cache(data, size);
	return 0;
}

#ifdef FUZZ_REPLAY
/* run each named file once (regression inputs under make check) */
int main(int argc, char **argv)
{
	int bad = 0;
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
#endif
