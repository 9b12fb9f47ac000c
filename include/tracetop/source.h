/* analysis: the Python stacks of operators.
 *
 * Pure functions over the model: every event of the ranks o selects, with
 * exact ns times (the plugin's view, not HTA's: no iteration filter, no µs
 * rounding).  Results are owned by the caller (free with the matching
 * _free()); strings point into the model or the result, so the model must
 * outlive them.  Ranks are analysed on o->threads threads. */
#ifndef TRACETOP_SOURCE_H
#define TRACETOP_SOURCE_H

#include "tracetop/analysis.h"

/* ---- source (Python stacks) ---- */

struct tt_src_stack {
	const char *op;
	const char *stack;   /* frames joined by '\n', innermost first (Python: at most 256,
			      * then a line saying the outer ones are left out) */
	uint32_t nframes;
	bool python;         /* from python_function events (else `Call stack`) */
	uint64_t calls;
	int64_t host_ns;
	size_t ri;           /* longest call */
	uint32_t ev;
};

struct tt_src_line {
	const char *frame;   /* innermost frame, "file.py(12): func" */
	uint64_t calls;      /* op calls whose innermost frame it is */
	int64_t host_ns;
	uint32_t nops;       /* distinct op names */
};

struct tt_src {
	struct tt_src_stack *stacks; /* host time desc, op, stack */
	size_t nstacks;
	struct tt_src_line *lines;   /* host time desc, frame */
	size_t nlines;
	uint64_t n_python;   /* python_function events seen */
	uint64_t n_call_stack; /* ops with a `Call stack` */
	struct tt_strtab strs;
};

/* Stacks of the cpu_op and user_annotation events: their `Call stack` arg
 * (split at ';', in the recorded order), else the python_function events
 * around them on their thread.  Free with tt_src_free. */
void tt_src_compute(const struct tt_model *m, const struct tt_aopts *o, struct tt_src *out);
void tt_src_free(struct tt_src *s);

/* Split a frame "path/file.py(123): func" into its file and line; false
 * when it names none (built-ins, "<string>"). */
bool tt_tb_frame_parse(const char *frame, size_t len, char *file, size_t fn, int64_t *line);

/* The command line that opens file at line, for a person to paste:
 * "EDITOR +LINE -- 'FILE'" (the file quoted for sh, after "--" so that it
 * is never an option, and with "./" before it when it starts with - or +,
 * which some editors read as a command; editor NULL or "" -> "vi").
 * Returns the length (as snprintf); 0 and "" when the file name holds a
 * control character (it would be shown escaped: no command then). */
size_t tt_tb_editor_command(char *buf, size_t n, const char *editor, const char *file,
			    int64_t line);

#endif
