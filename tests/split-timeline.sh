#!/bin/sh
# The split timeline of a diff (D in the timeline), headless on the shared
# diff pair: Control above, Test below, each half titled with its side,
# file, rank and step, and aligned -- the step's start ([ on each half's
# step row) in the same column on both halves, after opening, zooming,
# moving and panning, and on the next step.  Each half's step row ends
# (]) where its own step ends: the longer step reaches further right.
. "${SRCDIR:-.}/tests/lib.sh"
need_shared
A=$SHARED/traces/diff-control
B=$SHARED/traces/diff-test
D=$(mktemp -d "${TMPDIR:-/tmp}/tt-split.XXXXXX") || exit 99
trap 'rm -rf "$D"' EXIT INT TERM

shot() { # NAME SIZE KEYS [ARGS...]: the screen after KEYS in $D/NAME
	n=$1 size=$2 keys=$3
	shift 3
	"$TRACETOP" --headless --size "$size" --keys "$keys" "$@" >"$D/$n" 2>"$D/$n.err"
	check_rc "$n" 0 $? || cat "$D/$n.err"
}
# column (0-based) of the first CHAR on the line starting with PREFIX
col_of() { # FILE PREFIX CHAR
	awk -v p="$2" -v c="$3" 'index($0, p) == 1 { i = index($0, c); print i ? i - 1 : -1; exit }' "$1"
}
# the step's length in the title of SIDE, in µs
title_len() { # FILE SIDE
	grep -E "^ $2  " "$1" | head -1 | sed -n 's/.*ProfilerStep#[0-9]*  \([0-9.]*\) \([mµ]*s\).*/\1 \2/p' |
		awk '{ f = $2 == "ms" ? 1000 : $2 == "s" ? 1000000 : 1; printf "%d\n", $1 * f }'
}
aligned() { # NAME FILE: both step rows start at the same column
	ca=$(col_of "$2" " Control step" "[")
	cb=$(col_of "$2" " Test step" "[")
	if [ -n "$ca" ] && [ "$ca" -ge 0 ] && [ "$ca" = "$cb" ]; then
		pass "$1: the step starts in column $ca on both halves"
	else
		fail "$1: the step starts in column '$ca' (Control) and '$cb' (Test)"
		cat "$2"
	fi
}

# opening: D in the timeline
shot open 120x40 '9D' --diff "$A" "$B"
grep -q '^ Control  control.json.gz  rank 3  ProfilerStep#1009  ' "$D/open" &&
	pass "Control half titled: side, file, rank, step" || fail "no Control title"
grep -q '^ Test  test.json.gz  rank 1  ProfilerStep#1009  ' "$D/open" &&
	pass "Test half titled: side, file, rank, the same step" || fail "no Test title"
ya=$(grep -n '^ Control  ' "$D/open" | head -1 | cut -d: -f1)
yb=$(grep -n '^ Test  ' "$D/open" | head -1 | cut -d: -f1)
[ -n "$ya" ] && [ -n "$yb" ] && [ "$ya" -lt "$yb" ] && pass "Control above Test" ||
	fail "halves out of order ($ya, $yb)"
aligned open "$D/open"
# the longer step reaches further right (both ends in view at the start)
la=$(title_len "$D/open" Control)
lb=$(title_len "$D/open" Test)
ea=$(col_of "$D/open" " Control step" "]")
eb=$(col_of "$D/open" " Test step" "]")
if [ -n "$la" ] && [ -n "$lb" ] && [ "$ea" -gt 0 ] && [ "$eb" -gt 0 ] &&
	{ { [ "$la" -lt "$lb" ] && [ "$ea" -lt "$eb" ]; } ||
		{ [ "$la" -gt "$lb" ] && [ "$ea" -gt "$eb" ]; }; }; then
	pass "the step ends follow the steps' lengths ($la µs at column $ea, $lb µs at $eb)"
else
	fail "step ends: $la µs at column $ea, $lb µs at column $eb"
fi
# the same column per µs on both halves: the ends are where the lengths say
sa=$(col_of "$D/open" " Control step" "[")
if [ -n "$la" ] && [ "$ea" -gt "$sa" ] && [ "$eb" -gt "$sa" ]; then
	# (eb - sa) / (ea - sa) against lb / la, within a cell on each end
	awk -v a=$((ea - sa)) -v b=$((eb - sa)) -v la="$la" -v lb="$lb" \
		'BEGIN { r = b / a; w = lb / la; d = r - w; if (d < 0) d = -d; exit !(d <= 2.5 / a) }' &&
		pass "one time scale on both halves" ||
		fail "the halves' scales differ: $((ea - sa)) and $((eb - sa)) cells for $la and $lb µs"
fi

# from the start of step 1009 in the timeline: zoom in twice around the
# cursor (at the step's start), move it, pan away and back
J='9:step<Space>1009<Enter>D'
shot zoom 120x40 "$J++ll" --diff "$A" "$B"
aligned "zoomed in, cursor moved" "$D/zoom"
shot pan 120x40 "$J+++LH" --diff "$A" "$B"
aligned "panned right and back" "$D/pan"
shot away 120x40 "$J+++L" --diff "$A" "$B"
ca=$(col_of "$D/away" " Control step" "[")
cb=$(col_of "$D/away" " Test step" "[")
[ "$ca" = -1 ] && [ "$cb" = -1 ] && pass "panned right: the step's start left both halves" ||
	fail "panned right: the step starts at '$ca' (Control), '$cb' (Test)"
# the next step both sides have: both halves on it, still aligned
shot next 120x40 '9D]' --diff "$A" "$B"
grep -q '^ Control  .*ProfilerStep#1010' "$D/next" && grep -q '^ Test  .*ProfilerStep#1010' "$D/next" &&
	pass "] shows the next step on both halves" || fail "] did not move both halves to step 1010"
aligned "next step" "$D/next"
# one cursor: Tab on a Test row moves it, the cursor line names the side
shot tab 120x40 '9DJ<Tab>' --diff "$A" "$B"
grep -qE '^ cursor [0-9.]+ [nµm]?s +Test: ' "$D/tab" && pass "J: the cursor's row on the Test half" ||
	fail "J then Tab: no Test event on the cursor line"

# 80x24: both titles and the step rows still whole
shot small 80x24 '9D' --diff "$A" "$B"
grep -q '^ Control  control.json.gz  rank 3  ProfilerStep#1009  [0-9.]* ms$' "$D/small" &&
	grep -q '^ Test  test.json.gz  rank 1  ProfilerStep#1009  [0-9.]* ms$' "$D/small" &&
	pass "80x24: both titles whole" || fail "80x24: a title is cut"
aligned "80x24" "$D/small"

# without a second trace, D says what it needs
shot one 80x24 '9D' "$A"
grep -q 'start with --diff CONTROL TEST' "$D/one" && pass "D without --diff explains itself" ||
	fail "D without --diff: no explanation"
summary
