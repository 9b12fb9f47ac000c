/* What the fuzz targets past the loader do with a model they loaded: every
 * report in every format, and the explorer driven headless by a key script. */
#ifndef TRACETOP_FUZZ_EXERCISE_H
#define TRACETOP_FUZZ_EXERCISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracetop/model.h"

/* Run every report (diff: m against itself) in text, CSV and JSON, then the
 * key script through the headless explorer.  seed picks the report options
 * and, unless full, which panes the keys visit (every one when full). */
void fz_exercise(const struct tt_model *m, uint32_t seed, bool full);

/* A small hash of the input, to pick variants from. */
uint32_t fz_seed(const uint8_t *p, size_t n);

/* A file in this process's private temporary directory, removed at exit. */
const char *fz_tmp_path(const char *name);
void fz_write_file(const char *path, const void *p, size_t n);



/* Without libFuzzer (FUZZ_REPLAY): run each file named on the command line
 * through LLVMFuzzerTestOneInput once, with full set (every pane). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
extern bool fz_full;
int fz_replay_main(int argc, char **argv);
#endif
