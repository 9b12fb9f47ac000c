/* Adversarial traces: valid Kineto JSON of shapes meant to make the tool
 * slow (identical timestamps, many streams, steps, names or ranks, deep
 * nesting, one correlation id for everything, many named threads and
 * processes, many counter series, names made to share a hash) or its sums
 * overflow.  New shapes go at
 * the end (a fuzz recipe names its shape by number).  Used by
 * the complexity check (tests/scaling.c), the fuzz targets (a fuzz input
 * can be a recipe for one of these) and the shell tests (tests/ttgen). */
#ifndef TRACETOP_TESTS_ADVGEN_H
#define TRACETOP_TESTS_ADVGEN_H

#include <stddef.h>
#include <stdint.h>

#define ADV_SHAPES(_)                                                                       \
	_(IDENTICAL, "identical", "n/2 CPU ops and n/4 launch, kernel pairs at one (ts, dur)") \
	_(STREAMS, "streams", "n/2 GPU streams, one kernel and its launch each")           \
	_(STEPS, "steps", "n/4 steps: op, launch, one of 5 kernels; an all-reduce every 4th") \
	_(NAMES, "names", "n/3 distinct op and kernel names of ~32 characters")            \
	_(RANKS, "ranks", "n/24 ranks of 4 steps with an all-reduce each, a file a rank")  \
	_(NESTING, "nesting", "n/4 python frames and n/4 ops, each nested in the one before") \
	_(CORR, "corr", "n/5 ops, launches, kernels and flows, all on correlation id 1")   \
	_(OVERFLOW, "overflow", "n overlapping 7-day kernels, n/8 copies of 9e15 bytes")    \
	_(THREADS, "threads", "n/3 threads and n/3 processes, each named, an op on each")   \
	_(COUNTERS, "counters", "n/2 samples of n/4 counter series, n/2 allocations alive") \
	_(COLLIDE, "collide", "n/2 op names made to share one hash (were it not seeded)")  \
	_(OPSHAPES, "opshapes", "n/7 matrix products of distinct shapes, forward and backward")

enum adv_shape {
#define _(id, name, help) ADV_##id,
	ADV_SHAPES(_)
#undef _
	ADV_NSHAPES
};

extern const char *const adv_shape_names[ADV_NSHAPES];
extern const char *const adv_shape_help[ADV_NSHAPES];

/* The shape named name, or -1. */
int adv_shape_find(const char *name);

/* One rank's trace file: its name ("rank-3.json") and JSON text (malloc'd,
 * NUL-terminated). */
struct adv_file {
	char name[32];
	char *text;
	size_t len;
};

/* The files of shape s at size n (about n events in all; n >= 8 is
 * assumed), seed varying names and times a little.  Returns the number of
 * files; *out (malloc'd) holds them; free with adv_free. */
size_t adv_make(enum adv_shape s, size_t n, uint32_t seed, struct adv_file **out);
void adv_free(struct adv_file *f, size_t n);

/* ---- recipes: large traces from small fuzz inputs ----
 * A fuzz input that starts with ADV_MAGIC is a recipe rather than a trace:
 * the byte after the magic picks the shape, the next three the size (at
 * most max_n events), the next the seed; each following 4 bytes are an
 * edit: a position (3 bytes, a fraction of the text) and the byte written
 * there.  So a fuzzer whose inputs are capped at 64 KiB reaches traces of
 * tens of thousands of events, valid or broken in a few places. */
#define ADV_MAGIC "TTADV"
#define ADV_MAGIC_LEN 5

/* The files of the recipe in data[0..size) (see above), or 0 when it is
 * not one. */
size_t adv_recipe(const uint8_t *data, size_t size, size_t max_n, struct adv_file **out);

#endif
