/* The command line: options shared by every command, and the commands. */
#ifndef TRACETOP_CLI_H
#define TRACETOP_CLI_H

#include <stdbool.h>
#include <stdint.h>

#include "tracetop/input.h"
#include "tracetop/model.h"
#include "tracetop/report.h"

/* largest --size side (a screen of 2000x2000 cells) */
#define TT_SCREEN_MAX 2000

struct cli {
	const char *cmd;        /* "tui", "report", "demo-trace", "summarize", "counters" */
	const char *report;     /* report NAME */
	char **paths;
	int npaths;
	const char *output;     /* -o */
	const char *theme;
	bool demo, diff, quiet, gzip, list;
	struct tt_load_opts load;
	struct tt_report_opts ropts;
	int64_t *ranks;
	size_t nranks;
	int demo_ranks, demo_steps, demo_layers;
	int demo_variant;       /* enum tt_demo_variant */
	struct tt_diff_pair *map; /* --map */
	size_t nmap;
	uint64_t demo_seed;
	int demo_vendor;        /* enum tt_demo_vendor */
	bool progress_tty;
	/* TUI (headless tests) */
	const char *keys, *dump;
	int size_w, size_h; /* --size for --headless, 0 when not given */
	bool headless;
	bool no_mouse; /* --no-mouse */
	/* runs and cycles (tracetop/runs.h): --run NAME and --cycle N|all,
	 * the second of each for the Test side of a diff; --follow (--poll:
	 * without inotify) */
	const char *run[2];
	int nrun;
	int cycle[2]; /* from 1, TT_CYCLE_DEFAULT or TT_CYCLE_ALL */
	int ncycle;
	bool follow, poll;
	char note[600]; /* the last load's note ("cycle 5 is being written: ...") */
	char peaks_path[1024]; /* the default peak file, when it exists */
};

/* Parse argv; returns 0, or 1 when the command is done (help, version), or 2
 * on a usage error (already reported). */
int cli_parse(struct cli *c, int argc, char **argv);
void cli_free(struct cli *c);

/* Load the files named by paths[0..n), printing errors and warnings to
 * stderr.  Returns the model (possibly without ranks) or NULL.  Folders
 * as PyTorch writes them: the cycle of --cycle (default the newest
 * complete one) of the run of --run in a log directory. */
struct tt_model *cli_load(struct cli *c, char **paths, int n);
/* The same for side `side` of a diff (1: the Test side, whose --run and
 * --cycle are the second ones given, else the first).  keep: the input is
 * handed to the caller (*keep), who frees it (tt_input_free); a log
 * directory of several runs and no --run then gives NULL with *keep set
 * (the explorer lists the runs). */
struct tt_model *cli_open(struct cli *c, char **paths, int n, int side, struct tt_input **keep);
/* Load cycle `cycle` (from 1, TT_CYCLE_DEFAULT) of in's open run, with the
 * progress line, warnings and notes on stderr; NULL when it cannot. */
struct tt_model *cli_load_cycle(struct cli *c, struct tt_input *in, int cycle);
/* The demo job (variant: enum tt_demo_variant). */
struct tt_model *cli_load_demo(struct cli *c, int variant);
/* Print the warnings of rank r (index i of model m, or m NULL for a rank
 * loaded alone), one line each, to stderr. */
void cli_print_rank_warnings(const struct tt_model *m, size_t i, const struct tt_rank *r);
/* Check --ranks against a loaded model: a line naming the ranks it lacks;
 * 2 (after a line) when it selects none of them, else 0. */
int cli_check_ranks(const struct cli *c, const struct tt_model *m);
/* Print a path that matched nothing (tt_expand_paths' callback). */
void cli_print_bad_path(void *ctx, const struct tt_err *e);

int cmd_report(struct cli *c);
int cmd_demo_trace(struct cli *c);
int cmd_summarize(struct cli *c);
int cmd_counters(struct cli *c);
int cmd_tui(struct cli *c);

#endif
