#!/bin/sh
# The critical path view, headless at 80x24 on the built-in demo job: it is
# in the views menu; per rank and step a row with the length, the main bound
# and the bar, the longest path named; Enter lists the events on that step's
# path with the whole breakdown; Enter on one opens the timeline there with
# the path's events as its set, and n/N step along the path.
. "${SRCDIR:-.}/tests/lib.sh"

D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

screen() {
	"$TRACETOP" --headless -q --size 80x24 --keys "$1" --demo >"$D/screen" 2>"$D/err"
	check_rc "keys $1" 0 $? || { cat "$D/err"; return 1; }
}
has() {
	grep -qF -- "$1" "$D/screen" && pass "$2" || fail "$2: no '$1' in: $(cat "$D/screen")"
}

CP='v/Critical<Enter><Enter><Wait>'
screen 'v' && has 'Critical path  the longest path through each step' "the views menu lists it"
if screen "$CP"; then
	has 'Overview > more views > Critical path' "it opens"
	has 'longest path: rank ' "the longest path across ranks is named"
	has 'rank  step              length (ms)  bound most by' "its columns fit 80 columns"
	# every step of every rank: 8 ranks x 5 steps (the demo's last step is
	# dropped, as HTA does)
	n=$("$TRACETOP" report critical-path -q --demo -f csv --table critical_path_steps |
		grep -c ',ProfilerStep#')
	[ "$n" = 40 ] && pass "40 rank-steps in the report" || fail "$n rank-steps, expected 40"
	grep -Eq '^>    0  ProfilerStep#100 +[0-9.]+  [A-Za-z ]+ [0-9.]+%  +[^ ]' "$D/screen" &&
		pass "a row: rank, step, length, bound and the bar" || fail "the first row: $(sed -n 8p "$D/screen")"
fi
if screen "$CP<Enter><Wait>"; then
	has 'Critical path > rank 0, ProfilerStep#100' "Enter: the step's path"
	grep -Eq '^ length [0-9.]+ ms: [A-Za-z ]+ [0-9.]+%' "$D/screen" &&
		pass "the whole breakdown above the events" || fail "no breakdown: $(cat "$D/screen")"
fi
if screen "$CP<Enter><Wait><Enter><Wait>n"; then
	has '> timeline' "Enter on an event: the timeline"
	# a breadcrumb wider than the screen loses its first steps, not its last
	sed -n 2p "$D/screen" | grep -Eq '^ … > .* > timeline rank 0 *$' &&
		pass "the breadcrumb names the timeline to its end" ||
		fail "the breadcrumb: $(sed -n 2p "$D/screen")"
	# the timeline opens on the event, the first of the set: n is the
	# path's next event
	grep -Eq 'match 2/[0-9,]+  critical path' "$D/screen" && pass "n steps along the path" ||
		fail "n said nothing about the path: $(tail -n 1 "$D/screen")"
	a=$(sed -n 's/.*match \([0-9]*\)\/.*/\1/p' "$D/screen")
	screen "$CP<Enter><Wait><Enter><Wait>nnN"
	b=$(sed -n 's/.*match \([0-9]*\)\/.*/\1/p' "$D/screen")
	[ -n "$a" ] && [ "$a" = "$b" ] && pass "N steps back (n n N = n: $a)" ||
		fail "n gave $a, n n N gave $b"
fi
summary
