#!/bin/sh
# The critical path views, headless at 80x24 on the built-in demo job
# (rank 5 loads its data slowly; the others wait for it in every
# all-reduce): the Overview's first line names what bounds the job; the
# Critical path view is in the views menu, per rank and step a row with
# the length, the main bound, what the path covers and the bar, '*' on the
# rank that bounds each step; Enter lists the events on that step's path
# with the whole breakdown; Enter on one opens the timeline there with the
# path's events as its set, and n/N step along the path; J follows the
# job's path across ranks; x asks for a what-if; the Job path view lists
# the job's path per step; --model hta shows HTA's path.
. "${SRCDIR:-.}/tests/lib.sh"

D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

screen() {
	"$TRACETOP" --headless -q --size 80x24 --keys "$1" --demo $2 >"$D/screen" 2>"$D/err"
	check_rc "keys $1" 0 $? || { cat "$D/err"; return 1; }
}
has() {
	grep -qF -- "$1" "$D/screen" && pass "$2" || fail "$2: no '$1' in: $(cat "$D/screen")"
}

if screen ''; then
	sed -n 3p "$D/screen" | grep -q '^ bound by rank 5: data loading [0-9.]* ms a step; 7 ranks' &&
		pass "the Overview's first line: bound by rank 5, data loading" ||
		fail "the Overview's first line: $(sed -n 3p "$D/screen")"
fi
CP='v/Critical<Enter><Enter><Wait>'
screen 'v' && has 'Critical path  the longest path through each step' "the views menu lists it"
if screen "$CP"; then
	has 'Overview > more views > Critical path' "it opens"
	has 'bound by rank 5: data loading' "what bounds the job is named"
	has "rank 0, ProfilerStep#100: path " "what the row's path covers is said"
	has 'rank  step              length (ms)  bound most by             covers  bar' \
		"its columns fit 80 columns"
	# every step of every rank: 8 ranks x 5 steps (the demo's last step is
	# dropped, as HTA does)
	n=$("$TRACETOP" report critical-path -q --demo -f csv --table critical_path_steps |
		grep -c ',ProfilerStep#')
	[ "$n" = 40 ] && pass "40 rank-steps in the report" || fail "$n rank-steps, expected 40"
	grep -Eq '^>       0  ProfilerStep#100 +[0-9.]+  waiting for rank 5 [0-9.]+%  +[0-9.]+%  [%#=:~.]+' \
		"$D/screen" && pass "a row: rank, step, length, bound, covers and the bar" ||
		fail "the first row: $(grep '^>' "$D/screen")"
fi
# rank 5's rows carry the mark, in the text itself
if screen "$CP/Step<Enter>G"; then
	grep -Eq '^[> ] \*     5  ProfilerStep#104' "$D/screen" && pass "'*' on rank 5, which bounds the step" ||
		fail "no '*' on rank 5: $(cat "$D/screen")"
fi
if screen "${CP}J<Wait>"; then
	has 'job path of step 100' "J: the job's path on the timeline"
	has 'timeline ranks 5,' "... across ranks, rank 5 among them"
fi
if screen "${CP}G"; then
	has '*: bounds the job' "the mark is explained"
fi
if screen "${CP}x<C-u>launch-overhead*0<Enter><Wait>"; then
	has 'what if launch-overhead*0, rank 0' "x: the what-if of the row's rank"
	has 'now (ms)  then (ms)  change %' "now and then, labelled"
fi
if screen 'v/Job<Enter><Enter><Wait>'; then
	has 'Overview > more views > Job path' "the Job path view opens"
	has '7 ranks wait for it' "the ranks that waited are counted"
	grep -Eq '^>  100     5  data loading +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+$' "$D/screen" &&
		pass "step 100: rank 5, data loading" ||
		fail "the Job path's first row: $(grep '^>' "$D/screen")"
	screen 'v/Job<Enter><Enter><Wait><Enter><Wait>'
	has 'job path of step 100' "Enter: the job's path on the timeline"
fi
if screen "$CP" '--model hta'; then
	has "HTA's model (--model hta)" "--model hta: HTA's path, said so"
	has '*: the step' "... the longest path marked"
fi
if screen "$CP<Enter><Wait>"; then
	has 'Critical path > rank 0, ProfilerStep#100' "Enter: the step's path"
	grep -Eq '^ length [0-9.]+ ms: [A-Za-z0-9 ]+ [0-9.]+%' "$D/screen" &&
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
