#!/bin/sh
# report counters against HTA's own outputs (../shared/reference/<folder>/):
# queue_length_summary, time_blocked_on_full_queue, memory_bw_summary.
#
# Deliberate differences, and why the comparisons are what they are:
#  * Queue length: HTA orders a launch (+1) and a GPU start (-1) at the same
#    µs with numpy's unstable quicksort; tracetop puts +1 first (what a
#    stable sort of HTA's [launches, GPU ops] gives).  count, min and max do
#    not depend on that order and must match exactly; mean, std and the
#    percentiles move by up to ~0.3 % (diff-control stream 7: mean 35.4318
#    in HTA, 35.4529 here), so they are compared with 1 % relative tolerance.
#  * Time blocked on a full queue: HTA keeps one stream per rank (metrics.md
#    §13.10), tracetop lists every stream that reaches 1024.  No shared trace
#    reaches it (every reference is header-only), so this compares "no rows";
#    tests/unit/test_counters.c checks two full streams by hand.
#  * Memory bandwidth: tracetop removes copies ending at t before adding those
#    starting at t, treats |sum| < 1e-9 GB/s as 0 and gives copies of zero or
#    negative rounded duration 1 µs.  HTA's unstable sort sometimes adds a
#    start before the end it touches (inflating the max) and keeps floating
#    residues (1e-17) as samples.  Traces whose copies never touch match to
#    1e-9; the two rows where they touch (diff-test and ns-resolution
#    "Memcpy DtoD") cannot match, so they are left out of the exact
#    comparison and only checked for the direction of HTA's artefacts: HTA
#    has at least as many samples, a max at least as high, a min no higher.
#  * Where HTA returned None (.none.txt), tracetop's table must be empty.
#
# Counted: every table of the reference folders this suite reads is
# compared (N of M, M counted from the files), and the rows and numbers
# compared may not fall below the floors at the end.
. "${SRCDIR:-.}/tests/lib.sh"
need_shared
command -v python3 >/dev/null || { echo "skip: python3 is needed by csvcmp.py"; exit 77; }
CSVCMP="$SRCDIR/tests/tools/csvcmp.py"

D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
tally_begin "$D/tally"

# table T of report counters on folder F into $D/T.csv
run() {
	"$TRACETOP" report counters -q -f csv --table "$2" "$SHARED/traces/$1" >"$D/$2.csv" 2>"$D/err"
	rc=$?
	check_rc "$1 $2" 0 $rc || { cat "$D/err"; return 1; }
}

# the table must have its header and no row
empty() {
	if [ "$(wc -l <"$D/$2.csv")" -eq 1 ]; then
		tally "$1 $2 (HTA: None)" 0 0 1
		pass "$1 $2: no rows, as HTA's None"
	else
		fail "$1 $2: rows where HTA returned None: $(cat "$D/$2.csv")"
	fi
}

cmp() {
	# folder table key [csvcmp options...]
	f=$1 t=$2 k=$3
	shift 3
	if python3 "$CSVCMP" "$D/$t.csv" "$D/$t.ref.csv" --key "$k" --label "$f $t" \
		--tally "$TALLY" "$@" >"$D/cmp"; then
		pass "$(head -n 1 "$D/cmp")"
	else
		fail "$(cat "$D/cmp")"
	fi
}

for dir in "$SHARED"/traces/*/; do
	f=$(basename "$dir")
	ref="$SHARED/reference/$f"
	[ -d "$ref" ] || { skipped "$f: no folder in $SHARED/reference"; continue; }

	# queue length
	t=queue_length_summary
	if [ -f "$ref/$t.csv" ]; then
		run "$f" $t && cp "$ref/$t.csv" "$D/$t.ref.csv" &&
			cmp "$f" $t rank,stream --rel 1e-2 \
				--tol count=0:0 --tol min=0:0 --tol max=0:0
	elif [ -f "$ref/$t.none.txt" ]; then
		run "$f" $t && empty "$f" $t
	fi

	t=time_blocked_on_full_queue
	if [ -f "$ref/$t.csv" ]; then
		run "$f" $t && cp "$ref/$t.csv" "$D/$t.ref.csv" &&
			cmp "$f" $t rank,stream --rel 1e-9 \
				--empty "no stream reaches 1024 queued launches in the shared traces"
	fi

	# memory bandwidth
	t=memory_bw_summary
	if [ -f "$ref/$t.csv" ]; then
		run "$f" $t || continue
		case $f in
		diff-test | ns-resolution) touching="Memcpy DtoD" ;;
		*) touching="" ;;
		esac
		if [ -n "$touching" ]; then
			grep -v ",$touching," "$ref/$t.csv" >"$D/$t.ref.csv"
			grep -v ",$touching," "$D/$t.csv" >"$D/$t.ours.csv"
			grep ",$touching," "$ref/$t.csv" >"$D/touch.ref"
			grep ",$touching," "$D/$t.csv" >"$D/touch.ours"
			mv "$D/$t.ours.csv" "$D/$t.csv"
		else
			cp "$ref/$t.csv" "$D/$t.ref.csv"
		fi
		cmp "$f" $t rank,name --rel 1e-9
		if [ -n "$touching" ]; then
			# rank,name,count,mean,std,min,25%,50%,75%,max: HTA's
			# artefacts only add samples and raise the max
			if python3 - "$D/touch.ours" "$D/touch.ref" >"$D/cmp" <<'PY'; then
import sys
o = sys.argv[1]; r = sys.argv[2]
a = open(o).read().strip().split(","); b = open(r).read().strip().split(",")
cnt_o, cnt_r = float(a[2]), float(b[2])
min_o, min_r = float(a[5]), float(b[5])
max_o, max_r = float(a[9]), float(b[9])
print("%s (not comparable, copies touch): count %g vs HTA %g, min %g vs %g, max %g vs %g"
      % (a[1], cnt_o, cnt_r, min_o, min_r, max_o, max_r))
ok = cnt_o <= cnt_r and max_o <= max_r * (1 + 1e-12) and min_o >= min_r
sys.exit(0 if ok else 1)
PY
				tally "$f $t $touching (copies touch)" 1 3 0
				pass "$f $touching: $(cat "$D/cmp")"
			else
				fail "$f $touching: $(cat "$D/cmp")"
			fi
		fi
	elif [ -f "$ref/$t.none.txt" ]; then
		run "$f" $t && empty "$f" $t
	fi
done

# what the reference folders hold for this suite, counted from the files
# (a memory_bw_summary.csv with touching copies: two comparisons)
R="$SHARED/reference"
m=$(($(nfiles "$R"/*/queue_length_summary.csv "$R"/*/queue_length_summary.none.txt \
	"$R"/*/time_blocked_on_full_queue.csv "$R"/*/memory_bw_summary.csv \
	"$R"/*/memory_bw_summary.none.txt) + 2))
tally_end "HTA counters" "$m" 53 414
summary
