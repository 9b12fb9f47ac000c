/* Adversarial traces: see advgen.h. */
#include "config.h"

#include "advgen.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracetop/util.h"

const char *const adv_shape_names[ADV_NSHAPES] = {
#define _(id, name, help) name,
	ADV_SHAPES(_)
#undef _
};

const char *const adv_shape_help[ADV_NSHAPES] = {
#define _(id, name, help) help,
	ADV_SHAPES(_)
#undef _
};

int adv_shape_find(const char *name)
{
	for (int i = 0; i < ADV_NSHAPES; i++)
		if (strcmp(name, adv_shape_names[i]) == 0)
			return i;
	return -1;
}

/* ---- a growing text ---- */

struct buf {
	char *p;
	size_t n, cap;
	int nev; /* events written (for the comma) */
};

static void put(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct buf *b, const char *fmt, ...)
{
	for (;;) {
		va_list ap;
		va_start(ap, fmt);
		int k = vsnprintf(b->p + b->n, b->cap - b->n, fmt, ap);
		va_end(ap);
		if (k >= 0 && (size_t)k < b->cap - b->n) {
			b->n += (size_t)k;
			return;
		}
		size_t need = b->n + (k > 0 ? (size_t)k : 0) + 1;
		size_t cap = b->cap ? b->cap * 2 : 1 << 16;
		while (cap < need)
			cap *= 2;
		b->p = tt_realloc_array(b->p, cap, 1);
		b->cap = cap;
	}
}

/* the start of an event: the comma between events */
static void ev(struct buf *b)
{
	put(b, b->nev++ ? ",\n{" : "\n{");
}

static void begin(struct buf *b, long rank, long world)
{
	memset(b, 0, sizeof(*b));
	b->cap = 1 << 16; /* (never a NULL buffer plus an offset) */
	b->p = tt_malloc(b->cap);
	put(b, "{\"schemaVersion\": 1,\n\"distributedInfo\": {\"backend\": \"nccl\", \"rank\": %ld, "
	       "\"world_size\": %ld},\n",
	    rank, world);
	put(b, "\"deviceProperties\": [{\"id\": 0, \"name\": \"Adversary GPU\", \"totalGlobalMem\": "
	       "84990623744, \"computeMajor\": 8, \"computeMinor\": 0, \"maxThreadsPerBlock\": "
	       "1024, \"maxThreadsPerMultiprocessor\": 2048, \"regsPerBlock\": 65536, "
	       "\"regsPerMultiprocessor\": 65536, \"warpSize\": 32, \"sharedMemPerBlock\": 49152, "
	       "\"sharedMemPerMultiprocessor\": 167936, \"numSms\": 108, "
	       "\"sharedMemPerBlockOptin\": 166912}],\n\"traceEvents\": [");
}

static void end(struct buf *b)
{
	put(b, "\n]}\n");
}

/* times in µs (integers: the exact conversion is the loader's business) */
static void step(struct buf *b, long i, long long ts, long long dur)
{
	ev(b);
	put(b, "\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#%ld\", "
	       "\"pid\": 1, \"tid\": 1, \"ts\": %lld, \"dur\": %lld}",
	    i, ts, dur);
}

static void op(struct buf *b, const char *name, long tid, long long ts, long long dur, long ext)
{
	ev(b);
	put(b, "\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"%s\", \"pid\": 1, \"tid\": %ld, "
	       "\"ts\": %lld, \"dur\": %lld",
	    name, tid, ts, dur);
	if (ext)
		put(b, ", \"args\": {\"External id\": %ld, \"Input Dims\": [[4, 4], [4, 4]]}}", ext);
	else
		put(b, "}");
}

static void launch(struct buf *b, long tid, long long ts, long long dur, long corr, long ext)
{
	ev(b);
	put(b, "\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
	       "\"pid\": 1, \"tid\": %ld, \"ts\": %lld, \"dur\": %lld, \"args\": {\"correlation\": "
	       "%ld, \"cbid\": 211, \"External id\": %ld}}",
	    tid, ts, dur, corr, ext);
}

static void kernel(struct buf *b, const char *name, long stream, long long ts, long long dur,
		   long corr, const char *extra)
{
	ev(b);
	put(b, "\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"%s\", \"pid\": 0, \"tid\": %ld, "
	       "\"ts\": %lld, \"dur\": %lld, \"args\": {\"stream\": %ld, \"device\": 0, "
	       "\"correlation\": %ld, \"registers per thread\": 32, \"shared memory\": 0, "
	       "\"blocks per SM\": 1.5, \"warps per SM\": 6, \"grid\": [160, 1, 1], \"block\": "
	       "[128, 1, 1], \"est. achieved occupancy %%\": 50%s}}",
	    name, stream, ts, dur, stream, corr, extra ? extra : "");
}

static void memcpy_ev(struct buf *b, long stream, long long ts, long long dur, long corr,
		      long long bytes)
{
	ev(b);
	put(b, "\"ph\": \"X\", \"cat\": \"gpu_memcpy\", \"name\": \"Memcpy HtoD (Pinned -> "
	       "Device)\", \"pid\": 0, \"tid\": %ld, \"ts\": %lld, \"dur\": %lld, \"args\": "
	       "{\"stream\": %ld, \"device\": 0, \"correlation\": %ld, \"bytes\": %lld, "
	       "\"memory bandwidth (GB/s)\": 12.5}}",
	    stream, ts, dur, stream, corr, bytes);
}

static void memory_ev(struct buf *b, long long ts, long long bytes, long long total)
{
	ev(b);
	put(b, "\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"name\": \"[memory]\", \"s\": "
	       "\"t\", \"pid\": 1, \"tid\": 1, \"ts\": %lld, \"args\": {\"Device Type\": 1, "
	       "\"Device Id\": 0, \"Addr\": %lld, \"Bytes\": %lld, \"Total Allocated\": %lld, "
	       "\"Total Reserved\": %lld}}",
	    ts, 4096 + ts, bytes, total, total + 1048576);
}

static void queue_ev(struct buf *b, long long ts, long q)
{
	ev(b);
	put(b, "\"ph\": \"C\", \"name\": \"Queue Length\", \"pid\": 0, \"tid\": 7, \"ts\": %lld, "
	       "\"args\": {\"stream 7\": %ld}}",
	    ts, q);
}

static void pyframe(struct buf *b, long i, long long ts, long long dur)
{
	ev(b);
	put(b, "\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"model/layer_%ld.py(%ld): "
	       "forward\", \"pid\": 1, \"tid\": 1, \"ts\": %lld, \"dur\": %lld, \"args\": {\"Python "
	       "id\": %ld, \"Python parent id\": %ld}}",
	    i % 7, 10 + i % 90, ts, dur, i + 1, i);
}

static void flow(struct buf *b, char ph, long tid, long pid, long long ts, long id)
{
	ev(b);
	put(b, "\"ph\": \"%c\", \"cat\": \"ac2g\", \"name\": \"ac2g\", \"pid\": %ld, \"tid\": %ld, "
	       "\"ts\": %lld, \"id\": %ld%s}",
	    ph, pid, tid, ts, id, ph == 'f' ? ", \"bp\": \"e\"" : "");
}

static void meta(struct buf *b, const char *what, long pid, long tid, const char *name, long i)
{
	ev(b);
	put(b, "\"ph\": \"M\", \"name\": \"%s\", \"pid\": %ld, \"tid\": %ld, \"args\": "
	       "{\"name\": \"%s %ld\"}}",
	    what, pid, tid, name, i);
}

static void counter_ev(struct buf *b, long long ts, long series, long v)
{
	ev(b);
	put(b, "\"ph\": \"C\", \"name\": \"Queue Length\", \"pid\": 0, \"tid\": 7, \"ts\": %lld, "
	       "\"args\": {\"stream %ld\": %ld}}",
	    ts, series, v);
}

/* ---- the shapes ---- */

#define WEEK_US 604800000000LL /* the longest duration the loader takes */

static void shape_identical(struct buf *b, size_t n)
{
	size_t a = n / 2, k = n / 4;
	step(b, 1, 500, 2000);
	step(b, 2, 2500, 100);
	for (size_t i = 0; i < a; i++)
		op(b, "aten::op", 1, 1000, 5, 0);
	/* launch and kernel pairs at one time */
	for (size_t i = 0; i < k; i++) {
		launch(b, 1, 1000, 5, (long)i + 1, 0);
		kernel(b, "k", 7, 1100, 3, (long)i + 1, NULL);
	}
}

static void shape_streams(struct buf *b, size_t n, uint32_t seed)
{
	size_t k = n / 2;
	long long span = 1000 + 3 * (long long)k;
	step(b, 1, 0, span);
	step(b, 2, span, 100);
	for (size_t s = 0; s < k; s++) {
		char name[16];
		snprintf(name, sizeof(name), "k%u", (unsigned)((s + seed) % 7));
		launch(b, 1, 100 + 3 * (long long)s, 2, (long)s + 1, 0);
		kernel(b, name, 10 + (long)s, 200 + 3 * (long long)s, 50, (long)s + 1, NULL);
	}
}

static void shape_steps(struct buf *b, size_t n, uint32_t seed)
{
	size_t k = n / 4;
	long long total = 0;
	for (size_t i = 0; i < k; i++) {
		long long t = 100 * (long long)i;
		char name[16];
		snprintf(name, sizeof(name), "k%u", (unsigned)((i + seed) % 5));
		step(b, (long)i + 1, t, 100);
		op(b, "aten::mm", 1, t + 10, 50, (long)i + 1);
		launch(b, 1, t + 20, 5, (long)i + 1, (long)i + 1);
		kernel(b, name, 7, t + 30, 20 + (long long)(i % 5), (long)i + 1, NULL);
		if (i % 4 == 0) {
			/* a collective now and then */
			long c = (long)(2 * k + i + 1);
			op(b, "nccl:all_reduce", 1, t + 80, 10, c);
			launch(b, 1, t + 82, 3, c, c);
			kernel(b, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned "
				  "long, ncclWork*)",
			       20, t + 85, 10, c, NULL);
		}
		if (i % 8 == 0) {
			memcpy_ev(b, 7, t + 60, 4, (long)(k + i + 1), 65536);
			total += 65536;
			memory_ev(b, t + 61, 65536, total);
			queue_ev(b, t + 25, (long)(i % 3));
		}
	}
}

static void shape_names(struct buf *b, size_t n)
{
	size_t k = n / 3;
	long long span = 100 + 10 * (long long)k;
	step(b, 1, 0, span);
	step(b, 2, span, 100);
	for (size_t i = 0; i < k; i++) {
		char on[64], kn[64];
		snprintf(on, sizeof(on), "aten::op_%06zu_abcdefghijklmnopqr", i);
		snprintf(kn, sizeof(kn), "kernel_%06zu_abcdefghijklmnopqrs", i);
		long long t = 100 + 10 * (long long)i;
		op(b, on, 1, t, 8, (long)i + 1);
		launch(b, 1, t + 1, 2, (long)i + 1, (long)i + 1);
		kernel(b, kn, 7, t + 4, 5, (long)i + 1, NULL);
	}
}

static void shape_rank(struct buf *b, long r, long world)
{
	char extra[300];
	snprintf(extra, sizeof(extra),
		 ", \"Collective name\": \"allreduce\", \"In msg nelems\": 1048576, \"Out msg "
		 "nelems\": 1048576, \"Group size\": %ld, \"dtype\": \"Float\", \"Process Group "
		 "Name\": \"0\", \"Process Group Description\": \"default_pg\"",
		 world);
	for (long s = 0; s < 4; s++) {
		long long t = 1000 * s;
		long c = 10 * s;
		step(b, s + 1, t, 1000);
		op(b, "aten::mm", 1, t + 10, 100, c + 1);
		launch(b, 1, t + 20, 5, c + 1, c + 1);
		kernel(b, "gemm", 7, t + 30, 200 + r % 7, c + 1, NULL);
		op(b, "nccl:all_reduce", 1, t + 150, 30, c + 2);
		launch(b, 1, t + 160, 5, c + 2, c + 2);
		/* the ranks arrive at different times and finish together */
		kernel(b, "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, "
			  "ncclWork*)",
		       20, t + 300 + r % 11, 400 - r % 11, c + 2, extra);
	}
}

static void shape_nesting(struct buf *b, size_t n)
{
	long long d = (long long)(n / 4) + 1;
	step(b, 1, 0, 4 * d + 2000);
	step(b, 2, 4 * d + 2000, 100);
	for (long long i = 0; i < d; i++) {
		/* a frame, in it an op, in that the next frame... */
		pyframe(b, (long)i, 1000 + 2 * i, 4 * (d - i) + 20);
		op(b, i % 2 ? "aten::nest" : "aten::linear", 1, 1000 + 2 * i + 1,
		   4 * (d - i) + 17, (long)i + 1);
	}
	long long t = 1000 + 2 * d + 1;
	launch(b, 1, t, 2, 1, (long)d);
	kernel(b, "deep", 7, t + 5, 10, 1, NULL);
}

static void shape_corr(struct buf *b, size_t n)
{
	size_t k = n / 5;
	long long span = 100 + 10 * (long long)k;
	step(b, 1, 0, span);
	step(b, 2, span, 100);
	for (size_t i = 0; i < k; i++) {
		long long t = 100 + 10 * (long long)i;
		op(b, "aten::mm", 1, t, 6, 1);
		launch(b, 1, t + 1, 3, 1, 1);
		kernel(b, "k", 7, t + 5, 4, 1, NULL);
		flow(b, 's', 1, 1, t + 1, 1);
		flow(b, 'f', 7, 0, t + 5, 1);
	}
}

static void shape_overflow(struct buf *b, size_t n)
{
	size_t k = n, m = n / 8;
	step(b, 1, 0, WEEK_US);
	step(b, 2, WEEK_US, WEEK_US);
	for (size_t i = 0; i < k; i++) {
		launch(b, 1, 10 + (long long)i, 1, (long)i + 1, 0);
		kernel(b, "week", 7 + (long)(i % 2), 1000 + (long long)i,
		       WEEK_US, (long)i + 1, NULL);
	}
	/* copies of 9e15 bytes each (2^53 is the largest integer arg taken) */
	for (size_t i = 0; i < m; i++)
		memcpy_ev(b, 9, 2000 + (long long)i, WEEK_US, (long)(k + i + 1),
			  9000000000000000LL);
}

static void shape_threads(struct buf *b, size_t n)
{
	size_t k = n / 3;
	step(b, 1, 0, 100 + 2 * (long long)k);
	for (size_t i = 0; i < k; i++) {
		long id = (long)i + 2;
		meta(b, "thread_name", 1, id, "worker", id);
		meta(b, "process_name", id, 0, "process", id);
		/* half the ops on a named thread of pid 1, half in a named process */
		long pid = i % 2 ? 1 : id;
		ev(b);
		put(b, "\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::op\", \"pid\": %ld, "
		       "\"tid\": %ld, \"ts\": %lld, \"dur\": 1}",
		    pid, id, 50 + 2 * (long long)i);
	}
}

static void shape_counters(struct buf *b, size_t n)
{
	size_t k = n / 2, ns = n / 4 ? n / 4 : 1;
	step(b, 1, 0, 100 + 2 * (long long)k);
	long long total = 0;
	for (size_t i = 0; i < k; i++) {
		long long t = 50 + 2 * (long long)i;
		counter_ev(b, t, (long)(i % ns), (long)(i % 5));
		total += 4096;
		memory_ev(b, t + 1, 4096, total); /* (never freed) */
	}
}

/* Names of 16 printable characters that share one value of the string
 * table's hash as it would be without its seed (src/base/strtab.c): the
 * second 8 bytes undo what the first did to the state, so every name
 * leaves it the same.  Without the seed every one of them would be a walk
 * of all the others when interned. */
/* the perf model's worst: every matrix product a shape of its own (one
 * row each), its backward on another thread linked by Sequence number,
 * all nested in one module, every op launching a kernel */
static void shape_opshapes(struct buf *b, size_t n)
{
	size_t k = n / 7;
	long long span = 100 + 20 * (long long)k;
	step(b, 1, 0, span);
	for (size_t i = 0; i < k; i++) {
		long long t = 100 + 10 * (long long)i, tb = t + 10 * (long long)k;
		long id = 2 * (long)i + 1;
		ev(b);
		put(b, "\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::addmm\", \"pid\": 1, "
		       "\"tid\": 1, \"ts\": %lld, \"dur\": 8, \"args\": {\"External id\": %ld, "
		       "\"Sequence number\": %zu, \"Input Dims\": [[32], [%zu, 64], [64, 32], [], []], "
		       "\"Input type\": [\"float\", \"float\", \"float\", \"Scalar\", \"Scalar\"]}}",
		    t, id, i, i + 1);
		launch(b, 1, t + 1, 2, id, id);
		kernel(b, "ampere_sgemm_32x32_nn", 7, t + 4, 5, id, NULL);
		ev(b);
		put(b, "\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"autograd::engine::evaluate_"
		       "function: AddmmBackward0\", \"pid\": 1, \"tid\": 2, \"ts\": %lld, \"dur\": 9, "
		       "\"args\": {\"External id\": %ld, \"Sequence number\": %zu}}",
		    tb, id + 1, i);
		ev(b);
		put(b, "\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"aten::mm\", \"pid\": 1, "
		       "\"tid\": 2, \"ts\": %lld, \"dur\": 7, \"args\": {\"External id\": %ld, "
		       "\"Input Dims\": [[%zu, 32], [32, 64]], \"Input type\": [\"float\", \"float\"]}}",
		    tb + 1, id + 1, i + 1);
		launch(b, 2, tb + 2, 2, id + 1, id + 1);
		kernel(b, "ampere_sgemm_32x32_nt", 7, tb + 5, 4, id + 1, NULL);
	}
}

static void shape_collide(struct buf *b, size_t n)
{
	size_t k = n / 2;
	step(b, 1, 0, 100 + 2 * (long long)k);
	uint64_t h0 = UINT64_C(0x9E3779B97F4A7C15) ^ (16 * UINT64_C(0xC2B2AE3D27D4EB4F));
	uint64_t x = UINT64_C(88172645463325252);
	for (size_t got = 0; got < k;) {
		char name[17];
		for (int i = 0; i < 8; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			name[i] = (char)('a' + x % 26);
		}
		uint64_t w1, h;
		memcpy(&w1, name, 8);
		h = (h0 ^ w1) * UINT64_C(0xFF51AFD7ED558CCD);
		h ^= h >> 32;
		uint64_t w2 = UINT64_C(0x4141414141414141) ^ h; /* (the state after) */
		memcpy(name + 8, &w2, 8);
		bool ok = true;
		for (int i = 8; i < 16 && ok; i++)
			ok = name[i] >= 0x20 && name[i] <= 0x7e && name[i] != '"' && name[i] != '\\';
		if (!ok)
			continue;
		name[16] = '\0';
		op(b, name, 1, 50 + 2 * (long long)got, 1, 0);
		got++;
	}
}

size_t adv_make(enum adv_shape s, size_t n, uint32_t seed, struct adv_file **out)
{
	size_t nf = 1;
	if (s == ADV_RANKS)
		nf = n / 24 > 2 ? n / 24 : 2;
	struct adv_file *f = tt_calloc(nf, sizeof(*f));
	for (size_t r = 0; r < nf; r++) {
		struct buf b;
		begin(&b, (long)r, (long)nf);
		switch (s) {
		case ADV_IDENTICAL:
			shape_identical(&b, n);
			break;
		case ADV_STREAMS:
			shape_streams(&b, n, seed);
			break;
		case ADV_STEPS:
			shape_steps(&b, n, seed);
			break;
		case ADV_NAMES:
			shape_names(&b, n);
			break;
		case ADV_RANKS:
			shape_rank(&b, (long)r, (long)nf);
			break;
		case ADV_NESTING:
			shape_nesting(&b, n);
			break;
		case ADV_CORR:
			shape_corr(&b, n);
			break;
		case ADV_THREADS:
			shape_threads(&b, n);
			break;
		case ADV_COUNTERS:
			shape_counters(&b, n);
			break;
		case ADV_COLLIDE:
			shape_collide(&b, n);
			break;
		case ADV_OPSHAPES:
			shape_opshapes(&b, n);
			break;
		case ADV_OVERFLOW:
		case ADV_NSHAPES:
			shape_overflow(&b, n);
			break;
		}
		end(&b);
		snprintf(f[r].name, sizeof(f[r].name), "rank-%zu.json", r);
		f[r].text = b.p;
		f[r].len = b.n;
	}
	*out = f;
	return nf;
}

void adv_free(struct adv_file *f, size_t n)
{
	for (size_t i = 0; f && i < n; i++)
		free(f[i].text);
	free(f);
}

size_t adv_recipe(const uint8_t *data, size_t size, size_t max_n, struct adv_file **out)
{
	size_t head = ADV_MAGIC_LEN + 5;
	if (size < head || memcmp(data, ADV_MAGIC, ADV_MAGIC_LEN) != 0 || max_n < 8)
		return 0;
	const uint8_t *p = data + ADV_MAGIC_LEN;
	enum adv_shape s = (enum adv_shape)(p[0] % ADV_NSHAPES);
	size_t n = 8 + ((size_t)p[1] | (size_t)p[2] << 8 | (size_t)p[3] << 16) % (max_n - 7);
	size_t nf = adv_make(s, n, p[4], out);
	/* the edits, spread over the files in turn */
	size_t k = 0;
	for (const uint8_t *e = data + head; e + 4 <= data + size; e += 4, k++) {
		struct adv_file *f = &(*out)[k % nf];
		if (!f->len)
			continue;
		uint32_t frac = (uint32_t)e[0] | (uint32_t)e[1] << 8 | (uint32_t)e[2] << 16;
		size_t at = (size_t)((uint64_t)frac * f->len >> 24);
		f->text[at] = (char)e[3];
	}
	return nf;
}
