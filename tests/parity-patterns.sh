#!/bin/sh
# Parity with HTA (../shared/reference) of `tracetop report patterns`
# (get_frequent_cuda_kernel_sequences) and `tracetop report diff`
# (TraceDiff.compare_traces / ops_diff, with --iteration first: HTA's
# default call, each side's smallest rank and first step).  Counts must match exactly,
# durations within 1 µs or 0.01 %.
#
# Known, deliberate differences from HTA, checked below where a trace shows
# them:
#  * ns-resolution: HTA's call-stack sort raises "Unexpected case" on
#    zero/negative-length events after its µs rounding; we nest by the exact
#    ns times and report patterns (exit 0, rows).
#  * traces where the reference driver found no aten:: op launching >= 3
#    kernels (args.json "tried": []): HTA was not called; we print the
#    header and no row.
#
# Counted: every table of the reference folders this suite reads is
# compared (N of M, M counted from the files), and the rows and numbers
# compared may not fall below the floors at the end.
. "${SRCDIR:-.}/tests/lib.sh"
need_shared
command -v python3 >/dev/null || { echo "skip: python3 is needed"; exit 77; }

REF="$SHARED/reference"
TR="$SHARED/traces"
CMP="python3 $SRCDIR/tests/tools/csvcmp.py"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
tally_begin "$D/tally"
CMP="$CMP --tally $D/tally"

# ---- patterns ----

# args.json -> "RANK<TAB>OP<TAB>ROWS" per operator the driver tried
tried() {
	python3 - "$1" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
for t in a.get("tried", []):
    print("%d\t%s\t%d" % (a["rank"], t["operator_name"], t["rows"]))
PY
}

for name in hta-2rank diff-control diff-test queue-length; do
	args="$REF/$name/frequent_cuda_kernel_sequences.args.json"
	tried "$args" >"$D/tried"
	# the op that gave the reference rows is the last one tried
	last=$(tail -n 1 "$D/tried")
	rank=$(echo "$last" | cut -f1)
	op=$(echo "$last" | cut -f2)
	"$TRACETOP" report patterns -q -f csv --table frequent_cuda_kernel_sequences \
		--ranks "$rank" --op "$op" "$TR/$name" >"$D/out" 2>"$D/err"
	check_rc "patterns $name" 0 $? || { cat "$D/err"; continue; }
	if $CMP "$D/out" "$REF/$name/frequent_cuda_kernel_sequences.csv" --key pattern \
		--abs 1 --rel 1e-4 --tol count=0:0 --label "patterns $name ($op)" >"$D/cmp"; then
		pass "$(cat "$D/cmp")"
	else
		fail "$(cat "$D/cmp")"
	fi
	# every op the driver tried gives as many rows as it did
	ntried=0
	while IFS="$(printf '\t')" read -r t_rank t_op t_rows; do
		"$TRACETOP" report patterns -q -f csv --table frequent_cuda_kernel_sequences \
			--ranks "$t_rank" --op "$t_op" "$TR/$name" >"$D/out" 2>/dev/null
		got=$(($(wc -l <"$D/out") - 1))
		if [ "$got" -eq "$t_rows" ]; then
			ntried=$((ntried + 1))
			pass "patterns $name --op $t_op: $t_rows rows, as HTA"
		else
			fail "patterns $name --op $t_op: $got rows, HTA $t_rows"
		fi
	done <"$D/tried"
	tally "patterns $name: rows of each op tried, and the op chosen" "$ntried" "$ntried" 1
	# the automatic choice is the driver's: the last op it tried
	"$TRACETOP" report patterns -q "$TR/$name" >"$D/out" 2>&1
	if grep -q "operator chosen automatically: $op " "$D/out"; then
		pass "patterns $name: chooses $op by itself"
	else
		fail "patterns $name: automatic choice: $(grep chosen "$D/out")"
	fi
done

# no aten:: op with >= 3 kernels: header only, like HTA's empty frame
for name in event-sync non-gpu rank-unavailable cpu-only compare-base compare-test; do
	if [ -n "$(tried "$REF/$name/frequent_cuda_kernel_sequences.args.json")" ]; then
		fail "patterns $name: the reference tried an op, update this test"
		continue
	fi
	"$TRACETOP" report patterns -q -f csv --table frequent_cuda_kernel_sequences \
		"$TR/$name" >"$D/out" 2>"$D/err"
	check_rc "patterns $name" 0 $? || { cat "$D/err"; continue; }
	if [ "$(wc -l <"$D/out")" -eq 1 ] && head -n 1 "$D/out" | grep -q '^pattern,count,'; then
		tally "patterns $name: header only" 0 0 1
		pass "patterns $name: no op launches 3 kernels, header only"
	else
		fail "patterns $name: $(cat "$D/out")"
	fi
done

# ns-resolution: HTA raised (see its error.txt); we give rows
if grep -q "Unexpected case" "$REF/ns-resolution/frequent_cuda_kernel_sequences.error.txt"; then
	"$TRACETOP" report patterns -q -f csv --table frequent_cuda_kernel_sequences \
		"$TR/ns-resolution" >"$D/out" 2>"$D/err"
	rc=$?
	rows=$(($(wc -l <"$D/out") - 1))
	if [ $rc -eq 0 ] && [ "$rows" -gt 0 ]; then
		tally "patterns ns-resolution (HTA raises)" 0 0 1
		pass "patterns ns-resolution: $rows rows where HTA raised \"Unexpected case\" (deliberate)"
	else
		fail "patterns ns-resolution: exit $rc, $rows rows: $(cat "$D/err")"
	fi
else
	fail "patterns ns-resolution: the reference no longer errors, compare it"
fi

# ---- diff ----

# folder control test
for pair in "diff-diff diff-control diff-test" "diff-compare compare-base compare-test"; do
	set -- $pair
	ref=$1 a="$TR/$2" b="$TR/$3"
	for v in "" _gpu _cpu _short; do
		case $v in
		_gpu) flag=--gpu key=name ;;
		_cpu) flag=--cpu key=name ;;
		_short) flag=--short-names key=short_name ;;
		*) flag= key=name ;;
		esac
		"$TRACETOP" report diff -q -f csv --table compare_traces --iteration first $flag \
			"$a" "$b" \
			>"$D/out" 2>"$D/err"
		check_rc "diff $ref$v" 0 $? || { cat "$D/err"; continue; }
		if $CMP "$D/out" "$REF/$ref/compare_traces$v.csv" --key $key --abs 1 --rel 1e-4 \
			--tol Control_counts=0:0 --tol Test_counts=0:0 --tol diff_counts=0:0 \
			--label "diff $ref compare_traces$v" >"$D/cmp"; then
			pass "$(cat "$D/cmp")"
		else
			fail "$(cat "$D/cmp")"
		fi
	done
	"$TRACETOP" report diff -q -f json --table ops_diff --iteration first "$a" "$b" \
		>"$D/out" 2>"$D/err"
	check_rc "diff $ref ops_diff" 0 $? || { cat "$D/err"; continue; }
	if python3 - "$D/out" "$REF/$ref/ops_diff.json" "$TALLY" >"$D/cmp" 2>&1 <<'PY'; then
import json, sys
ours = json.load(open(sys.argv[1]))
ref = json.load(open(sys.argv[2]))
got = {}
for r in ours:
    got.setdefault(r["category"], []).append(r["name"])
bad = [k for k in set(ref) | set(got) if sorted(got.get(k, [])) != sorted(ref.get(k, []))]
print("ops_diff: " + ", ".join("%s %d" % (k, len(ref.get(k, []))) for k in ref) +
      ("" if not bad else "; differ: " + ", ".join(sorted(bad))))
n = sum(len(v) for v in ref.values())
open(sys.argv[3], "a").write("ops_diff\t%d\t0\t%d\n" % (n, n))
sys.exit(1 if bad else 0)
PY
		pass "diff $ref $(cat "$D/cmp")"
	else
		fail "diff $ref $(cat "$D/cmp")"
	fi
done

# what the reference folders hold for this suite, counted from the files:
# each table one comparison, each args.json one (the rows of every op the
# driver tried, or none tried: header only), HTA's error one
m=$(nfiles "$REF"/*/frequent_cuda_kernel_sequences.csv \
	"$REF"/*/frequent_cuda_kernel_sequences.args.json \
	"$REF"/*/frequent_cuda_kernel_sequences.error.txt \
	"$REF"/*/compare_traces*.csv "$REF"/*/ops_diff.json)
tally_end "HTA patterns and diff" "$m" 1644 7190

# an iteration a side does not have is a usage error (HTA raises ValueError)
"$TRACETOP" report diff -q --iteration 999999 "$TR/compare-base" "$TR/compare-test" \
	>/dev/null 2>"$D/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "no ProfilerStep#999999" "$D/err"; then
	pass "diff --iteration 999999: usage error"
else
	fail "diff --iteration 999999: exit $rc: $(cat "$D/err")"
fi
summary
