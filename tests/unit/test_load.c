/* model room: hand-written fixtures through the whole loader. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>

#include "tracetop/demo.h"
#include "tracetop/io.h"
#include "tracetop/model.h"
#include "tracetop/sort.h"
#include "tracetop/testing.h"
#include "tracetop/util.h"
#include "testlib.h"

/* tests/fixtures/NAME, one rank; the fast path and cJSON must agree on
 * every event */
static struct tt_model *load1(const char *name)
{
	char path[1024];
	const struct tt_load_opts o = {.verify = true};
	struct tt_model *m = tl_load_files((const char *const[]){tl_fixture(name, path, sizeof(path))},
					   1, &o);
	ck_assert_uint_eq(m->nranks, 1);
	return m;
}

static const struct tt_event *find(const struct tt_rank *r, const char *name)
{
	for (uint32_t i = 0; i < r->nev; i++)
		if (strcmp(tt_ev_name(r, &r->ev[i]), name) == 0)
			return &r->ev[i];
	return NULL;
}

static const struct tt_track *track_of(const struct tt_rank *r, const struct tt_event *e)
{
	uint32_t t = tt_track_of(r, (uint32_t)(e - r->ev));
	ck_assert(t != TT_NONE);
	return &r->tracks[t];
}

START_TEST(every_phase)
{
	struct tt_model *m = load1("phases.json");
	struct tt_rank *r = m->ranks[0];
	const int64_t base = INT64_C(1700000000000000000);
	ck_assert_int_eq(r->rank, 3);
	ck_assert_int_eq(r->rank_src, TT_RANK_JSON);
	ck_assert_int_eq(r->base_ns, base);
	/* 5 X + 3 paired B/E + 2 instants; M, C, flows and 'b' are not events */
	ck_assert_uint_eq(r->nev, 10);
	ck_assert_uint_eq(r->report.count[TT_W_UNMATCHED_B], 1);
	ck_assert_uint_eq(r->report.count[TT_W_SKIPPED_PH], 1);
	ck_assert_uint_eq(r->report.count[TT_W_THREAD_NAME], 1);
	ck_assert(r->hta_round); /* a ts was written as 100.5 */

	const struct tt_event *mm = find(r, "aten::mm");
	ck_assert_ptr_nonnull(mm);
	ck_assert_int_eq(mm->ts, base + 100500);
	ck_assert_int_eq(mm->dur, 50250);
	ck_assert(mm->flags & TT_EF_OPINFO);
	ck_assert_str_eq(tt_str(r, r->opinfo[mm->aux].input_dims), "[[4,4],[4,4]]");
	ck_assert_str_eq(tt_str(r, track_of(r, mm)->name), "pt_main_thread"); /* first kept */
	ck_assert_str_eq(tt_str(r, track_of(r, mm)->proc_name), "python");

	/* B/E pairs, nested LIFO; an open B ends at the track's last time */
	const struct tt_event *outer = find(r, "outer"), *inner = find(r, "inner");
	const struct tt_event *open = find(r, "open");
	ck_assert_int_eq(outer->ts, base + 200000);
	ck_assert_int_eq(outer->dur, 60000);
	ck_assert_int_eq(inner->dur, 10000);
	ck_assert_int_eq(open->ts + open->dur, base + 300000);
	ck_assert(outer < inner); /* sorted by start within the track */

	/* GPU stream track named from "stream 7 " without the space */
	const struct tt_event *k = find(r, "gemm");
	const struct tt_track *gt = track_of(r, k);
	ck_assert_int_eq(gt->kind, TT_TRACK_GPU);
	ck_assert_int_eq(gt->stream, 7);
	ck_assert_str_eq(tt_str(r, gt->name), "stream 7");
	ck_assert(k->flags & TT_EF_STREAM);
	ck_assert(r->kinfo[k->aux].occupancy == 50.0f);
	/* memcpy comes first on the stream (ts 90) */
	ck_assert_str_eq(tt_ev_name(r, &r->ev[gt->first]), "Memcpy HtoD (Pinned -> Device)");

	/* launch link both ways; the memcpy has no launching call */
	ck_assert_uint_eq(r->nlinks, 1);
	const struct tt_event *launch = find(r, "cudaLaunchKernel");
	uint32_t li = (uint32_t)(launch - r->ev), ki = (uint32_t)(k - r->ev);
	ck_assert_uint_eq(tt_launch_of(r, ki), li);
	uint32_t lo, hi;
	tt_links_of_cpu(r, li, &lo, &hi);
	ck_assert_uint_eq(hi - lo, 1);
	ck_assert_uint_eq(r->links[lo].gpu, ki);

	/* global instant, memory instant, counters, flows */
	const struct tt_event *rwe = find(r, "Record Window End");
	ck_assert_int_eq(track_of(r, rwe)->kind, TT_TRACK_GLOBAL);
	ck_assert(rwe->flags & TT_EF_MARKER);
	const struct tt_event *mem = find(r, "[memory]");
	ck_assert(mem->flags & TT_EF_MEMEV);
	ck_assert_int_eq(r->meminfo[mem->aux].total_reserved, 8192);
	ck_assert_uint_eq(r->ncounters, 1);
	ck_assert_uint_eq(r->counters[0].count, 2);
	ck_assert(r->samples[r->counters[0].first].value == 1.0);
	ck_assert_uint_eq(r->nflows_total, 2);

	ck_assert_uint_eq(r->meta.ndevprops, 1);
	ck_assert_int_eq(r->meta.devprops[0].total_mem, INT64_C(84990623744));
	ck_assert_int_eq(r->meta.devprops[0].num_sms, 108);
	tt_model_free(m);
}
END_TEST

START_TEST(bare_array_without_bracket)
{
	struct tt_model *m = load1("bare.json");
	struct tt_rank *r = m->ranks[0];
	ck_assert_uint_eq(r->nev, 2);
	ck_assert(!r->meta.is_object);
	ck_assert_uint_eq(r->report.count[TT_W_BARE_ARRAY], 1);
	ck_assert_uint_eq(r->report.count[TT_W_MISSING_BRACKET], 1);
	ck_assert_uint_eq(r->report.count[TT_W_TRAILING_COMMA], 1);
	ck_assert_int_eq(r->rank_src, TT_RANK_POSITION);
	ck_assert_int_eq(r->rank, 0);
	const struct tt_track *t = &r->tracks[0];
	ck_assert(t->pid_is_str);
	ck_assert_str_eq(tt_str(r, t->pid_str), "CPU functions");
	/* the autograd profiler's events before Kineto (no cat): CPU ops */
	ck_assert_uint_eq(r->n_cpu_op, 2);
	ck_assert_int_eq(tt_ev_kind(r, &r->ev[t->first]), TT_K_CPU_OP);
	tt_model_free(m);
}
END_TEST

START_TEST(key_order_ns_and_sorting)
{
	struct tt_model *m = load1("worker_5.keyorder.json");
	struct tt_rank *r = m->ranks[0];
	ck_assert_int_eq(r->rank, 5); /* from the file name: worker_5 */
	ck_assert_int_eq(r->rank_src, TT_RANK_NAME);
	ck_assert_str_eq(r->meta.display_unit, "ns");
	/* unsorted input; equal starts put the longer (parent) first */
	uint32_t t = tt_track_of(r, 0);
	const struct tt_track *tr = &r->tracks[t];
	ck_assert_uint_eq(tr->count, 3);
	ck_assert_str_eq(tt_ev_name(r, &r->ev[tr->first]), "a");
	ck_assert_str_eq(tt_ev_name(r, &r->ev[tr->first + 1]), "a-child");
	ck_assert_str_eq(tt_ev_name(r, &r->ev[tr->first + 2]), "b");
	ck_assert_int_eq(r->ev[tr->first].ts, INT64_C(1712195495519689047));
	ck_assert_int_eq(r->ev[tr->first + 1].dur, 2503);
	/* the profiler span is a marker: not part of the work span */
	ck_assert_int_eq(r->t0, INT64_C(1712195495519689047));
	ck_assert_int_eq(r->t1, INT64_C(1712195495519709547)); /* a: 689.047 + 20.5 */
	tt_model_free(m);
}
END_TEST

START_TEST(truncated_keeps_events)
{
	struct tt_model *m = load1("truncated.json");
	struct tt_rank *r = m->ranks[0];
	ck_assert_uint_eq(r->nev, 2);
	ck_assert_uint_eq(r->report.count[TT_W_TRUNCATED], 1);
	ck_assert_uint_eq(r->report.bytes_lost, 41); /* the cut event */
	ck_assert_int_eq(r->rank, 2);
	tt_model_free(m);
}
END_TEST

START_TEST(one_bad_file_does_not_stop_others)
{
	char good[1024], missing[1024];
	tl_fixture("phases.json", good, sizeof(good));
	tl_fixture("no-such-file.json", missing, sizeof(missing));
	char *files[2] = {missing, good};
	struct tt_model *m;
	struct tt_load_opts o = {0};
	o.threads = 2;
	ck_assert_int_eq(tt_model_load(&m, files, 2, &o), 0);
	ck_assert_uint_eq(m->nranks, 1);
	ck_assert_uint_eq(m->nfailures, 1);
	ck_assert_str_eq(m->failures[0].path, missing);
	tt_model_free(m);
}
END_TEST

/* The job's origin: the earliest work event over the ranks, whichever rank
 * holds it; ranks without events do not count. */
START_TEST(model_origin)
{
	static const char r0[] = "{\"distributedInfo\":{\"rank\":0},\"traceEvents\":["
				 "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":1,"
				 "\"ts\":2000,\"dur\":5}]}";
	static const char r1[] = "{\"distributedInfo\":{\"rank\":1},\"traceEvents\":["
				 "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"b\",\"pid\":1,\"tid\":1,"
				 "\"ts\":1500.5,\"dur\":5}]}";
	static const char r2[] = "{\"distributedInfo\":{\"rank\":2},\"traceEvents\":[]}";
	const char *names[3] = {"r0.json", "r1.json", "r2.json"};
	const void *data[3] = {r0, r1, r2};
	size_t lens[3] = {sizeof(r0) - 1, sizeof(r1) - 1, sizeof(r2) - 1};
	struct tt_model *m;
	struct tt_load_opts o = {0};
	ck_assert_int_eq(tt_model_load_mem(&m, names, data, lens, 3, &o), 0);
	ck_assert_uint_eq(m->nranks, 3);
	ck_assert_int_eq(tt_model_origin(m), 1500500);
	tt_model_free(m);
	ck_assert_int_eq(tt_model_origin(NULL), 0);
}
END_TEST

START_TEST(rank_from_name)
{
	ck_assert_int_eq(tt_rank_from_name("rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz"), 34);
	ck_assert_int_eq(tt_rank_from_name("sampled_rank-0.json.gz"), 0);
	ck_assert_int_eq(tt_rank_from_name("rank0.json.gz"), 0);
	ck_assert_int_eq(tt_rank_from_name("rank3_trace.json.gz"), 3);
	ck_assert_int_eq(tt_rank_from_name("Worker_12.json"), 12);
	ck_assert_int_eq(tt_rank_from_name("host_1234.1712.pt.trace.json"), -1);
	ck_assert_int_eq(tt_rank_from_name("frank7.json"), -1); /* after a letter */
}
END_TEST

/* tt_msort: a natural merge sort must sort and keep equal keys in input
 * order, whatever the shape: random, sorted, reversed, a few sorted runs,
 * many equal keys.  Checked against insertion sort. */
struct kv {
	int key, pos;
};

static int kv_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct kv *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

/* the same written out for the type (tracetop/sort.h), and tt_msort over
 * 24-byte elements */
static inline bool kv_before(const struct kv *x, const struct kv *y)
{
	return x->key < y->key;
}
TT_STABLE_SORT(kv_sort, struct kv, kv_before)

struct kv3 {
	int64_t key, pos, pad;
};

static int kv3_cmp(const void *a, const void *b, void *ctx)
{
	(void)ctx;
	const struct kv3 *x = a, *y = b;
	return x->key < y->key ? -1 : x->key > y->key;
}

START_TEST(msort_natural_and_stable)
{
	unsigned seed = 12345;
	for (int shape = 0; shape < 5; shape++) {
		for (size_t n = 0; n < 300; n += 1 + n / 7) {
			struct kv *v = malloc((n + 1) * sizeof(*v)), *ref = malloc((n + 1) * sizeof(*v));
			for (size_t i = 0; i < n; i++) {
				seed = seed * 1103515245u + 12345u;
				int r = (int)(seed >> 16);
				int key = shape == 0   ? r % 1000
					  : shape == 1 ? (int)i
					  : shape == 2 ? (int)(n - i)
					  : shape == 3 ? (int)(i % (n / 3 + 1)) /* three runs */
						       : r % 3;
				v[i] = (struct kv){key, (int)i};
			}
			memcpy(ref, v, n * sizeof(*v));
			for (size_t i = 1; i < n; i++) /* stable insertion sort */
				for (size_t j = i; j > 0 && ref[j - 1].key > ref[j].key; j--) {
					struct kv t = ref[j];
					ref[j] = ref[j - 1];
					ref[j - 1] = t;
				}
			struct kv *w = malloc((n + 1) * sizeof(*w));
			struct kv3 *w3 = malloc((n + 1) * sizeof(*w3));
			memcpy(w, v, n * sizeof(*v));
			for (size_t i = 0; i < n; i++)
				w3[i] = (struct kv3){v[i].key, v[i].pos, -1};
			tt_msort(v, n, sizeof(*v), kv_cmp, NULL);
			kv_sort(w, n);
			tt_msort(w3, n, sizeof(*w3), kv3_cmp, NULL);
			for (size_t i = 0; i < n; i++) {
				ck_assert_msg(v[i].key == ref[i].key && v[i].pos == ref[i].pos,
					      "shape %d n %zu at %zu: (%d,%d) vs (%d,%d)", shape, n, i,
					      v[i].key, v[i].pos, ref[i].key, ref[i].pos);
				ck_assert_msg(w[i].key == ref[i].key && w[i].pos == ref[i].pos,
					      "stable sort: shape %d n %zu at %zu", shape, n, i);
				ck_assert_msg(w3[i].key == ref[i].key && w3[i].pos == ref[i].pos &&
						      w3[i].pad == -1,
					      "24-byte msort: shape %d n %zu at %zu", shape, n, i);
			}
			free(v);
			free(w);
			free(w3);
			free(ref);
		}
	}
}
END_TEST

/* ---- gzip: ISA-L and zlib give the same text, errors and offsets ---- */

/* one gzip member of text[0, n) at a compression level (0: stored blocks) */
static void gz_member(unsigned char **out, size_t *len, size_t *cap, const char *text, size_t n,
		      int level)
{
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	ck_assert_int_eq(deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
	size_t need = deflateBound(&zs, (uLong)n);
	if (*len + need > *cap) {
		*cap = *len + need;
		*out = realloc(*out, *cap);
	}
	zs.next_in = (unsigned char *)text;
	zs.avail_in = (uInt)n;
	zs.next_out = *out + *len;
	zs.avail_out = (uInt)(*cap - *len);
	ck_assert_int_eq(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*len += zs.total_out;
	deflateEnd(&zs);
}

struct gzread {
	int rc;
	char msg[512];
	char *text;
	size_t len;
	bool trunc, garbage;
	uint64_t trunc_off, garbage_off;
	char by[8];
};

/* read a whole gzip file (or buffer) with one inflater, in odd-sized reads */
static void gz_read_all(const char *path, const unsigned char *mem, size_t n, bool threaded,
			enum tt_inflater inf, struct gzread *o)
{
	memset(o, 0, sizeof(*o));
	tt_io_set_inflater(inf);
	struct tt_reader *r;
	struct tt_err err;
	tt_err_clear(&err);
	o->rc = path ? tt_reader_open(&r, path, &err) : tt_reader_open_mem(&r, "mem", mem, n, &err);
	tt_io_set_inflater(TT_INFLATE_AUTO);
	if (o->rc) {
		tt_err_format(&err, o->msg, sizeof(o->msg));
		return;
	}
	tt_reader_set_threaded(r, threaded);
	size_t cap = 1 << 16;
	o->text = malloc(cap);
	for (;;) {
		if (cap - o->len < 7777) {
			cap *= 2;
			o->text = realloc(o->text, cap);
		}
		ssize_t k = tt_reader_read(r, o->text + o->len, 7777, &err);
		if (k < 0) {
			o->rc = (int)k;
			tt_err_format(&err, o->msg, sizeof(o->msg));
			break;
		}
		if (k == 0)
			break;
		o->len += (size_t)k;
	}
	o->trunc = tt_reader_truncated(r, &o->trunc_off);
	o->garbage = tt_reader_trailing_garbage(r, &o->garbage_off);
	if (!threaded)
		snprintf(o->by, sizeof(o->by), "%s", tt_reader_inflater(r));
	tt_reader_close(r);
}

/* the default inflater and zlib agree on everything a reader says */
static void gz_same(const char *what, const struct gzread *a, const struct gzread *z)
{
	ck_assert_msg(a->rc == z->rc && !strcmp(a->msg, z->msg), "%s: '%s' (%d) vs zlib '%s' (%d)",
		      what, a->msg, a->rc, z->msg, z->rc);
	ck_assert_msg(a->len == z->len && (!a->len || !memcmp(a->text, z->text, a->len)),
		      "%s: %zu text bytes vs zlib's %zu", what, a->len, z->len);
	ck_assert_msg(a->trunc == z->trunc && a->trunc_off == z->trunc_off,
		      "%s: truncated %d at %llu vs zlib %d at %llu", what, a->trunc,
		      (unsigned long long)a->trunc_off, z->trunc, (unsigned long long)z->trunc_off);
	ck_assert_msg(a->garbage == z->garbage && a->garbage_off == z->garbage_off,
		      "%s: trailing bytes %d at %llu vs zlib %d at %llu", what, a->garbage,
		      (unsigned long long)a->garbage_off, z->garbage, (unsigned long long)z->garbage_off);
}

static void gz_write(const char *path, const unsigned char *p, size_t n)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(p, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(gzip_isal_and_zlib_agree)
{
	/* ~700 kB of event-like text in three members (dynamic Huffman,
	 * stored blocks, fixed-ish fast level), NUL padding before the last */
	size_t tn = 0, tcap = 800000;
	char *text = malloc(tcap);
	tn += (size_t)snprintf(text, tcap, "{\"traceEvents\": [");
	for (unsigned i = 0; tn < tcap - 200; i++)
		tn += (size_t)snprintf(text + tn, tcap - tn,
				       "{\"ph\": \"X\", \"name\": \"k%u\", \"ts\": %u, \"dur\": %u, "
				       "\"args\": {\"x\": %u}},\n",
				       (i * 2654435761u) % 97, i * 13, (i * 7919u) % 1000, i);
	size_t m1 = 450000, m2 = m1 + 40000;
	unsigned char *gz = NULL;
	size_t glen = 0, gcap = 0;
	gz_member(&gz, &glen, &gcap, text, m1, 6);
	size_t b1 = glen;
	gz_member(&gz, &glen, &gcap, text + m1, m2 - m1, 0);
	size_t b2 = glen;
	gz = realloc(gz, glen + 3);
	memset(gz + glen, 0, 3);
	glen += 3;
	gcap = glen;
	gz_member(&gz, &glen, &gcap, text + m2, tn - m2, 1);

	char dir[] = "/tmp/tt-gzipXXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof(path), "%s/t.json.gz", dir);
	unsigned char *buf = malloc(glen + 8);
	struct gzread a, z;
	size_t compared = 0, planned = 0;

	/* the whole stream: the text itself, from a file and from memory,
	 * threaded or not; ISA-L inflated it from start to end */
	gz_write(path, gz, glen);
	for (int mem = 0; mem < 2; mem++)
		for (int th = 0; th < 2; th++) {
			planned++;
			gz_read_all(mem ? NULL : path, gz, glen, th, TT_INFLATE_AUTO, &a);
			gz_read_all(mem ? NULL : path, gz, glen, th, TT_INFLATE_ZLIB, &z);
			gz_same("whole", &a, &z);
			ck_assert_int_eq(a.rc, 0);
			ck_assert_uint_eq(a.len, tn);
			ck_assert(!memcmp(a.text, text, tn));
			if (!th) {
#ifdef HAVE_ISAL
				ck_assert_str_eq(a.by, "ISA-L");
#else
				ck_assert_str_eq(a.by, "zlib");
#endif
				ck_assert_str_eq(z.by, "zlib");
			}
			free(a.text);
			free(z.text);
			compared++;
		}

	/* cut short: in each header, in the data, in the padding, in each trailer */
	size_t cuts[] = {2, 5, 9, 10, 11, 12, 30, 1000, 70000, b1 - 8, b1 - 5, b1 - 1, b1,
			 b1 + 1, b1 + 10, b1 + 5000, b2 - 4, b2, b2 + 1, b2 + 2, b2 + 3, b2 + 4,
			 b2 + 20, glen - 9, glen - 8, glen - 7, glen - 4, glen - 1};
	for (size_t i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		char what[64];
		snprintf(what, sizeof(what), "cut at %zu of %zu", cuts[i], glen);
		gz_write(path, gz, cuts[i]);
		planned++;
		gz_read_all(path, NULL, 0, false, TT_INFLATE_AUTO, &a);
		gz_read_all(path, NULL, 0, false, TT_INFLATE_ZLIB, &z);
		gz_same(what, &a, &z);
		/* (a cut after a member, or in the padding, is a shorter whole stream) */
		bool whole = cuts[i] == b1 || (cuts[i] >= b2 && cuts[i] <= b2 + 3);
		ck_assert_msg(z.trunc || z.rc || whole, "%s: zlib saw nothing wrong", what);
		free(a.text);
		free(z.text);
		compared++;
	}

	/* one byte changed: header fields, deflate data, padding, checksums,
	 * lengths, the next member's magic */
	size_t flips[] = {2, 3, 8, 9, 10, 11, 12, 13, 20, 100, 5000, 60000, b1 - 8, b1 - 6,
			  b1 - 4, b1 - 1, b1, b1 + 2, b1 + 3, b1 + 10, b1 + 11, b2 - 8, b2 - 1, b2,
			  b2 + 1, b2 + 3, b2 + 4, b2 + 100, glen - 8, glen - 5, glen - 4, glen - 1};
	for (size_t i = 0; i < sizeof(flips) / sizeof(flips[0]); i++)
		for (int x = 0; x < 2; x++) {
			unsigned char v = x ? 0xff : 0x01;
			char what[64];
			snprintf(what, sizeof(what), "byte %zu of %zu ^ 0x%02x", flips[i], glen, v);
			memcpy(buf, gz, glen);
			buf[flips[i]] ^= v;
			gz_write(path, buf, glen);
			planned++;
			gz_read_all(path, NULL, 0, false, TT_INFLATE_AUTO, &a);
			gz_read_all(path, NULL, 0, false, TT_INFLATE_ZLIB, &z);
			gz_same(what, &a, &z);
			free(a.text);
			free(z.text);
			compared++;
		}

	/* bytes after the last member */
	memcpy(buf, gz, glen);
	memcpy(buf + glen, "JUNK", 4);
	gz_write(path, buf, glen + 4);
	planned++;
	gz_read_all(path, NULL, 0, false, TT_INFLATE_AUTO, &a);
	gz_read_all(path, NULL, 0, false, TT_INFLATE_ZLIB, &z);
	gz_same("junk after", &a, &z);
	ck_assert(a.garbage && a.garbage_off == glen && a.len == tn);
#ifdef HAVE_ISAL
	ck_assert_str_eq(a.by, "ISA-L");
#endif
	free(a.text);
	free(z.text);
	compared++;

	fprintf(stderr, "gzip: %zu of %zu streams read alike by %s and zlib\n", compared, planned,
		tt_io_inflater_name());
	ck_assert_uint_eq(compared, planned);
	ck_assert_uint_eq(compared, 4 + sizeof(cuts) / sizeof(cuts[0]) +
					 2 * sizeof(flips) / sizeof(flips[0]) + 1);
	unlink(path);
	rmdir(dir);
	free(buf);
	free(gz);
	free(text);
}
END_TEST

/* tt_launch_of_from and tt_link_of_from: tt_launch_of's answer for every
 * event of a demo rank (GPU ops and the others), whatever the place the
 * last search left: in event order, backwards and at random */
START_TEST(launch_of_from_any_order)
{
	struct tt_demo_opts d;
	tt_demo_defaults(&d);
	d.nranks = 1;
	d.steps = 2;
	d.layers = 4;
	struct tt_load_opts lo = {0};
	lo.no_cache = true;
	struct tt_model *m = NULL;
	ck_assert_int_eq(tt_demo_load(&d, &lo, &m), 0);
	const struct tt_rank *r = m->ranks[0];
	ck_assert_uint_gt(r->nlinks, 100);
	size_t compared = 0, launched = 0;
	unsigned seed = 11;
	for (int order = 0; order < 3; order++) {
		uint32_t pos = 0, lpos = 0;
		for (uint32_t q = 0; q < r->nev; q++) {
			seed = seed * 1103515245u + 12345u;
			uint32_t i = order == 0 ? q : order == 1 ? r->nev - 1 - q : (seed >> 8) % r->nev;
			uint32_t want = tt_launch_of(r, i);
			ck_assert_uint_eq(tt_launch_of_from(r, i, &pos), want);
			uint32_t l = tt_link_of_from(r, i, &lpos);
			ck_assert_uint_eq(l != TT_NONE ? r->links[l].cpu : TT_NONE, want);
			if (l != TT_NONE)
				ck_assert_uint_eq(r->links[l].gpu, i);
			launched += want != TT_NONE;
			compared++;
		}
	}
	ck_assert_uint_eq(compared, 3 * (size_t)r->nev);
	ck_assert_uint_gt(launched, 200);
	tt_model_free(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tcase_create("load");
	tcase_add_test(tc, every_phase);
	tcase_add_test(tc, bare_array_without_bracket);
	tcase_add_test(tc, key_order_ns_and_sorting);
	tcase_add_test(tc, truncated_keeps_events);
	tcase_add_test(tc, one_bad_file_does_not_stop_others);
	tcase_add_test(tc, rank_from_name);
	tcase_add_test(tc, model_origin);
	tcase_add_test(tc, msort_natural_and_stable);
	tcase_add_test(tc, gzip_isal_and_zlib_agree);
	tcase_add_test(tc, launch_of_from_any_order);
	suite_add_tcase(s, tc);
	return tl_run(s);
}
