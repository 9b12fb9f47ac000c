#!/usr/bin/env python3
"""Parity of tracetop's TensorBoard views with the plugin's own numbers.

  tbparity.py VIEW TRACE_DIR REF_DIR TRACETOP

VIEW is overview, gpu, kernels, operators, distributed or advice.  REF_DIR
is ../shared/reference-tb/<set> (its rebased/ sub-folder is used when the
trace has fractional-µs timestamps: the plugin's float64 µs then lose the
ns).  tracetop's CSV tables are compared with the plugin's CSV files:
times within 1 µs or 0.1 %, percentages within 0.1 point, counts and bytes
exact.  Where the plugin is wrong (../shared/docs/tbviews.md), the check
asserts tracetop's value by another route and names the plugin's bug.

Prints one summary line (rows and values matched, plugin bugs named) and
the first differences; exits 0 when everything matched, 1 otherwise.
"""
import csv
import io
import math
import os
import subprocess
import sys

TIME_ABS, TIME_REL, PCT_ABS = 1.0, 1e-3, 0.1


class Check:
    def __init__(self, label):
        self.label = label
        self.rows = 0
        self.values = 0
        self.bad = []
        self.bugs = {}

    def time(self, what, ours, ref):
        self.values += 1
        if ours is None and ref is None:
            return  # both unknown
        if ours is None or ref is None or abs(ours - ref) > max(TIME_ABS, TIME_REL * abs(ref)):
            self.bad.append("%s: tracetop %r, plugin %r" % (what, ours, ref))

    def pct(self, what, ours, ref):
        self.values += 1
        if ours is None and ref is None:
            return  # both unknown
        if ours is None or ref is None or abs(ours - ref) > PCT_ABS:
            self.bad.append("%s: tracetop %r, plugin %r" % (what, ours, ref))

    def exact(self, what, ours, ref):
        self.values += 1
        if ours != ref:
            self.bad.append("%s: tracetop %r, plugin %r" % (what, ours, ref))

    def bug(self, name, n=1):
        self.bugs[name] = self.bugs.get(name, 0) + n

    def done(self):
        line = "%s: %d rows, %d values matched" % (self.label, self.rows, self.values - len(self.bad))
        if self.bad:
            line += ", %d differ" % len(self.bad)
        if self.bugs:
            line += "; plugin bugs: " + "; ".join("%s (%d values)" % kv for kv in sorted(self.bugs.items()))
        print(line)
        for b in self.bad[:15]:
            print("  " + b)
        return 1 if self.bad else 0


def num(s):
    if s is None or s == "" or s == "-":
        return None
    try:
        return float(s)
    except ValueError:
        return None


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


class Ctx:
    def __init__(self, trace, ref, tracetop):
        self.trace, self.tracetop = trace, tracetop
        self.ref_top = ref
        workers = read_csv(os.path.join(ref, "workers.csv"))
        self.rebased = any(w.get("fractional_ts") == "1" for w in workers) and \
            os.path.isdir(os.path.join(ref, "rebased"))
        self.ref = os.path.join(ref, "rebased") if self.rebased else ref
        # worker name -> tracetop rank number
        self.rank = {}
        for w in workers:
            r = w.get("distributed_rank", "")
            self.rank[w["worker"]] = int(r) if r not in ("", None) else 0

    def refcsv(self, name):
        return read_csv(os.path.join(self.ref, name))

    def ours(self, report, table):
        out = subprocess.run([self.tracetop, "report", report, "-q", "-f", "csv", "--table", table,
                              self.trace], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             check=True).stdout.decode("utf-8")
        return list(csv.DictReader(io.StringIO(out)))


def us(row, col):
    return num(row.get(col))


# ---- overview ----

def comm_kernels_unlinked(ctx):
    """The plugin links communication kernels to nccl: ops by External id; on
    traces where none link, its Kernel holds them.  The reference's
    derived_*_by_kernel_name columns give the kernel time without them."""
    for r in ctx.refcsv("dist_overlap.csv"):
        a = (num(r["computation_us"]) or 0) + (num(r["overlapping_us"]) or 0)
        b = (num(r["derived_computation_by_kernel_name_us"]) or 0) + \
            (num(r["derived_overlapping_by_kernel_name_us"]) or 0)
        if r["step"] != "all" and abs(a - b) > TIME_ABS and b > 0:
            return True
    return False


def check_overview(ctx):
    c = Check("overview")
    ours = {}
    for r in ctx.ours("overview", "step_time_breakdown"):
        step = "0" if r["step"] == "(all)" else r["step"]
        ours[(int(r["rank"]), step)] = r
    unlinked = comm_kernels_unlinked(ctx)
    derived = {}
    for r in ctx.refcsv("dist_overlap.csv"):
        derived[(ctx.rank[r["worker"]], r["step"])] = r
    refs = ctx.refcsv("overview_steps.csv")
    c.exact("steps", len(ours), len(refs))
    first = {}
    for ref in refs:
        key = (ctx.rank[ref["worker"]], ref["step"])
        o = ours.get(key)
        if o is None:
            c.bad.append("step %r missing" % (key,))
            continue
        c.rows += 1
        w = "rank %d step %s" % key
        c.time(w + " total", us(o, "step_time(us)"), num(ref["total_us"]))
        # the window against the CPU span: the first-step rule, the GPU end
        if ref["cpu_start_us"]:
            c.time(w + " start - cpu start", us(o, "start(us)") - us(o, "cpu_start(us)"),
                   num(ref["start_us"]) - num(ref["cpu_start_us"]))
            c.time(w + " cpu span", us(o, "cpu_duration(us)"),
                   num(ref["cpu_end_us"]) - num(ref["cpu_start_us"]))
        if key[0] in first:
            c.time(w + " start after the first", us(o, "start(us)") - first[key[0]][0],
                   num(ref["start_us"]) - first[key[0]][1])
        else:
            first[key[0]] = (us(o, "start(us)"), num(ref["start_us"]))
        for col in ("runtime", "dataloader", "cpu_exec", "other"):
            c.time(w + " " + col, us(o, col + "(us)"), num(ref[col + "_us"]))
        gpu = ("kernel", "memcpy", "memset", "communication")
        if not unlinked:
            for col in gpu:
                c.time(w + " " + col, us(o, col + "(us)"), num(ref[col + "_us"]))
        else:
            # Kernel without the communication kernels: the reference's
            # kernel time by kernel name; the four GPU-side columns together
            # cover the same time as the plugin's
            d = derived.get(key)
            c.time(w + " kernel (without communication kernels)", us(o, "kernel(us)"),
                   num(d["derived_computation_by_kernel_name_us"]) +
                   num(d["derived_overlapping_by_kernel_name_us"]))
            c.time(w + " kernel+memcpy+memset+communication",
                   sum(us(o, x + "(us)") for x in gpu), sum(num(ref[x + "_us"]) for x in gpu))
            c.bug("communication kernels not linked to nccl: ops counted as Kernel", 2)
    # averages
    avg = {int(r["rank"]): r for r in ctx.ours("overview", "step_time_average")}
    for ref in ctx.refcsv("overview_avg.csv"):
        rank = ctx.rank[ref["worker"]]
        o = avg.get(rank)
        if o is None:
            c.bad.append("average of rank %d missing" % rank)
            continue
        c.rows += 1
        c.exact("rank %d steps" % rank, int(o["steps"]), int(ref["steps"]))
        c.time("rank %d mean step" % rank, us(o, "step_time(us)"), num(ref["total_us"]))
        cols = ("runtime", "dataloader", "cpu_exec", "other")
        if not unlinked:
            cols += ("kernel", "memcpy", "memset", "communication")
        for col in cols:
            c.time("rank %d mean %s" % (rank, col), us(o, col + "(us)"), num(ref[col + "_us"]))
    return c.done()


# ---- operators ----

def load_trace_events(path):
    import glob
    import gzip
    import json
    files = sorted(glob.glob(os.path.join(path, "*.json*"))) if os.path.isdir(path) else [path]
    out = []
    for f in files:
        op = gzip.open if f.endswith(".gz") else open
        with op(f, "rt", encoding="utf-8") as fh:
            doc = json.load(fh)
        rank = (doc.get("distributedInfo") or {}).get("rank", 0) if isinstance(doc, dict) else 0
        out.append((rank, doc["traceEvents"] if isinstance(doc, dict) else doc))
    return out


COMM = {p + n for p in ("nccl:", "gloo:") for n in
        ("broadcast", "reduce", "all_reduce", "all_gather", "reduce_scatter")}


def node_kind(e):
    """The plugin's node kinds (node.py create_operator_node)."""
    cat, name = e.get("cat", ""), e.get("name", "")
    if cat not in ("cpu_op", "user_annotation"):
        return None
    if name.startswith("ProfilerStep#"):
        return "step"
    if (name.startswith("enumerate(DataLoader)#") and name.endswith(".__next__")) or \
            name.startswith("enumerate(DataPipe)#"):
        return "dataloader"
    if name.startswith("Optimizer.step"):
        return "optimizer"
    if cat == "user_annotation":
        return "comm" if name in COMM else None
    if name.startswith("Optimizer.") or name in ("DataParallel.forward",
                                                   "DistributedDataParallel.forward"):
        return "hidden"
    return "op"


def tree_build(events):
    """An independent reading of the plugin's op tree with runtime calls
    nested by time (not by External id).  Returns the nodes (dicts) and the
    GPU ops (kernel, memcpy, memset) by correlation id."""
    from collections import defaultdict
    gpu = defaultdict(list)  # correlation -> GPU ops
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("kernel", "gpu_memcpy", "gpu_memset"):
            corr = (e.get("args") or {}).get("correlation")
            if corr is not None:
                gpu[corr].append(e)
    by_tid = defaultdict(list)
    for e in events:
        if e.get("ph") != "X":
            continue
        k = node_kind(e)
        if k is not None:
            by_tid[(e.get("pid"), e.get("tid"))].append((e["ts"], -(e["ts"] + e["dur"]), 0, k, e))
        elif e.get("cat") in ("cuda_runtime", "runtime"):
            by_tid[(e.get("pid"), e.get("tid"))].append((e["ts"], -(e["ts"] + e["dur"]), 1, "rt", e))
    nodes = []
    root_rts = []
    for items in by_tid.values():
        items.sort(key=lambda x: (x[0], x[1], x[2]))
        stack = []
        tnodes = []
        for ts, negend, isrt, kind, e in items:
            end = -negend
            while stack and stack[-1]["end"] <= ts:
                stack.pop()
            if isrt:
                # the host time is the innermost node's; the GPU work of a
                # call in a collective's user annotation is the op's around it
                if stack:
                    stack[-1]["rts_host"].append(e)
                owner = next((n for n in reversed(stack) if n["kind"] != "comm"), None)
                (owner["rts"] if owner else root_rts).append(e)
                continue
            if stack and end > stack[-1]["end"]:
                continue  # partly overlapping: dropped
            n = {"e": e, "kind": kind, "end": end, "children": [], "rts": [], "rts_host": [],
                 "merged": False}
            if stack:
                stack[-1]["children"].append(n)
            tnodes.append(n)
            stack.append(n)

        def is_operator(n):
            return n["kind"] != "step" and n["e"].get("cat") == "cpu_op"
        for n in tnodes:
            if n["merged"] or not is_operator(n):
                continue
            while len(n["children"]) == 1:
                c = n["children"][0]
                if c["e"]["name"] != n["e"]["name"] or not is_operator(c):
                    break
                c["merged"] = True
                n["children"] = c["children"]
                n["rts"] = n["rts"] + c["rts"]
                n["rts_host"] = n["rts_host"] + c["rts_host"]
        nodes += [n for n in tnodes if not n["merged"]]
    return nodes, root_rts, gpu


def tree_ops(events):
    """Per plain cpu_op name and per (name, Input Dims): [calls, host total,
    host self, device total, device self, runtime, runtime in collective
    annotations below] in µs as the trace writes them, by tree_build."""
    from collections import defaultdict
    nodes, _, gpu = tree_build(events)
    rows = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    rows_in = defaultdict(lambda: [0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])

    def dev(n):
        if "dt" not in n:
            n["ds"] = sum(g["dur"] for r in n["rts"]
                          for g in gpu.get((r.get("args") or {}).get("correlation"), []))
            n["dt"] = n["ds"] + sum(dev(c) for c in n["children"])
        return n["dt"]
    for n in nodes:
        if n["kind"] != "op":
            continue
        e = n["e"]
        rt = sum(r["dur"] for r in n["rts_host"])
        self_ = e["dur"] - sum(c["e"]["dur"] for c in n["children"]) - rt
        # calls in a collective annotation below: the plugin subtracts them
        # again (it charges them by External id to this op)
        twice = sum(r["dur"] for c in n["children"] if c["kind"] == "comm" for r in c["rts_host"])
        dt = dev(n)
        dims = (e.get("args") or {}).get("Input Dims", [])
        for key, tab in ((e["name"], rows), ((e["name"], str(dims).replace(" ", "")), rows_in)):
            r = tab[key]
            r[0] += 1
            r[1] += e["dur"]
            r[2] += self_
            r[3] += dt
            r[4] += n["ds"]
            r[5] += rt
            r[6] += twice
    return rows, rows_in


def tree_kernels(events):
    """Kernels by (name, operator, grid, block, registers, shared memory):
    [calls, total µs] with the operator by tree_build ("(no op)" outside
    every op); and per device [tensor-core kernel µs, kernel µs] over the
    kernels plain cpu_ops launched."""
    from collections import defaultdict
    nodes, root_rts, gpu = tree_build(events)
    rows = defaultdict(lambda: [0, 0.0])
    tc = defaultdict(lambda: [0.0, 0.0])
    seen = set()

    def add(k, op, plain):
        a = k.get("args") or {}
        key = (k["name"], op, str(a.get("grid")), str(a.get("block")),
               str(a.get("registers per thread") or "0"), str(a.get("shared memory") or "0"))
        rows[key][0] += 1
        rows[key][1] += k["dur"]
        seen.add(id(k))
        if plain:
            tc[a.get("device")][1] += k["dur"]
            if uses_tc(k["name"]):
                tc[a.get("device")][0] += k["dur"]
    for n in nodes:
        for r in n["rts"]:
            for g in gpu.get((r.get("args") or {}).get("correlation"), []):
                if g.get("cat") == "kernel":
                    add(g, n["e"]["name"], n["kind"] == "op")
    for r in root_rts:
        for g in gpu.get((r.get("args") or {}).get("correlation"), []):
            if g.get("cat") == "kernel":
                add(g, "(no op)", False)
    for gs in gpu.values():
        for g in gs:
            if g.get("cat") == "kernel" and id(g) not in seen:
                add(g, "N/A", False)
    return rows, tc


TC_KERNELS = ("h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816", "dgrad_1x1_stride_2x2",
              "first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group",
              "xmma_implicit_gemm", "xmma_sparse_conv", "xmma_warp_specialized_implicit_gemm",
              "xmma_gemm", "xmma_sparse_gemm", "c1688")


def uses_tc(name):
    return any(p in name for p in TC_KERNELS)


def check_operators(ctx):
    c = Check("operators")
    workers = read_csv(os.path.join(ctx.ref_top, "workers.csv"))
    linked = {w["worker"]: int(w["derived_rt_extid_no_op"] or 0) == 0 and
              int(w["derived_rt_extid_op_elsewhere"] or 0) == 0 for w in workers}
    traces = {}
    for rank, ev in load_trace_events(ctx.trace):
        traces[rank] = ev
    for table, refname, keyf in (("operators", "operators.csv", lambda r: r["name"]),
                                 ("operators_by_shapes", "operators_by_input.csv",
                                  lambda r: (r["name"], r["input_shape"].replace(" ", "")))):
        refs = ctx.refcsv(refname)
        for worker, rank in sorted(ctx.rank.items()):
            wrefs = [r for r in refs if r["worker"] == worker]
            out = subprocess.run([ctx.tracetop, "report", "operators", "-q", "-f", "csv", "--table",
                                  table, "--ranks", str(rank), ctx.trace], stdout=subprocess.PIPE,
                                 stderr=subprocess.DEVNULL, check=True).stdout.decode("utf-8")
            ours = {}
            for r in csv.DictReader(io.StringIO(out)):
                k = r["name"] if table == "operators" else (r["name"], r["input_dims"])
                ours[k] = r
            c.exact("rank %d %s rows" % (rank, table), len(ours), len(wrefs))
            indep = tree_ops(traces.get(rank, []))[0 if table == "operators" else 1]
            for ref in wrefs:
                k = keyf(ref)
                o = ours.get(k)
                w = "rank %d %s %r" % (rank, table, k)
                if o is None:
                    c.bad.append(w + " missing")
                    continue
                c.rows += 1
                c.exact(w + " calls", int(o["calls"]), int(ref["calls"]))
                c.time(w + " host total", us(o, "host_total(us)"), num(ref["host_total_us"]))
                if linked.get(worker, True):
                    ind = indep.get(k)
                    if ind and ind[6] and abs(us(o, "host_self(us)") - num(ref["host_self_us"])) > TIME_ABS:
                        # runtime calls inside a collective's annotation: the
                        # plugin charges them to this op by External id and
                        # subtracts them twice (the child's span holds them)
                        c.time(w + " host self (calls in annotations subtracted once)",
                               us(o, "host_self(us)"), ind[2])
                        c.time(w + " host self - calls subtracted twice", ind[2] - ind[6],
                               num(ref["host_self_us"]))
                        c.bug("runtime calls in a collective's annotation subtracted twice "
                              "from host self", 2)
                    else:
                        c.time(w + " host self", us(o, "host_self(us)"), num(ref["host_self_us"]))
                    c.time(w + " device total", us(o, "device_total(us)"),
                           num(ref["device_total_us"]))
                    c.time(w + " device self", us(o, "device_self(us)"),
                           num(ref["device_self_us"]))
                    c.exact(w + " tensor-core eligible", o["tc_eligible"] == "yes",
                            ref["tc_eligible"] == "1")
                    c.pct(w + " tc self %", num(o["tc_self_pctg"]),
                          100 * num(ref["tc_self_pct"]) if num(ref["tc_self_pct"]) <= 1 else num(ref["tc_self_pct"]))
                    continue
                # The plugin links runtime calls to ops by External id; here
                # none link, so it counts runtime time as host self and shows
                # no device time.  Its host self is ours plus our runtime;
                # our device times match an independent nesting by time.
                c.time(w + " host self + runtime calls", us(o, "host_self(us)") + us(o, "runtime(us)"),
                       num(ref["host_self_us"]))
                ind = indep.get(k)
                if ind is None:
                    c.bad.append(w + " missing from the independent tree")
                    continue
                c.time(w + " host self (nested runtime calls)", us(o, "host_self(us)"), ind[2])
                c.time(w + " device total (nested)", us(o, "device_total(us)"), ind[3])
                c.time(w + " device self (nested)", us(o, "device_self(us)"), ind[4])
                if ind[5] or ind[3]:
                    c.bug("runtime calls not linked to ops by External id: no device time, "
                          "runtime time counted as host self", 3)
    return c.done()


# ---- GPU summary and kernels ----

def run_ranks(ctx, report, table, rank):
    out = subprocess.run([ctx.tracetop, "report", report, "-q", "-f", "csv", "--table", table,
                          "--ranks", str(rank), ctx.trace], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, check=True).stdout.decode("utf-8")
    return list(csv.DictReader(io.StringIO(out)))


def unlinked(ctx, worker):
    for w in read_csv(os.path.join(ctx.ref_top, "workers.csv")):
        if w["worker"] == worker:
            return int(w["derived_rt_extid_no_op"] or 0) > 0 or \
                int(w["derived_rt_extid_op_elsewhere"] or 0) > 0
    return False


def check_gpu(ctx):
    c = Check("gpu")
    ours = {(int(r["rank"]), int(r["device"])): r for r in ctx.ours("utilization", "gpu_utilization")}
    traces = dict(load_trace_events(ctx.trace))
    refs = ctx.refcsv("gpu_metrics.csv")
    c.exact("devices", len(ours), len(refs))
    for ref in refs:
        rank = ctx.rank[ref["worker"]]
        key = (rank, int(ref["gpu_id"]))
        o = ours.get(key)
        w = "rank %d GPU %d" % key
        if o is None:
            c.bad.append(w + " missing")
            continue
        c.rows += 1
        c.time(w + " steps window", us(o, "steps_time(us)"), num(ref["steps_time_us"]))
        c.pct(w + " GPU utilization", num(o["gpu_utilization_pctg"]), num(ref["gpu_utilization_pct"]))
        c.pct(w + " est. SM efficiency", num(o["est_sm_efficiency_pctg"]), num(ref["est_sm_efficiency_pct"]))
        c.pct(w + " est. achieved occupancy", num(o["est_achieved_occupancy_pctg"]),
              num(ref["est_achieved_occupancy_pct"]))
        c.exact(w + " kernels", int(o["kernels"]), int(ref["kernels"]))
        c.exact(w + " kernels with blocks per SM", int(o["kernels_with_blocks_per_sm"]),
                int(ref["kernels_with_blocks_per_sm"]))
        c.exact(w + " kernels with occupancy", int(o["kernels_with_occupancy"]),
                int(ref["kernels_with_occupancy"]))
        # the plugin's SM efficiency is never above its utilization
        c.values += 1
        if num(o["est_sm_efficiency_pctg"]) > num(o["gpu_utilization_pctg"]) + 1e-9:
            c.bad.append(w + " est. SM efficiency above GPU utilization")
        if ref["tensor_cores_pct"] != "":
            c.pct(w + " tensor cores", num(o["tensor_cores_pctg"]), num(ref["tensor_cores_pct"]))
        else:
            # the plugin finds no kernel under an op (runtime calls linked
            # by External id only) and shows none: ours by nesting
            tcs = tree_kernels(traces.get(rank, []))[1].get(key[1], [0.0, 0.0])
            want = 100 * tcs[0] / tcs[1] if tcs[1] else None
            c.pct(w + " tensor cores (nested launches)", num(o["tensor_cores_pctg"]), want)
            c.bug("no tensor-core figure: kernels not linked to ops by External id")
    return c.done()


def check_kernels(ctx):
    c = Check("kernels")
    traces = dict(load_trace_events(ctx.trace))
    refs = ctx.refcsv("kernels.csv")
    refs_op = ctx.refcsv("kernels_by_op.csv")
    for worker, rank in sorted(ctx.rank.items()):
        wrefs = [r for r in refs if r["worker"] == worker]
        ours = {r["name"]: r for r in run_ranks(ctx, "utilization", "kernel_utilization", rank)}
        c.exact("rank %d kernels" % rank, len(ours), len(wrefs))
        for ref in wrefs:
            o = ours.get(ref["name"])
            w = "rank %d kernel %.60s" % (rank, ref["name"])
            if o is None:
                c.bad.append(w + " missing")
                continue
            c.rows += 1
            c.exact(w + " tensor cores", o["tc_used"] == "yes", ref["tc_used"] == "1")
            c.exact(w + " calls", int(o["calls"]), int(ref["calls"]))
            for col, rc in (("total(us)", "total_us"), ("mean(us)", "mean_us"),
                            ("max(us)", "max_us"), ("min(us)", "min_us")):
                c.time(w + " " + col, us(o, col), num(ref[rc]))
            c.values += 1
            a, b = num(o["mean_blocks_per_sm"]), num(ref["mean_blocks_per_sm"])
            if abs(a - b) > max(1e-4, 1e-4 * abs(b)):
                c.bad.append("%s blocks per SM: tracetop %r, plugin %r" % (w, a, b))
            c.pct(w + " occupancy", num(o["mean_est_achieved_occupancy_pctg"]),
                  num(ref["mean_est_achieved_occupancy_pct"]))
        # by operator
        ours = {}
        for r in run_ranks(ctx, "utilization", "kernels_by_operator", rank):
            ours[(r["name"], r["operator"], r["grid"], r["block"], r["registers_per_thread"],
                  r["shared_memory"])] = r
        if unlinked(ctx, worker):
            # the plugin drops every kernel whose runtime call's External
            # id names no op: ours against an independent nesting by time
            ind = tree_kernels(traces.get(rank, []))[0]
            c.exact("rank %d kernels by operator (nested launches)" % rank, len(ours), len(ind))
            for k, (calls, total) in ind.items():
                kk = (k[0], k[1], k[2], k[3], k[4], k[5])
                kk = tuple(x if x != "None" else "[0, 0, 0]" for x in kk[:4]) + kk[4:]
                o = ours.get(kk)
                w = "rank %d kernel %.40s under %s" % (rank, k[0], k[1])
                if o is None:
                    c.bad.append(w + " missing")
                    continue
                c.rows += 1
                c.exact(w + " calls", int(o["calls"]), calls)
                c.time(w + " total", us(o, "total(us)"), total)
            c.bug("kernels whose launch has no op by External id left out of the kernel "
                  "view by operator", len(ind))
            continue
        wrefs = [r for r in refs_op if r["worker"] == worker]
        c.exact("rank %d kernels by operator" % rank, len(ours), len(wrefs))
        for ref in wrefs:
            op = "(no op)" if ref["operator"] == "CallTreeRoot" else ref["operator"]
            k = (ref["name"], op, ref["grid"], ref["block"], ref["registers_per_thread"],
                 ref["shared_memory"])
            o = ours.get(k)
            w = "rank %d kernel %.40s under %s" % (rank, ref["name"], op)
            if o is None:
                c.bad.append(w + " missing")
                continue
            c.rows += 1
            c.exact(w + " calls", int(o["calls"]), int(ref["calls"]))
            for col, rc in (("total(us)", "total_us"), ("mean(us)", "mean_us"),
                            ("max(us)", "max_us"), ("min(us)", "min_us")):
                c.time(w + " " + col, us(o, col), num(ref[rc]))
            c.pct(w + " occupancy", num(o["mean_est_achieved_occupancy_pctg"]),
                  num(ref["mean_est_achieved_occupancy_pct"]))
    return c.done()


# ---- distributed ----

def comm_calls(events, steps):
    """The plugin's collective ops of one rank with the kernels launched
    inside them (by time, not External id): a list by (start, -end) of
    (name, bytes or None, ranges sorted by (start, -end), step index or
    None).  steps: the kept windows [(t0, t1)] in µs."""
    from collections import defaultdict
    TYPES = {"long int": 8, "float": 4, "int": 4, "c10::Half": 2, "c10::BFloat16": 2,
             "unsigned char": 1, "double": 8, "long": 8, "bool": 1, "signed char": 1}
    ops = [e for e in events if e.get("ph") == "X" and e.get("cat") in ("cpu_op", "user_annotation")
           and e.get("name") in COMM]
    kern = defaultdict(list)
    for e in events:
        if e.get("ph") == "X" and e.get("cat") == "kernel":
            corr = (e.get("args") or {}).get("correlation")
            if corr is not None:
                kern[corr].append(e)
    by_tid = defaultdict(list)
    for o in ops:
        by_tid[(o.get("pid"), o.get("tid"))].append(o)
    ranges = {id(o): [(o["ts"], o["ts"] + o["dur"])] for o in ops}
    for e in events:
        if e.get("ph") != "X" or e.get("cat") not in ("cuda_runtime", "runtime"):
            continue
        inner = None
        for o in by_tid.get((e.get("pid"), e.get("tid")), []):
            if o["ts"] <= e["ts"] < o["ts"] + o["dur"]:
                if inner is None or (o["ts"], -(o["ts"] + o["dur"])) > \
                        (inner["ts"], -(inner["ts"] + inner["dur"])):
                    inner = o
        if inner is not None:
            for k in kern.get((e.get("args") or {}).get("correlation"), []):
                ranges[id(inner)].append((k["ts"], k["ts"] + k["dur"]))
    ops.sort(key=lambda o: (o["ts"], -(o["ts"] + o["dur"])))
    out = []
    idx = 0
    stop = False
    for o in ops:
        a = o.get("args") or {}
        nbytes = None
        for dims, typ in zip(a.get("Input Dims") or [], a.get("Input type") or []):
            if typ in TYPES:
                n = 1
                for d in dims:
                    n *= d
                nbytes = (nbytes or 0) + n * TYPES[typ]
        step = None
        while not stop and idx < len(steps):
            s0, s1 = steps[idx]
            if o["ts"] >= s0 and o["ts"] + o["dur"] <= s1:
                step = idx
                break
            elif o["ts"] >= s1:
                idx += 1
            else:
                break
        if idx >= len(steps):
            stop = True
        out.append((o["name"], nbytes, sorted(ranges[id(o)], key=lambda r: (r[0], -r[1])), step))
    return out


def union(rs):
    rs = sorted(rs)
    total, cur = 0.0, None
    for a, b in rs:
        if cur is None or a > cur[1]:
            if cur:
                total += cur[1] - cur[0]
            cur = [a, b]
        else:
            cur[1] = max(cur[1], b)
    if cur:
        total += cur[1] - cur[0]
    return total


def dist_indep(ctx, traces):
    """tracetop's distributed tables by an independent computation: per
    rank, {step label: (total, transfer)} and {name: (calls, bytes, latency,
    transfer)}."""
    steps = {}
    for r in ctx.ours("overview", "step_time_breakdown"):
        rank = int(r["rank"])
        t0 = us(r, "start(us)")
        steps.setdefault(rank, []).append((r["step"], t0, t0 + us(r, "step_time(us)")))
    # windows in absolute µs: the trace's first event is the rank's t0
    calls = {}
    for rank, ev in traces.items():
        base = min(e["ts"] for e in ev if e.get("ph") == "X" and e.get("cat") != "Trace")
        st = steps.get(rank, [])
        calls[rank] = (comm_calls(ev, [(base + a, base + b) for _, a, b in st]), st)
    ranks = sorted(calls)
    shown = all(calls[r][0] for r in ranks) and \
        len({len(calls[r][0]) for r in ranks}) == 1 and \
        all(len({len(calls[r][0][i][2]) for r in ranks}) == 1 for i in range(len(calls[ranks[0]][0])))
    real = {r: [] for r in ranks}
    if shown:
        for i in range(len(calls[ranks[0]][0])):
            for j in range(len(calls[ranks[0]][0][i][2])):
                mn = min(calls[r][0][i][2][j][1] - calls[r][0][i][2][j][0] for r in ranks)
                for r in ranks:
                    while len(real[r]) <= i:
                        real[r].append([])
                    end = calls[r][0][i][2][j][1]
                    real[r][i].append((end - mn, end))
    waits, ops = {}, {}
    for r in ranks:
        cs, st = calls[r]
        keys = {}
        names = {}
        for i, (name, nb, rs, step) in enumerate(cs):
            label = st[step][0] if step is not None else "(no step)"
            k = keys.setdefault(label, ([], []))
            k[0].extend(rs)
            if shown:
                k[1].extend(real[r][i])
            n = names.setdefault(name, [0, None, [], []])
            n[0] += 1
            if nb is not None:
                n[1] = (n[1] or 0) + nb
            n[2].extend(rs)
            if shown:
                n[3].extend(real[r][i])
        w = {lab: (union(a), union(b) if shown else None) for lab, (a, b) in keys.items()}
        if w:
            w["all"] = (sum(x[0] for x in w.values()) / len(w),
                        sum(x[1] for x in w.values()) / len(w) if shown else None)
        waits[r] = w
        ops[r] = {nm: (v[0], v[1], union(v[2]), union(v[3]) if shown else None)
                  for nm, v in names.items()}
    return shown, waits, ops


def check_distributed(ctx):
    c = Check("distributed")
    unlinked_comm = comm_kernels_unlinked(ctx)
    # computation / communication per step
    ours = {(int(r["rank"]), "0" if r["step"] == "(all)" else r["step"]): r
            for r in ctx.ours("distributed", "distributed_steps")}
    for ref in ctx.refcsv("dist_overlap.csv"):
        key = (ctx.rank[ref["worker"]], ref["step"])
        o = ours.get(key)
        w = "rank %d step %s" % key
        if o is None:
            c.bad.append(w + " missing")
            continue
        c.rows += 1
        if not unlinked_comm:
            for col in ("computation", "overlapping", "communication", "other"):
                c.time(w + " " + col, us(o, col + "(us)"), num(ref[col + "_us"]))
        else:
            c.time(w + " computation+overlapping (kernels without communication kernels)",
                   us(o, "computation(us)") + us(o, "overlapping(us)"),
                   num(ref["derived_computation_by_kernel_name_us"]) +
                   num(ref["derived_overlapping_by_kernel_name_us"]))
            c.time(w + " other", us(o, "other(us)"), num(ref["other_us"]))
            c.bug("communication kernels not linked to nccl: ops counted as computation")
    # waits and ops: against the plugin where no kernel is launched inside
    # a collective op (the plugin then has the same ranges), else against
    # an independent computation
    traces = dict(load_trace_events(ctx.trace))
    ops = ctx.ours("distributed", "distributed_ops")
    with_kernels = any(int(r["kernels"]) > 0 for r in ops)
    oops = {(int(r["rank"]), r["name"]): r for r in ops}
    owait = {(int(r["rank"]), "0" if r["step"] == "(all)" else r["step"]): r
             for r in ctx.ours("distributed", "distributed_wait")}
    if not with_kernels:
        for ref in ctx.refcsv("dist_ops.csv"):
            key = (ctx.rank[ref["worker"]], ref["name"])
            o = oops.get(key)
            w = "rank %d %s" % key
            if o is None:
                c.bad.append(w + " missing")
                continue
            c.rows += 1
            c.exact(w + " calls", int(o["calls"]), int(ref["calls"]))
            c.exact(w + " bytes", int(o["total_size_bytes"] or 0), int(ref["total_size_bytes"]))
            c.time(w + " latency", us(o, "total_latency(us)"), num(ref["total_latency_us"]))
            c.time(w + " data transfer", us(o, "data_transfer(us)"), num(ref["data_transfer_us"]))
            c.time(w + " mean latency", us(o, "avg_latency(us)"), num(ref["avg_latency_us"]))
        for ref in ctx.refcsv("dist_wait.csv"):
            step = ref["step"] if ref["step"] else "(no step)"
            key = (ctx.rank[ref["worker"]], step)
            o = owait.get(key)
            w = "rank %d step %s" % key
            if o is None:
                c.bad.append(w + " missing")
                continue
            c.rows += 1
            c.time(w + " data transfer", us(o, "data_transfer(us)"), num(ref["data_transfer_us"]))
            c.time(w + " synchronizing", us(o, "synchronizing(us)"), num(ref["synchronizing_us"]))
        c.exact("ops rows", len(oops), len(ctx.refcsv("dist_ops.csv")))
        c.exact("wait rows", len(owait), len(ctx.refcsv("dist_wait.csv")))
        return c.done()
    shown, waits, iops = dist_indep(ctx, traces)
    for ref in ctx.refcsv("dist_ops.csv"):
        key = (ctx.rank[ref["worker"]], ref["name"])
        o = oops.get(key)
        if o is None:
            c.bad.append("rank %d %s missing" % key)
            continue
        c.exact("rank %d %s calls" % key, int(o["calls"]), int(ref["calls"]))
        c.exact("rank %d %s bytes" % key, int(o["total_size_bytes"] or 0), int(ref["total_size_bytes"]))
    for rank, names in iops.items():
        for name, (calls, nb, lat, tr) in names.items():
            o = oops.get((rank, name))
            w = "rank %d %s (kernels launched inside)" % (rank, name)
            if o is None:
                c.bad.append(w + " missing")
                continue
            c.rows += 1
            c.exact(w + " calls", int(o["calls"]), calls)
            c.time(w + " latency", us(o, "total_latency(us)"), lat)
            c.time(w + " data transfer", us(o, "data_transfer(us)"), tr)
            c.bug("communication kernels not linked to nccl: ops: latency of the CPU spans only", 2)
    for rank, steps in waits.items():
        for label, (tot, tr) in steps.items():
            o = owait.get((rank, label))
            w = "rank %d step %s (kernels launched inside)" % (rank, label)
            if o is None:
                c.bad.append(w + " missing")
                continue
            c.rows += 1
            c.time(w + " data transfer", us(o, "data_transfer(us)"), tr)
            c.time(w + " synchronizing", us(o, "synchronizing(us)"),
                   tot - tr if tr is not None else None)
            c.bug("communication kernels not linked to nccl: ops: latency of the CPU spans only", 2)
    return c.done()


# ---- advice ----

def check_advice(ctx):
    """Every recommendation the plugin makes has a finding on the same
    topic, with its number."""
    import re
    c = Check("advice")
    ours = ctx.ours("advice", "advice")
    by_topic = {}
    for r in ours:
        by_topic.setdefault(r["topic"], []).append(r)
    for ref in ctx.refcsv("recommendations.csv"):
        text = ref["text"]
        c.rows += 1
        m = re.match(r"GPU ([\d, and]+) ha(s|ve) low utilization", text)
        if m:
            rows = by_topic.get("gpu_utilization", [])
            c.exact("low GPU utilization finding", len(rows), 1)
            rank = ctx.rank[ref["worker"]]
            for g in re.findall(r"\d+", m.group(1)):
                c.values += 1
                if not rows or ("rank %d GPU %s " % (rank, g)) not in rows[0]["finding"]:
                    c.bad.append("rank %d GPU %s not named: %r" % (rank, g, rows[0]["finding"] if rows else None))
            continue
        m = re.search(r"Kernels with (\d+)% time are launched by Tensor Cores eligible", text)
        if m:
            rows = by_topic.get("tensor_cores", [])
            c.exact("tensor cores finding", len(rows), 1)
            if rows:
                c.values += 1
                if round(float(rows[0]["value"])) != int(m.group(1)):
                    c.bad.append("tensor cores: tracetop %s %%, plugin %s %%" % (rows[0]["value"], m.group(1)))
            continue
        m = re.search(r"([\d.]+)% of the step time is in communication", text)
        if m:
            rows = by_topic.get("communication", [])
            c.exact("communication share finding", len(rows), 1)
            if rows:
                c.pct("communication share", num(rows[0]["value"]), float(m.group(1)))
            continue
        m = re.search(r"([\d.]+)% of the step time is in DataLoader", text)
        if m:
            rows = by_topic.get("dataloader", [])
            c.exact("DataLoader share finding", len(rows), 1)
            if rows:
                c.pct("DataLoader share", num(rows[0]["value"]), float(m.group(1)))
            continue
        for pat, topic in (("DistributedDataParallel instead of DataParallel", "data_parallel"),
                           ("Nccl backend", "ddp_without_nccl"),
                           ("Device memory usage is at the limit", "memory_peak")):
            if pat in text:
                c.exact(topic + " finding", bool(by_topic.get(topic)), True)
                break
        else:
            c.bad.append("recommendation of no known topic: %r" % text[:80])
    return c.done()


VIEWS = {"overview": check_overview, "operators": check_operators, "gpu": check_gpu,
         "kernels": check_kernels, "distributed": check_distributed,
         "advice": check_advice}


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in VIEWS:
        sys.exit(__doc__)
    view, trace, ref, tracetop = sys.argv[1:]
    ctx = Ctx(trace, ref, tracetop)
    sys.exit(VIEWS[view](ctx))


if __name__ == "__main__":
    main()
