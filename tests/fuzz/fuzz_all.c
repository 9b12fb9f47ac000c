/* libFuzzer target past the loader: a mutated trace, loaded from memory as
 * two ranks (rank-0.json and rank-1.json, the same bytes), goes through
 * every report in every format and the headless explorer (exercise.c).
 * An input that is a recipe (tests/tools/advgen.h) is a generated
 * adversarial trace instead, of up to 30,000 events, edited here and there.
 * Bad input must give an error or a warning, never a crash, a sanitizer
 * report, a hang or unbounded memory. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "tracetop/util.h"

#include "advgen.h"
#include "exercise.h"
#include "tracetop/model.h"

/* a recipe (advgen.h): its trace, tens of thousands of events, one file a
 * rank, through the same */
static void recipe(struct adv_file *f, size_t nf, uint32_t seed)
{
	struct tt_load_opts o = {.threads = 1, .max_memory = 256 << 20, .max_events = 200000,
				 .no_cache = true};
	const char **names = tt_calloc(nf, sizeof(*names));
	const void **datas = tt_calloc(nf, sizeof(*datas));
	size_t *lens = tt_calloc(nf, sizeof(*lens));
	for (size_t i = 0; i < nf; i++) {
		names[i] = f[i].name;
		datas[i] = f[i].text;
		lens[i] = f[i].len;
	}
	struct tt_model *m = NULL;
	tt_model_load_mem(&m, names, datas, lens, nf, &o);
	fz_exercise(m, seed, fz_full);
	tt_model_free(m);
	free(names);
	free(datas);
	free(lens);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct adv_file *f;
	size_t nf = adv_recipe(data, size, 30000, &f);
	if (nf) {
		recipe(f, nf, fz_seed(data, size));
		adv_free(f, nf);
		return 0;
	}
	struct tt_load_opts o = {.threads = 1, .max_memory = 256 << 20, .max_events = 20000,
				 .no_cache = true};
	const char *names[2] = {"rank-0.json", "rank-1.json"};
	const void *datas[2] = {data, data};
	size_t lens[2] = {size, size};
	uint32_t seed = fz_seed(data, size);
	struct tt_model *m = NULL;
	/* (one rank or two, by the input) */
	tt_model_load_mem(&m, names, datas, lens, seed & 0x100 ? 2 : 1, &o);
	fz_exercise(m, seed, fz_full);
	tt_model_free(m);
	return 0;
}

#ifdef FUZZ_REPLAY
int main(int argc, char **argv)
{
	return fz_replay_main(argc, argv);
}
#endif
