#!/bin/sh
# Text reports fit their width: through a pipe every report of the demo job
# (and report diff, range and critical-path of the shared traces) prints no
# line wider than 80 columns, or than $COLUMNS, or than --width; names
# shortened there stay different (as many texts as names); --wide prints
# every name whole.  tests/tools/textwidth.py measures display columns.
. "${SRCDIR:-.}/tests/lib.sh"
[ -x "$TRACETOP" ] || { echo "no binary: $TRACETOP"; exit 99; }
command -v python3 >/dev/null || { echo "skip: python3 measures the lines"; exit 77; }
W="$SRCDIR/tests/tools/textwidth.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-width.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
unset COLUMNS

# fits LABEL WIDTH FILE: no line of FILE wider than WIDTH
fits() {
	if python3 "$W" "$2" "$3" >"$tmp/bad"; then
		pass "$1: $(wc -l <"$3") lines, the widest $(python3 "$W" --max "$3") <= $2 columns"
	else
		fail "$1: lines wider than $2:"
		sed 's/^/    /' "$tmp/bad"
	fi
}

n=0
# every report but diff (two traces: below); M counted apart from the loop
nr=$("$TRACETOP" report --list | awk '/^[a-z]/ && $1 != "diff"' | wc -l)
for r in $("$TRACETOP" report --list | awk '/^[a-z]/ && $1 != "diff" { print $1 }'); do
	"$TRACETOP" report "$r" -q --demo >"$tmp/out" 2>"$tmp/err"
	check_rc "report $r" 0 $? || { cat "$tmp/err"; continue; }
	fits "report $r (pipe)" 80 "$tmp/out"
	"$TRACETOP" report "$r" -q --width 60 --demo >"$tmp/out" 2>&1
	fits "report $r --width 60" 60 "$tmp/out"
	COLUMNS=132 "$TRACETOP" report "$r" -q --demo >"$tmp/out" 2>&1
	fits "report $r, COLUMNS=132" 132 "$tmp/out"
	n=$((n + 1))
done
[ "$n" -eq "$nr" ] && [ "$n" -ge 20 ] && pass "$n of $nr reports of the demo fit (floor 20)" ||
	fail "$n of $nr reports of the demo fit (floor 20)"
"$TRACETOP" report diff -q --demo >"$tmp/out" 2>&1
fits "report diff --demo (pipe)" 80 "$tmp/out"
"$TRACETOP" report --list >"$tmp/out" 2>&1
fits "report --list" 80 "$tmp/out"
"$TRACETOP" --help >"$tmp/out" 2>&1
fits "--help" 80 "$tmp/out"

# --wide: whole names, wider lines
"$TRACETOP" report kernels -q --wide --demo >"$tmp/out" 2>&1
grep -q 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm\*, unsigned long, ncclWork\*)' "$tmp/out" &&
	! grep -q '…' "$tmp/out" && pass "--wide: whole names ($(python3 "$W" --max "$tmp/out") columns)" ||
	fail "--wide: a name is not whole"
"$TRACETOP" report kernels -q --width 70 --wide --demo >"$tmp/out" 2>&1
grep -q 'ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm\*' "$tmp/out" &&
	pass "--wide wins over --width" || fail "--wide with --width 70 cut a name"

# distinct NAMES_CSV TEXT: as many different names in the text as in CSV
distinct() {
	want=$(sort -u "$2" | wc -l)
	got=$(sort -u "$3" | wc -l)
	[ "$want" -eq "$got" ] && [ "$want" -gt 1 ] &&
		pass "$1: $got different names of $want shown different" ||
		fail "$1: $want names shown as $got texts"
}

SHARED="${SHARED:-$SRCDIR/../shared}"
if [ -d "$SHARED/traces" ]; then
	A=$SHARED/traces/diff-control B=$SHARED/traces/diff-test
	"$TRACETOP" report diff -q "$A" "$B" >"$tmp/out" 2>&1
	fits "report diff diff-control diff-test (pipe)" 80 "$tmp/out"
	"$TRACETOP" report diff -q --width 100 "$A" "$B" >"$tmp/out" 2>&1
	fits "report diff --width 100" 100 "$tmp/out"
	"$TRACETOP" report range -q --from 500ms --to 600ms "$A" >"$tmp/out" 2>&1
	fits "report range --from 500ms --to 600ms (pipe)" 80 "$tmp/out"
	"$TRACETOP" report critical-path -q "$A" >"$tmp/out" 2>&1
	fits "report critical-path diff-control (pipe)" 80 "$tmp/out"
	"$TRACETOP" report critical-path -q --ranks 5 --demo >"$tmp/out" 2>&1
	fits "report critical-path --ranks 5 --demo (pipe)" 80 "$tmp/out"
	"$TRACETOP" report kernels -q "$SHARED/traces/hta-2rank" >"$tmp/out" 2>&1
	fits "report kernels hta-2rank (pipe)" 80 "$tmp/out"
	# the names of compare_traces, each row's first field (text: 2 spaces
	# end it) in the table's first block, against the CSV's names
	"$TRACETOP" report diff -q --top 1000000 --table compare_traces "$A" "$B" |
		awk 'NR > 2 && !NF { exit } NR > 2 { sub(/  .*/, ""); print }' >"$tmp/text"
	"$TRACETOP" report diff -q --top 1000000 --table compare_traces -f csv "$A" "$B" |
		python3 -c 'import csv, sys; [print(r["name"]) for r in csv.DictReader(sys.stdin)]' >"$tmp/csv"
	distinct "report diff names at 80 columns" "$tmp/csv" "$tmp/text"
fi
shared_or_skip "the reports on ../shared (the demo was checked)"
summary
