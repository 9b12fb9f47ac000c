#!/bin/sh
# Parity with HTA (../shared/reference-cpa) of `tracetop report critical-path`
# on every folder of ../shared/traces.
#
# Per rank, the window HTA used (the annotation and instance_id columns of
# its critical_path_summary.csv) is asked for with --annotation/--instance.
# Checked:
#  * the summary (critical_path_summary): lengths, edge type, category and
#    bound_by sums within 1 µs, counts exact, percentages within 0.001;
#  * the path edge by edge (critical_path_edges.csv.gz) where args.json
#    shows no ties (one path end, no path node with two best predecessors):
#    only then is HTA's path the only longest one.
# Where HTA fails (critical_path_analysis_rank<R>.error.txt: it raises
# "Queue length time series is required" on traces without kernels),
# tracetop must answer: exit 0, a path through CPU ops bound 100 % by the
# CPU, and a note that there is no GPU work to bound (naming HTA's error).
#
# Counted: every window of the reference folders is compared (N of M, M
# counted from the files: a summary per window, a path per window without
# ties, two checks per rank HTA failed on, and the --from/--to window), and
# the rows and numbers compared may not fall below the floors at the end.
. "${SRCDIR:-.}/tests/lib.sh"
need_shared
command -v python3 >/dev/null || { echo "skip: python3 runs the comparisons"; exit 77; }

D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
tally_begin "$D/tally"
CMP="$SRCDIR/tests/tools/csvcmp.py"
PATHCMP="$SRCDIR/tests/tools/cppath.py"

# the value of a tie counter of rank $2 in args.json $1
ties() {
	python3 -c '
import json, sys
t = json.load(open(sys.argv[1]))["ranks"][sys.argv[2]]["ties"]
print(t["nodes_whose_longest_distance_equals_it (candidate path ends)"],
      t["path_nodes_with_several_best_predecessors"])' "$1" "$2"
}

for ref in "$SHARED"/reference-cpa/*/; do
	name=$(basename "$ref")
	dir="$SHARED/traces/$name"
	[ -d "$dir" ] || { skipped "$name: no such folder in $SHARED/traces"; continue; }
	if [ -f "$ref/critical_path_summary.csv" ]; then
		# one line per rank: rank,annotation,instance_id
		awk -F, 'NR > 1 && !seen[$1]++ { print $1 "," $2 "," $3 }' \
			"$ref/critical_path_summary.csv" >"$D/windows"
		while IFS=, read -r rank annot inst; do
			"$TRACETOP" report critical-path -q --model hta -f csv --ranks "$rank" \
				--annotation "$annot" --instance "$inst" "$dir" >"$D/all.csv" 2>"$D/err"
			if ! check_rc "$name rank $rank" 0 $?; then
				cat "$D/err"
				continue
			fi
			# the tables of the CSV output, one file each
			awk -v d="$D" '/^# /{ f = d "/" $2 ".csv"; next } /^$/{ next } { print > f }' \
				"$D/all.csv"
			awk -F, -v r="$rank" 'NR == 1 || $1 == r' "$ref/critical_path_summary.csv" \
				>"$D/ref-summary.csv"
			if python3 "$CMP" "$D/critical_path_summary.csv" "$D/ref-summary.csv" \
				--label "$name rank $rank summary" --key rank,group,key --tally "$TALLY" \
				--ignore annotation,instance_id --tol duration=1 \
				--tol pct_of_length=0.001 >"$D/cmp" 2>&1; then
				pass "$(head -n 1 "$D/cmp")"
			else
				fail "$(cat "$D/cmp")"
			fi
			set -- $(ties "$ref/args.json" "$rank")
			if [ "$1" = 1 ] && [ "$2" = 0 ]; then
				if python3 "$PATHCMP" "$D/critical_path.csv" \
					"$ref/critical_path_edges.csv.gz" --rank "$rank" \
					--label "$name rank $rank path" --tally "$TALLY" >"$D/cmp" 2>&1; then
					pass "$(cat "$D/cmp")"
				else
					fail "$(cat "$D/cmp")"
				fi
			else
				skipped "$name rank $rank path: HTA had ties ($1 path ends, $2 path nodes" \
					"with two best predecessors): HTA's path is one of several longest," \
					"not compared edge by edge"
			fi
		done <"$D/windows"
	fi
	for err in "$ref"/critical_path_analysis_rank*.error.txt; do
		[ -f "$err" ] || continue
		rank=${err##*_rank}
		rank=${rank%.error.txt}
		grep -q "Queue length time series is required" "$err" ||
			{ fail "$name rank $rank: HTA failed otherwise than expected"; continue; }
		"$TRACETOP" report critical-path -q --model hta --ranks "$rank" "$dir" >"$D/text" 2>"$D/err"
		check_rc "$name rank $rank (HTA raises)" 0 $? || { cat "$D/err"; continue; }
		grep -q "rank $rank: no GPU work in the window: the path runs through CPU ops only" \
			"$D/text" && grep -q 'HTA raises here: "Queue length time series is required"' \
			"$D/text" && tally "$name rank $rank (HTA raises)" 0 0 1 &&
			pass "$name rank $rank: no GPU work, said so (HTA raises)" ||
			fail "$name rank $rank: no note about the missing GPU work: $(cat "$D/text")"
		# the whole trace has CPU ops (cpu-only's one step holds only gloo
		# annotations: that window has no op and no path, as its note says)
		"$TRACETOP" report critical-path -q --model hta -f csv --table critical_path_summary \
			--annotation '' --ranks "$rank" "$dir" >"$D/s.csv" 2>"$D/err"
		python3 - "$D/s.csv" <<'PY' >"$D/cmp" 2>&1 && { tally "$name rank $rank: a CPU path" 0 0 1; pass "$name rank $rank: $(cat "$D/cmp")"; } || fail "$name rank $rank: $(cat "$D/cmp")"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows, "no summary"
for inst in sorted({r["instance_id"] for r in rows}):
    v = {(r["group"], r["key"]): r for r in rows if r["instance_id"] == inst}
    length = float(v[("total", "critical_path_length")]["duration"])
    cpu = float(v[("bound_by", "cpu_bound")]["duration"])
    gpu = sum(float(v[("category", k)]["duration"]) for k in ("gpu_kernel", "kernel_launch_delay", "kernel_kernel_delay"))
    assert length > 0, "an empty path"
    assert cpu == length and gpu == 0, f"instance {inst}: cpu {cpu} of {length}, gpu {gpu}"
print(f"a CPU path: {len(rows) // 23} window(s), cpu_bound = the whole length")
PY
	done
done
# a time window over a step's span is that step: diff-control's step 1
# (ProfilerStep#1010) spans 75550-152490 µs after the first event
if [ -f "$SHARED/reference-cpa/diff-control/critical_path_summary.csv" ]; then
	want=$(awk -F, '$5 == "critical_path_length" { print $6 }' \
		"$SHARED/reference-cpa/diff-control/critical_path_summary.csv")
	got=$("$TRACETOP" report critical-path -q --model hta -f csv --table critical_path_summary \
		--from 75.55ms --to 152.491ms "$SHARED/traces/diff-control" |
		awk -F, '$5 == "critical_path_length" { print $6 }')
	[ -n "$want" ] && [ "$got" = "$want" ] && tally "--from/--to" 1 1 0 &&
		pass "--from/--to over step 1's span: length $got" ||
		fail "--from/--to over step 1's span: length $got, HTA's step $want"
fi

# what the reference folders hold, counted from the files: each window of a
# critical_path_summary.csv, each rank of args.json without ties (one path
# end, no node with two best predecessors: HTA's path is the only longest),
# two checks a rank HTA failed on, and the --from/--to window
R="$SHARED/reference-cpa"
windows=$(for f in "$R"/*/critical_path_summary.csv; do
	[ -f "$f" ] && awk -F, 'NR > 1 && !seen[$1]++' "$f"
done | wc -l)
paths=$(python3 -c '
import glob, json, sys
n = 0
for f in glob.glob(sys.argv[1] + "/*/args.json"):
    for t in json.load(open(f)).get("ranks", {}).values():
        t = (t or {}).get("ties")
        n += bool(t) and t["nodes_whose_longest_distance_equals_it (candidate path ends)"] == 1 \
            and t["path_nodes_with_several_best_predecessors"] == 0
print(n)' "$R")
m=$((windows + paths + 2 * $(nfiles "$R"/*/critical_path_analysis_rank*.error.txt) + 1))
tally_end "HTA critical path" "$m" 32305 96913
summary
