#!/bin/sh
# Every folder of ../shared/traces loads, with the counts a plain Python
# reading of the same files gives (an independent oracle computed here), and
# the fast path agrees with cJSON on every event (--verify-json).
. "${SRCDIR:-.}/tests/lib.sh"
need_shared
command -v python3 >/dev/null || { echo "skip: python3 is needed as the oracle"; exit 77; }

D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
: >"$D/tally"

nall=0
for dir in "$SHARED"/traces/*/; do
	name=$(basename "$dir")
	nall=$((nall + $(ls "$dir" | wc -l)))
	"$TRACETOP" report summary --verify-json -q -f csv "$dir" >"$D/out" 2>"$D/err"
	rc=$?
	check_rc "$name" 0 $rc || { cat "$D/err"; continue; }
	# file,events,kernels,memcpy,memset,cpu_ops,runtime_calls,gpu_streams from our CSV
	python3 - "$dir" "$D/out" >"$D/cmp" 2>&1 <<'PY'
import csv, gzip, json, os, sys
folder, ours = sys.argv[1], sys.argv[2]
rows = {r["file"]: r for r in csv.DictReader(open(ours))}
bad = nfile = nnum = 0
for f in sorted(os.listdir(folder)):
    d = json.load(gzip.open(os.path.join(folder, f)))
    ev = d["traceEvents"]
    x = [e for e in ev if e.get("ph") == "X" and e.get("cat") != "Trace"]
    cat = lambda c: sum(1 for e in x if e.get("cat") == c)
    streams = {(e["pid"], e["args"]["stream"]) for e in x
               if e.get("args", {}).get("stream", -1) != -1}
    want = {"events": len(ev), "kernels": cat("kernel"), "memcpy": cat("gpu_memcpy"),
            "memset": cat("gpu_memset"), "cpu_ops": cat("cpu_op"),
            "runtime_calls": cat("cuda_runtime"), "gpu_streams": len(streams)}
    got = rows.pop(f, None)
    if got is None:
        print("missing row for", f); bad += 1; continue
    nfile += 1
    for k, v in want.items():
        nnum += 1
        if int(got[k]) != v:
            print(f, k, "got", got[k], "want", v); bad += 1
for f in rows:
    print("a row for", f, "which is not a file of the folder"); bad += 1
# the last line: FILES_COMPARED NUMBERS
print(nfile, nnum)
sys.exit(1 if bad else 0)
PY
	if [ $? -eq 0 ]; then
		set -- $(tail -n 1 "$D/cmp")
		pass "$name: counts match in $1 files ($2 numbers), fast path = cJSON"
		echo "$1 $2" >>"$D/tally"
	else
		fail "$name: $(cat "$D/cmp")"
	fi
done
# every file of every folder compared (M counted from the folders apart
# from the loop, so a folder the loop gave up on makes N < M), and the
# numbers against the floor of what the folders hold today (12 files, 7
# counts each)
set -- $(awk '{ n += $1; k += $2 } END { print n + 0, k + 0 }' "$D/tally")
echo "compared $1 of $nall trace files, $2 numbers"
[ "$1" -eq "$nall" ] && pass "every trace file compared: $1 of $nall" ||
	fail "trace files compared: $1 of $nall"
at_least "numbers compared with the Python count" 84 "$2"

# hta-2rank: two ranks, 0 and 1, from distributedInfo
"$TRACETOP" report summary -q -f csv "$SHARED/traces/hta-2rank" >"$D/out" 2>&1
if [ "$(cut -d, -f2 "$D/out" | tail -n +2 | tr '\n' ' ')" = "0 1 " ]; then
	pass "hta-2rank: ranks 0 and 1"
else
	fail "hta-2rank ranks: $(cat "$D/out")"
fi
# rank-unavailable: no rank anywhere, so the position gives 0, with a warning
"$TRACETOP" report summary -q -f csv "$SHARED/traces/rank-unavailable" >"$D/out" 2>"$D/err"
if grep -q '^rank_not_found.json.gz,0,' "$D/out" && grep -q 'warning: rank unknown, using 0' "$D/err"; then
	pass "rank-unavailable: rank 0 by position"
else
	fail "rank-unavailable: $(cat "$D/out" "$D/err")"
fi
# cpu-only: rank 34, relative ts plus baseTimeNanoseconds, no GPU
"$TRACETOP" report summary -q -f json "$SHARED/traces/cpu-only" >"$D/out" 2>&1
if grep -q '"rank": 34' "$D/out" && grep -q '"kernels": 0' "$D/out"; then
	pass "cpu-only: rank 34, no GPU"
else
	fail "cpu-only: $(cat "$D/out")"
fi
summary
