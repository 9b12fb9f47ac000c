#!/bin/sh
# Parity with HTA (../shared/reference) of `tracetop report idle` and
# `tracetop report launch` on every folder of ../shared/traces.
#
# Tolerances (the issue's): times within 1 µs, sums within 1 µs or 0.01 %,
# ratios within 0.0001 (0.01 percentage points), counts exact, same rows.
#
# Deliberate differences from HTA, checked here too:
#  * HTA's idle breakdown raises on a rank without GPU kernels (the
#    reference holds idle_time_breakdown.error.txt); tracetop exits 0,
#    skips the rank and says "no GPU activity".
#  * HTA's defaults analyse rank 0 only; tracetop analyses every rank.  The
#    references were made with ranks=all ranks, so the rows match.
#  * Row order of cuda_kernel_launch_stats: HTA keeps the file order of the
#    runtime calls, tracetop orders them by start; rows are matched by
#    correlation (repeated ids in order), so only the order differs.
#  * Stream order of the idle tables: HTA's is first appearance in the file,
#    tracetop's the stream number; rows are matched by key.
# ns-resolution checks HTA's float64 rounding of fractional timestamps
# (ceil(ts), floor(ts + dur) on doubles), which tracetop reproduces.
#
# Counted: every table of the reference folders this suite reads is
# compared (N of M, M counted from the files; a folder without GPU kernels
# has empty launch tables in HTA's output and must have them empty in ours),
# and the rows and numbers compared may not fall below the floors at the end.
. "${SRCDIR:-.}/tests/lib.sh"
need_shared
command -v python3 >/dev/null || { echo "skip: python3 runs csvcmp.py"; exit 77; }

D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
CMP="$SRCDIR/tests/tools/csvcmp.py"
tally_begin "$D/tally"

# csvcmp OURS REF LABEL ARGS...: run the comparison, print its line
cmp_csv() {
	c_ours=$1 c_ref=$2 c_label=$3
	shift 3
	if python3 "$CMP" "$c_ours" "$c_ref" --label "$c_label" --tally "$TALLY" "$@" >"$D/cmp" 2>&1; then
		pass "$(head -n 1 "$D/cmp")"
	else
		fail "$(cat "$D/cmp")"
	fi
}

for dir in "$SHARED"/traces/*/; do
	name=$(basename "$dir")
	ref="$SHARED/reference/$name"
	[ -d "$ref" ] || { skipped "$name: no folder in $SHARED/reference"; continue; }
	# HTA's launch tables of a folder without GPU kernels are empty: ours too
	empty=""
	[ -f "$ref/idle_time_breakdown.error.txt" ] && empty="no GPU kernels (HTA raises on idle)"

	# ---- idle ----
	if [ -f "$ref/idle_time_breakdown.csv" ]; then
		"$TRACETOP" report idle -q -f csv --table idle_time_breakdown "$dir" \
			>"$D/idle.csv" 2>"$D/err"
		if check_rc "$name idle" 0 $?; then
			cmp_csv "$D/idle.csv" "$ref/idle_time_breakdown.csv" \
				"$name idle_time_breakdown" --key rank,stream,idle_category \
				--tol idle_time=1:1e-4 --tol idle_time_ratio=1e-4
		else
			cat "$D/err"
		fi
		"$TRACETOP" report idle -q -f csv --table idle_interval_stats "$dir" \
			>"$D/stats.csv" 2>"$D/err"
		if check_rc "$name idle stats" 0 $?; then
			# count exact; the µs statistics within 1 µs (they are
			# rounded to 2 decimals on both sides)
			cmp_csv "$D/stats.csv" "$ref/idle_interval_stats.csv" \
				"$name idle_interval_stats" --key idle_category,rank,stream --abs 1 \
				--tol count=0
		else
			cat "$D/err"
		fi
	elif [ -f "$ref/idle_time_breakdown.error.txt" ]; then
		# HTA raises; we exit 0 and skip the rank with a note
		"$TRACETOP" report idle -q "$dir" >"$D/out" 2>&1
		if check_rc "$name idle (HTA raises)" 0 $?; then
			if grep -q "no GPU activity" "$D/out"; then
				tally "$name idle (HTA raises)" 0 0 1
				pass "$name idle: HTA raises, tracetop exits 0 with 'no GPU activity'"
			else
				fail "$name idle: no 'no GPU activity' note: $(cat "$D/out")"
			fi
		fi
	fi

	# ---- launch: the pairs of each rank ----
	for f in "$ref"/cuda_kernel_launch_stats_rank*.csv; do
		[ -f "$f" ] || { skipped "$name: no cuda_kernel_launch_stats_rank*.csv"; continue; }
		r=$(basename "$f" .csv)
		r=${r#cuda_kernel_launch_stats_rank}
		"$TRACETOP" report launch -q -f csv --ranks "$r" --table cuda_kernel_launch_stats \
			"$dir" >"$D/launch.csv" 2>"$D/err"
		check_rc "$name launch rank $r" 0 $? || { cat "$D/err"; continue; }
		# key: correlation, repeated ids matched in order
		cmp_csv "$D/launch.csv" "$f" "$name launch rank $r" --key correlation --abs 1 \
			${empty:+--empty "$empty"}
	done

	# ---- launch: the per-rank summary ----
	if [ -f "$ref/cuda_kernel_launch_stats_summary.csv" ]; then
		"$TRACETOP" report launch -q -f csv --table launch_summary "$dir" \
			>"$D/sum.csv" 2>"$D/err"
		if check_rc "$name launch summary" 0 $?; then
			# counts exact; sums within 1 µs or 0.01 %; means/max within 1 µs
			cmp_csv "$D/sum.csv" "$ref/cuda_kernel_launch_stats_summary.csv" \
				"$name launch_summary" --key rank --abs 1 --rel 1e-4 \
				--tol rows=0:0 --tol runtime_outliers_gt50=0:0 \
				--tol launch_delay_outliers_gt100=0:0 --tol short_kernels=0:0
			# exactly the reference's columns, in its order
			want=$(head -n 1 "$ref/cuda_kernel_launch_stats_summary.csv")
			if [ "$(head -n 1 "$D/sum.csv")" = "$want" ]; then
				tally "$name launch_summary columns" 0 0 1
				pass "$name launch_summary: same columns as the reference"
			else
				fail "$name launch_summary columns: $(head -n 1 "$D/sum.csv")"
			fi
		else
			cat "$D/err"
		fi
	fi
done

# what the reference folders hold for this suite, counted from the files:
# each table one comparison (the launch summary two: values and columns),
# each note of HTA's raising one check
R="$SHARED/reference"
m=$(($(nfiles "$R"/*/idle_time_breakdown.csv "$R"/*/idle_interval_stats.csv \
	"$R"/*/idle_time_breakdown.error.txt "$R"/*/cuda_kernel_launch_stats_rank*.csv) + \
	2 * $(nfiles "$R"/*/cuda_kernel_launch_stats_summary.csv)))
tally_end "HTA idle and launch" "$m" 27628 83268

# ---- options reach the analyses ----
dir="$SHARED/traces/hta-2rank"
"$TRACETOP" report launch -q -f csv --table launch_summary --runtime-cutoff 5 \
	--launch-delay-cutoff 1000 "$dir" >"$D/sum.csv" 2>&1
if head -n 1 "$D/sum.csv" | grep -q ',runtime_outliers_gt5,launch_delay_outliers_gt1000,'; then
	pass "launch_summary: outlier columns named after the cutoffs used"
else
	fail "launch_summary cutoffs: $(head -n 1 "$D/sum.csv")"
fi
"$TRACETOP" report idle -q -f csv --table idle_gaps --top 7 "$dir" >"$D/gaps.csv" 2>&1
want=rank,stream,start,duration,idle_category,prev_kernel,next_kernel
want=$want,rank_index,track,prev_event,next_event
if [ "$(tail -n +2 "$D/gaps.csv" | wc -l)" -eq 7 ] && [ "$(head -n 1 "$D/gaps.csv")" = "$want" ]; then
	pass "idle_gaps: --top 7 gives 7 rows with the drilldown columns"
else
	fail "idle_gaps: $(cat "$D/gaps.csv")"
fi
# a larger delay moves gaps from other to kernel_wait
"$TRACETOP" report idle -q -f csv --table idle_interval_stats "$dir" >"$D/k30.csv" 2>&1
"$TRACETOP" report idle -q -f csv --table idle_interval_stats --kernel-delay 1000 "$dir" \
	>"$D/k1000.csv" 2>&1
python3 - "$D/k30.csv" "$D/k1000.csv" >"$D/cmp" 2>&1 <<'PY'
import csv, sys
def kw(p):
    return sum(int(float(r["count"])) for r in csv.DictReader(open(p))
               if r["idle_category"] == "kernel_wait")
a, b = kw(sys.argv[1]), kw(sys.argv[2])
print("kernel_wait gaps: %d with 30 us, %d with 1000 us" % (a, b))
sys.exit(0 if b > a else 1)
PY
if [ $? -eq 0 ]; then
	pass "idle --kernel-delay: $(cat "$D/cmp")"
else
	fail "idle --kernel-delay: $(cat "$D/cmp")"
fi
summary
