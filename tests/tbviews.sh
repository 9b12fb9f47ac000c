#!/bin/sh
# The TensorBoard views (`tracetop report utilization | distributed |
# operators | memory | source | steps | advice`) on the demo job, on a small
# hand-made trace with [memory] events and Python stacks, and on the shared
# traces.  Every report must exit 0 and print CSV and JSON that parse; the
# collective statistics of hta-2rank are checked against an independent
# count in python3 (kernels whose name contains "nccl", named by the
# nccl:NAME annotation around their launching runtime call).
#
# Without ../shared/traces the demo and fixture checks still run; the test
# then exits 77 (skip) when they passed.
. "${SRCDIR:-.}/tests/lib.sh"

REPORTS="overview utilization distributed operators memory source steps advice"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
# python3 parses every CSV and JSON output and is the independent count
command -v python3 >/dev/null || { echo "skip: python3 parses the outputs"; exit 77; }
HAVE_PY=1

# parse: csv FILE | json FILE -> exit 0 when it parses (python3)
parses() {
	python3 - "$1" "$2" <<'PY'
import csv, json, sys
kind, path = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
if kind == "json":
    json.loads(text)
else:
    # several tables: "# name" lines, blank lines between
    blocks, cur = [], []
    for line in text.split("\n"):
        if line.startswith("# ") or line == "":
            if cur:
                blocks.append(cur)
            cur = []
        else:
            cur.append(line)
    if cur:
        blocks.append(cur)
    for b in blocks:
        rows = list(csv.reader(b))
        n = len(rows[0])
        bad = [r for r in rows if len(r) != n]
        if bad:
            sys.exit("ragged CSV row: %r" % (bad[0],))
PY
}

# every report on PATH in the three formats
all_reports() {
	label=$1
	path=$2
	for r in $REPORTS; do
		for f in table csv json; do
			"$TRACETOP" report "$r" -q -f "$f" "$path" >"$D/out" 2>"$D/err"
			rc=$?
			check_rc "$label $r -f $f" 0 $rc || { head -3 "$D/err"; continue; }
			if [ "$f" != table ] && ! parses "$f" "$D/out" 2>"$D/perr"; then
				fail "$label $r -f $f: does not parse: $(cat "$D/perr")"
				continue
			fi
			[ -s "$D/out" ] || { fail "$label $r -f $f: no output"; continue; }
		done
		pass "$label $r: text, CSV and JSON"
	done
}

# value of column COL in the row of CSV FILE where column KEY equals VAL
csv_get() {
	python3 - "$@" <<'PY'
import csv, sys
path, key, val, col = sys.argv[1:5]
for row in csv.DictReader(open(path, encoding="utf-8")):
    if row[key] == val:
        print(row[col])
        break
PY
}

# ---- the demo job ----

"$TRACETOP" demo-trace -o "$D/demo" >/dev/null 2>&1
check_rc "demo-trace" 0 $? || { summary; exit 1; }
# (every report in every format from the .tts models, the JSON parsed once:
# tests/lib.sh, to_tts)
to_tts "$D/demo" "$D/tts/demo" || exit 99
all_reports demo "$D/tts/demo"

if [ "$HAVE_PY" -eq 1 ]; then
	# 8 ranks x 6 steps; one device per rank; rank 5 (the demo's straggler)
	# stands out in the distributed view and in the advice
	"$TRACETOP" report steps -q -f csv --table steps "$D/demo" >"$D/steps.csv"
	n=$(($(wc -l <"$D/steps.csv") - 1))
	[ "$n" -eq 48 ] && pass "demo steps: 48 rows" || fail "demo steps: $n rows, expected 48"
	"$TRACETOP" report utilization -q -f csv --table gpu_utilization "$D/demo" >"$D/u.csv"
	n=$(($(wc -l <"$D/u.csv") - 1))
	[ "$n" -eq 8 ] && pass "demo utilization: 8 devices" || fail "demo utilization: $n rows"
	sms=$(csv_get "$D/u.csv" rank 0 num_sms)
	[ "$sms" = 108 ] && pass "demo utilization: 108 SMs from deviceProperties" ||
		fail "demo utilization: num_sms $sms"
	"$TRACETOP" report distributed -q -f csv --table stragglers "$D/demo" >"$D/s.csv"
	if cut -d, -f1 "$D/s.csv" | grep -qx 5; then
		pass "demo distributed: rank 5 is a straggler"
	else
		fail "demo distributed: rank 5 not flagged: $(cat "$D/s.csv")"
	fi
	"$TRACETOP" report advice -q -f csv "$D/demo" >"$D/a.csv"
	grep -q "rank 5" "$D/a.csv" && pass "demo advice names rank 5" ||
		fail "demo advice does not name rank 5"
	# utilisation timeline: 60 buckets per device, CSV/JSON only
	"$TRACETOP" report utilization -q -f csv --table utilization_timeline "$D/demo" >"$D/t.csv"
	n=$(($(wc -l <"$D/t.csv") - 1))
	[ "$n" -eq 480 ] && pass "demo utilization timeline: 8 x 60 buckets" ||
		fail "demo utilization timeline: $n rows"
fi

# ---- a hand-made trace: [memory] events and Python stacks ----

mkdir -p "$D/fix"
cat >"$D/fix/rank0.json" <<'EOF'
{"distributedInfo": {"rank": 0},
 "deviceProperties": [{"id": 0, "name": "A100", "totalGlobalMem": 10000, "numSms": 108}],
 "traceEvents": [
  {"ph":"X","cat":"python_function","name":"train.py(10): main","pid":1,"tid":1,"ts":0,"dur":1000},
  {"ph":"X","cat":"python_function","name":"model.py(20): forward","pid":1,"tid":1,"ts":90,"dur":200},
  {"ph":"X","cat":"cpu_op","name":"aten::empty","pid":1,"tid":1,"ts":100,"dur":10},
  {"ph":"X","cat":"cpu_op","name":"aten::mul","pid":1,"tid":1,"ts":200,"dur":50},
  {"ph":"X","cat":"cpu_op","name":"aten::zeros","pid":1,"tid":1,"ts":300,"dur":20},
  {"ph":"X","cat":"cpu_op","name":"# TensorsToDeviceModule #","pid":1,"tid":1,"ts":1500,"dur":20},
  {"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":105,"args":{"Bytes":1000,"Total Allocated":1300,"Total Reserved":2048,"Addr":4096,"Device Id":0}},
  {"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":205,"args":{"Bytes":500,"Total Allocated":1800,"Total Reserved":2048,"Addr":8192,"Device Id":0}},
  {"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":210,"args":{"Bytes":-1000,"Total Allocated":800,"Total Reserved":2048,"Addr":4096,"Device Id":0}},
  {"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":305,"args":{"Bytes":2000,"Total Allocated":2800,"Total Reserved":4096,"Addr":4096,"Device Id":0}},
  {"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":400,"args":{"Bytes":-500,"Total Allocated":2300,"Total Reserved":4096,"Addr":8192,"Device Id":0}}
 ]}
EOF
all_reports fixture "$D/fix"
if [ "$HAVE_PY" -eq 1 ]; then
	# peak 2800 bytes at 305 µs; alive there: 2000 (aten::zeros) + 500
	# (aten::mul); 300 bytes from before the trace; 28 % of 10000
	"$TRACETOP" report memory -q -f csv --table memory_devices "$D/fix" >"$D/m.csv"
	got="$(csv_get "$D/m.csv" rank 0 peak_allocated) $(csv_get "$D/m.csv" rank 0 live_bytes)"
	got="$got $(csv_get "$D/m.csv" rank 0 before_trace) $(csv_get "$D/m.csv" rank 0 device_memory_pctg)"
	got="$got $(csv_get "$D/m.csv" rank 0 'peak_time(us)')"
	[ "$got" = "2800 2500 300 40.96 305" ] && pass "fixture memory: peak, alive, before, share" ||
		fail "fixture memory: got '$got', expected '2800 2500 300 40.96 305'"
	"$TRACETOP" report memory -q -f csv --table memory_live_at_peak "$D/fix" >"$D/l.csv"
	got=$(python3 -c 'import csv,sys; print(" ".join(r["bytes"]+":"+r["operator"] for r in csv.DictReader(open(sys.argv[1]))))' "$D/l.csv")
	[ "$got" = "2000:aten::zeros 500:aten::mul" ] && pass "fixture memory: alive at the peak" ||
		fail "fixture memory alive: got '$got'"
	# stacks: empty and mul under forward < main, zeros under main
	"$TRACETOP" report source -q -f csv --table source_lines "$D/fix" >"$D/src.csv"
	got="$(csv_get "$D/src.csv" frame 'model.py(20): forward' calls) $(csv_get "$D/src.csv" frame 'train.py(10): main' calls)"
	got="$got $(csv_get "$D/src.csv" frame 'model.py(20): forward' line) $(csv_get "$D/src.csv" frame 'model.py(20): forward' file)"
	[ "$got" = "2 1 20 model.py" ] && pass "fixture source: lines" ||
		fail "fixture source: got '$got', expected '2 1 20 model.py'"
fi
# an op whose name starts with "# " is quoted in CSV: only table starts
# begin with "# "
"$TRACETOP" report operators -q -f csv "$D/fix" >"$D/ops.csv"
starts=$(grep -c '^# ' "$D/ops.csv")
grep -q '^"# TensorsToDeviceModule #"' "$D/ops.csv" && [ "$starts" -eq 2 ] &&
	pass "CSV: a name starting with '# ' is quoted" ||
	fail "CSV: $starts lines start with '# ': $(grep '^# ' "$D/ops.csv" | head -3)"

# ---- an old trace: [memory] events without Addr or Total Allocated ----

mkdir -p "$D/old"
cat >"$D/old/rank0.json" <<'EOF'
{"distributedInfo": {"rank": 0}, "traceEvents": [
  {"ph":"X","cat":"cpu_op","name":"aten::empty","pid":1,"tid":1,"ts":100,"dur":10},
  {"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":105,"args":{"Bytes":1000,"Device Id":0}},
  {"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":1,"tid":1,"ts":205,"args":{"Bytes":-1000,"Device Id":0}}
 ]}
EOF
"$TRACETOP" report memory -q "$D/old" >"$D/out" 2>&1
if grep -q "without Addr" "$D/out" && grep -q "without Total Allocated" "$D/out"; then
	pass "memory without Addr / Total Allocated: says what it cannot know"
else
	fail "memory without Addr / Total Allocated: $(cat "$D/out")"
fi
if [ "$HAVE_PY" -eq 1 ]; then
	"$TRACETOP" report memory -q -f csv --table memory_devices "$D/old" >"$D/m.csv"
	got="$(csv_get "$D/m.csv" rank 0 live_bytes)|$(csv_get "$D/m.csv" rank 0 before_trace)"
	[ "$got" = "|" ] && pass "memory without Addr: no live or before-the-trace bytes claimed" ||
		fail "memory without Addr: got '$got'"
fi

# ---- the shared traces ----

SHARED="${SHARED:-$SRCDIR/../shared}"
if [ ! -d "$SHARED/traces" ]; then
	echo "skip: $SHARED/traces is absent (demo and fixture checks done)"
	summary || exit 1
	exit 77
fi
TR="$SHARED/traces"
for t in "$TR"/*/; do
	to_tts "$t" "$D/tts/$(basename "$t")" || exit 99
	all_reports "$(basename "$t")" "$D/tts/$(basename "$t")"
done

# no [memory] events and no stacks in the shared traces: the notes say how
# to record them
"$TRACETOP" report memory -q "$TR/diff-control" >"$D/out"
grep -q "profile_memory=True" "$D/out" && pass "memory: how to record" || fail "memory: no hint"
"$TRACETOP" report source -q "$TR/non-gpu" >"$D/out"
grep -q "with_stack=True" "$D/out" && pass "source: how to record" || fail "source: no hint"

# ---- hta-2rank collectives against an independent count ----

# Each NCCL kernel is a call named by the nccl: annotation around its
# launch.  Matching (collectives.h): the trace names no process group, so
# a rank's k-th communication stream is a group; positions count within
# the ProfilerStep#N that holds the launch; a pair is flagged when names or
# sizes differ (all_to_all and gathers may differ in size) or the ranks make
# different numbers of calls in that step of the group.  Wait = the last
# arrival minus this rank's (on the job's clock: the offsets of
# collective_clocks), at most the kernel; the rest is the transfer.
if [ "$HAVE_PY" -eq 1 ]; then
	"$TRACETOP" report distributed -q -f csv --table collectives "$TR/hta-2rank" >"$D/c.csv"
	"$TRACETOP" report collectives -q -f csv --table collective_clocks "$TR/hta-2rank" >"$D/k.csv"
	if python3 - "$TR/hta-2rank" "$D/c.csv" "$D/k.csv" <<'PY' >"$D/cmp" 2>&1; then
import csv, glob, gzip, json, os, sys
SIZE = {"float": 4, "double": 8, "long": 8, "long int": 8, "int": 4, "c10::Half": 2,
        "c10::BFloat16": 2, "unsigned char": 1, "signed char": 1, "bool": 1}
offset = {int(r["rank"]): float(r["offset(us)"]) for r in csv.DictReader(open(sys.argv[3]))}
parts = []  # dict per call
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json.gz"))):
    doc = json.load(gzip.open(path))
    rank = doc["distributedInfo"]["rank"]
    ev = [e for e in doc["traceEvents"] if e.get("ph") == "X"]
    rt = {e["args"]["correlation"]: e for e in ev
          if e.get("cat") == "cuda_runtime" and "correlation" in e.get("args", {})}
    ann = [e for e in ev if e.get("cat") in ("cpu_op", "user_annotation")
           and e["name"].startswith("nccl:")]
    steps = sorted((e["ts"], e["ts"] + e["dur"], int(e["name"].split("#")[1])) for e in ev
                   if e["name"].startswith("ProfilerStep#"))
    kern = [k for k in ev if k.get("cat") == "kernel" and "nccl" in k["name"].lower()]
    streams = sorted({k["args"]["stream"] for k in kern})
    mine = []
    for k in kern:
        r = rt[k["args"]["correlation"]]
        around = [a for a in ann if a["tid"] == r["tid"] and a["pid"] == r["pid"]
                  and a["ts"] <= r["ts"] and a["ts"] + a["dur"] >= r["ts"] + r["dur"]]
        a = max(around, key=lambda a: a["ts"])
        nbytes = 0
        for dims, typ in zip(a["args"]["Input Dims"], a["args"]["Input type"]):
            n = 1
            for d in dims:
                n *= d
            nbytes += n * SIZE[typ]
        step = [s[2] for s in steps if s[0] <= r["ts"] < s[1]]
        mine.append(dict(rank=rank, name=a["name"][5:], ts=k["ts"], dur=k["dur"],
                         bytes=nbytes, group=streams.index(k["args"]["stream"]),
                         step=step[0] if step else None, wait=0.0))
    mine.sort(key=lambda p: p["ts"])
    count = {}
    for p in mine:
        key = (p["group"], p["step"])
        p["pos"] = count.get(key, 0)
        count[key] = p["pos"] + 1
    for p in mine:
        p["count"] = count[(p["group"], p["step"])]
    parts += mine
colls = {}
for p in parts:
    colls.setdefault((p["group"], p["step"], p["pos"]), []).append(p)
matched = {}
for key, ps in colls.items():
    if len(ps) < 2:
        continue
    vary = any(w in ps[0]["name"] for w in ("all_to_all", "gather", "scatter"))
    if any(p["name"] != ps[0]["name"] or p["count"] != ps[0]["count"] or
           (not vary and p["bytes"] != ps[0]["bytes"]) for p in ps):
        continue
    last = max(p["ts"] - offset[p["rank"]] for p in ps)
    for p in ps:
        p["wait"] = min(max(last - (p["ts"] - offset[p["rank"]]), 0), p["dur"])
        matched[id(p)] = True
want = {}
for p in parts:
    w = want.setdefault(p["name"], [0, 0, 0.0, 0.0, 0.0, 0])
    w[0] += 1
    w[1] += p["bytes"]
    w[2] += p["dur"]
    w[3] += p["dur"] - p["wait"]
    w[4] += p["wait"]
    w[5] += id(p) in matched
got = {r["name"]: r for r in csv.DictReader(open(sys.argv[2]))}
ok = set(got) == set(want)
if not ok:
    print("names: the report's %s, python's %s" % (sorted(got), sorted(want)))
for name, (n, nb, lat, tr, sy, nm) in sorted(want.items()):
    g = got.get(name)
    line = "%s: calls %d (%d matched) bytes %d latency %.0f transfer %.0f sync %.0f" % (
        name, n, nm, nb, lat, tr, sy)
    if not g or int(g["calls"]) != n or int(g["total_bytes"]) != nb or \
       int(g["matched_calls"]) != nm or \
       abs(float(g["total_latency(us)"]) - lat) > 0.01 or \
       abs(float(g["data_transfer(us)"]) - tr) > 0.01 or abs(float(g["sync(us)"]) - sy) > 0.01:
        ok = False
        line += "  MISMATCH: %r" % (g,)
    print(line)
# N of M: the names compared of those either side has; 6 numbers a name
print("compared %d of %d collective names, %d calls (%d matched), %d numbers" % (
    len(set(got) & set(want)), len(set(got) | set(want)), len(parts), len(matched),
    6 * len(set(got) & set(want))))
sys.exit(0 if ok else 1)
PY
		pass "hta-2rank collectives match python: $(tr '\n' ';' <"$D/cmp")"
		# floors: what hta-2rank holds today (3 names, 20 calls)
		set -- $(tail -n 1 "$D/cmp" | sed 's/[^0-9 ]//g')
		at_least "hta-2rank collective names compared" 3 "$1"
		at_least "hta-2rank collective calls compared" 20 "$3"
	else
		fail "hta-2rank collectives: $(cat "$D/cmp")"
	fi
fi

# ---- tracetop's own utilisation measures against an independent computation ----

# (the plugin's GPU summary is checked by parity-tb.sh) per device: busy = union of kernel/memcpy/memset intervals, SM efficiency
# = sum(dur * min(grid blocks / numSms, 1)) / sum(dur) (blocks per SM when
# the trace has no deviceProperties), occupancy time-weighted
if [ "$HAVE_PY" -eq 1 ]; then
	# NAME:DEVICES, the devices each holds (floors)
	for nd in diff-control:1 hta-2rank:2; do
		name=${nd%:*}
		"$TRACETOP" report utilization -q -f csv --table gpu_utilization "$TR/$name" >"$D/u.csv"
		if python3 - "$TR/$name" "$D/u.csv" <<'PY' >"$D/cmp" 2>&1; then
import csv, glob, gzip, json, os, sys
got = {(r["rank"], r["device"]): r for r in csv.DictReader(open(sys.argv[2]))}
ok = True
seen = set()
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*.json.gz"))):
    doc = json.load(gzip.open(path))
    rank = str(doc["distributedInfo"]["rank"])
    props = {p["id"]: p["numSms"] for p in doc.get("deviceProperties") or []}
    ev = [e for e in doc["traceEvents"] if e.get("ph") == "X"
          and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset")]
    for dev in sorted({e["args"]["device"] for e in ev}):
        ops = [e for e in ev if e["args"]["device"] == dev]
        num = den = on = od = 0.0
        for k in ops:
            if k["cat"] != "kernel":
                continue
            a = k["args"]
            if "grid" in a and dev in props:
                g = a["grid"]
                num += k["dur"] * min(g[0] * g[1] * g[2] / props[dev], 1)
                den += k["dur"]
            elif "blocks per SM" in a:
                num += k["dur"] * min(a["blocks per SM"], 1)
                den += k["dur"]
            if "est. achieved occupancy %" in a:
                on += k["dur"] * a["est. achieved occupancy %"]
                od += k["dur"]
        iv = sorted((e["ts"], e["ts"] + e["dur"]) for e in ops)
        busy, cur = 0, list(iv[0])
        for s, e in iv[1:]:
            if s > cur[1]:
                busy += cur[1] - cur[0]
                cur = [s, e]
            else:
                cur[1] = max(cur[1], e)
        busy += cur[1] - cur[0]
        span = max(e for s, e in iv) - iv[0][0]
        want = (busy, 100 * busy / span, 100 * num / den, on / od)
        g = got.get((rank, str(dev)))
        seen.add((rank, str(dev)))
        line = "rank %s cuda:%s busy %.0f util %.3f sm %.3f occ %.3f" % ((rank, dev) + want)
        if not g or abs(float(g["gpu_busy_every_event(us)"]) - want[0]) > 0.01 or \
           abs(float(g["busy_of_gpu_span_every_event_pctg"]) - want[1]) > 1e-6 or \
           abs(float(g["sm_eff_per_kernel_time_pctg"]) - want[2]) > 1e-4 or \
           abs(float(g["occupancy_per_kernel_time_pctg"]) - want[3]) > 1e-4:
            ok = False
            line += "  MISMATCH: %r" % (g,)
        print(line)
for k in sorted(set(got) - seen):
    print("rank %s cuda:%s: a row of the report with no device in the trace" % k)
    ok = False
# N of M: the devices compared of those either side has; 4 numbers each
print("compared %d of %d devices, %d numbers" % (
    len(seen & set(got)), len(seen | set(got)), 4 * len(seen & set(got))))
sys.exit(0 if ok else 1)
PY
			pass "$name utilization matches python: $(tr '\n' ';' <"$D/cmp")"
			set -- $(tail -n 1 "$D/cmp" | sed 's/[^0-9 ]//g')
			at_least "$name devices compared" "${nd#*:}" "$1"
		else
			fail "$name utilization: $(cat "$D/cmp")"
		fi
	done
fi

# ---- timing on diff-control (informational) ----

for r in $REPORTS; do
	s=$(date +%s%N)
	"$TRACETOP" report "$r" -q "$TR/diff-control" >/dev/null 2>&1
	e=$(date +%s%N)
	echo "# time: report $r on diff-control: $(((e - s) / 1000000)) ms"
done

summary
