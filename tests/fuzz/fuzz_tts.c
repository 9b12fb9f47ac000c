/* libFuzzer target over .tts caches: each input is a cache file whose
 * header the harness makes current (magic, version, size, checksum
 * recomputed: tts_fix.h), so that every check behind the checksum is
 * reached.  A cache the reader accepts goes through every report in every
 * format and the headless explorer (exercise.c), as a cache beside its
 * trace would: a forged cache must be refused with one line, never crash
 * an analysis. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exercise.h"
#include "tracetop/model.h"
#include "tracetop/util.h"
#include "tts_fix.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < TTS_HDR || size > (64u << 20))
		return 0;
	uint8_t *copy = tt_malloc(size);
	memcpy(copy, data, size);
	tts_fix(copy, size);
	char path[200];
	snprintf(path, sizeof(path), "%s", fz_tmp_path("x.tts"));
	fz_write_file(path, copy, size);
	free(copy);
	struct tt_load_opts o = {.threads = 1, .max_memory = 256 << 20};
	char *files[1] = {path};
	struct tt_model *m = NULL;
	if (tt_model_load(&m, files, 1, &o) == 0)
		fz_exercise(m, fz_seed(data, size), fz_full);
	tt_model_free(m);
	return 0;
}

#ifdef FUZZ_REPLAY
int main(int argc, char **argv)
{
	return fz_replay_main(argc, argv);
}
#endif
