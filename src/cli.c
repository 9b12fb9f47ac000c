/* Command-line parsing and loading with messages on stderr. */
#include "config.h"

#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracetop/demo.h"
#include "tracetop/perfmodel.h"
#include "tracetop/ranklist.h"
#include "tracetop/render.h"
#include "tracetop/escape.h"
#include "tracetop/io.h"
#include "tracetop/util.h"

static void cli_usage(FILE *out)
{
	fputs("Usage: tracetop [OPTION]... PATH...         explore traces in the terminal\n"
	      "       tracetop --demo                      explore the built-in demo job\n"
	      "       tracetop --diff PATH_A PATH_B        compare two traces or trace sets\n"
	      "       tracetop --follow DIR                a running job: its new cycles\n"
	      "       tracetop --demo --diff               the demo job vs its regressed run\n"
	      "       tracetop report NAME [OPTION]... PATH...\n"
	      "       tracetop report --list\n"
	      "       tracetop summarize TRACE... [-o OUT.tts]\n"
	      "                                            models saved for instant reopening\n"
	      "       tracetop counters PATH -o OUT.json[.gz] [--ranks N]\n"
	      "                                            the trace with counter events added\n"
	      "       tracetop demo-trace -o DIR [--ranks N] [--steps N] [--layers N]\n"
	      "                 [--seed N] [--vendor V] [--variant V] [--gzip]\n"
	      "\n"
	      "PATH is a trace file (Kineto JSON, plain or gzip), a directory of them,\n"
	      "a glob, - for standard input, or an s3://, gs:// or az:// URL (read\n"
	      "through the aws, gcloud/gsutil or az command).  Files named as\n"
	      "torch.profiler.tensorboard_trace_handler names them,\n"
	      "{worker}.{timestamp}.pt.trace.json[.gz], are profiling cycles: the newest\n"
	      "complete one opens.  A folder whose subfolders hold the traces is a\n"
	      "TensorBoard log directory: each subfolder is a run.\n"
	      "\n"
	      "Options:\n"
	      "  -f, --format FMT        report output: table (default), csv or json\n"
	      "      --csv-safe          CSV: a ' before text cells starting with = + - @\n"
	      "      --width N           text reports: lines of at most N columns (default:\n"
	      "                          the terminal's width, else $COLUMNS, else 80)\n"
	      "      --wide              text reports: names whole, lines as long as they get\n"
	      "      --ranks LIST        only these ranks, e.g. 0,2,4-7\n"
	      "      --top N             rows in top-N lists\n"
	      "      --table NAME        print only this table of a report\n"
	      "      --exact             exact ns times on every event instead of HTA's view\n"
	      "                          (iteration filter and µs rounding)\n"
	      "      --all-steps         keep the last ProfilerStep (HTA drops it)\n"
	      "  -j, --threads N         loader and analysis threads (default: all cores)\n"
	      "      --max-memory SIZE   memory budget for the model (e.g. 8G; default: 3/4\n"
	      "                          of the RAM)\n"
	      "      --max-events N      events allowed per file\n"
	      "      --no-cache          ignore .tts caches (tracetop summarize writes them)\n"
	      "      --no-split          never split one file across loader threads\n"
	      "      --slow-json         parse every event with the general JSON parser\n"
	      "      --verify-json       parse with both JSON paths and report differences\n"
	      "      --theme NAME        colour theme: default, light, mono, or a file\n"
	      "  -q, --quiet             no progress line while loading\n"
	      "      --cycle N|all       the profiling cycle, from 1 (default: the newest\n"
	      "                          complete one); all: a report of every cycle;\n"
	      "                          a second --cycle is the Test side of --diff\n"
	      "      --run NAME          the run of a log directory (a second: --diff's Test)\n"
	      "      --follow            watch the folder, offer each new cycle once complete\n"
	      "      --poll              --follow by polling alone (network file systems)\n"
	      "  -o, --output PATH       output of demo-trace, summarize and counters\n"
	      "  -h, --help              this help\n"
	      "  -V, --version           version\n"
	      "\n"
	      "Report options:\n"
	      "      --num-kernels N     kernels: HTA num_kernels (default 10)\n"
	      "      --duration-ratio X  kernels: HTA duration_ratio (default 0.8)\n"
	      "      --no-memory         kernels: leave memory kernels out\n"
	      "      --explain           kernels: show the rule that classified each kernel\n"
	      "      --kernel-delay US   idle: HTA consecutive_kernel_delay (default 30)\n"
	      "      --runtime-cutoff US launch: runtime outlier cutoff (default 50)\n"
	      "      --launch-delay-cutoff US  launch: delay outlier cutoff (default 100)\n"
	      "      --op NAME           patterns: operator name (substring); operators:\n"
	      "                          the kernels this operator launched\n"
	      "      --min-pattern-len N patterns: kernels per pattern (default 3)\n"
	      "      --gpu, --cpu        diff: GPU or CPU events only\n"
	      "      --short-names       diff: compare shortened names\n"
	      "      --iteration N       diff: compare ProfilerStep#N only, on each side's\n"
	      "                          smallest rank (HTA's compare_traces); 'first':\n"
	      "                          each side's first step; default 'all': every\n"
	      "                          step and rank both sides have, per-step means\n"
	      "      --map A:B[,A:B...]  diff: compare control rank A with test rank B\n"
	      "      --diff-threshold P  diff: a per-step time is slower or faster when it\n"
	      "                          changed by more than P % (default 5%)...\n"
	      "      --diff-floor T      diff: ...and by more than T (default 50us)\n"
	      "      --metric NAME       outliers: idle, compute, comm, exposed, transfer, step\n"
	      "                          or topk (default: all)\n"
	      "      --annotation NAME   critical-path: window rows (default ProfilerStep; '' =\n"
	      "                          the whole trace)\n"
	      "      --instance N|A-B    critical-path: instance(s) of it (default: each one)\n"
	      "      --what-if NAME*F    critical-path: scale ops/kernels named *NAME* by F;\n"
	      "                          also launch-overhead*F, kernel-gaps*F (repeatable)\n"
	      "      --data-load NAME    critical-path: ops named *NAME* load data (repeatable)\n"
	      "      --model M           critical-path: tracetop (default: the whole step,\n"
	      "                          waits for other ranks named) or hta (HTA's path)\n"
	      "      --gpu-type NAME     perf-model: the peaks of this GPU (A100, H100 SXM,\n"
	      "                          MI300X, ...) whatever deviceProperties says\n"
	      "      --peaks FILE        perf-model: GPU peaks (ini; default\n"
	      "                          ~/.config/tracetop/peaks.ini, $TRACETOP_PEAKS)\n"
	      "      --from T, --to T    range, critical-path: the times (12.5ms, 1.2s, 800us;\n"
	      "                          a bare number is ms) from the job's first event, as\n"
	      "                          the timeline shows them (default: the start and the\n"
	      "                          end of the data)\n"
	      "\n"
	      "demo-trace options:\n"
	      "      --ranks N           ranks in the job (default 8; stragglers planted)\n"
	      "      --steps N           profiler steps per rank (default 6; a larger job\n"
	      "                          smaller: 5 above 8 ranks, 4 above 32, 3 above 128)\n"
	      "      --layers N          model layers (default 24; 12 above 8 ranks, 8 above\n"
	      "                          32, 6 above 128: shorter steps)\n"
	      "      --seed N            random seed (default 1)\n"
	      "      --vendor V          nvidia (default) or amd: a ROCm job (hip* runtime\n"
	      "                          calls, Tensile and MIOpen kernels, MI300X GPUs)\n"
	      "      --variant V         base (default) or regressed: the same job, slower\n"
	      "                          (rank 2 host-bound, slower all-reduces, more copies)\n"
	      "      --gzip              write .json.gz files\n"
	      "\n"
	      "Explorer (keys: 1-9 0 panes, v more views, Enter drill in, Esc back, / filter,\n"
	      "s sort, r [ ] a ranks, c { } p cycles, o runs, w CSV, ? help, q quit; see\n"
	      "man tracetop):\n"
	      "      --no-mouse          leave the mouse to the terminal (also 'set mouse off'\n"
	      "                          in the keymap file)\n"
	      "      --headless          run without a terminal and print the screen\n"
	      "      --size WxH          screen size for --headless (default 100x30)\n"
	      "      --keys KEYS         keys for --headless, e.g. '4<Enter><Dump>j' (mouse:\n"
	      "                          <Click:X,Y>, <DClick:X,Y>, <WheelUp:X,Y>,\n"
	      "                          <C-WheelDown:X,Y>)\n"
	      "      --dump FILE         write the --headless screens to FILE\n"
	      "\n"
	      "Environment: NO_COLOR, TERM, TRACETOP_THEME, TRACETOP_THEMES,\n"
	      "TRACETOP_KEYMAP (default ~/.config/tracetop/tracetoprc), TRACETOP_TIME_KEYS.\n"
	      "Exit status: 0 when at least one trace loaded, 1 when a report could not\n"
	      "be made, 2 when none could be loaded or the command line is wrong.\n",
	      out);
}

enum {
	O_DEMO = 256,
	O_DIFF,
	O_RANKS,
	O_TOP,
	O_TABLE,
	O_THEME,
	O_MAXMEM,
	O_MAXEV,
	O_NOCACHE,
	O_EXACT,
	O_ALLSTEPS,
	O_VERIFY,
	O_SLOWJSON,
	O_GZIP,
	O_STEPS,
	O_LAYERS,
	O_SEED,
	O_VENDOR,
	O_NUMK,
	O_DRATIO,
	O_NOMEM,
	O_EXPLAIN,
	O_KDELAY,
	O_RCUT,
	O_LCUT,
	O_OP,
	O_MINPAT,
	O_GPU,
	O_CPU,
	O_SHORT,
	O_ITER,
	O_MAP,
	O_DTHRESH,
	O_DFLOOR,
	O_VARIANT,
	O_LIST,
	O_HEADLESS,
	O_SIZE,
	O_KEYS,
	O_DUMP,
	O_CSVSAFE,
	O_WIDE,
	O_WIDTH,
	O_NOSPLIT,
	O_METRIC,
	O_ANNOT,
	O_INSTANCE,
	O_WHATIF,
	O_DATALOAD,
	O_MODEL,
	O_FROM,
	O_TO,
	O_NOMOUSE,
	O_RUN,
	O_CYCLE,
	O_FOLLOW,
	O_POLL,
	O_PEAKS,
	O_GPUTYPE,
};

static const struct option longopts[] = {
	{"help", no_argument, NULL, 'h'},
	{"version", no_argument, NULL, 'V'},
	{"format", required_argument, NULL, 'f'},
	{"output", required_argument, NULL, 'o'},
	{"threads", required_argument, NULL, 'j'},
	{"quiet", no_argument, NULL, 'q'},
	{"demo", no_argument, NULL, O_DEMO},
	{"diff", no_argument, NULL, O_DIFF},
	{"ranks", required_argument, NULL, O_RANKS},
	{"top", required_argument, NULL, O_TOP},
	{"table", required_argument, NULL, O_TABLE},
	{"theme", required_argument, NULL, O_THEME},
	{"max-memory", required_argument, NULL, O_MAXMEM},
	{"max-events", required_argument, NULL, O_MAXEV},
	{"no-cache", no_argument, NULL, O_NOCACHE},
	{"no-split", no_argument, NULL, O_NOSPLIT},
	{"exact", no_argument, NULL, O_EXACT},
	{"all-steps", no_argument, NULL, O_ALLSTEPS},
	{"verify-json", no_argument, NULL, O_VERIFY},
	{"slow-json", no_argument, NULL, O_SLOWJSON},
	{"gzip", no_argument, NULL, O_GZIP},
	{"steps", required_argument, NULL, O_STEPS},
	{"layers", required_argument, NULL, O_LAYERS},
	{"seed", required_argument, NULL, O_SEED},
	{"vendor", required_argument, NULL, O_VENDOR},
	{"num-kernels", required_argument, NULL, O_NUMK},
	{"duration-ratio", required_argument, NULL, O_DRATIO},
	{"no-memory", no_argument, NULL, O_NOMEM},
	{"explain", no_argument, NULL, O_EXPLAIN},
	{"kernel-delay", required_argument, NULL, O_KDELAY},
	{"runtime-cutoff", required_argument, NULL, O_RCUT},
	{"launch-delay-cutoff", required_argument, NULL, O_LCUT},
	{"op", required_argument, NULL, O_OP},
	{"min-pattern-len", required_argument, NULL, O_MINPAT},
	{"gpu", no_argument, NULL, O_GPU},
	{"cpu", no_argument, NULL, O_CPU},
	{"short-names", no_argument, NULL, O_SHORT},
	{"iteration", required_argument, NULL, O_ITER},
	{"map", required_argument, NULL, O_MAP},
	{"diff-threshold", required_argument, NULL, O_DTHRESH},
	{"diff-floor", required_argument, NULL, O_DFLOOR},
	{"variant", required_argument, NULL, O_VARIANT},
	{"list", no_argument, NULL, O_LIST},
	{"headless", no_argument, NULL, O_HEADLESS},
	{"size", required_argument, NULL, O_SIZE},
	{"keys", required_argument, NULL, O_KEYS},
	{"dump", required_argument, NULL, O_DUMP},
	{"csv-safe", no_argument, NULL, O_CSVSAFE},
	{"wide", no_argument, NULL, O_WIDE},
	{"width", required_argument, NULL, O_WIDTH},
	{"metric", required_argument, NULL, O_METRIC},
	{"annotation", required_argument, NULL, O_ANNOT},
	{"instance", required_argument, NULL, O_INSTANCE},
	{"what-if", required_argument, NULL, O_WHATIF},
	{"data-load", required_argument, NULL, O_DATALOAD},
	{"model", required_argument, NULL, O_MODEL},
	{"from", required_argument, NULL, O_FROM},
	{"to", required_argument, NULL, O_TO},
	{"no-mouse", no_argument, NULL, O_NOMOUSE},
	{"run", required_argument, NULL, O_RUN},
	{"cycle", required_argument, NULL, O_CYCLE},
	{"follow", no_argument, NULL, O_FOLLOW},
	{"poll", no_argument, NULL, O_POLL},
	{"peaks", required_argument, NULL, O_PEAKS},
	{"gpu-type", required_argument, NULL, O_GPUTYPE},
	{NULL, 0, NULL, 0},
};

static int bad(const char *fmt, ...) TT_PRINTF(1, 2);
static int peaks_file(struct cli *c);

static int bad(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	tt_msg("%s", buf);
	fprintf(stderr, "Try 'tracetop --help'.\n");
	return 2;
}

/* a whole number that fits int64 (strtoll saturates silently: checked) */
static bool parse_i64(const char *s, int64_t *v)
{
	char *end;
	errno = 0;
	long long x = strtoll(s, &end, 10);
	if (end == s || *end || errno == ERANGE)
		return false;
	*v = x;
	return true;
}

/* a whole number from 1 to INT_MAX (counts held in an int) */
static bool parse_count(const char *s, int *v)
{
	int64_t x;
	if (!parse_i64(s, &x) || x < 1 || x > INT_MAX)
		return false;
	*v = (int)x;
	return true;
}

/* "WxH" for --headless, each from 1 to TT_SCREEN_MAX */
static bool parse_screen(const char *s, int *w, int *h)
{
	const char *x = strchr(s, 'x');
	if (!x || x - s > 15)
		return false;
	char a[16];
	memcpy(a, s, (size_t)(x - s));
	a[x - s] = '\0';
	int64_t iw, ih;
	if (!parse_i64(a, &iw) || !parse_i64(x + 1, &ih) || iw < 1 || ih < 1 ||
	    iw > TT_SCREEN_MAX || ih > TT_SCREEN_MAX)
		return false;
	*w = (int)iw;
	*h = (int)ih;
	return true;
}

/* a finite number (nan, inf and 1e400 are not) */
static bool parse_dbl(const char *s, double *v)
{
	char *end;
	errno = 0;
	*v = strtod(s, &end);
	return end != s && !*end && errno != ERANGE && isfinite(*v);
}

/* a size in bytes with an optional K, M, G or T: at least one byte, less
 * than 2^64 */
static bool parse_size(const char *s, uint64_t *v)
{
	char *end;
	errno = 0;
	double x = strtod(s, &end);
	if (end == s || !isfinite(x) || errno == ERANGE || !(x >= 0))
		return false;
	double mul = 1;
	switch (toupper((unsigned char)*end)) {
	case 'K':
		mul = 1024.0;
		end++;
		break;
	case 'M':
		mul = 1024.0 * 1024;
		end++;
		break;
	case 'G':
		mul = 1024.0 * 1024 * 1024;
		end++;
		break;
	case 'T':
		mul = 1024.0 * 1024 * 1024 * 1024;
		end++;
		break;
	}
	if (*end == 'B' || *end == 'b')
		end++;
	if (*end)
		return false;
	double b = x * mul;
	if (!(b >= 1) || !(b < 18446744073709551616.0))
		return false;
	*v = (uint64_t)b;
	return true;
}

/* "N" or "A-B" (A <= B, from 0) */
static bool parse_range(const char *s, int64_t *a, int64_t *b)
{
	char *end;
	long long x = strtoll(s, &end, 10);
	if (end == s || x < 0)
		return false;
	long long y = x;
	if (*end == '-') {
		const char *p = end + 1;
		y = strtoll(p, &end, 10);
		if (end == p || y < x)
			return false;
	}
	if (*end)
		return false;
	*a = x;
	*b = y;
	return true;
}

/* "50us", "0.1ms", "2s", "800ns"; a bare number is µs */
static bool parse_time(const char *s, int64_t *v)
{
	char *end;
	double x = strtod(s, &end);
	if (end == s || !(x >= 0) || x > 1e12)
		return false;
	double mul = 1e3;
	if (strcmp(end, "ns") == 0)
		mul = 1;
	else if (!*end || strcmp(end, "us") == 0 || strcmp(end, "µs") == 0)
		mul = 1e3;
	else if (strcmp(end, "ms") == 0)
		mul = 1e6;
	else if (strcmp(end, "s") == 0)
		mul = 1e9;
	else
		return false;
	*v = (int64_t)llround(x * mul);
	return true;
}

/* "0,2,4-7", added to the ranks of earlier --ranks options */
static bool parse_ranks(struct cli *c, const char *s, char *why, size_t whysz)
{
	int64_t *v;
	size_t n;
	if (tt_ranks_parse(s, &v, &n, why, whysz) != 0)
		return false;
	if (n > TT_RANKS_LIST_MAX - c->nranks) {
		free(v);
		snprintf(why, whysz, "more than %zu ranks", TT_RANKS_LIST_MAX);
		return false;
	}
	c->ranks = tt_realloc_array(c->ranks, c->nranks + n, sizeof(*c->ranks));
	memcpy(c->ranks + c->nranks, v, n * sizeof(*v));
	c->nranks += n;
	free(v);
	return true;
}

static uint64_t default_max_memory(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), psz = sysconf(_SC_PAGESIZE);
	if (pages <= 0 || psz <= 0)
		return 0;
	return (uint64_t)pages * (uint64_t)psz / 4 * 3;
}

/* an option a step of cli_parse does not take */
#define NOT_MINE (-1)

/* The options of every command: help, version, output, threads, what to show.
 * Returns 0, an exit status, or NOT_MINE. */
static int cli_general_opt(struct cli *c, int ch)
{
	int64_t iv;
	char why[128];
	switch (ch) {
	case 'h':
		cli_usage(stdout);
		return 1;
	case 'V':
		printf("tracetop %s (gzip: %s)\n", PACKAGE_VERSION, tt_io_inflater_name());
		return 1;
	case 'f':
		if (tt_format_parse(optarg, &c->ropts.format))
			return bad("unknown format '%s' (table, csv or json)", optarg);
		break;
	case 'o':
		c->output = optarg;
		break;
	case 'j':
		if (!parse_i64(optarg, &iv) || iv < 1 || iv > 1024)
			return bad("bad thread count '%s'", optarg);
		c->load.threads = (int)iv;
		c->ropts.a.threads = (int)iv;
		break;
	case 'q':
		c->quiet = true;
		break;
	case O_DEMO:
		c->demo = true;
		break;
	case O_DIFF:
		c->diff = true;
		break;
	case O_RANKS:
		if (strcmp(c->cmd, "demo-trace") == 0) {
			if (!parse_i64(optarg, &iv) || iv < 1 || iv > 100000)
				return bad("bad rank count '%s'", optarg);
			c->demo_ranks = (int)iv;
		} else if (!parse_ranks(c, optarg, why, sizeof(why))) {
			return bad("bad rank list '%s': %s (e.g. 0,2,4-7)", optarg, why);
		}
		break;
	case O_TOP:
		if (!parse_count(optarg, &c->ropts.top))
			return bad("bad --top '%s' (1 to %d)", optarg, INT_MAX);
		break;
	case O_TABLE:
		c->ropts.table = optarg;
		break;
	case O_WIDE:
		c->ropts.wide = true;
		break;
	case O_WIDTH: {
		int v;
		if (!parse_count(optarg, &v) || v < 20)
			return bad("--width: '%s' is not a width of 20 columns or more",
				   optarg);
		c->ropts.width = v;
		break;
	}
	case O_CSVSAFE:
		c->ropts.csv_safe = true;
		break;
	case O_LIST:
		c->list = true;
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* How traces load: limits, caches, parsers, HTA's view of events, which cycle
 * or run, following a folder.  Returns 0, an exit status, or NOT_MINE. */
static int cli_load_opt(struct cli *c, int ch)
{
	int64_t iv;
	switch (ch) {
	case O_MAXMEM:
		if (!parse_size(optarg, &c->load.max_memory))
			return bad("bad --max-memory '%s' (a size from 1 byte, e.g. 512M, 8G)",
				   optarg);
		break;
	case O_MAXEV:
		if (!parse_i64(optarg, &iv) || iv < 1)
			return bad("bad --max-events '%s'", optarg);
		c->load.max_events = (uint64_t)iv;
		break;
	case O_NOCACHE:
		c->load.no_cache = true;
		break;
	case O_NOSPLIT:
		c->load.no_split = true;
		break;
	case O_EXACT:
		c->ropts.a.exact = true;
		break;
	case O_ALLSTEPS:
		c->ropts.a.include_last_step = true;
		break;
	case O_VERIFY:
		c->load.verify = true;
		break;
	case O_SLOWJSON:
		c->load.no_fast = true;
		break;
	case O_RUN:
		if (c->nrun == 2)
			return bad("%s", "at most two --run (the second is the Test side of --diff)");
		c->run[c->nrun++] = optarg;
		break;
	case O_CYCLE:
		if (c->ncycle == 2)
			return bad("%s", "at most two --cycle (the second is the Test side of --diff)");
		if (strcmp(optarg, "all") == 0)
			c->cycle[c->ncycle++] = TT_CYCLE_ALL;
		else if (strcmp(optarg, "newest") == 0 || strcmp(optarg, "last") == 0)
			c->cycle[c->ncycle++] = TT_CYCLE_DEFAULT;
		else if (!parse_i64(optarg, &iv) || iv < 1 || iv > INT_MAX)
			return bad("bad --cycle '%s' (a number from 1, newest or all)", optarg);
		else
			c->cycle[c->ncycle++] = (int)iv;
		break;
	case O_FOLLOW:
		c->follow = true;
		break;
	case O_POLL:
		c->follow = true;
		c->poll = true;
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* demo-trace: the job to write.  Returns 0, an exit status, or NOT_MINE. */
static int cli_demo_opt(struct cli *c, int ch)
{
	int64_t iv;
	switch (ch) {
	case O_GZIP:
		c->gzip = true;
		break;
	case O_STEPS:
		if (!parse_i64(optarg, &iv) || iv < 1 || iv > 100000)
			return bad("bad --steps '%s'", optarg);
		c->demo_steps = (int)iv;
		break;
	case O_LAYERS:
		if (!parse_i64(optarg, &iv) || iv < 1 || iv > 10000)
			return bad("bad --layers '%s'", optarg);
		c->demo_layers = (int)iv;
		break;
	case O_VENDOR:
		if (strcmp(optarg, "nvidia") == 0)
			c->demo_vendor = TT_DEMO_NVIDIA;
		else if (strcmp(optarg, "amd") == 0)
			c->demo_vendor = TT_DEMO_AMD;
		else
			return bad("bad --vendor '%s' (nvidia or amd)", optarg);
		break;
	case O_SEED:
		if (!parse_i64(optarg, &iv))
			return bad("bad --seed '%s'", optarg);
		c->demo_seed = (uint64_t)iv;
		break;
	case O_VARIANT:
		if (strcmp(optarg, "regressed") == 0)
			c->demo_variant = TT_DEMO_REGRESSED;
		else if (strcmp(optarg, "base") == 0)
			c->demo_variant = TT_DEMO_BASE;
		else
			return bad("unknown --variant '%s' (base or regressed)", optarg);
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* The reports' own options (kernels, idle, launch, patterns, outliers,
 * perf-model).  Returns 0, an exit status, or NOT_MINE. */
static int cli_report_opt(struct cli *c, int ch)
{
	double dv;
	switch (ch) {
	case O_NUMK:
		if (!parse_count(optarg, &c->ropts.num_kernels))
			return bad("bad --num-kernels '%s' (1 to %d)", optarg, INT_MAX);
		break;
	case O_DRATIO:
		if (!parse_dbl(optarg, &dv) || dv < 0 || dv > 1)
			return bad("bad --duration-ratio '%s' (0 to 1)", optarg);
		c->ropts.duration_ratio = dv;
		break;
	case O_NOMEM:
		c->ropts.no_memory = true;
		break;
	case O_EXPLAIN:
		c->ropts.explain = true;
		break;
	case O_KDELAY:
		if (!parse_dbl(optarg, &dv) || dv < 0)
			return bad("bad --kernel-delay '%s'", optarg);
		c->ropts.kernel_delay_us = dv;
		break;
	case O_RCUT:
		if (!parse_dbl(optarg, &dv) || dv < 0)
			return bad("bad --runtime-cutoff '%s'", optarg);
		c->ropts.runtime_cutoff_us = dv;
		break;
	case O_LCUT:
		if (!parse_dbl(optarg, &dv) || dv < 0)
			return bad("bad --launch-delay-cutoff '%s'", optarg);
		c->ropts.launch_delay_cutoff_us = dv;
		break;
	case O_OP:
		c->ropts.op_name = optarg;
		break;
	case O_MINPAT:
		if (!parse_count(optarg, &c->ropts.min_pattern_len))
			return bad("bad --min-pattern-len '%s' (1 to %d)", optarg, INT_MAX);
		break;
	case O_METRIC:
		c->ropts.metric = optarg;
		break;
	case O_PEAKS:
		c->ropts.peaks_file = optarg;
		break;
	case O_GPUTYPE:
		c->ropts.gpu = optarg;
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* diff: which events, which step, which ranks paired, what counts as a change.
 * Returns 0, an exit status, or NOT_MINE. */
static int cli_diff_opt(struct cli *c, int ch)
{
	int64_t iv;
	double dv;
	char why[128];
	switch (ch) {
	case O_GPU:
		c->ropts.gpu_only = true;
		break;
	case O_CPU:
		c->ropts.cpu_only = true;
		break;
	case O_SHORT:
		c->ropts.short_names = true;
		break;
	case O_ITER:
		if (strcmp(optarg, "first") == 0)
			c->ropts.iteration = TT_DIFF_FIRST;
		else if (strcmp(optarg, "all") == 0)
			c->ropts.iteration = TT_DIFF_COMMON;
		else if (!parse_i64(optarg, &iv) || iv < 0)
			return bad("bad --iteration '%s' (a step number, first or all)", optarg);
		else
			c->ropts.iteration = iv;
		break;
	case O_MAP:
		free(c->map);
		if (tt_diff_map_parse(optarg, &c->map, &c->nmap, why, sizeof(why)))
			return bad("%s", why);
		c->ropts.diff_map = c->map;
		c->ropts.diff_nmap = c->nmap;
		break;
	case O_DTHRESH: {
		/* "5%", "5" (percent) */
		char buf[64];
		snprintf(buf, sizeof(buf), "%s", optarg);
		size_t l = strlen(buf);
		if (l && buf[l - 1] == '%')
			buf[l - 1] = '\0';
		if (!parse_dbl(buf, &dv) || dv < 0 || dv > 1e6)
			return bad("bad --diff-threshold '%s' (a percentage, e.g. 5%%)", optarg);
		c->ropts.diff_threshold = dv / 100;
		break;
	}
	case O_DFLOOR:
		if (!parse_time(optarg, &iv))
			return bad("bad --diff-floor '%s' (a time, e.g. 50us or 0.1ms)", optarg);
		c->ropts.diff_floor_ns = iv;
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* critical-path and range: the windows, what-if scaling, the model, the times.
 * Returns 0, an exit status, or NOT_MINE. */
static int cli_path_opt(struct cli *c, int ch)
{
	int64_t iv;
	char why[128];
	switch (ch) {
	case O_ANNOT:
		c->ropts.annotation = optarg;
		break;
	case O_INSTANCE:
		if (!parse_range(optarg, &c->ropts.inst_first, &c->ropts.inst_last))
			return bad("bad --instance '%s' (N or A-B, from 0)", optarg);
		break;
	case O_WHATIF:
		if (c->ropts.nwhatif >= TT_ARRAY_SIZE(c->ropts.whatif))
			return bad("at most %zu --what-if", TT_ARRAY_SIZE(c->ropts.whatif));
		if (tt_cp_whatif_parse(optarg, &c->ropts.whatif[c->ropts.nwhatif], why,
				       sizeof(why)))
			return bad("bad --what-if %s", why);
		c->ropts.nwhatif++;
		break;
	case O_DATALOAD:
		if (c->ropts.ndata_load >= TT_ARRAY_SIZE(c->ropts.data_load) || !*optarg)
			return bad("bad --data-load '%s' (a name, at most %zu)", optarg,
				   TT_ARRAY_SIZE(c->ropts.data_load));
		c->ropts.data_load[c->ropts.ndata_load++] = optarg;
		break;
	case O_MODEL:
		if (strcmp(optarg, "hta") == 0)
			c->ropts.cp_model = TT_CPM_HTA;
		else if (strcmp(optarg, "tracetop") == 0)
			c->ropts.cp_model = TT_CPM_TRACETOP;
		else
			return bad("bad --model '%s' (tracetop or hta)", optarg);
		break;
	case O_FROM:
	case O_TO:
		if (tt_parse_time(optarg, TT_U_MS, &iv, why, sizeof(why)) != 0)
			return bad("--%s: %s", ch == O_FROM ? "from" : "to", why);
		if (ch == O_FROM) {
			c->ropts.range_from = iv;
			c->ropts.range_has_from = true;
		} else {
			c->ropts.range_to = iv;
			c->ropts.range_has_to = true;
		}
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* The explorer: theme, headless runs, the mouse.  Returns 0, an exit status,
 * or NOT_MINE. */
static int cli_tui_opt(struct cli *c, int ch)
{
	switch (ch) {
	case O_THEME:
		c->theme = optarg;
		break;
	case O_HEADLESS:
		c->headless = true;
		break;
	case O_SIZE:
		if (!parse_screen(optarg, &c->size_w, &c->size_h))
			return bad("bad --size '%s' (WxH, each from 1 to %d, e.g. 100x30)", optarg,
				   TT_SCREEN_MAX);
		break;
	case O_KEYS:
		c->keys = optarg;
		break;
	case O_DUMP:
		c->dump = optarg;
		break;
	case O_NOMOUSE:
		c->no_mouse = true;
		break;
	default:
		return NOT_MINE;
	}
	return 0;
}

/* The defaults, and the command (report, demo-trace, summarize,
 * counters; else the explorer): where the options start. */
static int cli_defaults(struct cli *c, int argc, char **argv)
{
	memset(c, 0, sizeof(*c));
	tt_report_opts_init(&c->ropts);
	c->cmd = "tui";
	c->demo_ranks = -1;
	c->load.max_memory = default_max_memory();
	if (argc > 1 && (strcmp(argv[1], "report") == 0 || strcmp(argv[1], "demo-trace") == 0 ||
			 strcmp(argv[1], "summarize") == 0 || strcmp(argv[1], "counters") == 0)) {
		c->cmd = argv[1];
		return 2;
	}
	return 1;
}

/* After the options: the window, the ranks, the peak file, the report's
 * name and the paths. */
static int cli_finish(struct cli *c, int argc, char **argv)
{
	if (c->ropts.range_has_from && c->ropts.range_has_to &&
	    c->ropts.range_to <= c->ropts.range_from) {
		/* (every report and pane that takes a window refuses an empty one) */
		char a[32], b[32];
		tt_fmt_dur(a, sizeof(a), c->ropts.range_from);
		tt_fmt_dur(b, sizeof(b), c->ropts.range_to);
		return bad("--to (%s) must come after --from (%s)", b, a);
	}
	c->ropts.a.ranks = c->ranks;
	c->ropts.a.nranks = c->nranks;
	if (peaks_file(c))
		return 2;
	if (strcmp(c->cmd, "report") == 0 && !c->list) {
		if (optind >= argc)
			return bad("%s", "report: which report? (tracetop report --list)");
		c->report = argv[optind++];
	}
	c->paths = argv + optind;
	c->npaths = argc - optind;
	c->progress_tty = !c->quiet && isatty(2);
	return 0;
}

/* the option steps in turn: the first that knows the option takes it */
static int (*const cli_opt_steps[])(struct cli *c, int ch) = {
	cli_general_opt, cli_load_opt, cli_demo_opt, cli_report_opt,
	cli_diff_opt,	 cli_path_opt, cli_tui_opt,
};

int cli_parse(struct cli *c, int argc, char **argv)
{
	optind = cli_defaults(c, argc, argv);
	int ch;
	while ((ch = getopt_long(argc, argv, "hVf:o:j:q", longopts, NULL)) != -1) {
		int rc = NOT_MINE;
		for (size_t i = 0; rc == NOT_MINE && i < TT_ARRAY_SIZE(cli_opt_steps); i++)
			rc = cli_opt_steps[i](c, ch);
		if (rc == NOT_MINE) {
			fprintf(stderr, "Try 'tracetop --help'.\n");
			return 2;
		}
		if (rc)
			return rc;
	}
	return cli_finish(c, argc, argv);
}

/* The GPU peak file: --peaks, else $TRACETOP_PEAKS, else
 * ~/.config/tracetop/peaks.ini when it exists; read once here so that a
 * bad file is said before anything loads. */
static int peaks_file(struct cli *c)
{
	const char *f = c->ropts.peaks_file;
	if (!f)
		f = getenv("TRACETOP_PEAKS");
	if ((!f || !*f) && getenv("HOME")) {
		struct stat st;
		snprintf(c->peaks_path, sizeof(c->peaks_path), "%s/.config/tracetop/peaks.ini",
			 getenv("HOME"));
		if (stat(c->peaks_path, &st) == 0)
			f = c->peaks_path;
	}
	struct tt_gpu_table *t = NULL;
	if (f && *f) {
		struct tt_err err;
		tt_err_clear(&err);
		t = tt_gpu_table_load(f, &err);
		if (!t) {
			char buf[700];
			tt_err_format(&err, buf, sizeof(buf));
			tt_msg("%s", buf);
			return 2;
		}
	}
	c->ropts.peaks_file = f && *f ? f : NULL;
	bool ok = !c->ropts.gpu || tt_gpu_lookup(t, NULL, 0, c->ropts.gpu);
	tt_gpu_table_free(t);
	if (!ok)
		return bad("--gpu-type '%s': no such GPU in the peak table (e.g. A100, H100 SXM, "
			   "MI300X; or a [section] of --peaks FILE)",
			   c->ropts.gpu);
	return 0;
}

void cli_free(struct cli *c)
{
	free(c->ranks);
	free(c->map);
}

/* ---- loading with messages ---- */

void cli_print_bad_path(void *ctx, const struct tt_err *e)
{
	char buf[700];
	(void)ctx;
	tt_err_format(e, buf, sizeof(buf));
	tt_msg("%s", buf);
}

/* the progress line: the loader threads call progress() at once, so the
 * time of the last line, the line itself and the counts are under a lock */
struct progress {
	char **paths;
	size_t nfiles;
	uint64_t *size;  /* each file's size on disk (0: not known, a pipe) */
	uint64_t *read;  /* the bytes of each file read so far */
	uint64_t total;  /* the sizes added up (0: one is not known) */
	size_t ndone;
	pthread_mutex_t lock;
	int64_t last_ns;
	bool dirty;
};

static void progress_init(struct progress *p, char **paths, size_t n)
{
	memset(p, 0, sizeof(*p));
	p->paths = paths;
	p->nfiles = n;
	p->size = tt_calloc(n ? n : 1, sizeof(*p->size));
	p->read = tt_calloc(n ? n : 1, sizeof(*p->read));
	bool known = true;
	for (size_t i = 0; i < n; i++) {
		struct stat st;
		if (stat(paths[i], &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
			p->size[i] = (uint64_t)st.st_size;
		else
			known = false;
		p->total += p->size[i];
	}
	if (!known)
		p->total = 0;
	pthread_mutex_init(&p->lock, NULL);
}

static void progress_free(struct progress *p)
{
	pthread_mutex_destroy(&p->lock);
	free(p->size);
	free(p->read);
}

/* "loading 3/16 files, 120 MB of 490 MB (24 %): rank-7.json 141439 events" */
static void progress(void *ctx, size_t file, uint64_t text, uint64_t raw, uint64_t events,
		     bool done)
{
	struct progress *p = ctx;
	int64_t now = tt_now_ns();
	pthread_mutex_lock(&p->lock);
	if (file < p->nfiles) {
		uint64_t got = done && p->size[file] ? p->size[file] : raw;
		if (got > p->read[file])
			p->read[file] = got;
		if (done)
			p->ndone++;
	}
	if (done || now - p->last_ns >= 100000000) {
		p->last_ns = now;
		const char *name = p->paths && file < p->nfiles ? p->paths[file] : "demo";
		const char *slash = strrchr(name, '/');
		char shown[400], of[64] = "", got[32], all[32];
		tt_text_escape(shown, sizeof(shown), slash ? slash + 1 : name);
		uint64_t sum = 0;
		for (size_t i = 0; i < p->nfiles; i++)
			sum += p->read[i];
		tt_fmt_bytes(got, sizeof(got), (double)(p->nfiles ? sum : text));
		if (p->total) {
			tt_fmt_bytes(all, sizeof(all), (double)p->total);
			snprintf(of, sizeof(of), " of %s (%.0f %%)", all,
				 100.0 * (double)TT_MIN(sum, p->total) / (double)p->total);
		}
		if (p->nfiles > 1)
			fprintf(stderr, "\r\033[Kloading %zu/%zu files, %s%s: %s, %llu events%s",
				TT_MIN(p->ndone, p->nfiles), p->nfiles, got, of, shown,
				(unsigned long long)events, done ? " done" : "");
		else
			fprintf(stderr, "\r\033[Kloading %s: %s%s, %llu events%s", shown, got, of,
				(unsigned long long)events, done ? " done" : "");
		p->dirty = true;
	}
	pthread_mutex_unlock(&p->lock);
}

void cli_print_rank_warnings(const struct tt_model *m, size_t i, const struct tt_rank *r)
{
	const struct tt_load_report *rep = &r->report;
	for (int w = 0; w < TT_W_COUNT; w++) {
		if (!rep->count[w] || tt_warning_severity(w) != 'w')
			continue;
		char extra[300] = "";
		const char *msg = tt_warning_msg(w);
		if (w == TT_W_TRUNCATED) {
			snprintf(extra, sizeof(extra),
				 ": %llu bytes after the last complete event lost, %llu events kept",
				 (unsigned long long)rep->bytes_lost,
				 (unsigned long long)rep->events_seen);
			if (rep->gzip_truncated)
				snprintf(extra + strlen(extra), sizeof(extra) - strlen(extra),
					 " (gzip stream ends early at compressed byte %llu)",
					 (unsigned long long)rep->gzip_cut_offset);
		} else if (w == TT_W_NO_RANK) {
			snprintf(extra, sizeof(extra), ", using %lld", (long long)r->rank);
		} else if (w == TT_W_DUP_RANK) {
			for (size_t j = 0; m && j < m->nranks; j++)
				if (j != i && m->ranks[j]->rank == r->rank)
					snprintf(extra, sizeof(extra), " (rank %lld, also %s)",
						 (long long)r->rank, m->ranks[j]->path);
		} else if (w == TT_W_RANK_MISMATCH) {
			snprintf(extra, sizeof(extra), " (name says %lld, using %lld)",
				 (long long)r->name_rank, (long long)r->rank);
		}
		char times[40] = "";
		if (rep->count[w] > 1)
			snprintf(times, sizeof(times), " (%llu times)",
				 (unsigned long long)rep->count[w]);
		bool off = rep->first_off[w] || w == TT_W_TRUNCATED;
		if (off)
			tt_msg("%s:%llu%s: warning: %s%s%s", r->path,
				(unsigned long long)rep->first_off[w],
				r->compression != TT_COMP_NONE ? " (decompressed)" : "", msg,
				extra, times);
		else
			tt_msg("%s: warning: %s%s%s", r->path, msg, extra,
				times);
	}
}

static void print_warnings(const struct tt_model *m)
{
	for (size_t i = 0; i < m->nranks; i++)
		cli_print_rank_warnings(m, i, m->ranks[i]);
	for (size_t i = 0; i < m->nfailures; i++) {
		char buf[700];
		tt_err_format(&m->failures[i].err, buf, sizeof(buf));
		tt_msg("%s", buf);
	}
}

/* the progress line of each cycle loaded (a cycle being written is
 * passed over: the next one has a line of its own) */
struct load_hook {
	struct progress p;
	bool on;
};

static void before_load(void *ctx, char *const *paths, size_t n)
{
	struct load_hook *h = ctx;
	if (h->on) {
		if (h->p.dirty)
			fputs("\r\033[K", stderr);
		progress_free(&h->p);
	}
	progress_init(&h->p, (char **)paths, n);
	h->on = true;
}

/* what the input was called, for messages */
static const char *input_name(struct tt_input *in)
{
	const struct tt_run *r = tt_input_run(in);
	const struct tt_logdir *d = tt_input_logdir(in);
	return r && r->name[0] ? r->name : d ? d->path : "traces";
}

struct tt_model *cli_load_cycle(struct cli *c, struct tt_input *in, int cycle)
{
	struct load_hook h;
	memset(&h, 0, sizeof(h));
	struct tt_load_opts o = c->load;
	if (c->progress_tty) {
		o.progress = progress;
		o.progress_ctx = &h.p;
		tt_input_on_load(in, before_load, &h);
	}
	struct tt_model *m = NULL;
	char why[600];
	tt_input_load(in, cycle, &o, &m, why, sizeof(why));
	tt_input_on_load(in, NULL, NULL);
	if (h.on) {
		if (h.p.dirty)
			fputs("\r\033[K", stderr);
		progress_free(&h.p);
	}
	if (m)
		print_warnings(m);
	if (why[0]) {
		char name[300];
		tt_text_escape(name, sizeof(name), input_name(in));
		tt_msg("%s: %s", name, why);
	}
	snprintf(c->note, sizeof(c->note), "%s", why);
	return m;
}

/* "r1, r2, r3 and 5 more" */
static void run_names(const struct tt_logdir *d, char *buf, size_t n)
{
	size_t len = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < d->nruns && len + 40 < n; i++) {
		if (i == 6) {
			snprintf(buf + len, n - len, " and %zu more", d->nruns - i);
			return;
		}
		char e[64];
		tt_text_escape(e, sizeof(e), d->runs[i]->name);
		len += (size_t)snprintf(buf + len, n - len, "%s%s", i ? ", " : "", e);
	}
}

struct tt_model *cli_open(struct cli *c, char **paths, int n, int side, struct tt_input **keep)
{
	if (keep)
		*keep = NULL;
	size_t nbad = 0;
	struct tt_input *in = NULL;
	struct stat st;
	if (c->follow && n == 1 && stat(paths[0], &st) == 0 && S_ISDIR(st.st_mode))
		in = tt_input_new_dir(paths[0]); /* (it may hold nothing yet) */
	else
		in = tt_input_new((const char *const *)paths, (size_t)n, &nbad, cli_print_bad_path,
				  NULL);
	if (!in) {
		if (!nbad)
			tt_msg("no trace given (try 'tracetop --help')");
		return NULL;
	}
	const char *run = c->nrun > side ? c->run[side] : c->nrun ? c->run[0] : NULL;
	int cycle = c->ncycle > side ? c->cycle[side] : c->ncycle ? c->cycle[0] : TT_CYCLE_DEFAULT;
	if (cycle == TT_CYCLE_ALL)
		cycle = TT_CYCLE_DEFAULT; /* (the caller goes through the others) */
	const struct tt_logdir *d = tt_input_logdir(in);
	char list[400], name[300];
	tt_text_escape(name, sizeof(name), n ? paths[0] : "");
	if (run && !d) {
		char rn[200];
		tt_text_escape(rn, sizeof(rn), run);
		tt_msg("--run %s: %s is not a log directory (a folder whose subfolders hold the "
		       "traces of each run)", rn, n == 1 ? name : "the paths given");
		tt_input_free(in);
		return NULL;
	}
	if (run) {
		bool several;
		size_t i = tt_logdir_find(d, run, &several);
		if (i == SIZE_MAX) {
			char rn[200];
			tt_text_escape(rn, sizeof(rn), run);
			run_names(d, list, sizeof(list));
			tt_msg("--run %s: %s in %s (runs: %s)", rn,
			       several ? "several runs start so" : "no such run", name, list);
			tt_input_free(in);
			return NULL;
		}
		tt_input_set_run(in, i);
	} else if (d && !tt_input_run(in)) {
		if (keep) {
			/* (the run list first; followed, it shows new runs and cycles) */
			if (c->follow)
				tt_input_follow(in, c->poll, &c->load);
			*keep = in;
			return NULL;
		}
		run_names(d, list, sizeof(list));
		tt_msg("%s is a log directory of %zu runs (%s): choose one with --run NAME", name,
		       d->nruns, list);
		tt_input_free(in);
		return NULL;
	}
	if (c->follow && keep)
		tt_input_follow(in, c->poll, &c->load);
	struct tt_model *m = cli_load_cycle(c, in, cycle);
	if (!m && c->follow && keep && cycle == TT_CYCLE_DEFAULT) {
		/* a job that has written no complete cycle yet */
		char how[80];
		tt_input_follow_kind(in, how, sizeof(how));
		tt_msg("%s: waiting for the first complete cycle (%s; Ctrl-C stops)",
		       input_name(in), how);
		m = tt_input_wait(in, -1);
		if (m)
			print_warnings(m);
		c->note[0] = '\0';
	}
	if (keep)
		*keep = in;
	else
		tt_input_free(in);
	return m;
}

struct tt_model *cli_load(struct cli *c, char **paths, int n)
{
	return cli_open(c, paths, n, 0, NULL);
}

static int i64_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

static bool model_has_rank(const struct tt_model *m, int64_t rank)
{
	for (size_t i = 0; i < m->nranks; i++)
		if (m->ranks[i]->rank == rank)
			return true;
	return false;
}

int cli_check_ranks(const struct cli *c, const struct tt_model *m)
{
	if (!c->nranks || !m || !m->nranks)
		return 0;
	int64_t *v = tt_malloc(c->nranks * sizeof(*v));
	memcpy(v, c->ranks, c->nranks * sizeof(*v));
	qsort(v, c->nranks, sizeof(*v), i64_cmp);
	size_t nmiss = 0, nfound = 0;
	char list[160] = "";
	size_t len = 0;
	for (size_t i = 0; i < c->nranks; i++) {
		if (i && v[i] == v[i - 1])
			continue;
		if (model_has_rank(m, v[i])) {
			nfound++;
			continue;
		}
		if (nmiss++ < 8 && len < sizeof(list) - 24)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%lld",
						 nmiss > 1 ? ", " : "", (long long)v[i]);
	}
	free(v);
	if (nmiss > 8)
		snprintf(list + len, sizeof(list) - len, " and %zu more", nmiss - 8);
	if (!nfound) {
		tt_msg("--ranks selects none of the ranks loaded (%lld to %lld): no rank %s",
			(long long)m->ranks[0]->rank, (long long)m->ranks[m->nranks - 1]->rank, list);
		return 2;
	}
	if (nmiss)
		tt_msg("warning: --ranks: no rank %s among the ranks loaded", list);
	return 0;
}

struct tt_model *cli_load_demo(struct cli *c, int variant)
{
	struct tt_demo_opts d;
	tt_demo_defaults(&d);
	d.vendor = (enum tt_demo_vendor)c->demo_vendor;
	d.variant = variant;
	struct tt_model *m;
	tt_demo_load(&d, &c->load, &m);
	print_warnings(m);
	return m;
}
