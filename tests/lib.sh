# Helpers for shell tests (sourced).  Exit codes follow automake:
# 0 pass, 77 skip, 99 hard error; any failure makes the test fail.
: "${TRACETOP:=./tracetop}"
: "${SRCDIR:=.}"
export LC_ALL=C.UTF-8 TZ=UTC
npass=0
nfail=0
nskip=0
pass() { npass=$((npass + 1)); echo "ok - $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL - $*"; }
# a part of the test that did not run, and why (counted in the summary)
skipped() { nskip=$((nskip + 1)); echo "skip - $*"; }
check_rc() {
	# name want got; a signal (>= 128) is always a failure
	if [ "$3" -ge 128 ]; then fail "$1: crashed (status $3)"; return 1; fi
	if [ "$3" -ne "$2" ]; then fail "$1: exit status $3, expected $2"; return 1; fi
	return 0
}
need_shared() {
	SHARED="${SHARED:-$SRCDIR/../shared}"
	if [ ! -d "$SHARED/traces" ]; then echo "skip: $SHARED/traces is absent"; exit 77; fi
}
# shared_or_skip WHAT: the rest of the test needs ../shared/traces; without
# it, end here: a failure if something failed so far, else a skip (77) that
# says what was not checked (a suite whose shared part did not run does not
# pass)
shared_or_skip() {
	SHARED="${SHARED:-$SRCDIR/../shared}"
	[ -d "$SHARED/traces" ] && return 0
	summary || exit 1
	echo "skip: $SHARED/traces is absent: $* not checked"
	exit 77
}
# at_least WHAT FLOOR GOT: a suite compared at least FLOOR things (its
# count, stated in the test, of what it compares on ../shared today): fewer
# means a comparison was lost, and fails
at_least() {
	if [ "$3" -ge "$2" ]; then
		pass "$1: $3 (floor $2)"
	else
		fail "$1: $3, below the floor of $2: comparisons were lost"
	fi
}
# ---- what a comparison suite compared ----
# tally_begin FILE: every comparison appends "LABEL<TAB>rows<TAB>numbers<TAB>
# texts" to FILE (csvcmp.py --tally FILE does; tally for the others)
tally_begin() { TALLY=$1; : >"$TALLY"; }
tally() { printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$TALLY"; }
# nfiles GLOB...: how many of the globs name files
nfiles() {
	n=0
	for f in "$@"; do [ -f "$f" ] && n=$((n + 1)); done
	echo "$n"
}
# tally_end WHAT M FLOOR_ROWS FLOOR_NUMBERS: say "WHAT: compared N of M
# tables, R rows, K numbers, T texts; S skipped"; M is what the reference
# folders hold for the suite, counted apart from the loops that compare, so
# a comparison lost to a loop's skip makes N < M, which fails; fewer rows
# or numbers than the floors the suite states fail too
tally_end() {
	# shellcheck disable=SC2046
	set -- "$1" "$2" "$3" "$4" $(awk -F '\t' '{ n++; r += $2; k += $3; t += $4 }
		END { print n + 0, r + 0, k + 0, t + 0 }' "$TALLY")
	echo "$1: compared $5 of $2 tables, $6 rows, $7 numbers, $8 texts; $nskip skipped"
	if [ "$5" -ge "$2" ]; then
		pass "$1: $5 of $2 tables compared"
	else
		fail "$1: $5 of $2 tables compared: $(($2 - $5)) were not"
	fi
	at_least "$1: rows compared" "$3" "$6"
	at_least "$1: numbers compared" "$4" "$7"
}
summary() {
	echo "$npass passed, $nfail failed, $nskip skipped"
	[ "$nfail" -eq 0 ]
}
# to_tts DIR OUT: each trace file of DIR as a .tts model in OUT (tracetop
# summarize), which the explorer and the reports load as they load the
# trace, without parsing its JSON again: for tests of what is drawn and
# reported, not of the loader (cache.sh checks that every report reads the
# same from a .tts as from its trace); the JSON is parsed once instead of
# tens of times, minutes under the sanitizers
to_tts() {
	mkdir -p "$2" || return 1
	for f in "$1"/*; do
		b=$(basename "$f")
		"$TRACETOP" summarize -q "$f" -o "$2/${b%%.json*}.tts" ||
			{ echo "summarize $f failed"; return 1; }
	done
}
