#!/bin/sh
# The progress line on a terminal: several loader threads report progress
# at once (one file each, each inflated on a thread of its own), and the
# line still reads right.  Run on a pseudo-terminal (script(1)), since the
# line is only drawn on one.  Under ThreadSanitizer (--enable-tsan) a data
# race in the callback or in the reader's position fails the run.
. "${SRCDIR:-.}/tests/lib.sh"
command -v script >/dev/null 2>&1 || { echo "skip: no script(1)"; exit 77; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
"$TRACETOP" demo-trace -q -o "$D/job" --ranks 3 --steps 2 --layers 4 --gzip || exit 99

# RUN OUT ARGS...: tracetop on a terminal; its status in $D/rc
run_tty() {
	out=$1
	shift
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 ${TSAN_OPTIONS:-}" \
		script -q -e -c "$(printf '%s ' "$TRACETOP" "$@") >/dev/null; echo rc=\$? >$D/rc" \
		/dev/null >"$out" 2>&1 </dev/null
}

# fewer files than threads: each file's gzip is inflated on its own thread
run_tty "$D/a" report summary -j 6 --no-split "$D/job"
grep -q '^rc=0$' "$D/rc" && pass "three gzip files on six threads, on a terminal" ||
	fail "status $(cat "$D/rc" 2>/dev/null): $(head -c 600 "$D/a")"
grep -Eq 'loading [0-3]/3 files, [0-9.]+ KB of [0-9.]+ KB \([0-9]+ %\): rank-[0-2].pt.trace.json.gz, [0-9]+ events done' "$D/a" &&
	pass "the progress line counts the files done and the bytes of all, and names a file" ||
	fail "no progress line: $(head -c 300 "$D/a")"
grep -Eq 'loading 3/3 files, ([0-9.]+ KB) of \1 \(100 %\)' "$D/a" &&
	pass "the progress line ends at every file and every byte" ||
	fail "the last progress line: $(tr '\r' '\n' <"$D/a" | grep loading | tail -n 2)"
grep -q 'ThreadSanitizer' "$D/a" && fail "ThreadSanitizer: $(grep -A12 'WARNING: ThreadSanitizer' "$D/a" | head -30)"

# the gzip files split across threads (inflated on one, parsed on all)
run_tty "$D/b" report summary -j 4 "$D/job/rank-1.pt.trace.json.gz"
grep -q '^rc=0$' "$D/rc" && pass "one gzip file on four threads, on a terminal" ||
	fail "status $(cat "$D/rc" 2>/dev/null): $(head -c 600 "$D/b")"
grep -Eq 'loading rank-1.pt.trace.json.gz: ([0-9.]+ KB) of \1 \(100 %\), [0-9]+ events done' "$D/b" &&
	pass "one file: its name, its bytes of all, its events" ||
	fail "the progress line of one file: $(tr '\r' '\n' <"$D/b" | grep loading | tail -n 2)"
summary
