#!/bin/sh
# tracetop report diff by time: the headline against HTA's own numbers,
# the time verdicts against the threshold, the all-steps sums against
# HTA's one-step comparisons, the demo's regressed run (files and
# in-memory alike), and the option errors.
. "${SRCDIR:-.}/tests/lib.sh"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

# ---- the demo pair (needs nothing from ../shared) ----
"$TRACETOP" demo-trace -q -o "$D/base" --steps 4 --layers 8 >/dev/null 2>"$D/err"
check_rc "demo-trace base" 0 $? || cat "$D/err"
"$TRACETOP" demo-trace -q -o "$D/reg" --steps 4 --layers 8 --variant regressed >/dev/null 2>"$D/err"
check_rc "demo-trace --variant regressed" 0 $? || cat "$D/err"
"$TRACETOP" report diff -q -f csv "$D/base" "$D/reg" >"$D/files.csv" 2>"$D/err"
check_rc "report diff of the demo files" 0 $? && pass "report diff of the demo files"
if cmp -s "$D/base/rank-0.pt.trace.json" "$D/reg/rank-0.pt.trace.json"; then
	fail "the regressed run is the same as the base run"
else
	pass "the regressed run differs from the base run"
fi
"$TRACETOP" report diff -q --wide --demo >"$D/demo.txt" 2>"$D/err"
check_rc "report diff --demo" 0 $? || cat "$D/err"
head -n 1 "$D/demo.txt" | grep -q '^Test is .* slower per step; most of it: .*; rank 2 moved most: GPU idle +' &&
	pass "demo headline: $(head -n 1 "$D/demo.txt")" ||
	fail "demo headline: $(head -n 1 "$D/demo.txt")"

# check_verdicts CSV THRESHOLD FLOOR_US LABEL: every row's time_change
# recomputed from its per-step columns (µs), and the per-step means
# times the samples give HTA's sums
check_verdicts() {
	python3 - "$1" "$2" "$3" >"$D/cmp" 2>&1 <<'PY'
import csv, sys
path, thr, floor = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
tables, cur = {}, None
for line in open(path):
    if line.startswith("# "):
        cur = line[2:].strip(); tables[cur] = []
    elif line.strip():
        tables[cur].append(line)
steps = list(csv.DictReader(tables["diff_steps"]))
samples = sum(int(s["ranks"]) for s in steps)
rows = list(csv.DictReader(tables["compare_traces"]))
bad, n = [], {"slower": 0, "faster": 0, "unchanged": 0}
for r in rows:
    a, b = float(r["Control_per_step"]), float(r["Test_per_step"])
    lim = max(thr * abs(a), floor)
    want = "slower" if b - a > lim else "faster" if a - b > lim else "unchanged"
    n[want] += 1
    if r["time_change"] != want:
        bad.append("%s: %s, expected %s" % (r["name"], r["time_change"], want))
    for side in ("Control", "Test"):
        tot = float(r[side + "_total_duration"])
        if abs(float(r[side + "_per_step"]) * samples - tot) > 1e-6 * max(1, abs(tot)) + 1e-3:
            bad.append("%s: %s per step x %d != %s" % (r["name"], side, samples, tot))
    sign = "+" if float(r["diff_counts"]) > 0 else "-" if float(r["diff_counts"]) < 0 else "="
    if r["counts_change_categories"] != sign:
        bad.append("%s: sign" % r["name"])
print("%d rows, %d samples: %d slower, %d faster, %d unchanged%s" %
      (len(rows), samples, n["slower"], n["faster"], n["unchanged"],
       "" if not bad else "; " + "; ".join(bad[:5])))
sys.exit(1 if bad or not rows else 0)
PY
	if [ $? -eq 0 ]; then pass "$4: $(cat "$D/cmp")"; else fail "$4: $(cat "$D/cmp")"; fi
}
check_verdicts "$D/files.csv" 0.05 50 "demo verdicts at 5 %, 50 µs"
"$TRACETOP" report diff -q -f csv --diff-threshold 20% --diff-floor 1ms "$D/base" "$D/reg" \
	>"$D/files20.csv" 2>"$D/err"
check_rc "--diff-threshold 20% --diff-floor 1ms" 0 $? || cat "$D/err"
check_verdicts "$D/files20.csv" 0.20 1000 "demo verdicts at 20 %, 1 ms"

# option errors: one line, exit 2
refused() {
	want=$1
	shift
	"$TRACETOP" report diff -q "$@" "$D/base" "$D/reg" >/dev/null 2>"$D/err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "$want" "$D/err"; then
		pass "refused $*: $(head -n 1 "$D/err")"
	else
		fail "$*: exit $rc: $(head -c 300 "$D/err")"
	fi
}
refused "bad rank map" --map 1-2
refused "bad --diff-threshold" --diff-threshold x%
refused "bad --diff-floor" --diff-floor 5parsecs
refused "bad --iteration" --iteration -3
refused "the control side has no rank 9" --map 9:0
refused "has no ProfilerStep#7" --iteration 7
"$TRACETOP" report diff -q --map 0:1,1:0 -f csv --table diff_ranks "$D/base" "$D/reg" \
	>"$D/map.csv" 2>"$D/err"
check_rc "--map 0:1,1:0" 0 $? || cat "$D/err"
[ "$(sed -n 2p "$D/map.csv" | cut -d, -f1-2)" = "0,1" ] && [ "$(wc -l <"$D/map.csv")" -eq 3 ] &&
	pass "--map 0:1,1:0: two pairs, as asked" || fail "--map: $(cat "$D/map.csv")"

# ---- ../shared: diff-control vs diff-test ----
need_shared
TR=$SHARED/traces
REF=$SHARED/reference/diff-diff
A=$TR/diff-control
B=$TR/diff-test

# HTA's one step: the headline from the reference's numbers
"$TRACETOP" report diff -q --wide --iteration first "$A" "$B" >"$D/first.txt" 2>"$D/err"
check_rc "diff --iteration first" 0 $? || cat "$D/err"
python3 - "$REF/compare_traces.csv" >"$D/want" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
def us(r, c): return float(r[c])
step = [r for r in rows if r["name"].startswith("ProfilerStep#")][0]
a, b = us(step, "Control_total_duration"), us(step, "Test_total_duration")
def dur(v):  # tracetop's duration format, from µs
    ns = abs(v) * 1000
    for lim, div, u in ((1e9, 1e9, "s"), (1e6, 1e6, "ms"), (1e3, 1e3, "µs"), (0, 1, "ns")):
        if ns >= lim:
            x = ns / div
            return ("%.1f %s" if x < 100 and u != "ns" else "%.0f %s") % (x, u)
pct = 100 * (b - a) / a
top = max((r for r in rows if not r["name"].startswith("ProfilerStep#")),
          key=lambda r: float(r["diff_duration"]))
c0, c1 = int(float(top["Control_counts"])), int(float(top["Test_counts"]))
print("Test is %s (%+.0f %%) slower per step; most of it: %s +%s, %d → %d calls" %
      (dur(b - a), pct, top["name"], dur(float(top["diff_duration"])), c0, c1))
PY
if [ "$(head -n 1 "$D/first.txt")" = "$(cat "$D/want")" ]; then
	pass "headline from HTA's numbers: $(cat "$D/want")"
else
	fail "headline: got '$(head -n 1 "$D/first.txt")', HTA's numbers say '$(cat "$D/want")'"
fi

# every common step: the sums are HTA's one-step comparisons added up
"$TRACETOP" report diff -q -f csv "$A" "$B" >"$D/all.csv" 2>"$D/err"
check_rc "diff (all steps)" 0 $? || cat "$D/err"
check_verdicts "$D/all.csv" 0.05 50 "diff-control vs diff-test verdicts"
grep -q "^ProfilerStep#\*," "$D/all.csv" && pass "the steps are one row, ProfilerStep#*" ||
	fail "no ProfilerStep#* row"
for it in 1009 1010 1011 1012 1013 1014; do
	"$TRACETOP" report diff -q -f csv --table compare_traces --iteration $it --map 3:1 "$A" "$B" \
		>"$D/it$it.csv" 2>"$D/err" || { fail "--iteration $it: $(cat "$D/err")"; }
done
python3 - "$D/all.csv" "$D"/it10*.csv >"$D/cmp" 2>&1 <<'PY'
import csv, sys
tables, cur = {}, None
for line in open(sys.argv[1]):
    if line.startswith("# "):
        cur = line[2:].strip(); tables[cur] = []
    elif line.strip():
        tables[cur].append(line)
ours = {r["name"]: r for r in csv.DictReader(tables["compare_traces"])}
want = {}
for p in sys.argv[2:]:
    for r in csv.DictReader(open(p)):
        name = "ProfilerStep#*" if r["name"].startswith("ProfilerStep#") else r["name"]
        w = want.setdefault(name, [0.0] * 4)
        for i, c in enumerate(("Control_counts", "Control_total_duration", "Test_counts",
                               "Test_total_duration")):
            w[i] += float(r[c])
bad = [n for n in set(want) | set(ours) if n not in ours or n not in want or any(
    abs(float(ours[n][c]) - want[n][i]) > 1e-6 * max(1, want[n][i]) for i, c in enumerate(
        ("Control_counts", "Control_total_duration", "Test_counts", "Test_total_duration")))]
print("%d names over 6 steps%s" % (len(want), "" if not bad else "; differ: " + ", ".join(sorted(bad)[:5])))
sys.exit(1 if bad else 0)
PY
if [ $? -eq 0 ]; then pass "all steps = the six one-step comparisons: $(cat "$D/cmp")"; else
	fail "all steps vs one-step sums: $(cat "$D/cmp")"; fi
# the ranks differ (3 and 1): paired in order, and said so
"$TRACETOP" report diff -q --wide "$A" "$B" >"$D/all.txt" 2>&1
grep -q "ranks paired in order (choose with --map 3:1" "$D/all.txt" &&
	pass "different rank numbers: paired in order, with a note" ||
	fail "no note on the rank pairing: $(head -c 600 "$D/all.txt")"
# the slowest step is named in the headline and is the largest Δ of diff_steps
python3 - "$D/all.csv" "$(head -n 1 "$D/all.txt")" >"$D/cmp" 2>&1 <<'PY'
import csv, sys
tables, cur = {}, None
for line in open(sys.argv[1]):
    if line.startswith("# "):
        cur = line[2:].strip(); tables[cur] = []
    elif line.strip():
        tables[cur].append(line)
rows = list(csv.DictReader(tables["diff_steps"]))
worst = max(rows, key=lambda r: float(r["diff_step"]))
ok = ("; step %s +" % worst["Control_step"]) in sys.argv[2]
print("step %s (+%.1f ms) in: %s" % (worst["Control_step"], float(worst["diff_step"]) / 1000,
                                     sys.argv[2]))
sys.exit(0 if ok else 1)
PY
if [ $? -eq 0 ]; then pass "slowest step: $(cat "$D/cmp")"; else fail "slowest step: $(cat "$D/cmp")"; fi
summary
