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

summary
