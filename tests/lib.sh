# Helpers for shell tests (sourced).  Exit codes follow automake:
# 0 pass, 77 skip, 99 hard error; any failure makes the test fail.
: "${TRACETOP:=./tracetop}"
: "${SRCDIR:=.}"
export LC_ALL=C.UTF-8 TZ=UTC
npass=0
nfail=0
pass() { npass=$((npass + 1)); echo "ok - $*"; }
fail() { nfail=$((nfail + 1)); echo "FAIL - $*"; }
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
summary() {
	echo "$npass passed, $nfail failed"
	[ "$nfail" -eq 0 ]
}
