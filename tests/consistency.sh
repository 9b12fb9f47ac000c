#!/bin/sh
# Every number on screen is the number of the report: for every pane and
# view (and the drill-down of each one's first row, and that one's first
# row's: the second level) on the demo and on
# every trace set of ../shared/traces, at 80x24 and 200x50, each number
# drawn parses with its column's unit to the value of `tracetop report NAME
# -f csv` for the same row within display rounding (so no cell shows the
# leading digits of its number), the per-rank percentages that claim to
# split one span sum to 100 +- 0.1, the time columns a reader compares show
# one unit, different names are drawn different, and no text is cut short
# without an ellipsis (a word cut, a sentence cut at a space).  tests/tools/screencheck.py does the
# checking, and first checks itself on the defects it is for.  The demo
# always runs; without ../shared the test then skips (77), saying so.
#
# Every table of every pane and view is compared with a report, or listed
# with its reason in screencheck.py's EXEMPT; the rows and values compared
# are added up, and fewer than the floors at the end fail.
. "${SRCDIR:-.}/tests/lib.sh"
[ -x "$TRACETOP" ] || { echo "no binary: $TRACETOP"; exit 99; }
command -v python3 >/dev/null || { echo "skip: python3 runs screencheck.py"; exit 77; }
CHECK="$SRCDIR/tests/tools/screencheck.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-consistency.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
: >"$tmp/tally"
HOME=$tmp/home
mkdir -p "$HOME"
export HOME
unset TRACETOP_KEYMAP TRACETOP_THEME TRACETOP_THEMES NO_COLOR

# check LABEL SIZE [--diff] PATH...
check() {
	label=$1 size=$2
	shift 2
	if python3 "$CHECK" --tracetop "$TRACETOP" --size "$size" --label "$label" "$@" >"$tmp/out" 2>&1; then
		# "...; M rows[ (B rows side by side)], R compared (not: ...); N numbers drawn, K values compared; ..."
		# "...; drill-downs: C of D tables compared (E exempt), R of S rows;
		# second level: C of D tables compared (E exempt), R of S rows"
		last=$(tail -n 1 "$tmp/out")
		one=$(printf '%s\n' "$last" | sed -n 's/.* \([0-9]*\) rows\( ([0-9]* rows side by side)\)\{0,1\}, \([0-9]*\) compared[^;]*; [0-9]* numbers drawn, \([0-9]*\) values compared.*drill-downs: \([0-9]*\) of \([0-9]*\) tables compared ([0-9]* exempt), \([0-9]*\) of \([0-9]*\) rows; second level: .*$/\1 \3 \4 \5 \6 \7 \8/p')
		two=$(printf '%s\n' "$last" | sed -n 's/.*; second level: \([0-9]*\) of \([0-9]*\) tables compared ([0-9]* exempt[^)]*), \([0-9]*\) of \([0-9]*\) rows$/\1 \2 \3 \4/p')
		echo "$one $two" >>"$tmp/tally"
		pass "$(tail -1 "$tmp/out")"
	else
		fail "$label $size:"
		sed 's/^/    /' "$tmp/out"
	fi
}

if python3 "$CHECK" --selftest >"$tmp/self" 2>&1; then
	pass "the checker fails on cut numbers, wrong units, sums not 100, other values," \
		"names drawn alike, compared times in two units, text cut short," \
		"tables and columns compared with no report and not exempt"
else
	fail "the checker's self-test"
	cat "$tmp/self"
fi

# (the traces as .tts models: tests/lib.sh, to_tts)
tts() {
	to_tts "$1" "$tmp/tts/$(basename "$1")" || exit 99
}

# the demo job: alone as --demo (whose Diff pane holds its regressed run),
# and side by side with its regressed run
"$TRACETOP" demo-trace -q -o "$tmp/demo" >/dev/null 2>&1 &&
	"$TRACETOP" demo-trace -q -o "$tmp/regressed" --variant regressed >/dev/null 2>&1 ||
	{ echo "demo-trace failed"; exit 99; }
tts "$tmp/demo"
tts "$tmp/regressed"
for size in 80x24 200x50; do
	check demo "$size" -- --demo
	check demo-diff "$size" --diff -- "$tmp/tts/demo" "$tmp/tts/regressed"
done

# a job of 64 ranks: the Overview a heatmap, the stragglers of every kind
"$TRACETOP" demo-trace -q -o "$tmp/job64" --ranks 64 >/dev/null 2>&1 ||
	{ echo "demo-trace failed"; exit 99; }
tts "$tmp/job64"
check job64 80x24 -- "$tmp/tts/job64"

SHARED="${SHARED:-$SRCDIR/../shared}"
if [ -d "$SHARED/traces" ]; then
	for d in "$SHARED"/traces/*/; do
		tts "$d"
	done
	t=$tmp/tts
	for size in 80x24 200x50; do
		for d in "$SHARED"/traces/*/; do
			check "$(basename "$d")" "$size" -- "$t/$(basename "$d")"
		done
		check compare "$size" --diff -- "$t/compare-base" "$t/compare-test"
		check diff "$size" --diff -- "$t/diff-control" "$t/diff-test"
	done
fi

# the rows and values compared with a report, of the rows drawn: the
# demo's (demo, demo diff, 64 ranks), then with ../shared every set's; and
# of them the drill-downs' (Enter on the first row of every pane and view):
# their tables compared with a report of those drawn (the others exempt:
# one event's fields, instances, a rank's tracks), and their rows.
# Floors: about 90 % of the counts measured at 80x24 and 200x50 with 17
# views (demo: 2224 of 2529 rows, 18285 values, drill-downs 61 of 75
# tables and 803 of 998 rows; with ../shared: 6413 of 7857 rows, 44271
# values, drill-downs 217 of 302 tables and 2825 of 3763 rows):
# how many rows a screen holds moves with its layout; a table no longer
# compared fails above by itself, the floors catch a run that compared far
# less.  The rows not compared are those of EXEMPT's tables (findings as
# prose, one event's fields, instances, a rank's tracks).
# The second level (Enter on the first row of each first drill-down; a
# table seen before counts where first seen): most are the timeline (no
# table); its tables a rank's calls of one collective (report collectives'
# collective_parts), a shape's kernels (report perf-model) and one event's
# fields (exempt).  Floors: about 90 % of the counts measured (demo: 5 of
# 13 tables, 68 of 164 rows; with ../shared: 17 of 60 tables, 220 of 703
# rows; the tables not compared are one event's fields).
set -- $(awk '{ m += $1; r += $2; k += $3; dc += $4; dt += $5; dr += $6; ds += $7
	sc += $8; st += $9; sr += $10; ss += $11 }
	END { print m + 0, r + 0, k + 0, dc + 0, dt + 0, dr + 0, ds + 0,
	sc + 0, st + 0, sr + 0, ss + 0 }' "$tmp/tally")
echo "compared with a report: $2 of $1 rows drawn, $3 values;" \
	"drill-downs: $4 of $5 tables, $6 of $7 rows;" \
	"second level: $8 of $9 tables compared, ${10} of ${11} rows"
if [ -d "$SHARED/traces" ]; then
	at_least "rows on screen compared with a report" 5770 "$2"
	at_least "values on screen compared with a report" 39840 "$3"
	at_least "drill-down tables compared with a report" 195 "$4"
	at_least "drill-down rows compared with a report" 2540 "$6"
	at_least "second-level tables compared with a report" 15 "$8"
	at_least "second-level rows compared with a report" 198 "${10}"
else
	at_least "rows on screen compared with a report (demo)" 2000 "$2"
	at_least "values on screen compared with a report (demo)" 16450 "$3"
	at_least "drill-down tables compared with a report (demo)" 55 "$4"
	at_least "drill-down rows compared with a report (demo)" 720 "$6"
	at_least "second-level tables compared with a report (demo)" 4 "$8"
	at_least "second-level rows compared with a report (demo)" 60 "${10}"
fi
shared_or_skip "every trace set of ../shared (the demo was checked)"
summary
