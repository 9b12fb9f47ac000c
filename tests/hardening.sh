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

summary
