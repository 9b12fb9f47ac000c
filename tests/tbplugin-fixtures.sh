#!/bin/sh
# The TensorBoard plugin's views on hand-made traces of the kinds the shared
# traces lack (tests/fixtures/tbplugin/), one per class:
#   compile     torch.compile: triton_* cpu_ops with args.stream (HTA reads
#               them as GPU events; the op tree takes them back into their
#               thread) under a Torch-Compiled Region
#   legacy2021  an autograd-profiler trace: "Input dims", "Operator" and
#               "Python" categories (the Python spans are nodes of the op tree
#               and CPU Exec), [memory] events with Bytes only
#   stack       a with_stack trace: python_function events are neither nodes
#               nor CPU Exec
#   rocm        kernels without `blocks per SM`, occupancy, grid; an empty
#               device name: the plugin shows no SM efficiency, occupancy,
#               grid
#   annot       two ranks: an Optimizer.step user annotation and a
#               collective's annotation launching kernels (the GPU work goes
#               to the op or step around them), an operator whose first call
#               is not tensor-core eligible, DataLoader and communication
#               over the plugin's limits on both ranks, a zero-length
#               duplicate ProfilerStep#2 before the real one
# Each expected value is worked out by hand from the trace in the comment
# beside it (the plugin's rules: ../shared/docs/tbviews.md); each agrees
# with the plugin's own parser run on the same file, except where the
# plugin links by External id and the nested rule (innermost op or step
# around the runtime call) is the right one: marked "nested".
. "${SRCDIR:-.}/tests/lib.sh"
command -v python3 >/dev/null || { echo "skip: python3 reads the CSV"; exit 77; }
F="$SRCDIR/tests/fixtures/tbplugin"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

# the checker: CSV file; stdin lines "KEY<TAB>COL<TAB>VALUE", KEY as
# col=value[;col=value] picking the row, VALUE "-" for blank, numbers within
# 0.01; COL "#rows": how many rows KEY picks
cat >"$D/chk.py" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1], encoding="utf-8")))
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    key, col, want = line.split("\t")
    conds = [c.split("=", 1) for c in key.split(";")]
    match = [r for r in rows if all(r.get(k) == v for k, v in conds)]
    if col == "#rows":
        ok = len(match) == int(want)
        print(("ok" if ok else "FAIL") + "\t%s: %d rows, want %s" % (key, len(match), want))
        continue
    if not match:
        print("FAIL\t%s: no row" % key)
        continue
    got = match[0].get(col)
    if want == "-":
        ok = got == ""
    else:
        try:
            ok = abs(float(got) - float(want)) <= 0.01
        except (TypeError, ValueError):
            ok = got == want
    print(("ok" if ok else "FAIL") + "\t%s %s: %r, want %s" % (key, col, got, want))
PY

# check FIXTURE REPORT TABLE [OPTIONS] < expectations
check() {
	fx=$1 rep=$2 tab=$3
	shift 3
	"$TRACETOP" report "$rep" -q -f csv --table "$tab" "$@" "$F/$fx" >"$D/out.csv" 2>"$D/err"
	check_rc "$fx $rep $tab" 0 $? || { cat "$D/err"; return; }
	python3 "$D/chk.py" "$D/out.csv" >"$D/res"
	while IFS="	" read -r st msg; do
		if [ "$st" = ok ]; then pass "$fx $tab: $msg"; else fail "$fx $tab: $msg"; fi
	done <"$D/res"
}

# ---- compile: ProfilerStep#1 0-1000 > Torch-Compiled Region 100-500 >
# CompiledFunction 110-490 > triton_poi 200-260 (launch 210-230 -> kernel
# 100 µs), triton_red 300-340 (launch 305-315 -> 30 µs), aten::mm 400-480
# (launch 410-430 -> sm90_xmma_gemm 100 µs, a tensor-core kernel).
# Host self: Region 400-380 = 20; CompiledFunction 380-60-40-80 = 200;
# triton_poi 60-20 = 40; triton_red 40-10 = 30; aten::mm 80-20 = 60.
check compile operators operators <<'X'
name=Torch-Compiled Region	host_self(us)	20
name=Torch-Compiled Region	device_total(us)	230
name=CompiledFunction	host_self(us)	200
name=triton_poi_fused_addmm_gelu_view_15	calls	1
name=triton_poi_fused_addmm_gelu_view_15	host_self(us)	40
name=triton_poi_fused_addmm_gelu_view_15	device_self(us)	100
name=triton_red_fused_sum_1	host_self(us)	30
name=triton_red_fused_sum_1	device_self(us)	30
name=aten::mm	host_self(us)	60
name=aten::mm	tc_self_pctg	100
X
check compile utilization kernels_by_operator <<'X'
name=triton_poi_fused_addmm_gelu_view_15	operator	triton_poi_fused_addmm_gelu_view_15
name=triton_red_fused_sum_1	operator	triton_red_fused_sum_1
name=sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64	operator	aten::mm
X
# Kernel 300-400, 420-450, 460-560 = 230; Runtime 210-230 and 410-420 (the
# rest is under kernels) = 30; CPU Exec: the ops' 100-500 less Kernel
# (100 + 30 + 40) and Runtime (30) = 200; Other 1000 - 230 - 30 - 200 = 540
check compile overview step_time_breakdown <<'X'
step=1	kernel(us)	230
step=1	runtime(us)	30
step=1	cpu_exec(us)	200
step=1	other(us)	540
X
# TC: the sm90_xmma_gemm kernel, 100 of the 230 µs the operators launched
check compile utilization gpu_utilization <<'X'
rank=0	gpu_utilization_pctg	23
rank=0	tensor_cores_pctg	43.478
X

# ---- legacy2021: ProfilerStep#1 0-1000 > aten::linear 100-400 > Python
# span 110-390 > aten::addmm 120-380 > launch 130-150 -> kernel 200-300;
# Python span 500-600; aten::add_ 700-750.  aten::linear's child is the
# Python span: host self 300 - 280 = 20.
check legacy2021 operators operators_by_shapes <<'X'
name=aten::linear	input_dims	[[4,8],[16,8],[16]]
name=aten::linear	host_self(us)	20
name=aten::linear	device_total(us)	100
name=aten::addmm	input_dims	[[16],[4,8],[8,16]]
name=aten::addmm	host_self(us)	240
name=aten::add_	input_dims	[[16],[16],[]]
X
# CPU Exec: ops and Python spans 100-400, 500-600, 700-750 less Kernel
# 200-300 and Runtime 130-150 = 300 - 100 - 20 + 100 + 50 = 330
check legacy2021 overview step_time_breakdown <<'X'
step=1	kernel(us)	100
step=1	runtime(us)	20
step=1	cpu_exec(us)	330
step=1	other(us)	550
X
# [memory] at 105 (+256, aten::linear), 115 (+128, in the Python span: no
# operator's), 125 (+512, aten::addmm), 395 (-256, aten::linear), 710 (+64
# on the CPU, aten::add_)
check legacy2021 memory memory_operators <<'X'
device=cuda:0;operator=aten::linear	size_increase_bytes	512
device=cuda:0;operator=aten::linear	self_size_increase_bytes	0
device=cuda:0;operator=aten::linear	allocation_count	2
device=cuda:0;operator=aten::linear	self_allocation_count	1
device=cuda:0;operator=aten::linear	allocation_size_bytes	768
device=cuda:0;operator=aten::linear	self_allocation_size_bytes	256
device=cuda:0;operator=aten::addmm	allocation_count	1
device=cuda:0;operator=aten::addmm	allocation_size_bytes	512
device=cpu;operator=aten::add_	allocation_size_bytes	64
X

# ---- stack: python_function events cover the whole step; the ops are
# aten::linear 100-400 > aten::addmm 120-380 (launch 130-150 -> 100 µs
# kernel 200-300) and aten::mul_ 600-640 (launch 610-620 -> 650-670).
# CPU Exec: 100-400 and 600-640 less Kernel 200-300 and Runtime = 340 - 100
# - 30 = 210; python_function spans are not CPU Exec.
check stack overview step_time_breakdown <<'X'
step=3	kernel(us)	120
step=3	runtime(us)	30
step=3	cpu_exec(us)	210
step=3	other(us)	640
X
check stack operators operators <<'X'
name=aten::linear	host_self(us)	40
name=aten::addmm	host_self(us)	240
name=aten::mul_	host_self(us)	30
name=aten::mul_	device_self(us)	20
X

# ---- rocm: no kernel has `blocks per SM` or occupancy, the elementwise
# kernel has no grid: the plugin shows none.  tracetop's own estimate by
# grid: the Cijk kernel's 1024 blocks fill the 304 CUs for its 300 µs of
# the 1000 µs step = 30 %.
check rocm utilization gpu_utilization <<'X'
rank=0	gpu_utilization_pctg	36
rank=0	est_sm_efficiency_pctg	-
rank=0	est_achieved_occupancy_pctg	-
rank=0	est_sm_efficiency_by_grid_pctg	30
rank=0	tensor_cores_pctg	0
rank=0	kernels_with_blocks_per_sm	0
X
check rocm utilization kernel_utilization <<'X'
name=Cijk_Ailk_Bljk_BBS_BH_MT128x128x32_MI16x16x16x1_SN	mean_blocks_per_sm	-
name=Cijk_Ailk_Bljk_BBS_BH_MT128x128x32_MI16x16x16x1_SN	mean_est_achieved_occupancy_pctg	-
X
check rocm utilization kernels_by_operator <<'X'
name=void at::native::elementwise_kernel<128, 4>	operator	aten::add
name=void at::native::elementwise_kernel<128, 4>	grid	-
name=void at::native::elementwise_kernel<128, 4>	block	-
name=void at::native::elementwise_kernel<128, 4>	mean_blocks_per_sm	-
name=Cijk_Ailk_Bljk_BBS_BH_MT128x128x32_MI16x16x16x1_SN	grid	[1024, 1, 1]
X
# Kernel 150-450 and 450-510 = 360; Memcpy 600-640 = 40; Runtime 110-140
# and 510-560 (310-330 is under a kernel) = 80; CPU Exec: the ops' 300 less
# Kernel (50 + 100 + 10) and Runtime (30 + 50) = 60; Other 460
check rocm overview step_time_breakdown <<'X'
step=7	kernel(us)	360
step=7	memcpy(us)	40
step=7	runtime(us)	80
step=7	cpu_exec(us)	60
step=7	other(us)	460
X
# the plugin advises AMP on compute capability 9 with no tensor-core kernel:
# aten::mm's 300 µs of the operators' 360 = 83.3 %
check rocm advice advice <<'X'
topic=tensor_cores	value	83.333
X

# ---- annot: per step, forward 100-150 (no kernel), forward 200-300 >
# aten::mm 210-290 (gemm 100 µs); record_param_comms 400-500 >
# nccl:all_reduce 410-490 > launch 420-440 (nccl kernel 200 µs);
# Optimizer.step#FusedAdam.step 600-800 > launch 610-620 (50 µs kernel).
# forward: the first call launched nothing, so not tensor-core eligible (the
# plugin takes the first call's flag).  record_param_comms: host self 100 -
# 80 = 40 (the launch in the annotation counted once; the nested reference
# subtracts it twice: 0); its device self holds the nccl kernels.
check annot operators operators --ranks 0 <<'X'
name=forward	calls	4
name=forward	host_self(us)	140
name=forward	device_total(us)	200
name=forward	tc_eligible	no
name=aten::mm	tc_eligible	yes
name=record_param_comms	host_self(us)	40
name=record_param_comms	device_self(us)	400
X
# nested: the GPU work of a call in an annotation goes to the op or step
# around it (the plugin, by External id, to the annotation)
check annot utilization kernels_by_operator --ranks 0 <<'X'
name=ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)	operator	record_param_comms
name=multi_tensor_apply_kernel;operator=ProfilerStep#1	calls	1
name=multi_tensor_apply_kernel;operator=ProfilerStep#2	calls	1
name=multi_tensor_apply_kernel;operator=Optimizer.step#FusedAdam.step	#rows	0
X
# rank 1: the zero-length ProfilerStep#2 first, kept (1000-1000), then the
# real one
check annot overview step_time_breakdown --ranks 1 <<'X'
rank=1	#rows	3
rank=1;step=2	step_time(us)	0
rank=1;step=2;start(us)=1000;step_time(us)=1000	dataloader(us)	80
X
# DataLoader 10-70 / 10-90 of each 1000 µs step: 6 % and 8 %, both over the
# plugin's 5 %: one finding naming both
check annot advice advice <<'X'
topic=dataloader	value	8
topic=dataloader	#rows	1
topic=communication	#rows	1
X
"$TRACETOP" report advice -q -f csv "$F/annot" | grep -q 'DataLoader over 5 % of the step time on 2 of 2 ranks (rank 1 8.0 %, rank 0 6.0 %)' &&
	pass "annot advice: every rank over the DataLoader limit named" ||
	fail "annot advice: $("$TRACETOP" report advice -q -f csv "$F/annot" | grep -i dataloader)"
summary
