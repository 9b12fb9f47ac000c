#!/bin/sh
# Valid traces written to make the tool wrong: sums past int64 (16,000
# overlapping 7-day kernels, copies of 9e15 bytes), a stream whose only
# kernel is an unclosed B, duplicates at one time by the ten thousand.
# Each report must finish, a saturated sum must show as the largest time
# (never wrapped or negative), and a mean must be the right one or none.
# (Their time is tests/scaling's business, not this test's.)
. "${SRCDIR:-.}/tests/lib.sh"
GEN="${TRACETOP_BUILDDIR:-.}/tests/tools/ttgen"
[ -x "$GEN" ] || { echo "skip: $GEN not built"; exit 77; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

# ---- sums past int64 ----
"$GEN" overflow 16000 "$D/ovf" || exit 99
n=0
for r in $("$TRACETOP" report --list | awk '/^[a-z]/ { print $1 }'); do
	[ "$r" = diff ] && continue
	"$TRACETOP" report "$r" -q --no-cache -f csv "$D/ovf" >"$D/$r.csv" 2>"$D/err"
	rc=$?
	check_rc "report $r on 16,000 7-day kernels" 0 $rc || { head -3 "$D/err"; continue; }
	n=$((n + 1))
done
nr=$("$TRACETOP" report --list | awk '/^[a-z]/ && $1 != "diff"' | wc -l)
[ "$n" -eq "$nr" ] && pass "$n of $nr reports ran on sums past int64" ||
	fail "$n of $nr reports ran on sums past int64"
"$TRACETOP" report diff -q --no-cache -f csv "$D/ovf" "$D/ovf" >"$D/diff.csv" 2>"$D/err"
check_rc "report diff on sums past int64" 0 $? && pass "report diff on sums past int64"

# the kernel's sum saturates at the largest time (it wrapped to
# -8769944073709552 us), its mean (exact) stays 7 days
row=$(grep '^week,' "$D/kernels.csv" | head -n 1)
[ "$row" = "week,9223372036854776,604800000000,604800000000,0,604800000000,COMPUTATION,0,16000,1" ] &&
	pass "kernels: the sum saturates, the mean is 7 days" || fail "kernels: $row"
# the utilisation view's: the sum saturated, its mean (taken from the sum)
# left empty rather than below the minimum
row=$(grep '^week,no,' "$D/utilization.csv" | head -n 1)
case $row in
"week,no,16000,9223372036854776,,604800000000,604800000000,"*)
	pass "utilisation: the sum saturates, no mean made from it" ;;
*) fail "utilisation: $row" ;;
esac
# nowhere a sum wrapped: no duration or count of 16 digits below zero in
# the kernel, utilisation, operator and temporal tables
bad=$(cat "$D/kernels.csv" "$D/utilization.csv" "$D/operators.csv" "$D/temporal.csv" |
	grep -cE '(^|,)-[0-9]{16,}(,|$)')
[ "$bad" -eq 0 ] && pass "no wrapped sum in 4 tables" || fail "$bad rows with a wrapped sum"

# ---- a stream whose only kernel is an unclosed B (UB: memcpy from NULL) ----
F="$SRCDIR/tests/fixtures/bad/range-unclosed-only-kernel.json"
"$TRACETOP" report range -q --no-cache -f csv "$F" >"$D/out" 2>"$D/err"
check_rc "range over a stream of one unclosed kernel" 0 $? &&
	grep -q '^0,1,1,0,' "$D/out" && pass "range: the stream of one unclosed kernel (was UB)" ||
	{ [ $? -ne 0 ] && fail "range: $(head -c 300 "$D/out")"; }

# ---- duplicates at one time: 80,000 identical CPU ops are kept (no id:
# never duplicates), 40,000 launch and kernel pairs at one time too ----
"$GEN" identical 160000 "$D/id" || exit 99
"$TRACETOP" report summary -q --no-cache -f csv "$D/id" >"$D/out" 2>"$D/err"
check_rc "80,000 identical CPU ops" 0 $? &&
	row=$(sed -n 2p "$D/out") &&
	case $row in
	rank-0.json,0,160002,*) pass "80,000 identical ops and 40,000 pairs at one time, all kept" ;;
	*) fail "identical events: $row" ;;
	esac
summary
