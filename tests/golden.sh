#!/bin/sh
# Golden files: whole screens of every pane on the demo at 80x24
# (tests/golden/screens.list) and report outputs on the fixture job
# (tests/golden/reports.list), compared with `diff -u` against
# tests/golden/NAME.  `make update-golden` (UPDATE=1) writes them instead:
# review every changed file by eye before committing it.
#
# These are change detectors, not proofs of rightness: every golden file is
# this program's own output (on the demo and on fixtures its own generator
# made), written by the build under test.  A pass says the output did not
# change; whether it is right is judged elsewhere -- parity with HTA and the
# TensorBoard plugin (tests/parity-*.sh), the screen against the reports
# (tests/consistency.sh), and the unit tests' hand-derived cases.  Each line
# this test prints says so.  Every golden report has numbers judged by hand
# beside it: tests/golden/hand.list names the test on a tiny hand-built
# trace that works them out (a unit test, or a section below), and this
# test fails for a golden report without one.
. "${SRCDIR:-.}/tests/lib.sh"
[ -x "$TRACETOP" ] || { echo "no binary: $TRACETOP"; exit 99; }
case $SRCDIR in /*) G=$SRCDIR/tests/golden ;; *) G=$(pwd)/$SRCDIR/tests/golden ;; esac
case $TRACETOP in /*) tt=$TRACETOP ;; *) tt=$(pwd)/$TRACETOP ;; esac
# the fixtures by relative paths (the same text on every machine), run
# from their directory
FIX=$G/../fixtures
JOB=job
JOB_B=job-b

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-golden.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
# a pinned environment: no user keymap or theme, UTF-8
HOME=$tmp/home
mkdir -p "$HOME"
TERM=dumb
export HOME TERM
unset TRACETOP_KEYMAP TRACETOP_THEME TRACETOP_THEMES TRACETOP_TIME_KEYS NO_COLOR
cd "$FIX" || exit 99

# check NAME: compare $tmp/out with the golden file, or write it
check() {
	if [ -n "$UPDATE" ]; then
		if [ -f "$G/$1" ] && cmp -s "$tmp/out" "$G/$1"; then
			pass "$1: unchanged"
		else
			cp "$tmp/out" "$G/$1" && pass "$1: written (review it)"
		fi
	elif [ ! -f "$G/$1" ]; then
		fail "$1: no golden file (make update-golden)"
	elif diff -u "$G/$1" "$tmp/out" >"$tmp/diff"; then
		pass "$1 unchanged (a change detector)"
	else
		fail "$1 differs from tests/golden/$1 (make update-golden, then review):"
		head -60 "$tmp/diff" | sed 's/^/    /'
	fi
}

# the lists: fields separated by tabs; @JOB and @JOB_B name the fixtures
subst() {
	sed -e "s|@JOB_B|$JOB_B|g" -e "s|@JOB|$JOB|g"
}

n=0
while IFS='	' read -r name rest; do
	case $name in '' | '#'*) continue ;; esac
	# keys: the quoted field; the rest: the trace arguments
	keys=$(printf '%s\n' "$rest" | sed -e "s/^[[:space:]]*'//" -e "s/'.*//")
	args=$(printf '%s\n' "$rest" | sed -e "s/^[[:space:]]*'[^']*'[[:space:]]*//" | subst)
	# shellcheck disable=SC2086
	"$tt" --headless --no-cache --size 80x24 --keys "$keys" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check_rc "screen $name" 0 "$rc" || { sed 's/^/    /' "$tmp/err"; continue; }
	check "$name.screen"
	n=$((n + 1))
done <"$G/screens.list"
[ "$n" -ge 20 ] && pass "$n screens compared with their golden files (change detectors)" ||
	fail "only $n screens"

# the views menu at 80 columns: every view's line read to its end (a line
# cut short ends in an ellipsis)
"$tt" --headless --no-cache --size 80x24 --keys v --demo >"$tmp/out" 2>"$tmp/err"
nv=$(sed -n '/^  view  *what$/,/^$/p' "$tmp/out" | grep -c '^[ >] [A-Z]')
ncut=$(sed -n '/^  view  *what$/,/^$/p' "$tmp/out" | grep -c '…$')
[ "$nv" -ge 17 ] && [ "$ncut" -eq 0 ] &&
	pass "the views menu at 80x24: $nv of $nv views described whole" ||
	fail "the views menu at 80x24: $ncut of $nv views' descriptions cut short (floor 17 views)"

n=0
while IFS='	' read -r name rest; do
	case $name in '' | '#'*) continue ;; esac
	args=$(printf '%s\n' "$rest" | sed -e 's/^[[:space:]]*//' | subst)
	# shellcheck disable=SC2086
	"$tt" $args --no-cache >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check_rc "report $name" 0 "$rc" || { sed 's/^/    /' "$tmp/err"; continue; }
	check "$name"
	n=$((n + 1))
done <"$G/reports.list"
[ "$n" -ge 20 ] && pass "$n reports compared with their golden files (change detectors)" ||
	fail "only $n reports"

# ---- by hand: summary ----
# One rank (3) of 7 events, times in µs: ProfilerStep#5 1000-1900 (a
# user annotation), aten::mm 1100-1400, two runtime calls; on stream 7
# gemm 1200-1600 and a copy 1700-1800, on stream 13 an all-reduce
# 1500-1700.  Span 1000..1900 = 900 µs; GPU busy the union [1200, 1800) =
# 600 µs, 600 / 900 = 66.67 %; 2 streams, 2 kernels, 1 memcpy, 0 memset, 1
# CPU op, 2 runtime calls, 1 step, no warning.
cat >"$tmp/hand.json" <<'EOF'
{"distributedInfo": {"rank": 3}, "traceEvents": [
{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#5", "pid": 1, "tid": 1, "ts": 1000, "dur": 900},
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1100, "dur": 300},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1150, "dur": 20, "args": {"correlation": 1}},
{"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 1200, "dur": 400, "args": {"stream": 7, "correlation": 1, "device": 0}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 1300, "dur": 10, "args": {"correlation": 2}},
{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7, "ts": 1700, "dur": 100, "args": {"stream": 7, "correlation": 2, "device": 0}},
{"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce", "pid": 0, "tid": 13, "ts": 1500, "dur": 200, "args": {"stream": 13, "correlation": 3, "device": 0}}
]}
EOF
row=$("$tt" report summary -q --no-cache -f csv "$tmp/hand.json" 2>&1 | sed -n 2p)
case $row in
*hand.json,3,7,900,2,2,1,0,600,66.666666666666*,1,2,1,0)
	pass "summary by hand: 7 events over 900 µs, 2 streams, 2 kernels, 1 memcpy," \
		"GPU busy 600 µs (66.67 %), 1 CPU op, 2 runtime calls, 1 step" ;;
*) fail "summary by hand: $row" ;;
esac

# ---- by hand: load ----
# Three CPU ops; a's pid and tid and b's pid are strings: 3 ids, the first
# in the event that starts at byte 38 (the first line is 37 bytes and its
# newline); no rank anywhere: rank 0, with a warning at byte 0.
printf '%s\n' '{"schemaVersion": 1, "traceEvents": [' \
	'{"ph": "X", "cat": "cpu_op", "name": "a", "pid": "main", "tid": "t1", "ts": 10, "dur": 5},' \
	'{"ph": "X", "cat": "cpu_op", "name": "b", "pid": "main", "tid": 2, "ts": 20, "dur": 5},' \
	'{"ph": "X", "cat": "cpu_op", "name": "c", "pid": 1, "tid": 1, "ts": 30, "dur": 5}' \
	']}' >"$tmp/names.json"
"$tt" report load -q --no-cache -f csv "$tmp/names.json" >"$tmp/load.csv" 2>/dev/null
if grep -q ',0,note,3,38,string pid or tid$' "$tmp/load.csv" &&
	grep -q ',0,warning,1,0,rank unknown$' "$tmp/load.csv"; then
	pass "load by hand: 3 string ids from byte 38, rank unknown at byte 0"
else
	fail "load by hand: $(tr '\n' ';' <"$tmp/load.csv")"
fi

# every golden report has numbers judged by hand beside it: the test that
# tests/golden/hand.list names for it exists
nh=0
nr=0
while IFS='	' read -r name rest; do
	case $name in '' | '#'*) continue ;; esac
	nr=$((nr + 1))
	# shellcheck disable=SC2046
	set -- $(awk -F '\t+' -v n="$name" '$1 == n { print $2, $3 }' "$G/hand.list")
	if [ $# -ne 2 ]; then
		fail "$name: no test judges its numbers by hand (tests/golden/hand.list)"
	elif case $1 in
		*.c) grep -q "^START_TEST($2)" "$G/../../$1" ;;
		*) grep -q "^# ---- by hand: $2 ----" "$G/../../$1" ;;
		esac then
		nh=$((nh + 1))
	else
		fail "$name: tests/golden/hand.list names $1 $2, which is not there"
	fi
done <"$G/reports.list"
[ "$nh" -eq "$nr" ] && [ "$nr" -ge 20 ] &&
	pass "$nh of $nr golden reports have numbers judged by hand beside them (tests/golden/hand.list)" ||
	fail "$nh of $nr golden reports have numbers judged by hand beside them (tests/golden/hand.list)"
summary
