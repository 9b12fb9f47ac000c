#!/bin/sh
# AMD/ROCm traces: a hand-built one with each quirk, and the demo's ROCm
# flavour (demo-trace --vendor amd).
#
# The quirks: HIP runtime calls (hipExtModuleLaunchKernel,
# hipMemcpyWithStream, hipLaunchKernel) whose args.stream is a hex string
# ("0x0"), Tensile Cijk_* kernels, a GPU thread named "stream 0 " with a
# trailing space, deviceProperties with warpSize 64.  HTA reads a string
# stream as no stream, so those runtime calls stay on the CPU side: HTA's
# temporal breakdown sees the kernels and the memcpy only.  The TensorBoard
# views link the HIP calls to their GPU ops by correlation.
#
# The demo's AMD job has the NVIDIA job's timing with AMD's names, so every
# HTA and plugin number of the two must be the same.
. "${SRCDIR:-.}/tests/lib.sh"
command -v python3 >/dev/null || { echo "skip: python3 reads the CSV"; exit 77; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

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

# expect LABEL GOT WANT
expect() {
	[ "$2" = "$3" ] && pass "$1: $2" || fail "$1: got '$2', expected '$3'"
}

# ---- a hand-built ROCm trace ----
#
# ProfilerStep#1 0-1000 on thread 100:
#   aten::mm     10-110  > hipExtModuleLaunchKernel 20-50  (corr 11) -> Cijk_... 100-400
#   aten::copy_ 200-300  > hipMemcpyWithStream     210-260 (corr 12) -> memcpy  420-460
#   aten::add   400-500  > hipLaunchKernel         410-430 (corr 13) -> elementwise 500-560
# HTA temporal (GPU events: the kernels and the memcpy): span 100-560 = 460,
#   busy 400, idle 60, compute 360 (kernels), non-compute 40 (memcpy).
# Operators: device self 300, 40, 60; host self 100 - 30 = 70, 100 - 50 =
#   50, 100 - 20 = 80.
# Overview step [0, 1000): Kernel 360; Memcpy 40; Runtime 20-50 and 410-420
#   = 40; CPU Exec 10-20, 50-100, 400-410, 460-500 = 110; Other 450.
mkdir -p "$D/hand"
cat >"$D/hand/rank0.json" <<'EOF'
{"distributedInfo": {"rank": 0},
 "deviceProperties": [{"id": 0, "name": "AMD Instinct MI250X", "totalGlobalMem": 68702699520, "computeMajor": 9, "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048, "regsPerBlock": 65536, "regsPerMultiprocessor": 65536, "warpSize": 64, "sharedMemPerBlock": 65536, "sharedMemPerMultiprocessor": 65536, "numSms": 110}],
 "traceEvents": [
  {"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":100,"tid":100,"ts":0,"dur":1000},
  {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":100,"tid":100,"ts":10,"dur":100,"args":{"External id":1}},
  {"ph":"X","cat":"cuda_runtime","name":"hipExtModuleLaunchKernel","pid":100,"tid":100,"ts":20,"dur":30,"args":{"External id":1,"correlation":11,"stream":"0x0"}},
  {"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":100,"tid":100,"ts":200,"dur":100,"args":{"External id":2}},
  {"ph":"X","cat":"cuda_runtime","name":"hipMemcpyWithStream","pid":100,"tid":100,"ts":210,"dur":50,"args":{"External id":2,"correlation":12,"stream":"0x0"}},
  {"ph":"X","cat":"cpu_op","name":"aten::add","pid":100,"tid":100,"ts":400,"dur":100,"args":{"External id":3}},
  {"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":100,"tid":100,"ts":410,"dur":20,"args":{"External id":3,"correlation":13,"stream":"0x0"}},
  {"ph":"X","cat":"kernel","name":"Cijk_Ailk_Bljk_SB_MT128x128x16_MI32x32x2x1_SN","pid":0,"tid":0,"ts":100,"dur":300,"args":{"External id":1,"correlation":11,"device":0,"stream":0,"grid":[4096,1,1],"block":[256,1,1]}},
  {"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD","pid":0,"tid":0,"ts":420,"dur":40,"args":{"External id":2,"correlation":12,"device":0,"stream":0,"bytes":4096}},
  {"ph":"X","cat":"kernel","name":"void at::native::elementwise_kernel<128, 4>","pid":0,"tid":0,"ts":500,"dur":60,"args":{"External id":3,"correlation":13,"device":0,"stream":0}},
  {"ph":"M","name":"thread_name","pid":0,"tid":0,"args":{"name":"stream 0 "}}
 ]}
EOF
"$TRACETOP" report summary -q -f csv "$D/hand" >"$D/s.csv" 2>"$D/err"
check_rc "hand-built: summary" 0 $? || cat "$D/err"
expect "hand-built: GPU streams (the runtime calls' string stream is none)" \
	"$(csv_get "$D/s.csv" rank 0 gpu_streams)" 1
expect "hand-built: runtime calls" "$(csv_get "$D/s.csv" rank 0 runtime_calls)" 3

"$TRACETOP" report temporal -q -f csv "$D/hand" >"$D/t.csv"
got="$(csv_get "$D/t.csv" rank 0 'idle_time(us)') $(csv_get "$D/t.csv" rank 0 'compute_time(us)')"
got="$got $(csv_get "$D/t.csv" rank 0 'non_compute_time(us)') $(csv_get "$D/t.csv" rank 0 'kernel_time(us)')"
expect "hand-built: HTA temporal idle, compute, non-compute, span" "$got" "60 360 40 460"

"$TRACETOP" report operators -q -f csv --table operators "$D/hand" >"$D/o.csv"
for op in "aten::mm 300 70" "aten::copy_ 40 50" "aten::add 60 80"; do
	set -- $op
	got="$(csv_get "$D/o.csv" name "$1" 'device_self(us)') $(csv_get "$D/o.csv" name "$1" 'host_self(us)')"
	expect "hand-built: $1 device self, host self (HIP calls linked by correlation)" "$got" "$2 $3"
done

"$TRACETOP" report overview -q -f csv --table step_time_breakdown "$D/hand" >"$D/v.csv"
got=""
for c in kernel memcpy memset communication runtime dataloader cpu_exec other; do
	got="$got $(csv_get "$D/v.csv" rank 0 "$c(us)")"
done
expect "hand-built: step breakdown" "$got" " 360 40 0 0 40 0 110 450"

"$TRACETOP" report utilization -q -f csv --table gpu_utilization "$D/hand" >"$D/u.csv"
got="$(csv_get "$D/u.csv" rank 0 gpu_utilization_pctg) $(csv_get "$D/u.csv" rank 0 num_sms)"
expect "hand-built: GPU utilization over the step, SMs (CUs)" "$got" "36 110"

# ---- the demo's ROCm flavour ----

"$TRACETOP" demo-trace -o "$D/amd" --vendor amd --ranks 4 --steps 3 --layers 6 >/dev/null 2>&1
check_rc "demo-trace --vendor amd" 0 $?
"$TRACETOP" demo-trace -o "$D/nv" --ranks 4 --steps 3 --layers 6 >/dev/null 2>&1
check_rc "demo-trace (nvidia)" 0 $?
"$TRACETOP" demo-trace -o "$D/bad" --vendor intel >/dev/null 2>"$D/err"
check_rc "demo-trace --vendor intel: a usage error" 2 $?

f="$D/amd/rank-0.pt.trace.json"
for q in '"name": "hipLaunchKernel"' '"name": "hipExtModuleLaunchKernel"' \
	'"name": "hipMemcpyWithStream"' '"stream": "0x0"' '"name": "Cijk_' '"warpSize": 64' \
	'"name": "stream 7 "'; do
	grep -q "$q" "$f" && pass "demo amd: $q" || fail "demo amd: no $q in $f"
done
grep -q 'cudaLaunchKernel' "$f" && fail "demo amd: a CUDA runtime call" ||
	pass "demo amd: no CUDA runtime call"

# the same timing: every HTA and plugin number the same as the NVIDIA job's
for r in "temporal temporal_breakdown" "overlap comm_comp_overlap" "idle idle_time_breakdown" \
	"overview step_time_breakdown" "overview step_time_average" \
	"distributed distributed_steps" "distributed distributed_ops" \
	"steps steps"; do
	set -- $r
	"$TRACETOP" report "$1" -q -f csv --table "$2" "$D/amd" >"$D/a.csv" 2>&1
	"$TRACETOP" report "$1" -q -f csv --table "$2" "$D/nv" >"$D/n.csv" 2>&1
	if cmp -s "$D/a.csv" "$D/n.csv" && [ -s "$D/a.csv" ]; then
		pass "demo amd = nvidia: $1 $2 ($(($(wc -l <"$D/a.csv") - 1)) rows)"
	else
		fail "demo amd != nvidia: $1 $2: $(diff "$D/n.csv" "$D/a.csv" | head -5)"
	fi
done
# operators: the same device and host times (HIP calls linked by correlation)
"$TRACETOP" report operators -q -f csv --table operators "$D/amd" | cut -d, -f1-7 | sort >"$D/a.csv"
"$TRACETOP" report operators -q -f csv --table operators "$D/nv" | cut -d, -f1-7 | sort >"$D/n.csv"
cmp -s "$D/a.csv" "$D/n.csv" && pass "demo amd = nvidia: operators' host and device times" ||
	fail "demo amd != nvidia: operators: $(diff "$D/n.csv" "$D/a.csv" | head -5)"
summary
