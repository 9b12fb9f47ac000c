#!/bin/sh
# --ranks: a list selects those ranks; a list naming impossible ranks (too
# large, overflowing, backwards, too many) is refused at once with one line
# and exit 2, in bounded memory (the limit below turns a runaway allocation
# into a failure instead of a swapping machine).
. "${SRCDIR:-.}/tests/lib.sh"
FIX="$SRCDIR/tests/fixtures/phases.json"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

"$TRACETOP" report summary -q -f csv --ranks 0,3,4-7 "$FIX" >"$D/out" 2>"$D/err"
check_rc "a good list" 0 $? && pass "a good list loads"

# refused LIST REASON
# (a sanitizer build reserves terabytes of address space: no limit there;
# the sanitizers catch the overflow themselves)
limit=1000000
grep -qaE '__asan_init|__tsan_init' "$TRACETOP" && limit=unlimited
refused() {
	(ulimit -v $limit 2>/dev/null; exec "$TRACETOP" report summary -q --ranks "$1" "$FIX") \
		>"$D/out" 2>"$D/err"
	rc=$?
	check_rc "--ranks $1" 2 $rc || return
	line="tracetop: bad rank list '$1': $2 (e.g. 0,2,4-7)"
	[ "$(head -n 1 "$D/err")" = "$line" ] ||
		{ fail "--ranks $1: expected '$line', got: $(head -c 300 "$D/err")"; return; }
	pass "--ranks $1: $2"
}
refused 9223372036854775807 "ranks go up to 16777215"
refused 0-9223372036854775807 "ranks go up to 16777215"
refused 9223372036854775806-9223372036854775807 "ranks go up to 16777215"
refused 99999999999999999999 "ranks go up to 16777215"
refused 7-3 "range 7-3 runs backwards"
refused 0-16777215 "more than 1048576 ranks"
refused 1,x "not a number: 'x'"
summary
