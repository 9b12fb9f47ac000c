#!/bin/sh
# Golden files: whole screens of every pane on the demo at 80x24
# (tests/golden/screens.list) and report outputs on the fixture job
# (tests/golden/reports.list), compared with `diff -u` against
# tests/golden/NAME.  `make update-golden` (UPDATE=1) writes them instead:
# review every changed file by eye before committing it.
#
# These are change detectors, not proofs of rightness: every golden file is
# this program's own output (on the demo and on fixtures its own generator
# made), written by the build under test.  A pass says the output did not
# change; whether it is right is judged elsewhere -- parity with HTA and the
# TensorBoard plugin (tests/parity-*.sh), the screen against the reports
# (tests/consistency.sh), and the unit tests' hand-derived cases.  Each line
# this test prints says so.
. "${SRCDIR:-.}/tests/lib.sh"
[ -x "$TRACETOP" ] || { echo "no binary: $TRACETOP"; exit 99; }
case $SRCDIR in /*) G=$SRCDIR/tests/golden ;; *) G=$(pwd)/$SRCDIR/tests/golden ;; esac
case $TRACETOP in /*) tt=$TRACETOP ;; *) tt=$(pwd)/$TRACETOP ;; esac
# the fixtures by relative paths (the same text on every machine), run
# from their directory
FIX=$G/../fixtures
JOB=job
JOB_B=job-b

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-golden.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
# a pinned environment: no user keymap or theme, UTF-8
HOME=$tmp/home
mkdir -p "$HOME"
TERM=dumb
export HOME TERM
unset TRACETOP_KEYMAP TRACETOP_THEME TRACETOP_THEMES TRACETOP_TIME_KEYS NO_COLOR
cd "$FIX" || exit 99

# check NAME: compare $tmp/out with the golden file, or write it
check() {
	if [ -n "$UPDATE" ]; then
		if [ -f "$G/$1" ] && cmp -s "$tmp/out" "$G/$1"; then
			pass "$1: unchanged"
		else
			cp "$tmp/out" "$G/$1" && pass "$1: written (review it)"
		fi
	elif [ ! -f "$G/$1" ]; then
		fail "$1: no golden file (make update-golden)"
	elif diff -u "$G/$1" "$tmp/out" >"$tmp/diff"; then
		pass "$1 unchanged (a change detector)"
	else
		fail "$1 differs from tests/golden/$1 (make update-golden, then review):"
		head -60 "$tmp/diff" | sed 's/^/    /'
	fi
}

# the lists: fields separated by tabs; @JOB and @JOB_B name the fixtures
subst() {
	sed -e "s|@JOB_B|$JOB_B|g" -e "s|@JOB|$JOB|g"
}

n=0
while IFS='	' read -r name rest; do
	case $name in '' | '#'*) continue ;; esac
	# keys: the quoted field; the rest: the trace arguments
	keys=$(printf '%s\n' "$rest" | sed -e "s/^[[:space:]]*'//" -e "s/'.*//")
	args=$(printf '%s\n' "$rest" | sed -e "s/^[[:space:]]*'[^']*'[[:space:]]*//" | subst)
	# shellcheck disable=SC2086
	"$tt" --headless --no-cache --size 80x24 --keys "$keys" $args >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check_rc "screen $name" 0 "$rc" || { sed 's/^/    /' "$tmp/err"; continue; }
	check "$name.screen"
	n=$((n + 1))
done <"$G/screens.list"
[ "$n" -ge 20 ] && pass "$n screens compared with their golden files (change detectors)" ||
	fail "only $n screens"

n=0
while IFS='	' read -r name rest; do
	case $name in '' | '#'*) continue ;; esac
	args=$(printf '%s\n' "$rest" | sed -e 's/^[[:space:]]*//' | subst)
	# shellcheck disable=SC2086
	"$tt" $args --no-cache >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check_rc "report $name" 0 "$rc" || { sed 's/^/    /' "$tmp/err"; continue; }
	check "$name"
	n=$((n + 1))
done <"$G/reports.list"
[ "$n" -ge 20 ] && pass "$n reports compared with their golden files (change detectors)" ||
	fail "only $n reports"
summary
