#!/bin/sh
# Hostile input past the loader: analyses, caches, outputs, option values,
# remote listings.  Each check names the defect it guards against; the big or
# hostile inputs are made here, in a temporary directory, never committed.
. "${SRCDIR:-.}/tests/lib.sh"

D=$(mktemp -d)
trap 'chmod -R u+w "$D" 2>/dev/null; rm -rf "$D"' EXIT

# corr_trace FILE N CORR: N cudaLaunchKernel calls and N kernels, all with
# args.correlation CORR (a launch every 10 us, its kernel 5 us later)
corr_trace() {
	python3 - "$@" <<'PY'
import sys
path, n, corr = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
ev = []
for i in range(n):
    ev.append('{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":%d,"dur":2,"args":{"correlation":%d,"cbid":211}}' % (1000 + 10 * i, corr))
    ev.append('{"ph":"X","cat":"kernel","name":"k%d","pid":0,"tid":7,"ts":%d,"dur":5,"args":{"correlation":%d,"stream":7,"device":0}}' % (i % 5, 1005 + 10 * i, corr))
open(path, 'w').write('{"schemaVersion":1,"distributedInfo":{"rank":0},"traceEvents":[\n' + ',\n'.join(ev) + '\n]}\n')
PY
}

# ---- shared correlation ids: linked in time order, not as a cross product ----
# (20,000 calls and kernels on one id made 4e8 links: 39 s and 10.9 GB)
corr_trace "$D/corr1.json" 20000 1
"$TRACETOP" report summary -f csv --no-cache "$D/corr1.json" >"$D/out" 2>"$D/err"
rc=$?
if check_rc "shared correlation id" 0 $rc &&
	grep -Fxq "tracetop: $D/corr1.json: warning: correlation id shared by several launching calls (paired in time order) (20000 times)" "$D/err"; then
	pass "20,000 calls and kernels on one correlation id: one warning with the count"
else
	fail "shared correlation id: $(head -c 600 "$D/err")"
fi
# the launch report pairs the k-th call with the k-th kernel: 3,000 rows,
# each with the 3 us delay between a call's end and its kernel
corr_trace "$D/corr0.json" 3000 0
"$TRACETOP" report launch -f csv --no-cache "$D/corr0.json" >"$D/out" 2>"$D/err"
rc=$?
rows=$(grep -c '^0,0,' "$D/out")
delays=$(grep -c '^0,0,2,5,3,' "$D/out")
if check_rc "correlation 0" 0 $rc && [ "$rows" = 3000 ] && [ "$delays" = 3000 ]; then
	pass "3,000 launches on correlation 0: 3,000 rows, not 9,000,000"
else
	fail "correlation 0: $rows rows: $(head -c 300 "$D/err")"
fi
rm -f "$D/corr0.json" "$D/corr1.json"

# ---- --max-memory holds for the whole model, not each file in flight ----
# four files of 100,000 events (about 5 MB of model each) and a budget of
# 8 MB: the first loads, the others are refused (all four loaded before)
python3 - "$D" <<'PY'
import os, sys
for rank in range(4):
    with open(os.path.join(sys.argv[1], 'm%d.json' % rank), 'w') as f:
        f.write('{"distributedInfo": {"rank": %d}, "traceEvents": [\n' % rank)
        f.write(',\n'.join('{"ph": "X", "cat": "kernel", "name": "k%d", "pid": 0, "tid": 7, "ts": %d, "dur": 4, "args": {"stream": 7, "correlation": %d}}'
                            % (i % 30, 1000 + 5 * i, i) for i in range(100000)))
        f.write('\n]}\n')
PY
"$TRACETOP" report summary -f csv -j 1 --no-cache --max-memory 8M "$D"/m0.json "$D"/m1.json "$D"/m2.json "$D"/m3.json >"$D/out" 2>"$D/err"
rc=$?
if [ $rc -eq 0 ] && grep -q '^m0.json,0,100000,' "$D/out" && [ "$(grep -c '^m[0-9].json,' "$D/out")" = 1 ] &&
	[ "$(grep -Ec "^tracetop: $D/m[123].json(:[0-9]+)?: the model needs more than the memory budget of 8.00 MB \(--max-memory\)" "$D/err")" = 3 ]; then
	pass "--max-memory 8M over four files of 5 MB: one loads, three are refused with one line each"
else
	fail "--max-memory over four files (status $rc): $(cat "$D/out" "$D/err")"
fi
rm -f "$D"/m?.json

# ---- forged .tts caches: every index checked for every flag bit ----
# a trace with every side table: kernel (kinfo), memcpy (minfo), CPU op with
# dims, stack and collective (opinfo, comm), [memory] instants (meminfo)
cat >"$D/side.json" <<'JSON'
{"schemaVersion": 1, "distributedInfo": {"rank": 0, "world_size": 1},
 "deviceProperties": [{"id": 0, "name": "g", "numSms": 80}],
 "traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 900},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 110, "dur": 50, "args": {"Input Dims": [[2, 3], [3, 4]], "Input type": ["float", "float"], "Call stack": "a.py(1): f;b.py(2): g"}},
 {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 1, "tid": 1, "ts": 170, "dur": 20, "args": {"Collective name": "allreduce", "dtype": "Float", "In msg nelems": 10, "Out msg nelems": 10, "Group size": 2, "Process Group Ranks": "[0, 1]"}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 120, "dur": 5, "args": {"correlation": 7, "cbid": 211}},
 {"ph": "X", "cat": "kernel", "name": "sgemm", "pid": 0, "tid": 7, "ts": 200, "dur": 100, "args": {"correlation": 7, "stream": 7, "device": 0, "grid": [4, 2, 1], "block": [128, 1, 1], "registers per thread": 32, "shared memory": 0, "est. achieved occupancy %": 50}},
 {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 130, "dur": 5, "args": {"correlation": 8}},
 {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 400, "dur": 10, "args": {"correlation": 8, "stream": 7, "device": 0, "bytes": 4096, "memory bandwidth (GB/s)": 40.9}},
 {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 115, "s": "t", "args": {"Bytes": 512, "Total Allocated": 1024, "Total Reserved": 2048, "Device Id": 0, "Device Type": 1, "Addr": 123}},
 {"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 150, "s": "t", "args": {"Bytes": -512, "Total Allocated": 512, "Total Reserved": 2048, "Device Id": 0, "Device Type": 1, "Addr": 123}},
 {"ph": "C", "name": "Queue Length", "pid": 0, "ts": 200, "args": {"stream 7": 1}}
]}
JSON
"$TRACETOP" summarize -q "$D/side.json" -o "$D/side.tts" || fail "summarize side.json"
REPORTS="summary memory utilization operators source distributed counters kernels launch steps advice outliers"
# forged NAME MATCH FIELD VALUE: the cache with one event changed is refused
# by every report, and beside its trace it is passed over for the trace
forged() {
	python3 "$SRCDIR/tests/tools/tts.py" event "$D/side.tts" "$D/$1.tts" "$2" "$3" "$4" ||
		{ fail "$1: cannot forge"; return; }
	for rep in $REPORTS; do
		"$TRACETOP" report "$rep" "$D/$1.tts" >"$D/out" 2>"$D/err"
		rc=$?
		if [ $rc -ne 2 ] || ! grep -Fxq "tracetop: $D/$1.tts: not a valid .tts cache: $5" "$D/err"; then
			fail "$1: report $rep (status $rc): $(head -c 300 "$D/err")"
			return
		fi
	done
	cp "$D/side.json" "$D/$1.json"
	cp "$D/$1.tts" "$D/$1.json.tts"
	touch -r "$D/side.json" -d '+1 hour' "$D/$1.json.tts" 2>/dev/null || touch "$D/$1.json.tts"
	for rep in $REPORTS; do
		"$TRACETOP" report "$rep" -f csv --no-cache "$D/$1.json" >"$D/want" 2>/dev/null
		"$TRACETOP" report "$rep" -f csv "$D/$1.json" >"$D/out" 2>"$D/err"
		rc=$?
		if [ $rc -ne 0 ] || ! cmp -s "$D/want" "$D/out"; then
			fail "$1 beside its trace: report $rep (status $rc): $(head -c 300 "$D/err")"
			return
		fi
	done
	pass "forged cache, $6: refused alone, passed over beside its trace"
}
OUT="an event is out of range"
forged mem-none 0x20 aux 0xffffffff "$OUT" "a memory event without its record (aux 0xffffffff)"
forged mem-far 0x20 aux 2 "$OUT" "a memory event pointing past the memory table"
forged kinfo-none 0x04 aux 0xffffffff "$OUT" "a kernel without its launch info (SM efficiency)"
forged minfo-none 0x08 aux 0xffffffff "$OUT" "a memcpy without its bytes"
forged op-none 0x10 aux 0xffffffff "$OUT" "an op without its args (dims, stack, collective)"
forged kinfo-mem 0x04 flags 0x25 "$OUT" "a kernel flagged as a memory event too"
forged plain-aux 0 aux 0 "$OUT" "an event without side table but with an index"
forged kinfo-sync 0x04 flags 0x85 "$OUT" "a kernel flagged as a sync event too"
forged ph-b 0x04 ph 66 "$OUT" "a phase the loader never makes"
forged trackmax 0x04 dur 99 "a track's bounds disagree with its events" "a duration that disagrees with its track's bounds"

# ---- signed overflow from valid JSON ----
# a grid of 2^31-1 x 2^31-1 x 3 blocks (its product wrapped negative: no SM
# efficiency) and one of (2^31-1)^3: both fill every SM
cat >"$D/grid.json" <<'JSON'
{"schemaVersion": 1, "distributedInfo": {"rank": 0}, "deviceProperties": [{"id": 0, "name": "g", "numSms": 80}], "traceEvents": [
{"ph": "X", "cat": "kernel", "name": "huge", "pid": 0, "tid": 7, "ts": 100, "dur": 100, "args": {"stream": 7, "device": 0, "correlation": 1, "grid": [2147483647, 2147483647, 3], "block": [1024, 1024, 1024]}},
{"ph": "X", "cat": "kernel", "name": "cube", "pid": 0, "tid": 7, "ts": 300, "dur": 100, "args": {"stream": 7, "device": 0, "correlation": 2, "grid": [2147483647, 2147483647, 2147483647], "block": [2147483647, 2147483647, 2147483647]}}]}
JSON
"$TRACETOP" report utilization -f csv "$D/grid.json" >"$D/out" 2>"$D/err"
rc=$?
# (by column name: the table's layout is not what is tested)
got=$(python3 - "$D/out" <<'PY'
import csv, sys
tables, name = {}, None
for row in csv.reader(open(sys.argv[1])):
    if row and row[0].startswith('# '):
        name, head = row[0][2:], None
    elif row and name:
        if tables.get(name) is None:
            tables[name] = []
            head = row
        else:
            tables[name].append(dict(zip(head, row)))
k = {r['name']: r for r in tables['kernel_utilization']}
print(k['cube']['sm_eff_per_kernel_time_pctg'], k['huge']['sm_eff_per_kernel_time_pctg'],
      k['cube']['blocks'] or '-', k['huge']['blocks'] or '-',
      tables['gpu_utilization'][0]['sm_eff_per_kernel_time_pctg'])
PY
)
check_rc "grid 2^31-1 cubed" 0 $rc && [ "$got" = "100 100 - - 100" ] &&
	pass "grids of 2^31-1 blocks: SM efficiency 100%, block counts beyond int64 left blank" ||
	fail "grid 2^31-1: $got $(head -c 300 "$D/err")"
# launch delays of 7.9e9 s each: the mean is 7.9e9 s (the sum wrapped)
cat >"$D/delay.json" <<'JSON'
{"schemaVersion": 1, "distributedInfo": {"rank": 0}, "traceEvents": [
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": -3950000000000000, "dur": 1, "args": {"correlation": 1}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": -3940000000000000, "dur": 1, "args": {"correlation": 2}},
{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": -3930000000000000, "dur": 1, "args": {"correlation": 3}},
{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 3950000000000000, "dur": 1, "args": {"correlation": 1, "stream": 7}},
{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 3960000000000000, "dur": 1, "args": {"correlation": 2, "stream": 7}},
{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 3970000000000000, "dur": 1, "args": {"correlation": 3, "stream": 7}}]}
JSON
"$TRACETOP" report launch -f csv "$D/delay.json" >"$D/out" 2>"$D/err"
check_rc "launch delays of 7.9e9 s" 0 $? &&
	grep -q '^0,3,3,3,9223372036854776,1,1,7899999999999999,7899999999999999,' "$D/out" &&
	pass "launch delays of 7.9e9 s: mean 7.9e9 s, the sum held at the largest time" ||
	fail "launch delays: $(grep -A2 launch_summary "$D/out") $(cat "$D/err")"
# one op at ts 0, the rest at epoch time: the memory curve over the span
cat >"$D/memspan.json" <<'JSON'
{"schemaVersion": 1, "distributedInfo": {"rank": 0}, "deviceProperties": [{"id": 0, "name": "g", "totalGlobalMem": 16000000000}], "traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "early", "pid": 1, "tid": 1, "ts": 0, "dur": 1},
{"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 1700000000000000, "dur": 100},
{"ph": "i", "name": "[memory]", "pid": 1, "tid": 1, "ts": 1700000000000010, "s": "t", "args": {"Bytes": 1048576, "Total Allocated": 1048576, "Total Reserved": 2097152, "Device Id": 0, "Device Type": 1, "Addr": 1}},
{"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 1700000000000200, "dur": 100}]}
JSON
"$TRACETOP" report memory --wide "$D/memspan.json" >"$D/out" 2>"$D/err"
check_rc "memory curve over 54 years" 0 $? &&
	grep -q '^   0  cuda:0 .*0 B  *█$' "$D/out" &&
	pass "a memory curve over 54 years ends in the allocation (it was blank)" ||
	fail "memory curve: $(cat "$D/out" "$D/err" | head -5)"
# the same curve in the explorer's memory pane (it was blank: the pane's own
# slices overflowed), and the counters pane's sparklines over a span of
# 247 years (blank likewise); the timeline zoomed and panned over it
"$TRACETOP" --headless --size 200x10 --keys 'v/Memory<Enter><Enter>' "$D/memspan.json" >"$D/out" 2>"$D/err"
check_rc "memory pane over 54 years" 0 $? && grep -q '^>    0  cuda:0 .* █$' "$D/out" &&
	pass "the memory pane's curve over 54 years ends in the allocation (it was blank)" ||
	fail "memory pane curve: $(grep cuda "$D/out") $(cat "$D/err")"
python3 - "$D/far.json" <<'PY'
import sys
ev = ['{"ph": "X", "cat": "cpu_op", "name": "early", "pid": 1, "tid": 1, "ts": -3900000000000000, "dur": 1}',
      '{"ph": "X", "cat": "cpu_op", "name": "late", "pid": 1, "tid": 1, "ts": 3900000000000000, "dur": 1}']
for i in range(5):
    t = 1700000000000000 + 100 * i
    ev.append('{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": %d, "dur": 2, "args": {"correlation": %d}}' % (t, i + 1))
    ev.append('{"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": %d, "dur": 50, "args": {"correlation": %d, "stream": 7}}' % (t + 10, i + 1))
open(sys.argv[1], 'w').write('{"distributedInfo": {"rank": 0}, "traceEvents": [\n' + ',\n'.join(ev) + ']}\n')
PY
"$TRACETOP" --headless --size 120x10 --keys '7' "$D/far.json" >"$D/out" 2>"$D/err"
check_rc "counters pane over 247 years" 0 $? && grep -q '^>    0  queue, stream 7 .*█' "$D/out" &&
	pass "the counters pane's sparkline over 247 years shows the queue (it was blank)" ||
	fail "counters pane sparkline: $(grep stream "$D/out") $(cat "$D/err")"
Z=$(python3 -c 'print("+" * 70)')
"$TRACETOP" --headless --size 80x24 --keys "9$Z<End>----<Home>llll<PageDown>hhhh=$(echo "$Z" | tr + -)HHLL" "$D/far.json" >"$D/out" 2>"$D/err"
check_rc "timeline over 247 years" 0 $? && ! grep -q 'runtime error' "$D/err" &&
	grep -Eq '^ window [0-9.]+ (ns|µs|ms|s) \.\. [0-9.]+ (ns|µs|ms|s) ' "$D/out" &&
	pass "the timeline zoomed to 1 ns and out again over 247 years" ||
	fail "timeline over 247 years: $(grep window "$D/out") $(head -c 300 "$D/err")"
# a base that would put ts beyond 4e18 ns is ignored, with a warning
printf '{"baseTimeNanoseconds": 4000000000000000000, "traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1000000000000000, "dur": 1}]}' >"$D/base.json"
"$TRACETOP" report summary -f csv "$D/base.json" >"$D/out" 2>"$D/err"
check_rc "base beyond 4e18" 0 $? &&
	grep -Fxq "tracetop: $D/base.json: warning: baseTimeNanoseconds puts ts more than 4e18 ns from 1970 (ignored)" "$D/err" &&
	pass "baseTimeNanoseconds plus ts beyond 4e18 ns: the base is ignored, with a warning" ||
	fail "base beyond 4e18: $(cat "$D/err")"
# bandwidths of 1e308 and -1e308 in every report and format
cat >"$D/bw.json" <<'JSON'
{"schemaVersion": 1, "distributedInfo": {"rank": 0}, "traceEvents": [
{"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "pid": 1, "tid": 1, "ts": 100, "dur": 5, "args": {"correlation": 8}},
{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": 400, "dur": 10, "args": {"correlation": 8, "stream": 7, "device": 0, "bytes": 4096, "memory bandwidth (GB/s)": 1e308}},
{"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 7, "ts": 500, "dur": 10, "args": {"correlation": 9, "stream": 7, "device": 0, "bytes": 4096, "memory bandwidth (GB/s)": -1e308}}]}
JSON
bad=
n=0
# (diff takes two traces: it is not one of these)
nr=$("$TRACETOP" report --list | awk '/^[a-z]/ && $1 != "diff"' | wc -l)
for rep in $("$TRACETOP" report --list | awk '/^[a-z]/ && $1 != "diff" { print $1 }'); do
	for f in table csv json; do
		"$TRACETOP" report "$rep" -f "$f" "$D/bw.json" >/dev/null 2>"$D/err"
		rc=$?
		n=$((n + 1))
		{ [ $rc -ge 128 ] || grep -q 'runtime error' "$D/err"; } && bad="$bad $rep/$f($rc)"
	done
done
[ -z "$bad" ] && [ "$n" -eq $((3 * nr)) ] && [ "$nr" -ge 20 ] &&
	pass "bandwidths of +-1e308: $n of $((3 * nr)) runs ($nr reports x 3 formats)" ||
	fail "bandwidth 1e308: $n of $((3 * nr)) runs ($nr reports):$bad"
# (and a text table shows 1e+308, not 309 digits)
"$TRACETOP" report counters "$D/bw.json" >"$D/out" 2>/dev/null
[ "$(awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }' "$D/out")" -lt 200 ] &&
	grep -q ' 1e+308 ' "$D/out" && pass "a bandwidth of 1e308 in a text table: 1e+308" ||
	fail "1e308 in a text table: $(grep Memcpy "$D/out")"

# ---- outputs that damage files ----
G="$SRCDIR/tests/fixtures/phases.json"
mkdir "$D/out1" && cp "$G" "$D/out1/t.json" && cp "$G" "$D/out1/keep.json"
# the trace given as its own output
"$TRACETOP" summarize -q "$D/out1/t.json" -o "$D/out1/t.json" 2>"$D/err"
rc=$?
if [ $rc -eq 2 ] && cmp -s "$G" "$D/out1/t.json" &&
	grep -Fxq "tracetop: $D/out1/t.json: the output is the input $D/out1/t.json: not replaced" "$D/err"; then
	pass "summarize T -o T: refused, the trace untouched"
else
	fail "summarize T -o T (status $rc): $(cat "$D/err")"
fi
cp "$G" "$D/out1/t.json"
# (also through a second name: a hard link is the same inode)
ln "$D/out1/t.json" "$D/out1/hard.tts"
"$TRACETOP" summarize -q "$D/out1/t.json" -o "$D/out1/hard.tts" 2>"$D/err"
[ $? -eq 2 ] && cmp -s "$G" "$D/out1/t.json" && grep -q "the output is the input" "$D/err" &&
	pass "summarize -o a hard link to the trace: refused" || fail "hard link: $(cat "$D/err")"
rm -f "$D/out1/hard.tts"
cp "$G" "$D/out1/t.json"
# FIFOs are not replaced (summarize -o, counters -o, and the default name)
mkfifo "$D/out1/f.tts" "$D/out1/f.json" "$D/out1/keep.json.tts"
"$TRACETOP" summarize -q "$D/out1/t.json" -o "$D/out1/f.tts" 2>"$D/err"
rc1=$?
"$TRACETOP" counters -q "$D/out1/t.json" -o "$D/out1/f.json" 2>>"$D/err"
rc2=$?
"$TRACETOP" summarize -q "$D/out1/keep.json" 2>>"$D/err"
rc3=$?
if [ $rc1 -eq 2 ] && [ $rc2 -ne 0 ] && [ $rc3 -eq 2 ] && [ -p "$D/out1/f.tts" ] && [ -p "$D/out1/f.json" ] &&
	[ -p "$D/out1/keep.json.tts" ] &&
	[ "$(grep -c 'the output is a FIFO, not a regular file: not replaced$' "$D/err")" = 3 ]; then
	pass "summarize -o FIFO, counters -o FIFO, a FIFO named like the cache: not replaced"
else
	fail "FIFO outputs ($rc1 $rc2 $rc3): $(cat "$D/err")"
fi
rm -f "$D/out1/f.tts" "$D/out1/f.json" "$D/out1/keep.json.tts"
# a symlink planted under the temporary name the cache writer used
# (OUT.tmp<pid>: exec keeps the shell's pid) is not written through
echo "precious" >"$D/out1/victim"
sh -c 'ln -s "$1/victim" "$1/t.json.tts.tmp$$"; exec "$2" summarize -q "$1/t.json"' sh "$D/out1" "$TRACETOP" 2>"$D/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$D/out1/victim")" = precious ] && [ -f "$D/out1/t.json.tts" ]; then
	pass "a symlink planted at the old temporary name: not written through"
else
	fail "planted symlink (status $rc): victim says $(head -c 40 "$D/out1/victim"); $(cat "$D/err")"
fi
rm -f "$D"/out1/t.json.tts*
# the cache name itself a symlink to another file: replaced, not followed
ln -s "$D/out1/victim" "$D/out1/t.json.tts"
"$TRACETOP" summarize -q "$D/out1/t.json" 2>"$D/err"
[ $? -eq 0 ] && [ "$(cat "$D/out1/victim")" = precious ] && [ -f "$D/out1/t.json.tts" ] &&
	[ ! -L "$D/out1/t.json.tts" ] && pass "a cache name that is a symlink: replaced, its target untouched" ||
	fail "symlink as cache name: $(cat "$D/err")"
# a file size limit (SIGXFSZ) leaves no temporary file and says so
mkdir "$D/out2"
corr_trace "$D/out2/big.json" 20000 7
(ulimit -f 100; exec "$TRACETOP" summarize -q "$D/out2/big.json") 2>"$D/err"
rc=$?
if [ $rc -eq 2 ] && [ "$(ls -A "$D/out2")" = big.json ] &&
	grep -Fxq "tracetop: $D/out2/big.json.tts: cannot write: File too large" "$D/err"; then
	pass "summarize beyond ulimit -f: one line, no temporary file left"
else
	fail "ulimit -f (status $rc): $(ls -A "$D/out2"); $(cat "$D/err")"
fi
(ulimit -f 100; exec "$TRACETOP" demo-trace -q -o "$D/out2/demo" --ranks 4) 2>"$D/err"
rc=$?
if [ $rc -eq 2 ] && [ -z "$(ls -A "$D/out2/demo")" ] &&
	grep -Eq "^tracetop: $D/out2/demo/rank-[0-9].pt.trace.json: cannot write: File too large$" "$D/err"; then
	pass "demo-trace beyond ulimit -f: says so, no half-written rank"
else
	fail "demo-trace ulimit -f (status $rc): $(ls -A "$D/out2/demo"); $(cat "$D/err")"
fi
rm -rf "$D/out2"

# the explorer's w: symlinks planted under the CSV's names are not followed,
# neither one to a file nor one to a name not yet taken (it was created)
mkdir "$D/wdir"
echo precious >"$D/wdir/victim"
ln -s "$D/wdir/created" "$D/wdir/tracetop-overview.csv"
ln -s "$D/wdir/victim" "$D/wdir/tracetop-overview-1.csv"
(cd "$D/wdir" && "$TRACETOP" --headless --size 100x30 --keys 'w' "$G") >"$D/out" 2>/dev/null
[ "$(cat "$D/wdir/victim")" = precious ] && [ ! -e "$D/wdir/created" ] &&
	[ -f "$D/wdir/tracetop-overview-2.csv" ] && [ ! -L "$D/wdir/tracetop-overview-2.csv" ] &&
	grep -q 'wrote 1 rows to' "$D/out" && pass "w beside planted symlinks: a fresh file, no link followed" ||
	fail "w and symlinks: $(ls -l "$D/wdir"; grep -E 'wrote|cannot' "$D/out")"

# ---- write errors: /dev/full, a closed stdout ----
if [ -w /dev/full ]; then
	"$TRACETOP" report kernels -q "$G" >/dev/full 2>"$D/err"
	rc=$?
	[ $rc -eq 1 ] && grep -Fxq "tracetop: standard output: cannot write: No space left on device" "$D/err" &&
		pass "report > /dev/full: status 1, one line" || fail "/dev/full (status $rc): $(cat "$D/err")"
	"$TRACETOP" --headless --size 80x24 "$G" >/dev/full 2>"$D/err"
	[ $? -eq 1 ] && grep -q "standard output: cannot write" "$D/err" &&
		pass "the headless screen > /dev/full: status 1" || fail "headless /dev/full: $(cat "$D/err")"
	"$TRACETOP" --headless --size 80x24 --dump /dev/full "$G" 2>"$D/err"
	[ $? -eq 1 ] && grep -Fxq "tracetop: /dev/full: cannot write: No space left on device" "$D/err" &&
		pass "--dump /dev/full: status 1" || fail "--dump /dev/full: $(cat "$D/err")"
fi
"$TRACETOP" report kernels -q "$G" >&- 2>"$D/err"
rc=$?
[ $rc -eq 1 ] && grep -Fxq "tracetop: standard output: cannot write: Bad file descriptor" "$D/err" &&
	pass "report with stdout closed: status 1, one line" || fail "closed stdout (status $rc): $(cat "$D/err")"

# ---- summarize says what failed ----
mkdir "$D/sum"
cp "$G" "$D/sum/good.json"
printf '{"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 1}, {"ph": "X", "na' >"$D/sum/cut.json"
cp "$G" "$D/sum/x.tts"
"$TRACETOP" summarize -q "$D/sum/good.json" "$D/sum/missing.json" "$D/sum/none-*.json" \
	"$D/sum/cut.json" "$D/sum/x.tts" 2>"$D/err"
rc=$?
if [ $rc -eq 1 ] && [ -f "$D/sum/good.json.tts" ] && [ -f "$D/sum/cut.json.tts" ] &&
	grep -Fxq "tracetop: $D/sum/missing.json: No such file or directory" "$D/err" &&
	grep -Fxq "tracetop: $D/sum/none-*.json: no file matches this pattern" "$D/err" &&
	grep -Eq "^tracetop: $D/sum/cut.json:[0-9]+: warning: file truncated: events after the cut are lost: " "$D/err" &&
	grep -Fxq "tracetop: $D/sum/x.tts: already a .tts cache, not a trace (skipped)" "$D/err"; then
	pass "summarize: a line for the missing file, the empty glob, the truncated trace and the cache; status 1"
else
	fail "summarize problems (status $rc): $(cat "$D/err")"
fi
"$TRACETOP" summarize -q "$D/sum/x.tts" 2>"$D/err"
[ $? -eq 2 ] && grep -q "already a .tts cache" "$D/err" && pass "summarize x.tts alone: a line, status 2" ||
	fail "summarize x.tts: $(cat "$D/err")"

# ---- stale caches: size, mtime and the first and last 64 KiB compared ----
mkdir "$D/stale"
cp "$SRCDIR/tests/fixtures/phases.json" "$D/stale/t.json"
"$TRACETOP" summarize -q "$D/stale/t.json" || fail "summarize for the stale test"
touch -r "$D/stale/t.json" "$D/stale/ref"
# the same size, a kernel renamed, the mtime set back
sed 's/"gemm"/"gemx"/' "$D/stale/t.json" >"$D/stale/new" && cat "$D/stale/new" >"$D/stale/t.json"
touch -r "$D/stale/ref" "$D/stale/t.json"
"$TRACETOP" report kernels -f csv "$D/stale/t.json" >"$D/out" 2>/dev/null
grep -q gemx "$D/out" && ! grep -q gemm "$D/out" &&
	pass "a trace changed in place (same size, same mtime): its stale cache is passed over" ||
	fail "stale cache used: $(grep -c gemm "$D/out") rows name gemm"
# a trace whose mtime alone moved: parsed again (the cache is not trusted)
"$TRACETOP" summarize -q "$D/stale/t.json"
touch -d '2001-01-01' "$D/stale/t.json"
"$TRACETOP" report kernels -f csv "$D/stale/t.json" >"$D/out" 2>/dev/null && grep -q gemx "$D/out" &&
	pass "a trace with another mtime: loads (from the trace)" || fail "mtime moved: $(cat "$D/out")"

# ---- FIFOs never hang loading ----
mkdir "$D/fifo"
cp "$SRCDIR/tests/fixtures/phases.json" "$D/fifo/t.json"
mkfifo "$D/fifo/t.json.tts" "$D/fifo/x.tts" "$D/fifo/p.json"
timeout 60 "$TRACETOP" report summary -f csv "$D/fifo/t.json" >"$D/out" 2>"$D/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^t.json,' "$D/out" && pass "a FIFO named like the cache beside a trace: the trace loads" ||
	fail "FIFO beside the trace (status $rc): $(cat "$D/err")"
timeout 60 "$TRACETOP" report summary "$D/fifo/x.tts" >/dev/null 2>"$D/err"
rc=$?
[ $rc -eq 2 ] && grep -Fxq "tracetop: $D/fifo/x.tts: not a regular file" "$D/err" &&
	pass "a FIFO given as a .tts: one line, no hang" || fail "FIFO .tts (status $rc): $(cat "$D/err")"
timeout 60 "$TRACETOP" report summary "$D/fifo/p.json" >/dev/null 2>"$D/err"
rc=$?
[ $rc -eq 2 ] && grep -Fxq "tracetop: $D/fifo/p.json:0: empty file" "$D/err" &&
	pass "a FIFO without a writer given as a trace: empty, no hang" || fail "FIFO trace (status $rc): $(cat "$D/err")"
# (a pipe that has its writer is read, as <(zcat t.json.gz) is)
cat "$SRCDIR/tests/fixtures/phases.json" | timeout 60 "$TRACETOP" report summary -f csv /dev/stdin >"$D/out" 2>/dev/null
rc=$?
[ $rc -eq 0 ] && grep -q '^stdin,' "$D/out" && pass "a pipe with its writer, by name: read as a trace" ||
	fail "a pipe by name (status $rc): $(cat "$D/out")"
timeout 60 "$TRACETOP" report summary /dev/null >/dev/null 2>"$D/err"
rc=$?
[ $rc -eq 2 ] && grep -Fxq "tracetop: /dev/null: is a device, not a trace file" "$D/err" &&
	pass "a device as a trace: one line" || fail "device (status $rc): $(cat "$D/err")"

# ---- option values: range checked, one line each ----
opt_bad() { # EXPECTED-LINE ARGS...: status 2 and that first line
	want=$1
	shift
	timeout 60 "$TRACETOP" "$@" >/dev/null 2>"$D/err"
	rc=$?
	[ $rc -eq 2 ] && [ "$(head -n 1 "$D/err")" = "tracetop: $want" ] &&
		pass "$*: refused" || fail "$* (status $rc): $(cat "$D/err")"
}
for v in nan 1e400 0.1 0 -1 inf; do
	opt_bad "bad --max-memory '$v' (a size from 1 byte, e.g. 512M, 8G)" report summary --max-memory "$v" "$G"
done
opt_bad "bad --duration-ratio 'nan' (0 to 1)" report kernels --duration-ratio nan "$G"
opt_bad "bad --kernel-delay 'inf'" report idle --kernel-delay inf "$G"
opt_bad "bad --top '2147483648' (1 to 2147483647)" report kernels --top 2147483648 "$G"
opt_bad "bad --top '99999999999999999999' (1 to 2147483647)" report kernels --top 99999999999999999999 "$G"
opt_bad "bad --num-kernels '4294967297' (1 to 2147483647)" report kernels --num-kernels 4294967297 "$G"
opt_bad "bad --max-events '99999999999999999999'" report summary --max-events 99999999999999999999 "$G"
for v in 1x2147483647 100000x100000 0x24 80x 80x24x; do
	opt_bad "bad --size '$v' (WxH, each from 1 to 2000, e.g. 100x30)" --headless --size "$v" "$G"
done
"$TRACETOP" --headless --size 1x1 "$G" >"$D/out" 2>/dev/null && [ "$(wc -l <"$D/out")" = 1 ] &&
	pass "--size 1x1: one cell" || fail "--size 1x1: $(head -c 200 "$D/out")"

# ---- nothing dropped without a word ----
# a counter event with 17 series: the 17th is dropped, and counted
python3 -c 'import json; print(json.dumps({"distributedInfo": {"rank": 0}, "traceEvents": [{"ph": "C", "name": "q", "pid": 1, "ts": 5, "args": {"s%d" % i: i for i in range(17)}}, {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 9}]}))' >"$D/series.json"
"$TRACETOP" report summary -f csv "$D/series.json" >"$D/out" 2>"$D/err"
grep -Fxq "tracetop: $D/series.json:49: warning: counter event with more than 16 series (the rest dropped)" "$D/err" &&
	grep -q '^series.json,.*,1$' "$D/out" && pass "a counter event with 17 series: a warning, counted by the summary" ||
	fail "17 series: $(cat "$D/err" "$D/out")"
# negative correlation ids
printf '{"traceEvents": [{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 2, "args": {"correlation": -5}}]}' >"$D/negcorr.json"
"$TRACETOP" report summary -f csv "$D/negcorr.json" >/dev/null 2>"$D/err"
grep -Fxq "tracetop: $D/negcorr.json:17: warning: correlation or External id negative or beyond 32 bits (dropped)" "$D/err" &&
	pass "a negative correlation id: a warning" || fail "negative correlation: $(cat "$D/err")"
# --ranks naming no loaded rank is an error; naming some that are missing, a warning
"$TRACETOP" report summary --ranks 5 "$G" >"$D/out" 2>"$D/err"
rc=$?
[ $rc -eq 2 ] && grep -Fxq "tracetop: --ranks selects none of the ranks loaded (3 to 3): no rank 5" "$D/err" &&
	pass "--ranks 5 without a rank 5: status 2, one line" || fail "--ranks 5 (status $rc): $(cat "$D/err")"
"$TRACETOP" report summary -f csv --ranks 3,5 "$G" >"$D/out" 2>"$D/err"
rc=$?
[ $rc -eq 0 ] && grep -Fxq "tracetop: warning: --ranks: no rank 5 among the ranks loaded" "$D/err" &&
	pass "--ranks 3,5 without a rank 5: a warning" || fail "--ranks 3,5 (status $rc): $(cat "$D/err")"
# a NUL byte in the keymap: its line is dropped with a warning, the rest read
printf 'bind generic y\000 quit\nbind generic z help\n' >"$D/keymap"
TRACETOP_KEYMAP="$D/keymap" "$TRACETOP" --headless --size 80x24 --keys z "$G" >"$D/out" 2>"$D/err"
grep -Fxq "tracetop: $D/keymap:1: a NUL byte (line ignored)" "$D/err" && grep -q 'help: Overview' "$D/out" &&
	pass "a NUL byte in the keymap: a warning, the lines after it read" || fail "NUL in keymap: $(cat "$D/err")"
# ranks beyond the largest --ranks can name
printf '{"distributedInfo": {"rank": 4611686018427387904}, "traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 1}]}' >"$D/r62.json"
"$TRACETOP" report summary "$D/r62.json" >/dev/null 2>"$D/err"
[ $? -eq 2 ] && grep -Fxq "tracetop: $D/r62.json:20: distributedInfo.rank 4611686018427387904 is beyond the largest rank, 16777215" "$D/err" &&
	pass "distributedInfo.rank 2^62: says so" || fail "rank 2^62: $(cat "$D/err")"
printf '{"traceEvents": [{"ph": "X", "name": "a", "ts": 1, "dur": 1}]}' >"$D/rank-9223372036854775807.json"
"$TRACETOP" report summary -f csv "$D/rank-9223372036854775807.json" >"$D/out" 2>"$D/err"
grep -q '^rank-9223372036854775807.json,0,' "$D/out" &&
	grep -Fxq "tracetop: $D/rank-9223372036854775807.json: warning: rank unknown, using 0" "$D/err" &&
	pass "rank-9223372036854775807.json: no rank from the name (it was 922337203)" ||
	fail "rank from a long name: $(cat "$D/out" "$D/err")"

# ---- escapes: names never drive the terminal ----
mkdir "$D/esc"
EVIL=$(printf 'x\033]0;TITLE\007\033[2Jy\nz')
cp "$SRCDIR/tests/fixtures/phases.json" "$D/esc/$EVIL.json"
"$TRACETOP" report summary "$D/esc/$EVIL.json" >"$D/out" 2>"$D/err"
if [ "$(wc -l <"$D/err")" = 1 ] && ! grep -q "$(printf '\033')" "$D/err" "$D/out" &&
	grep -Fq 'x\x1b]0;TITLE\x07\x1b[2Jy\x0az.json: warning: B without E' "$D/err" &&
	grep -Fq 'x\x1b]0;TITLE\x07\x1b[2Jy\x0az.json ' "$D/out"; then
	pass "a file name with ESC, BEL and a newline: escaped on stderr and in the table, one line"
else
	fail "file name escapes: $(od -c "$D/err" | head -5)"
fi
"$TRACETOP" --headless --size 100x12 "$D/esc/$EVIL.json" >"$D/out" 2>/dev/null
! grep -q "$(printf '\033')" "$D/out" && grep -Fq 'TITLE\x07\x1b[2Jy\x0az.json' "$D/out" &&
	pass "the same name in the explorer: escaped" || fail "explorer escapes: $(od -c "$D/out" | tail -5)"
# C1 controls and bidi overrides in event names
printf '{"traceEvents": [{"ph": "X", "cat": "kernel", "name": "=HYPERLINK(\\"x\\")", "pid": 0, "tid": 7, "ts": 1, "dur": 5, "args": {"stream": 7}}, {"ph": "X", "cat": "kernel", "name": "a\\u009bb\\u202ec\\u0085", "pid": 0, "tid": 7, "ts": 10, "dur": 5, "args": {"stream": 7}}]}' >"$D/names.json"
"$TRACETOP" report kernels --table kernel_breakdown "$D/names.json" >"$D/out" 2>/dev/null
grep -Fq 'a\x9bb\u202ec\x85 ' "$D/out" && ! grep -q "$(printf '\302\233')" "$D/out" &&
	pass "C1 controls and U+202E in a name: escaped in a text table" || fail "C1/bidi: $(cat "$D/out")"
"$TRACETOP" report kernels -f csv --table kernel_breakdown "$D/names.json" >"$D/out" 2>/dev/null
grep -q "^a$(printf '\302\233')b$(printf '\342\200\256')c$(printf '\302\205')," "$D/out" &&
	grep -Fq '"=HYPERLINK(""x"")",' "$D/out" && pass "the same names in CSV: exact, quoted" ||
	fail "CSV exact: $(cat "$D/out")"
"$TRACETOP" report kernels -f csv --csv-safe --table kernel_breakdown "$D/names.json" >"$D/out" 2>/dev/null
grep -Fq "\"'=HYPERLINK(\"\"x\"\")\"," "$D/out" && pass "--csv-safe: a ' before a formula" ||
	fail "--csv-safe: $(cat "$D/out")"
"$TRACETOP" report kernels -f json --table kernel_breakdown "$D/names.json" >"$D/out" 2>/dev/null
python3 -c 'import json, sys; rows = json.load(open(sys.argv[1])); assert any(r["name"] == "a\u009bb\u202ec\u0085" for r in rows)' "$D/out" &&
	pass "the same names in JSON: exact" || fail "JSON exact: $(cat "$D/out")"

# ---- remote listings: machine-readable, never followed elsewhere ----
mkdir -p "$D/rbin" "$D/rstore/t/d" "$D/rstore/empty"
cp "$SRCDIR/tests/fixtures/phases.json" "$D/rstore/t/my rank-1.json"
cp "$SRCDIR/tests/fixtures/phases.json" "$D/rstore/t/d/a b.json"
# stand-ins: objects are files under $RSTORE/KEY; every call is logged.
# RMODE makes them hostile: a listing that names other places, a table
# instead of JSON, a listing cut short by a failure.  An object whose name
# holds "partial" comes out cut after 100 bytes, the tool failing.
cat >"$D/rbin/aws" <<'SH'
#!/bin/sh
echo "aws $*" >>"$RLOG"
if [ "$1" = s3api ]; then # list-objects-v2 --bucket B --prefix P ...
	p=$6
	case $RMODE in
	outside) echo '["t/d/a b.json", "other/x.json"]'; exit 0 ;;
	table) echo "2024-01-01 12:00:00       4096 t/my rank-1.json"; exit 0 ;;
	cut) printf '["t/d/a b.json", "t/my'; exit 255 ;;
	esac
	sep='['
	for f in "$RSTORE/$p"* "$RSTORE/$p"*/*; do [ -f "$f" ] && { printf '%s"%s"' "$sep" "${f#$RSTORE/}"; sep=','; }; done
	[ "$sep" = '[' ] && echo null || echo ']'
	exit 0
fi
key=${4#s3://*/}
case $key in *partial*) head -c 100 "$RSTORE/t/my rank-1.json"; exit 1 ;; esac
exec cat "$RSTORE/$key"
SH
cat >"$D/rbin/gcloud" <<'SH'
#!/bin/sh
echo "gcloud $*" >>"$RLOG"
if [ "$2" = ls ]; then
	case $RMODE in
	s3) echo "$3my rank-1.json"; echo "s3://evil/x.json" ;;
	bucket) echo "$3my rank-1.json"; echo "gs://evil/t/x.json" ;;
	*) echo "$3my rank-1.json"; echo "$3d/"; echo "$3d/a b.json" ;;
	esac
	exit 0
fi
key=${3#gs://*/}
case $key in *partial*) head -c 100 "$RSTORE/t/my rank-1.json"; exit 1 ;; esac
exec cat "$RSTORE/$key"
SH
cat >"$D/rbin/az" <<'SH'
#!/bin/sh
echo "az $*" >>"$RLOG"
if [ "$3" = list ]; then
	while [ $# -gt 0 ]; do [ "$1" = --prefix ] && p=$2; shift; done
	sep='['
	for f in "$RSTORE/$p"* "$RSTORE/$p"*/*; do [ -f "$f" ] && { printf '%s"%s"' "$sep" "${f#$RSTORE/}"; sep=','; }; done
	[ "$sep" = '[' ] && printf '['
	echo ']'
	exit 0
fi
while [ $# -gt 0 ]; do
	if [ "$1" = --name ]; then
		[ ${#2} -gt 1100 ] && exec cat "$RSTORE/t/d/a b.json"
		case $2 in *partial*) head -c 100 "$RSTORE/t/my rank-1.json"; exit 2 ;; esac
		exec cat "$RSTORE/$2"
	fi
	shift
done
exit 3
SH
chmod +x "$D/rbin/"*
export RSTORE="$D/rstore" RLOG="$D/rlog" RMODE=
RP="$D/rbin:/usr/bin:/bin"
# names with spaces: the whole name, never the part after the last space
PATH=$RP "$TRACETOP" report summary -f csv s3://b/t/ >"$D/out" 2>"$D/err"
grep -q '^my rank-1.json,3,' "$D/out" && grep -q '^a b.json,3,' "$D/out" &&
	pass "an s3 listing with spaces in names: each object fetched by its whole name" ||
	fail "s3 names with spaces: $(cat "$D/out" "$D/err")"
: >"$RLOG"
PATH=$RP "$TRACETOP" report summary -f csv az://acct/cont/t/ >"$D/out" 2>"$D/err"
grep -q '^a b.json,3,' "$D/out" && grep -Fq -- "--name t/d/a b.json" "$RLOG" &&
	pass "an az listing: d/a b.json fetched as itself" || fail "az names: $(cat "$D/out" "$D/err" "$RLOG")"
: >"$RLOG"
PATH=$RP "$TRACETOP" report summary -f csv gs://b/t/ >"$D/out" 2>"$D/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^my rank-1.json,3,' "$D/out" && grep -q '^a b.json,3,' "$D/out" &&
	grep -Fxq "gcloud storage cat gs://b/t/d/a b.json" "$RLOG" && [ "$(grep -c 'storage cat' "$RLOG")" = 2 ] &&
	pass "a gs listing with spaces in names and a directory line: two objects, each by its whole URL" ||
	fail "gs names with spaces (status $rc): $(cat "$D/out" "$D/err" "$RLOG")"
# listings that name other places: refused whole, nothing fetched
: >"$RLOG"
RMODE=s3 PATH=$RP "$TRACETOP" report summary -f csv gs://b/t/ >"$D/out" 2>"$D/err"
rc=$?
[ $rc -eq 2 ] && ! grep -q '^aws' "$RLOG" && ! grep -q 'storage cat' "$RLOG" &&
	grep -Fxq "tracetop: gs://b/t/: gcloud listed 1 names outside this prefix (not followed)" "$D/err" &&
	pass "a gs listing naming s3://evil/x.json: refused, aws never run" ||
	fail "gs listing into s3 (status $rc): $(cat "$D/err" "$RLOG")"
: >"$RLOG"
RMODE=bucket PATH=$RP "$TRACETOP" report summary -f csv gs://b/t/ >"$D/out" 2>"$D/err"
rc=$?
[ $rc -eq 2 ] && ! grep -q 'storage cat' "$RLOG" &&
	grep -Fxq "tracetop: gs://b/t/: gcloud listed 1 names outside this prefix (not followed)" "$D/err" &&
	pass "a gs listing naming another bucket: refused, nothing fetched" ||
	fail "gs listing into another bucket (status $rc): $(cat "$D/err" "$RLOG")"
: >"$RLOG"
RMODE=outside PATH=$RP "$TRACETOP" report summary -f csv s3://b/t/ >"$D/out" 2>"$D/err"
rc=$?
[ $rc -eq 2 ] && ! grep -q 's3 cp' "$RLOG" &&
	grep -Fxq "tracetop: s3://b/t/: aws listed 1 names outside this prefix (not followed)" "$D/err" &&
	pass "an s3 listing naming a key outside the prefix: refused, nothing fetched" ||
	fail "s3 listing outside the prefix (status $rc): $(cat "$D/err" "$RLOG")"
# a listing as a table (aws s3 ls), or cut short by a failing tool
RMODE=table PATH=$RP "$TRACETOP" report summary -f csv s3://b/t/ "$G" >"$D/out" 2>"$D/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^phases.json,3,' "$D/out" && [ "$(grep -c '^[a-z]' "$D/out")" = 2 ] &&
	grep -Fxq "tracetop: s3://b/t/: aws printed a listing that is not a JSON list of names" "$D/err" &&
	pass "a listing that is a table, not JSON: an error for it, the other file loads" ||
	fail "listing as a table (status $rc): $(cat "$D/out" "$D/err")"
: >"$RLOG"
RMODE=cut PATH=$RP "$TRACETOP" report summary -f csv s3://b/t/ "$G" >"$D/out" 2>"$D/err"
rc=$?
[ $rc -eq 0 ] && grep -q '^phases.json,3,' "$D/out" && ! grep -q 's3 cp' "$RLOG" &&
	grep -Fxq "tracetop: s3://b/t/: aws could not list this prefix (exit status 255)" "$D/err" &&
	pass "a listing cut short by a failing aws: an error, no name of it fetched" ||
	fail "listing cut short (status $rc): $(cat "$D/out" "$D/err" "$RLOG")"
# URLs of any length
LONG=$(python3 -c 'print("x" * 1200)')
PATH=$RP "$TRACETOP" report summary -f csv "az://acct/cont/$LONG.json" >"$D/out" 2>"$D/err"
grep -q "^$LONG.json,3," "$D/out" && pass "an az URL of 1,200 characters: not cut" ||
	fail "long az URL: $(head -c 300 "$D/err")"
# a download that fails after some output: an error for that file, with
# every tool (it was a truncation warning)
for t in "aws s3://b/t/partial.json 1" "gcloud gs://b/t/partial.json 1" "az az://acct/cont/t/partial.json 2"; do
	set -- $t
	PATH=$RP "$TRACETOP" report summary -f csv "$2" "$G" >"$D/out" 2>"$D/err"
	rc=$?
	[ $rc -eq 0 ] && ! grep -q '^partial.json' "$D/out" && grep -q '^phases.json,3,' "$D/out" &&
		grep -Fxq "tracetop: $2: $1 failed (exit status $3) after 100 bytes: the object is incomplete" "$D/err" &&
		[ "$(grep -c "^tracetop: $2" "$D/err")" = 1 ] &&
		pass "$1: a download that fails after 100 bytes: an error for that file, the other loads" ||
		fail "$1 partial download (status $rc): $(cat "$D/err")"
done
# an empty prefix beside a good file says so
for u in s3://b/empty/ az://acct/cont/empty/; do
	PATH=$RP "$TRACETOP" report summary -f csv "$u" "$G" >"$D/out" 2>"$D/err"
	rc=$?
	[ $rc -eq 0 ] && grep -q '^phases.json,3,' "$D/out" &&
		grep -Fxq "tracetop: $u: no trace files (*.json, *.json.gz, *.gz, *.tts) under this prefix" "$D/err" &&
		pass "$u, an empty prefix beside a good file: says so" || fail "empty prefix $u (status $rc): $(cat "$D/err")"
done
PATH=$RP "$TRACETOP" report summary -f csv s3://b/empty/ >"$D/out" 2>"$D/err"
[ $? -eq 2 ] && pass "an empty prefix alone: status 2" || fail "empty prefix alone: $(cat "$D/err")"
unset RMODE

# ---- the fuzzers' findings (tests/fixtures/bad/; tests/fuzz/replay.sh runs
# them through every report and pane): each loads with exactly these lines ----
B="$SRCDIR/tests/fixtures/bad"
finding() { # FILE STATUS [LINE]: report summary's status and whole stderr
	"$TRACETOP" report summary "$B/$1" >/dev/null 2>"$D/err"
	rc=$?
	if [ $rc -eq "$2" ] && [ "$(cat "$D/err")" = "${3:-}" ]; then
		pass "$1: $4"
	else
		fail "$1 (status $rc): $(head -c 400 "$D/err")"
	fi
}
finding fuzz-pane-curve-span-overflow.json 0 "" \
	"one op at ts 0, the rest at epoch time (a pane's curve overflowed)"
finding fuzz-counters-span-overflow.json 0 \
	"tracetop: $B/fuzz-counters-span-overflow.json:692: warning: invalid UTF-8 or control character in a string (replaced) (2 times)" \
	"the counters pane's sparkline over 52 years (overflowed)"
finding fuzz-sparkline-infinite-bandwidth.json 0 \
	"$(printf '%s\n%s\n%s' "tracetop: $B/fuzz-sparkline-infinite-bandwidth.json:3464: warning: invalid UTF-8 or control character in a string (replaced) (3 times)" \
		"tracetop: $B/fuzz-sparkline-infinite-bandwidth.json:7333: warning: arg of an unexpected type (ignored)" \
		"tracetop: $B/fuzz-sparkline-infinite-bandwidth.json:4593: warning: unknown phase (event skipped)")" \
	"a bandwidth of 1.3e16323 is ignored (it was infinite: a NaN cast to int in a sparkline)"

summary
