/* libFuzzer target past the loader: a mutated trace, loaded from memory as
 * two ranks (rank-0.json and rank-1.json, the same bytes), goes through
 * every report in every format and the headless explorer (exercise.c).
 * Bad input must give an error or a warning, never a crash, a sanitizer
 * report, a hang or unbounded memory. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "exercise.h"
#include "tracetop/model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
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
