#!/bin/sh
# Every number on screen is the number of the report: for every pane and
# view (and the drill-down of each pane's first row) on the demo and on
# every trace set of ../shared/traces, at 80x24 and 200x50, each number
# drawn parses with its column's unit to the value of `tracetop report NAME
# -f csv` for the same row within display rounding (so no cell shows the
# leading digits of its number), the per-rank percentages that claim to
# split one span sum to 100 +- 0.1, the time columns a reader compares show
# one unit, different names are drawn different, and no text is cut short
# without an ellipsis (a word cut, a sentence cut at a space).  tests/tools/screencheck.py does the
# checking, and first checks itself on the defects it is for.  The demo
# always runs; without ../shared the test then skips (77), saying so.
. "${SRCDIR:-.}/tests/lib.sh"
[ -x "$TRACETOP" ] || { echo "no binary: $TRACETOP"; exit 99; }
command -v python3 >/dev/null || { echo "skip: python3 runs screencheck.py"; exit 77; }
CHECK="$SRCDIR/tests/tools/screencheck.py"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-consistency.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
HOME=$tmp/home
mkdir -p "$HOME"
export HOME
unset TRACETOP_KEYMAP TRACETOP_THEME TRACETOP_THEMES NO_COLOR

# check LABEL SIZE [--diff] PATH...
check() {
	label=$1 size=$2
	shift 2
	if python3 "$CHECK" --tracetop "$TRACETOP" --size "$size" --label "$label" "$@" >"$tmp/out" 2>&1; then
		pass "$(tail -1 "$tmp/out")"
	else
		fail "$label $size:"
		sed 's/^/    /' "$tmp/out"
	fi
}

if python3 "$CHECK" --selftest >"$tmp/self" 2>&1; then
	pass "the checker fails on cut numbers, wrong units, sums not 100, other values, names drawn alike, compared times in two units, text cut short"
else
	fail "the checker's self-test"
	cat "$tmp/self"
fi

for size in 80x24 200x50; do
	check demo "$size" -- --demo
	check demo-diff "$size" --diff -- --demo
done

# a job of 64 ranks: the Overview a heatmap, the stragglers of every kind
"$TRACETOP" demo-trace -q -o "$tmp/job64" --ranks 64 >/dev/null 2>&1 ||
	{ echo "demo-trace failed"; exit 99; }
check job64 80x24 -- "$tmp/job64"

SHARED="${SHARED:-$SRCDIR/../shared}"
if [ -d "$SHARED/traces" ]; then
	for size in 80x24 200x50; do
		for d in "$SHARED"/traces/*/; do
			check "$(basename "$d")" "$size" -- "$d"
		done
		check compare "$size" --diff -- "$SHARED/traces/compare-base" "$SHARED/traces/compare-test"
		check diff "$size" --diff -- "$SHARED/traces/diff-control" "$SHARED/traces/diff-test"
	done
fi

shared_or_skip "every trace set of ../shared (the demo was checked)"
summary
