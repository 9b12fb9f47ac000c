#!/usr/bin/env python3
"""Every number on screen is the number of the report, and reads right.

Runs the explorer headless on one trace set at one size, visiting every pane
and view (and the drill-down of each pane's first row, and of its first row:
the second level), with <Cells> after
each: the screen, then one JSON line saying where each column of the pane's
table was drawn, with the CSV value of every cell of every row drawn.  For
each drawn number it checks:

  1. the text drawn is a whole number that parses, with the unit in its
     column's header, to the cell's value within display rounding (so no
     cell shows the leading digits of its number, and no column reaches past
     the screen's edge);
  2. the cell's value is the value of `tracetop report NAME --table T -f csv`
     for the same row: rows joined on their text and integer columns, or,
     for the panes that lay a report out differently, through the mapping in
     MAPS below;
  3. per-row percentages that claim to split one span (a stacked bar over
     100 %, and PARTS below) sum to 100 +- 0.1;
  4. the time columns a reader compares (one group of the table, COMPARED
     below, both sides of one column and its Δ) show one unit;
  5. no two names of one text column are drawn alike unless they are the
     same name;
  6. no text on the screen is cut short without an ellipsis (a word cut, a
     sentence cut at a space): the explorer says what tt_grid_put cut in
     an "@@cuts" line beside each screen.

Every table a pane draws is compared with a report (the report the pane
names as its source, TABLE_REPORT, MAPS, or CUSTOM for the perf model's
views), and every column it draws has
its column in that report, or the table or column is listed in EXEMPT with
the reason it is not compared: anything else fails.  The views walked are
all of the views menu (their number comes from the explorer's registry);
of each pane and view, the first screen, the drill-down of its first row
(Enter) and the drill-down of that one's first row (Enter, Enter: the second
level) are read.  A drill-down's table is one thing of the report: its
subtitle names it (SUBTITLE: "rank 0", "ProfilerStep#100"), and the report
is asked for it (REPORT_ARGS: --op, --iteration).

  screencheck.py --tracetop BIN --size WxH --label NAME [--diff] -- PATH...

Prints one line per failure and a summary (tables compared of those drawn,
rows and numbers compared with a report, what was exempt); exits 1 on any
failure.
"""
import argparse
import csv
import io
import json
import math
import re
import subprocess
import sys

# Pane tables and columns not compared with a report, each with its reason.
# A table drawn by a pane that is neither mapped to a report nor listed here
# fails the check, and so does a column the report lacks.  A key "T" exempts
# table T; "T.c" column c of table T.
EXEMPT = {
    "event": "one event's fields (drill-down of a row): the trace's own values, "
             "no report prints them",
    "instances": "a kernel's or op's instances (drill-down): the events themselves, "
                 "no report lists them one by one",
    "rank": "a rank's tracks (drill-down of the Overview): per-track busy time, "
            "no report prints it",
    "compare_traces.count": "the pane's count of both sides' calls, a sum of the "
                            "report's Control_counts and Test_counts columns",
    "compare_traces.impact": "the pane's order: |diff_duration| of the row, the report "
                             "orders by it without printing it",
    "advice": "findings as prose wrapped over several rows (a row is a piece of a "
              "sentence, not a row of the report's table); the report prints the same "
              "typed result",
    "critical_path_steps.mark": "the '*' on the rank that bounds the step: a marker, "
                                "kept off the CSV",
    "critical_path_steps.none": "the part of the path bound by nothing, the bar's "
                                "remainder: kept off the CSV, drawn as a bar",
    "critical_path_steps.bar_data": "a bar's share (drawn as a bar, not as a number)",
    "critical_path_steps.bar_wait": "a bar's share (drawn as a bar, not as a number)",
    "critical_path_steps.bar_comm": "a bar's share (drawn as a bar, not as a number)",
    "critical_path_steps.bar_cpu": "a bar's share (drawn as a bar, not as a number)",
    "critical_path_steps.bar_gpu": "a bar's share (drawn as a bar, not as a number)",
    "critical_path_steps.bar_overhead": "a bar's share (drawn as a bar, not as a number)",
    "critical_path_top.bound": "bound_by (compared) in words",
    "frequent_cuda_kernel_sequences.#": "the row's position in the pane",
    "frequent_cuda_kernel_sequences.op": "the operator the pane asked for, the "
                                          "report's --op (not a column of its table)",
    "frequent_cuda_kernel_sequences.sequence": "the kernel names of the pattern, "
                                               "shortened; the report's pattern column "
                                               "holds them joined",
}

# Percentages of one row that split one span: they must sum to 100.
PARTS = {
    "byrank": [["busy_pctg", "idle_pctg"]],
    "temporal_breakdown": [["idle_time_pctg", "compute_time_pctg", "non_compute_time_pctg"]],
}

# Pane tables that lay a report's table out differently: for each pane
# column, the report table, how its rows match (report column -> pane
# column, or '=literal'), the report column, and how matching rows combine.
MAPS = {
    "idle": {
        "host_wait": ("idle", "idle_time_breakdown",
                      {"rank": "rank", "stream": "stream", "idle_category": "=host_wait"},
                      "idle_time", "one0"),
        "kernel_wait": ("idle", "idle_time_breakdown",
                        {"rank": "rank", "stream": "stream", "idle_category": "=kernel_wait"},
                        "idle_time", "one0"),
        "other": ("idle", "idle_time_breakdown",
                  {"rank": "rank", "stream": "stream", "idle_category": "=other"},
                  "idle_time", "one0"),
        "idle": ("idle", "idle_time_breakdown", {"rank": "rank", "stream": "stream"},
                 "idle_time", "sum"),
        "gaps": ("idle", "idle_interval_stats", {"rank": "rank", "stream": "stream"},
                 "count", "sum"),
        "largest_gap": ("idle", "idle_interval_stats", {"rank": "rank", "stream": "stream"},
                        "max", "max"),
    },
}


def one_row(rep, tab, match, cols):
    """pane column -> report column, each from the one report row matching"""
    return {pc: (rep, tab, match, rc, "one") for pc, rc in cols.items()}




def series(kind):
    """the counters pane's series column ("queue, stream 7", "GB/s, Memcpy
    HtoD") as the key of the report's row: the stream or the copy's name"""
    def get(csv_):
        s = csv_.get("series", "")
        if kind == "queue" and s.startswith("queue, stream "):
            return s[len("queue, stream "):]
        if kind == "bw" and s.startswith("GB/s, "):
            return s[len("GB/s, "):]
        return None
    return get


# the counters pane: queue rows from queue_length_summary (the time at the
# full queue from time_blocked_on_full_queue, 0 where the stream never gets
# there), bandwidth rows from memory_bw_summary
MAPS["counters"] = {
    pc: [("counters", "queue_length_summary", {"rank": "rank", "stream": series("queue")},
          rc, "one"),
         ("counters", "memory_bw_summary", {"rank": "rank", "name": series("bw")}, rc, "one")]
    for pc, rc in (("count", "count"), ("mean", "mean"), ("max", "max"))
}
MAPS["counters"]["full_queue"] = [
    ("counters", "time_blocked_on_full_queue", {"rank": "rank", "stream": series("queue")},
     "duration_at_max_queue_length", "one0")]

# the launch pane's outliers of a rank (drill-down): each launch's row of
# cuda_kernel_launch_stats
MAPS["outliers"] = one_row("launch", "cuda_kernel_launch_stats",
                           {"rank_index": "rank_index", "cpu_event": "cpu_event"}, {
                               "correlation": "correlation", "launch_delay": "launch_delay",
                               "cpu_duration": "cpu_duration", "gpu_duration": "gpu_duration",
                               "gpu_event": "gpu_event"})

# the TensorBoard views' panes: drawn from the typed results the reports print
MAPS.update({
    "step-time": one_row("overview", "step_time_breakdown", {"rank": "rank", "step": "step"}, {
        "step_time": "step_time(us)", "Kernel": "kernel(us)", "Memcpy": "memcpy(us)",
        "Memset": "memset(us)", "Communication": "communication(us)",
        "Runtime": "runtime(us)", "DataLoader": "dataloader(us)", "CPU Exec": "cpu_exec(us)",
        "Other": "other(us)",
        "kernel_pctg": ("kernel(us)", "step_time(us)"),
        "communication_pctg": ("communication(us)", "step_time(us)")}),
    "utilization": one_row("utilization", "gpu_utilization", {"rank": "rank", "device": "device"}, {
        "gpu_utilization": "gpu_utilization_pctg",
        "est_sm_efficiency": "est_sm_efficiency_pctg",
        "est_achieved_occupancy": "est_achieved_occupancy_pctg",
        "tensor_cores": "tensor_cores_pctg",
        "busy_of_gpu_span": "busy_of_gpu_span_every_event_pctg"}),
    "kernels": one_row("utilization", "kernel_utilization", {"name": "name"}, {
        "calls": "calls", "total": "total(us)", "time_pctg": "time_pctg",
        "occupancy": "mean_est_achieved_occupancy_pctg",
        "sm_eff_per_kernel_time": "sm_eff_per_kernel_time_pctg"}),
    "distributed": one_row("distributed", "distributed_overview", {"rank": "rank"}, {
        "step": "step_time(us)", "computation": "computation(us)",
        "overlapping": "overlapping(us)", "communication": "communication(us)",
        "other": "other(us)"}),
    "operators": one_row("operators", "operators", {"name": "name"}, {
        "calls": "calls", "host_self": "host_self(us)", "device_self": "device_self(us)"}),
    "steps": one_row("steps", "steps_across_ranks", {"step": "step"}, {
        "ranks": "ranks", "min": "min(us)", "median": "median(us)", "max": "max(us)",
        "slowest_rank": "slowest_rank"}),
    "memory": one_row("memory", "memory_devices", {"rank": "rank", "device": "device"}, {
        "at": "peak_time(us)", "of_device": "device_memory_pctg", "alive": "live_at_peak"}),
    "source": one_row("source", "source_stacks",
                      {"operator": "operator", "innermost_frame": "innermost_frame"}, {
                          "calls": "calls", "host_total": "host_total(us)"}),
})

# ---- the views' drill-downs (Enter on a view's first row) ----
# What a drill-down's subtitle says of its rows, as "@name" fields its
# mappings match on.
SUBTITLE = {
    "collectives": r"^rank (?P<rank>-?\d+)$",
    "live": r"^rank (?P<rank>-?\d+) (?P<device>\S+)$",
    "step": r"#(?P<step>\d+)$",
    "op-kernels": r"^(?P<operator>.+)$",
}


def subtitle_fields(cells):
    """the "@name" fields of a drill-down's subtitle (SUBTITLE)"""
    rx = SUBTITLE.get(cells["table"])
    m = re.search(rx, cells.get("subtitle", "")) if rx else None
    return {"@" + k: v for k, v in m.groupdict().items()} if m else {}


def diff_pairs(reps):
    """--map of the diff's rank pairs (the report's diff_ranks rows), as the
    explorer pairs the ranks"""
    rows = reps.table("diff", "diff_ranks") or []
    return ",".join(f"{r['Control_rank']}:{r['Test_rank']}" for r in rows)


# The report's options that make its table the drill-down's: by pane, or
# by table (a drill-down on both sides of a diff is pane "sides").
REPORT_ARGS = {
    # one step's names: compare_traces of that step over the diff's pairs
    "stepnames": lambda cells, reps: ["--iteration",
                                      re.search(r"#(\d+)", cells["subtitle"]).group(1),
                                      "--map", diff_pairs(reps)],
    "op-kernels": lambda cells, reps: ["--op", cells["subtitle"]],
}


def whole_row(rep, tab, fixed, cols):
    """pane column -> report column, of the report row whose other columns
    (and the fixed ones: report column -> pane column) are the pane row's:
    for a table whose rows no key tells apart (allocations of one size by
    one operator)"""
    out = {}
    for pc, rc in cols.items():
        match = dict(fixed)
        match.update({r: p for p, r in cols.items() if p != pc})
        out[pc] = (rep, tab, match, rc, "same")
    return out


def size_text(text):
    """a size as drawn ("1.1 GB", "512 B", "23 MB": 10^3 steps, tt_fmt_bytes)
    in bytes, with the rounding of its digits"""
    m = re.match(r"^(-?\d+(?:\.(\d+))?) ?([kKMGTP]?)i?B$", text or "")
    if not text:
        return math.nan, 0
    if not m:
        return None
    scale = 1000.0 ** " kMGTP".index(m.group(3).replace("K", "k") or " ")
    return float(m.group(1)) * scale, 0.5 * 10 ** -len(m.group(2) or "") * scale


MAPS.update({
    # a rank's collectives (Distributed): collectives_by_rank of the rank
    "collectives": one_row("distributed", "collectives_by_rank",
                           {"rank": "@rank", "name": "name"}, {
                               "calls": "calls", "latency": "total_latency(us)",
                               "transfer": "data_transfer(us)", "sync": "sync(us)",
                               "busbw_GBps": "busbw_mean(GB/s)", "size": "total_bytes",
                               "rank_index": "rank_index"}),
    # the kernels an operator launched (Operators): report operators --op
    "op-kernels": one_row("operators", "operator_kernels",
                          {"operator": "@operator", "name": "name"}, {
                              "count": "count", "total": "total(us)",
                              "self_count": "self_count", "self": "self(us)"}),
    # one step on every rank (Steps): the step's rows of steps
    "step": one_row("steps", "steps", {"rank": "rank", "step": "@step"}, {
        "start": "start(us)", "cpu": "cpu_duration(us)", "duration": "duration(us)",
        "gpu_busy": "gpu_busy_pctg"}),
    # the allocations alive at a device's peak (Memory)
    "live": whole_row("memory", "memory_live_at_peak",
                      {"rank": "@rank", "device": "@device", "operator": "operator"}, {
                          "bytes": "bytes", "size": "bytes", "allocated_at": "allocated_at(us)",
                          "age_at_peak": "age_at_peak(us)", "rank_index": "rank_index"}),
})
# values drawn as text: how the text reads as the report's value, and how
# near it must be
PARSE = {"collectives.size": size_text, "live.size": size_text}

# Pane tables built from a report's result without its table object: the
# report that prints the same table.
TABLE_REPORT = {
    "compare_traces": "diff",
    "idle_gaps": "idle",
    "kernels_across_ranks": "kernels",
    "load": "load",
    "critical_path_top": "critical-path",
}

# the pane keys, then the drill-down of the first row of each
PANE_KEYS = "1234567890"

UNIT = {"ns": 1e3, "µs": 1.0, "us": 1.0, "ms": 1e-3, "s": 1e-6}
NUM_RE = re.compile(r"^-?(\d+(\.\d+)?|\d(\.\d+)?e[+-]\d+)$")

failures = []
# what a run compared: tables by (pane, table), rows (a row once, however
# many reports it met: "hits") and numbers compared
# with a report, and what EXEMPT spared
done = {"tables": set(), "rows": 0, "hits": 0, "numbers": 0, "exempt": {}, "not": {}}


def exempt(what, pane):
    """a table or column (EXEMPT key) not compared: counted, or a failure"""
    if what in EXEMPT:
        done["exempt"].setdefault(what, set()).add(pane)
        return True
    return False


def fail(msg):
    failures.append(msg)


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode("utf-8", "replace")


class Reports:
    """report tables by (report, table), from `tracetop report ... -f csv`"""

    def __init__(self, tt, paths, diff):
        self.tt, self.paths, self.diff = tt, paths, diff
        self.cache = {}

    def table(self, report, table, more=()):
        key = (report, table, tuple(more))
        if key not in self.cache and not more:
            # (one run of the report for all its tables)
            tabs = self.all(report)
            if tabs is not None and table in tabs:
                self.cache[key] = tabs[table]
        if key not in self.cache:
            # (every row of the top-N lists: the panes list them all)
            args = [self.tt, "report", report, "-q", "--top", "1000000", "--table", table,
                    "-f", "csv"] + list(more)
            # a diff's two sets: the diff report compares them, the others
            # are of the first (the panes show the first)
            paths = self.paths if report == "diff" or not self.diff else self.paths[:1]
            rc, out = run(args + paths)
            rows = list(csv.DictReader(io.StringIO(out))) if rc == 0 else None
            self.cache[key] = rows
        return self.cache[key]

    def index(self, report, table, more, keys, exact=False):
        """the report table's rows by their values of keys (key_of each, or
        the text itself when exact)"""
        ikey = ("index", report, table, tuple(more), keys, exact)
        if ikey not in self.cache:
            idx = {}
            for r in self.table(report, table, more) or []:
                k = tuple(r.get(c, "") if exact else key_of(r.get(c)) for c in keys)
                idx.setdefault(k, []).append(r)
            self.cache[ikey] = idx
        return self.cache[ikey]

    def all(self, report):
        """{table: rows} of every table of a report"""
        key = (report, None)
        if key not in self.cache:
            paths = self.paths if report == "diff" or not self.diff else self.paths[:1]
            rc, out = run([self.tt, "report", report, "-q", "--top", "1000000", "-f", "csv"]
                          + paths)
            tabs, name, buf = {}, "", []
            for line in (out.split("\n") if rc == 0 else []) + ["# "]:
                if line.startswith("# ") or line == "":
                    if buf:
                        tabs[name] = list(csv.DictReader(io.StringIO("\n".join(buf))))
                    buf = []
                    if line.startswith("# "):
                        name = line[2:].strip()
                else:
                    buf.append(line)
            self.cache[key] = tabs if rc == 0 else None
        return self.cache[key]


def num(s):
    if s is None or s == "":
        return math.nan
    try:
        return float(s)
    except ValueError:
        return None


def key_of(s):
    """a value as rows are matched on it: a number by its value ("5" and
    "5.0" alike), anything else (text, an empty cell) by its text"""
    v = num(s)
    return ("n", v) if v is not None and not math.isnan(v) else ("s", s)


def close(a, b, tol):
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return abs(a - b) <= tol + 1e-9 * max(1.0, abs(b))


def decimals(text):
    m = re.match(r"^-?\d+\.(\d+)$", text)
    return len(m.group(1)) if m else 0


def check_drawn(where, screen, width, col, row):
    """the text drawn in one cell against the cell's value"""
    y, x, w = row["y"], col["x"], col["w"]
    if x + w > width:
        fail(f"{where}: column {col['name']} ends at {x + w}, past the screen ({width})")
        return
    line = screen[y] if y < len(screen) else ""
    line = line.ljust(width)
    text = line[x:x + w].strip()
    val = row["csv"].get(col["name"], "")
    t = col["type"]
    shown = f"'{text}' in {col['name']}"
    if val == "":
        if text not in ("-", ""):
            fail(f"{where}: {shown}: the cell is empty, drawn as a number")
        return
    if t == "pct":
        if not text.endswith("%"):
            fail(f"{where}: {shown}: not a whole percentage (value {val})")
            return
        text = text[:-1]
    if not NUM_RE.match(text):
        fail(f"{where}: {shown}: not a whole number (value {val})")
        return
    got = float(text)
    want = float(val)
    if t == "dur":
        want *= UNIT.get(col["unit"], math.nan)
    if t == "int":
        ok = got == want
    else:
        ok = close(got, want, 0.5 * 10 ** -decimals(text))
    if not ok:
        fail(f"{where}: {shown} ({col['unit'] or t}) reads {got}, the value is {want:.6g}")


def row_key(tab, row, cols):
    """the text and integer columns of a pane row that the report has"""
    return {c: row["csv"][c] for c in cols if c in row["csv"]}


# ---- the perf model's views against `report perf-model` ----
# Its tables are TraceLens': perf_model (an op per row, a backward sheet's
# op named so on screen: "aten::mean (backward)"), then one table per op
# family (GEMM, Normalization, ..., a table ending in _bwd for backward
# sheets), a row per op shape with its parameters, figures of its first
# op (GFLOPS_first, Data Moved (MB)_first, Roofline Time (µs)_first), its
# kernel times and its kernels as text ("NAME xCOUNT (stream S, T us)").

def perf_same(where, what, got, want, tol):
    """one value of a perf view against the report's (both empty: equal)"""
    if got is None:
        return  # (a column the pane does not show)
    done["numbers"] += 1
    g, w = num(got), want
    if g is None or w is None or not close(g, w, tol * max(1.0, abs(w)) if not
                                           math.isnan(w) else 0):
        fail(f"{where}: {what} is {got}, the report's {w}")


def perf_label(tab, r):
    """the op as the views name it: a backward row of a sheet whose
    forward rows have the same op names (attention, reductions) says so; a
    convolution's backward is an op of its own name"""
    return r["name"] + (" (backward)" if tab in ("SDPA_bwd", "Reduce_bwd") else "")


def perf_shape_rows(tabs):
    """(table, row) of every op shape: the family tables' rows"""
    return [(t, r) for t, rows in tabs.items() if rows and "name_count" in rows[0]
            and "GFLOPS_first" in rows[0] for r in rows]


DTYPE = {"float": "fp32", "c10::BFloat16": "bf16", "c10::Half": "fp16", "double": "fp64",
         "c10::Float8_e4m3fn": "fp8", "c10::Float8_e5m2": "fp8", "c10::Float8_e4m3fnuz": "fp8",
         "int": "i32", "long int": "i64", "unsigned char": "u8", "signed char": "i8",
         "bool": "bool"}


def shape_words(r):
    """the shape an op shape's label names ("15805960 · 15805960 fp32"):
    its first two tensors of Input Dims (up to a list of tensors) and the
    first input's dtype, from the report's row"""
    try:
        ins = json.loads(r.get("Input Dims_first") or "[]")
        types = json.loads(r.get("Input type_first") or "[]")
    except ValueError:
        return ""
    shown = []
    for d in ins:
        if len(shown) == 2 or not isinstance(d, list) or any(isinstance(v, list) for v in d):
            break
        if d:
            shown.append("x".join(str(v) for v in d))
    dt = DTYPE.get(types[0]) if types and isinstance(types[0], str) else None
    return " · ".join(shown) + (f" {dt}" if dt else "")


def check_perf(where, cells, reps, row):
    """a row of the Perf model, Op shapes (one op's, every op's) or a
    shape's kernels against `report perf-model`; False when not compared"""
    tabs = reps.all("perf-model")
    if tabs is None or "perf_model" not in tabs:
        fail(f"{where}: report perf-model printed no perf_model table")
        return False
    c, t = row["csv"], cells["table"]
    if t == "perf-model":
        # the op: its name and sheet (forward or backward)
        m = [r for r in tabs["perf_model"]
             if perf_label(r["table"], r) == c["name"]]
        if len(m) != 1:
            fail(f"{where}: {len(m)} rows of perf-model/perf_model are op {c['name']}")
            return False
        r = m[0]
        for pc, rc in (("ops", "ops"), ("kernel_time", "kernel_time(us)"),
                       ("tflops", "tflops"), ("tbps", "tbps"),
                       ("roofline_pct", "roofline_pct")):
            perf_same(where, pc, c.get(pc), num(r[rc]), 1e-9)
        return True
    if t in ("perf-shapes", "perf-all-shapes"):
        # the op shape: its op (the drill-down's subtitle, or the start of
        # the label of every op's list), then its count and kernel time,
        # the keys that tell an op's shapes apart here; what is compared:
        # the mean kernel time, and TFLOP/s, TB/s and the roof of all its
        # ops (the first op's FLOPs, bytes and roofline time x count over
        # the kernel time: the shape's ops alike)
        def op_of(tab, r):
            lab = perf_label(tab, r)
            if t == "perf-shapes":
                return cells["subtitle"] == lab
            rest = c["shape"][len(lab) + 1:]
            return c["shape"].startswith(lab + " ") and not rest.startswith("(backward)")
        def gemm(tab, r):
            # a GEMM's label holds its M x N x K; another op's, the dims of
            # its tensor inputs ("15805960 · 15805960", "4096x704")
            if "param: M" not in r:
                return f" {shape_words(r)} " in f" {c['shape']} "
            dims = f"{r['param: M']}x{r['param: N']}x{r['param: K']}"
            return f" {dims} " in f" {c['shape']} "

        def expect(r):
            n, us = num(r["name_count"]), num(r["Kernel Time (µs)_sum"])
            per = (lambda v: v * n / us) if us else (lambda v: math.nan)
            return (("mean", num(r["Kernel Time (µs)_mean"]), 5e-4),
                    ("tflops", per(num(r["GFLOPS_first"])) * 1e3, 1e-9),
                    ("tbps", per(num(r["Data Moved (MB)_first"])) * 1048576 / 1e6, 1e-9),
                    ("roofline_pct", per(num(r["Roofline Time (µs)_first"])) * 100, 1e-9))
        m = [(tab, r) for tab, r in perf_shape_rows(tabs) if op_of(tab, r) and gemm(tab, r)
             and num(r["name_count"]) == num(c["ops"])
             and num(r["Kernel Time (µs)_sum"]) == num(c["kernel_time"])]
        # shapes the keys do not tell apart, all with the same figures (ops
        # without kernels, say): any of them is the row's
        ex = {repr(expect(r)) for _, r in m}
        if not m or len(ex) != 1:
            fail(f"{where}: {len(m)} op shapes of report perf-model are {c['shape']} "
                 f"({c['ops']} ops, {c['kernel_time']} µs)")
            return False
        for pc, want, tol in expect(m[0][1]):
            perf_same(where, pc, c.get(pc), want, tol)
        return True
    if t == "perf-kernels":
        # a kernel of the shape: its count, stream and time as the report's
        # kernels text of one shape has them; its mean the time per call
        frag = (f"{c['kernel']} x{c['count']} (stream {c['stream']}, "
                f"{num(c['total']):.1f} us)")
        m = [r for _, r in perf_shape_rows(tabs) if frag in r.get("kernels", "")]
        done["numbers"] += 3
        if not m:
            fail(f"{where}: no op shape of report perf-model has kernel '{frag[:80]}'")
            return False
        perf_same(where, "mean", c.get("mean"), num(c["total"]) / num(c["count"]), 5e-4)
        return True
    return False


def check_frames(where, cells, reps, row):
    """a frame of an operator's stack (the Source view's drill-down): the
    frame at its depth of a stack of that operator in report source's
    source_stacks, and every row of the drill-down of one stack"""
    if "_frames" not in cells:
        rows = reps.table("source", "source_stacks") or []
        cells["_frames"] = [r["stack"].split("|") for r in rows
                           if r["operator"] == cells["subtitle"]]
    c = row["csv"]
    d = int(c["depth"])
    done["numbers"] += 1
    cells["_frames"] = [st for st in cells["_frames"] if d < len(st) and st[d] == c["frame"]]
    if not cells["_frames"]:
        fail(f"{where}: no stack of {cells['subtitle']} in report source/source_stacks has "
             f"frame {d} '{c['frame'][:60]}' (and the frames above it)")
        return False
    return True


def check_calls(where, cells, reps, row):
    """a call of one collective on one rank (the Distributed view's second
    level: Enter on a rank, then on a collective) against `report
    collectives`: the rank's parts of that operation in collective_parts, in
    their order (# is the call's place among them); latency, transfer and sync
    are the part's dur, transfer and wait, busbw its collective's in report
    perf-model's collective_bandwidth, start (since the rank's first event;
    the report's since the job's) one offset from the report's on every row"""
    m = re.match(r"^rank (-?\d+), (.+)$", cells.get("subtitle", ""))
    tabs = reps.all("collectives")
    if not m or tabs is None or "collective_parts" not in tabs:
        fail(f"{where}: no rank and collective in '{cells.get('subtitle')}', or report "
             "collectives printed no collective_parts")
        return False
    if "_parts" not in cells:
        cells["_parts"] = [r for r in tabs["collective_parts"]
                           if r["rank"] == m.group(1) and r["operation"] == m.group(2)]
        bw = {}
        for r in (reps.all("perf-model") or {}).get("collective_bandwidth", []):
            g = re.search(r" #(\d+) (?:of pg|on) (.*)$", r["collective"])
            if g:
                bw[(g.group(2), g.group(1))] = r
        cells["_bw"] = bw
    c = row["csv"]
    i = int(c["seq"])
    if i >= len(cells["_parts"]):
        fail(f"{where}: call #{i}, report collectives has {len(cells['_parts'])} parts of "
             f"{m.group(2)} on rank {m.group(1)}")
        return False
    r = cells["_parts"][i]
    for pc, rc in (("latency", "dur(us)"), ("transfer", "transfer(us)"), ("sync", "wait(us)")):
        perf_same(where, pc, c.get(pc), num(r[rc]), 1e-9)
    if c.get("start") is not None:
        off = num(r["start(us)"]) - num(c["start"])
        perf_same(where, "start (its offset from the report's)", off,
                  cells.setdefault("_off", off), 1e-9)
    if c.get("busbw_GBps") is not None:
        b = cells["_bw"].get((r["group"], r["seq"]))
        perf_same(where, "busbw_GBps", c["busbw_GBps"],
                  num(b["busbw(GB/s)"]) if b else math.nan, 1e-9)
    return True


CUSTOM = {t: check_perf for t in ("perf-model", "perf-shapes", "perf-all-shapes",
                                  "perf-kernels")}
CUSTOM["frames"] = check_frames
CUSTOM["calls"] = check_calls


def check_report(where, cells, reps, row):
    """the pane row's values against the report's"""
    if cells["table"] in CUSTOM:
        if CUSTOM[cells["table"]](where, cells, reps, row):
            done["tables"].add((cells["pane"], cells["table"]))
            done["hits"] += 1
        return
    how = REPORT_ARGS.get(cells["pane"]) or REPORT_ARGS.get(cells["table"])
    more = how(cells, reps) if how else []
    mp = MAPS.get(cells["table"])
    if mp:
        done["tables"].add((cells["pane"], cells["table"]))
        done["hits"] += 1
        # the row, and what the drill-down's subtitle says of it
        csv2 = dict(row["csv"], **subtitle_fields(cells))
        used = set()
        for pc, alts in mp.items():
            used.update(v for alt in (alts if isinstance(alts, list) else [alts])
                        for v in alt[2].values() if isinstance(v, str))
        for c in row["csv"]:
            if c not in mp and c not in used and cells["types"].get(c) != "str" and \
                    not exempt(f"{cells['table']}.{c}", cells["pane"]):
                fail(f"{where}: column {c} of {cells['table']} is in no mapping "
                     "and not exempt (screencheck.py MAPS, EXEMPT)")
        for pc, alts in mp.items():
            if pc not in row["csv"]:
                continue  # (a column the pane does not show)
            # the first mapping whose key columns the row has
            for alt in (alts if isinstance(alts, list) else [alts]):
                if all(not callable(v) or v(csv2) is not None for v in alt[2].values()):
                    break
            else:
                if row["csv"][pc] != "":  # (an empty cell draws nothing)
                    fail(f"{where}: no mapping of {pc} fits the row")
                continue
            rep, tab, match, rc, agg = alt
            done["numbers"] += 1
            rows = reps.table(rep, tab, more)
            if rows is None:
                fail(f"{where}: no table {tab} in report {rep}")
                return
            sel = []
            # a key the pane does not show (a side-by-side table keyed by
            # rank alone) is not matched on: "one" still wants one row
            match = {k: v for k, v in match.items()
                     if (callable(v) or v.startswith("=") or v in csv2)
                     and not (isinstance(v, str) and PARSE.get(f"{cells['table']}.{v}"))}
            # (a row's own value drawn as text: what the text reads as)
            parse = PARSE.get(f"{cells['table']}.{pc}")
            want_key = []
            for k, v in match.items():
                if callable(v):
                    want_key.append(key_of(v(csv2)))
                else:
                    want_key.append(key_of(v[1:] if v.startswith("=") else csv2.get(v, "")))
            for r in reps.index(rep, tab, more, tuple(match)).get(tuple(want_key), []):
                if isinstance(rc, tuple):  # a share: 100 * rc[0] / rc[1]
                    a_, b_ = num(r.get(rc[0])), num(r.get(rc[1]))
                    sel.append(100 * a_ / b_ if a_ is not None and b_ else math.nan)
                else:
                    sel.append(num(r.get(rc)))
            if agg == "same":  # (rows alike in every column shown: any)
                if len({repr(v) for v in sel}) > 1:
                    fail(f"{where}: {len(sel)} rows of {rep}/{tab} match {pc}, not alike")
                    continue
                want = sel[0] if sel else None
            elif agg in ("one", "one0"):
                if len(sel) > 1:
                    fail(f"{where}: {len(sel)} rows of {rep}/{tab} match {pc}")
                    continue
                want = sel[0] if sel else (0.0 if agg == "one0" else None)
            elif agg == "sum":
                want = sum(v for v in sel if not math.isnan(v)) if sel else None
            else:
                want = max(sel) if sel else None
            got, tol = num(row["csv"].get(pc, "")), 1e-6 * max(1.0, abs(want or 0))
            if parse:
                got, tol = parse(row["csv"].get(pc, "")) or (None, 0)
            if want is None:
                fail(f"{where}: no row of {rep}/{tab} for {pc} ({match})")
            elif got is None or not close(got, want, tol):
                fail(f"{where}: {pc} is {row['csv'].get(pc)}, report {rep}/{tab} {rc} "
                     f"says {want}")
        return
    report = cells.get("report") or TABLE_REPORT.get(cells["table"])
    if not report:
        if not exempt(cells["table"], cells["pane"]):
            fail(f"{where}: table {cells['table']} is compared with no report and not "
                 "exempt (screencheck.py TABLE_REPORT, MAPS, EXEMPT)")
        return
    cells["report"] = report
    rows = reps.table(report, cells["table"], more)
    if rows is None:
        fail(f"{where}: report {cells['report']} has no table {cells['table']}")
        return
    types = cells["types"]
    keys = [c for c in row["csv"] if types.get(c) in ("str", "int") and rows and c in rows[0]]
    match = reps.index(report, cells["table"], more, tuple(keys), exact=True).get(
        tuple(row["csv"][k] for k in keys), [])
    if not match:
        fail(f"{where}: no row of report {cells['report']}/{cells['table']} has "
             + ", ".join(f"{k}={row['csv'][k][:40]}" for k in keys))
        return
    r = match[0]
    done["tables"].add((cells["pane"], cells["table"]))
    done["hits"] += 1
    for c, v in row["csv"].items():
        if c not in r:
            if not exempt(f"{cells['table']}.{c}", cells["pane"]):
                fail(f"{where}: column {c} is not in report {report}/{cells['table']} "
                     "and not exempt (screencheck.py EXEMPT)")
            continue
        done["numbers"] += num(v) is not None and not math.isnan(num(v))
        a, b = num(v), num(r[c])
        if a is None or b is None:
            if v != r[c]:
                fail(f"{where}: {c} is '{v[:40]}', the report's '{r[c][:40]}'")
        elif not close(a, b, 1e-9 * max(1.0, abs(b))):
            fail(f"{where}: {c} is {v}, the report's {r[c]}")


def side_b_paths(paths):
    """the second side of a diff: the second path, or the demo's regressed run"""
    if paths == ["--demo"]:
        return ["--demo", "--variant", "regressed"]
    return paths[1:]


def split_sides(cells, row):
    """a side-by-side row (tt_table_diff) as the row of each side: key
    columns, and "<label>_x" -> x; None for a side the row is not on"""
    la, lb = cells["both"]
    types = cells["types"]
    names = list(types)
    keys = names[:cells["nkeys"]]
    csv_ = row["csv"]
    out = []
    for s, lab in enumerate((la, lb)):
        have = csv_.get("row_a" if s == 0 else "row_b", "")
        if have == "-1":
            out.append(None)
            continue
        r = {}
        for k in keys:
            # a key of both sides that differ reads "3 | 1" (stream: "20 |
            # 14 (comm)"): Control's is the left part; Test's has its own
            # column
            r[k] = csv_.get(k, "").split(" | ")[0] if s == 0 else csv_.get(f"{lb}_{k}", "")
        pre = lab + "_"
        for c in names[cells["nkeys"]:]:
            if c.startswith(pre) and not (s == 0 and c.startswith(lb + "_")):
                base = c[len(pre):]
                if base not in keys:
                    r[base] = csv_[c]
        out.append(r)
    return out


def check_both(where, cells, reps, row):
    """a side-by-side row: Control's values are Control's report, Test's are
    Test's, and each difference is Test - Control (a time or count missing
    on one side counts as 0)"""
    la, lb = cells["both"]
    types = cells["types"]
    sides = split_sides(cells, row)
    for s, r in enumerate(sides):
        if r is None:
            continue
        sub = dict(cells)
        sub["types"] = {}
        for c, t in types.items():
            for pre in (la + "_", lb + "_", ""):
                if c.startswith(pre):
                    sub["types"].setdefault(c[len(pre):], t)
        check_report(f"{where} [{cells['both'][s]}]", sub, reps[s], {"csv": r})
    csv_ = row["csv"]
    for c in types:
        if not c.startswith("diff_"):
            continue
        base = c[len("diff_"):]
        d = num(csv_.get(c, ""))
        a = num(csv_.get(f"{la}_{base}", ""))
        b = num(csv_.get(f"{lb}_{base}", ""))
        if d is None or a is None or b is None:
            continue
        if math.isnan(a) and math.isnan(b):
            if not math.isnan(d):
                fail(f"{where}: {c} is {d} with neither side having a value")
            continue
        if types.get(c) in ("dur", "int"):
            a = 0.0 if math.isnan(a) else a
            b = 0.0 if math.isnan(b) else b
        if math.isnan(d):
            if not (math.isnan(a) or math.isnan(b)):
                fail(f"{where}: {c} is empty, {lb} - {la} is {b - a}")
        elif not close(d, b - a, 1e-9 * max(1.0, abs(b), abs(a))):
            fail(f"{where}: {c} is {d}, {lb} - {la} is {b - a}")


# Time columns a reader compares with each other, by table: they show one
# unit (besides these, a side-by-side table's Control, Test and Δ of one
# column, and the two sides' columns of one name, "Control_x" and "Test_x").
COMPARED = {
    "distributed": [["step", "computation", "overlapping", "communication", "other"]],
    "distributed_overview": [["step_time(us)", "computation(us)", "overlapping(us)",
                              "communication(us)", "other(us)"]],
    "temporal_breakdown": [["idle_time(us)", "compute_time(us)", "non_compute_time(us)"]],
    "idle": [["host_wait", "kernel_wait", "other", "idle"]],
    "diff_ranks": [["Control_step", "Test_step", "diff_step", "diff_gpu_busy",
                    "diff_computation", "diff_communication", "diff_memory", "diff_gpu_idle"]],
    "diff_steps": [["Control_step_time", "Test_step_time", "diff_step"],
                   ["Control_gpu_idle", "Test_gpu_idle"]],
    "step-time": [["step_time", "Kernel", "Memcpy", "Memset", "Communication", "Runtime",
                   "DataLoader", "CPU Exec", "Other"]],
    "overlap": [["communication", "computation", "overlapped"]],
}


def check_units(where, cells, labels):
    """no two time columns of one compared group drawn in different units"""
    cols = [c for c in cells["cols"] if c["type"] == "dur"]
    unit = {c["name"]: c["unit"] for c in cols}
    groups = [list(g) for g in COMPARED.get(cells["table"], [])]
    # the table's own groups
    byg = {}
    for c in cols:
        byg.setdefault(c.get("group", 0), []).append(c["name"])
    groups += list(byg.values())
    # both sides of one column, and its Δ
    la, lb = labels
    for c in cols:
        n = c["name"]
        if n.startswith(la + "_"):
            base = n[len(la) + 1:]
            groups.append([n, f"{lb}_{base}", f"diff_{base}"])
    n = 0
    for g in groups:
        us = {unit[c] for c in g if c in unit}
        shown = [c for c in g if c in unit]
        if len(shown) > 1:
            n += 1
        if len(us) > 1:
            fail(f"{where}: compared time columns in different units: " +
                 ", ".join(f"{c} ({unit[c]})" for c in shown))
    return n


def check_names(where, screen, cells):
    """no two names drawn alike in one column unless they are the same name"""
    width = max((len(l) for l in screen), default=0)
    for col in cells["cols"]:
        if col["type"] != "str" or col.get("free"):
            continue  # (prose and sparklines are not names)
        seen = {}
        for row in cells["rows"]:
            y = row["y"]
            line = (screen[y] if y < len(screen) else "").ljust(width)
            text = line[col["x"]:col["x"] + col["w"]].strip()
            val = row["csv"].get(col["name"], "")
            if not text:
                continue
            if text in seen and seen[text] != val:
                fail(f"{where}: {col['name']}: '{text}' drawn for both '{seen[text][:60]}' "
                     f"and '{val[:60]}'")
            seen.setdefault(text, val)


def check_cuts(where, cuts):
    """no text cut short without an ellipsis (a word cut, a sentence cut at
    a space)"""
    for y, x, text in cuts:
        fail(f"{where}: line {y} cut at column {x}: '{text[:70]}'")


def check_parts(where, cells, row):
    groups = [list(s) for s in cells.get("stacks", [])] + PARTS.get(cells["table"], [])
    for g in groups:
        vals = [num(row["csv"].get(c, "")) for c in g]
        if any(v is None or math.isnan(v) for v in vals):
            continue
        s = sum(vals)
        if abs(s - 100) > 0.1:
            fail(f"{where}: {' + '.join(g)} = {s:.2f} %, not 100")


def selftest():
    """the checks fail on the defects they are for (a cut number, a wrong
    unit, a cell past the edge, a sum not 100, a report that disagrees)"""
    global failures
    col = {"name": "min", "type": "dur", "unit": "ms", "x": 2, "w": 4}
    row = {"y": 0, "row": 0, "csv": {"min": "5752000"}}  # 5752 ms
    cases = [
        (["  5752"], 80, True),        # whole
        (["  5   "], 80, False),       # its leading digit
        (["  57… "], 80, False),       # cut with an ellipsis
        (["  5752"], 5, False),        # past the edge of a 5-column screen
    ]
    bad = 0
    for screen, width, good in cases:
        failures = []
        check_drawn("selftest", screen, width, col, row)
        if (not failures) != good:
            print(f"selftest: {screen} at {width}: expected {'pass' if good else 'fail'}")
            bad += 1
    failures = []
    check_drawn("selftest", ["  5.8"], 80, dict(col, unit="s", w=3), row)
    if failures:
        print("selftest: 5.8 s for 5752 ms should pass")
        bad += 1
    check_drawn("selftest", ["   5752"], 80, dict(col, unit="µs", w=5), row)
    if not failures:
        print("selftest: 5752 in a µs column for 5752 ms should fail")
        bad += 1
    failures = []
    check_parts("selftest", {"table": "byrank", "stacks": []},
                {"csv": {"busy_pctg": "47.1", "idle_pctg": "54.7"}})
    if not failures:
        print("selftest: 47.1 + 54.7 should fail")
        bad += 1
    failures = []
    check_parts("selftest", {"table": "byrank", "stacks": []},
                {"csv": {"busy_pctg": "45.28", "idle_pctg": "54.72"}})
    if failures:
        print("selftest: 45.28 + 54.72 should pass")
        bad += 1

    class Fake(Reports):
        def __init__(self):
            self.cache = {}

        def table(self, rep, tab, more=()):
            return [{"rank": "1", "idle_time_pctg": "54.7"}]
    failures = []
    check_report("selftest", {"table": "t", "report": "r", "pane": "p", "types": {"rank": "int",
                 "idle_time_pctg": "pct"}}, Fake(),
                 {"csv": {"rank": "1", "idle_time_pctg": "53.6"}})
    if not failures:
        print("selftest: 53.6 against the report's 54.7 should fail")
        bad += 1
    # two names drawn alike; compared times in two units; a cut text
    failures = []
    check_names("selftest", ["  ncclKernel_…_LL", "  ncclKernel_…_LL"],
                {"cols": [{"name": "name", "type": "str", "x": 2, "w": 16}],
                 "rows": [{"y": 0, "csv": {"name": "ncclKernel_AllReduce_LL"}},
                          {"y": 1, "csv": {"name": "ncclKernel_AllGather_LL"}}]})
    if not failures:
        print("selftest: two names drawn alike should fail")
        bad += 1
    failures = []
    check_units("selftest", {"table": "distributed", "cols": [
        {"name": "computation", "type": "dur", "unit": "ms", "group": 0},
        {"name": "overlapping", "type": "dur", "unit": "µs", "group": 1}]}, ("Control", "Test"))
    if not failures:
        print("selftest: comp. (ms) beside ovl. (µs) should fail")
        bad += 1
    failures = []
    check_units("selftest", {"table": "t", "cols": [
        {"name": "Control_sd", "type": "dur", "unit": "µs", "group": 1},
        {"name": "Test_sd", "type": "dur", "unit": "ms", "group": 2}]}, ("Control", "Test"))
    if not failures:
        print("selftest: Control sd (µs) beside Test sd (ms) should fail")
        bad += 1
    failures = []
    check_cuts("selftest", [[3, 79, "mostly host wait (the CPU si"]])
    if not failures:
        print("selftest: a text cut short should fail")
        bad += 1
    failures = []
    check_report("selftest", {"table": "no_such_table", "report": "", "pane": "p",
                              "types": {"rank": "int"}}, Fake(), {"csv": {"rank": "1"}})
    if not failures:
        print("selftest: a table with no report and no exemption should fail")
        bad += 1
    failures = []
    check_report("selftest", {"table": "t", "report": "r", "pane": "p", "types": {
        "rank": "int", "idle_time_pctg": "pct", "extra": "num"}}, Fake(),
        {"csv": {"rank": "1", "idle_time_pctg": "54.7", "extra": "3"}})
    if not failures:
        print("selftest: a column the report lacks, not exempt, should fail")
        bad += 1
    failures = []
    class FakePerf:
        def all(self, rep):
            return {"perf_model": [
                {"name": "aten::mean", "table": "Reduce_fwd", "ops": "48",
                 "kernel_time(us)": "1409", "tflops": "0.0273", "tbps": "0.109",
                 "roofline_pct": "5.37"},
                {"name": "aten::mean", "table": "Reduce_bwd", "ops": "48",
                 "kernel_time(us)": "680", "tflops": "0.0567", "tbps": "0.227",
                 "roofline_pct": "11.1"}]}
    pm = {"table": "perf-model", "pane": "perf-model", "subtitle": "", "types": {}}
    failures = []
    check_report("selftest", pm, FakePerf(), {"csv": {
        "name": "aten::mean (backward)", "ops": "48", "kernel_time": "680",
        "tflops": "0.0273", "tbps": "0.227", "roofline_pct": "11.1"}})
    if not failures:
        print("selftest: a backward op with its forward's TFLOP/s should fail")
        bad += 1
    failures = []
    check_report("selftest", pm, FakePerf(), {"csv": {
        "name": "aten::mean (backward)", "ops": "48", "kernel_time": "680",
        "tflops": "0.0567", "tbps": "0.227", "roofline_pct": "11.1"}})
    if failures:
        print("selftest: a backward op's row as the report has it should pass: "
              + "; ".join(failures))
        bad += 1
    # a drill-down: the row of the step its subtitle names, a size drawn
    # as text, a stack's frames
    class FakeDrill(Reports):
        def __init__(self):
            self.cache = {}

        def table(self, rep, tab, more=()):
            return {"steps": [{"rank": "0", "step": "100", "start(us)": "0",
                               "cpu_duration(us)": "86720", "duration(us)": "86720",
                               "gpu_busy_pctg": "87.3"}],
                    "collectives_by_rank": [{"rank": "0", "name": "allreduce", "calls": "36",
                                             "total_latency(us)": "318256",
                                             "data_transfer(us)": "18940",
                                             "sync(us)": "299316",
                                             "busbw_mean(GB/s)": "102.6",
                                             "total_bytes": "1109433792"}],
                    "source_stacks": [{"operator": "aten::conv2d",
                                       "stack": "model.py(114): forward|train.py(88): step"}],
                    }.get(tab)
    step = {"rank": "0", "start": "0", "cpu": "86720", "duration": "86720", "gpu_busy": "87.3"}
    for sub, good in (("ProfilerStep#100", True), ("ProfilerStep#101", False)):
        failures = []
        check_report("selftest", {"table": "step", "pane": "step", "subtitle": sub,
                                  "types": {"rank": "int"}}, FakeDrill(), {"csv": step})
        if (not failures) != good:
            print(f"selftest: step {sub}'s rank 0 should {'pass' if good else 'fail'}: "
                  + "; ".join(failures))
            bad += 1
    coll = {"name": "allreduce", "calls": "36", "latency": "318256", "transfer": "18940",
            "sync": "299316", "busbw_GBps": "102.6"}
    for size, good in (("1.1 GB", True), ("1.3 GB", False), ("", False)):
        failures = []
        check_report("selftest", {"table": "collectives", "pane": "collectives",
                                  "subtitle": "rank 0", "types": {"name": "str", "size": "str"}},
                     FakeDrill(), {"csv": dict(coll, size=size)})
        if (not failures) != good:
            print(f"selftest: size '{size}' of 1109433792 bytes should "
                  f"{'pass' if good else 'fail'}: " + "; ".join(failures))
            bad += 1
    for frames, good in ((["model.py(114): forward", "train.py(88): step"], True),
                         (["model.py(114): forward", "train.py(90): step"], False)):
        failures = []
        cells = {"table": "frames", "pane": "frames", "subtitle": "aten::conv2d", "types": {}}
        for d, f in enumerate(frames):
            check_report("selftest", cells, FakeDrill(), {"csv": {"depth": str(d), "frame": f}})
        if (not failures) != good:
            print(f"selftest: frames {frames} should {'pass' if good else 'fail'}")
            bad += 1
    # a rank's calls of one collective: the rank's parts of it in report
    # collectives, in order; start one offset from the report's on every row

    class FakeCalls(Reports):
        def __init__(self):
            self.cache = {}

        def all(self, rep):
            part = {"rank": "0", "group": "0", "operation": "allreduce", "seq": "0",
                    "start(us)": "35056", "dur(us)": "20554", "wait(us)": "19903",
                    "transfer(us)": "651"}
            return {"collectives": {"collective_parts": [
                        part, dict(part, seq="1", **{"start(us)": "55610", "dur(us)": "4893"}),
                        dict(part, rank="1")]},
                    "perf-model": {"collective_bandwidth": [
                        {"collective": "allreduce #0 of pg 0", "busbw(GB/s)": "96.99"},
                        {"collective": "allreduce #1 of pg 0", "busbw(GB/s)": "101"}]}}[rep]
    call = {"seq": "0", "start": "34844", "latency": "20554", "transfer": "651",
            "sync": "19903", "busbw_GBps": "96.99"}
    for second, good in (({"start": "55398", "latency": "4893", "busbw_GBps": "101"}, True),
                         ({"start": "55399", "latency": "4893", "busbw_GBps": "101"}, False),
                         ({"start": "55398", "latency": "4894", "busbw_GBps": "101"}, False),
                         ({"start": "55398", "latency": "4893", "busbw_GBps": "96.99"}, False),
                         ({"seq": "2"}, False)):
        failures = []
        cells = {"table": "calls", "pane": "collective-calls",
                 "subtitle": "rank 0, allreduce", "types": {}}
        for r in (call, dict(call, **dict({"seq": "1"}, **second))):
            check_report("selftest", cells, FakeCalls(), {"csv": r})
        if (not failures) != good:
            print(f"selftest: calls {second} should {'pass' if good else 'fail'}")
            bad += 1
    failures = []
    print(f"selftest: {'ok' if not bad else str(bad) + ' checks did not fail as they should'}")
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ["--selftest"]:
        return selftest()
    ap = argparse.ArgumentParser()
    ap.add_argument("--tracetop", required=True)
    ap.add_argument("--size", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--diff", action="store_true")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    width = int(a.size.split("x")[0])
    tui = [a.tracetop, "--headless", "-q", "--size", a.size]
    tui_end = (["--diff"] if a.diff else []) + a.paths
    # the number of views of the views menu, from the explorer's registry
    rc, out = run(tui + ["--keys", "<Cells>"] + tui_end)
    nv = [json.loads(l[len("@@cells "):]).get("nviews") for l in out.split("\n")
          if l.startswith("@@cells ")]
    if rc != 0 or not nv or not nv[0]:
        print(f"FAIL {a.label}: the explorer says not how many views it has (exit {rc})")
        return 1
    nviews = nv[0]
    # every pane and view in one run of the explorer: the first screen, the
    # drill-down of its first row, the drill-down of that one's first row
    # (the second level), and a pane's help; what each <Cells> is
    keys, kinds = "", []
    for k in PANE_KEYS:
        keys += f"{k}<Cells>{k}<Enter><Cells><Enter><Cells>{k}?<Cells>"
        kinds += ["first", "drill", "drill2", "help"]
    for i in range(nviews):
        keys += "1v" + "j" * i + "<Enter><Cells><Enter><Cells><Enter><Cells>"
        kinds += ["first", "drill", "drill2"]
    rc, out = run(tui + ["--keys", keys] + tui_end)
    if rc != 0:
        print(f"FAIL {a.label}: the explorer exited {rc}")
        return 1
    ncells_out = sum(1 for l in out.split("\n") if l.startswith("@@cells "))
    if ncells_out != len(kinds):
        print(f"FAIL {a.label}: {ncells_out} screens said where their cells are, of "
              f"{len(kinds)} asked")
        return 1
    # drill-down tables: drawn, compared with a report, only exempt; rows
    drill = {"drawn": 0, "compared": 0, "rows": 0, "compared_rows": 0}
    # and of the second level (a screen seen before counts where first seen)
    drill2 = dict(drill)
    drill2_not = set()  # (its tables not compared)
    reps = Reports(a.tracetop, a.paths, a.diff)
    # side by side: each side against its own report
    sides = [Reports(a.tracetop, a.paths[:1], False),
             Reports(a.tracetop, side_b_paths(a.paths), False)] if a.diff else None
    nboth = 0
    screens = out.split("\n----\n")
    ncells = nrows = ntables = 0
    ncutscreens = ngroups = nnamecols = 0
    seen = set()
    # the screens with their kinds, the second level's last: a table seen
    # on a first screen or a first drill-down counts there
    screens = [b for b in screens if any(l.startswith("@@cells ") for l in b.split("\n"))]
    order = sorted(range(len(screens)), key=lambda i: kinds[i] == "drill2")
    for nblock in order:
        lines = screens[nblock].split("\n")
        js = [l for l in lines if l.startswith("@@cells ")]
        cells = json.loads(js[0][len("@@cells "):])
        cj = [l for l in lines if l.startswith("@@cuts ")]
        screen = [l for l in lines if not l.startswith("@@")]
        if cj:
            ncutscreens += 1
            check_cuts(f"{a.label} {a.size} {cells['pane']}", json.loads(cj[0][len("@@cuts "):]))
        if not cells.get("table"):
            continue
        sig = (cells["pane"], cells["subtitle"], cells["table"])
        if sig in seen:
            continue
        seen.add(sig)
        is_drill = kinds[nblock] == "drill"
        is_drill2 = kinds[nblock] == "drill2"
        drill["drawn"] += is_drill
        drill2["drawn"] += is_drill2
        ntables += 1
        wh = f"{a.label} {a.size} {cells['pane']}"
        ngroups += check_units(wh, cells, cells.get("both") or ("Control", "Test"))
        check_names(wh, screen, cells)
        nnamecols += sum(1 for c in cells["cols"] if c["type"] == "str" and not c.get("free"))
        for row in cells["rows"]:
            nrows += 1
            hits = done["hits"]  # (a side-by-side row is compared once per side)
            where = f"{a.label} {a.size} {cells['pane']}"
            if cells["subtitle"]:
                where += f" ({cells['subtitle'][:40]})"
            where += f" row {row['row']}"
            for col in cells["cols"]:
                if col["type"] in ("int", "num", "dur", "pct"):
                    ncells += 1
                    check_drawn(where, screen, width, col, row)
            if cells.get("both"):
                nboth += 1
                check_both(where, cells, sides, row)
            elif cells["pane"] == "sides" and sides:
                # a row's drill-down on both sides: each row is its side's
                # (named in its first column), against that side's report
                r = dict(row, csv={k: v for k, v in row["csv"].items() if k != "side"})
                s = 1 if row["csv"].get("side") == "Test" else 0
                nboth += 1
                # (the subtitle names both sides' rows: "rank 5 | rank 5")
                parts = cells["subtitle"].split(" | ")
                side = dict(cells, subtitle=parts[s] if len(parts) == 2 else cells["subtitle"])
                check_report(where + f" [{row['csv'].get('side')}]", side, sides[s], r)
            else:
                check_report(where, cells, reps, row)
                check_parts(where, cells, row)
            drill["rows"] += is_drill
            drill2["rows"] += is_drill2
            if done["hits"] > hits:
                done["rows"] += 1
                drill["compared_rows"] += is_drill
                drill2["compared_rows"] += is_drill2
            else:
                done["not"][cells["table"]] = done["not"].get(cells["table"], 0) + 1
        if is_drill and (cells["pane"], cells["table"]) in done["tables"]:
            drill["compared"] += 1
        if is_drill2 and (cells["pane"], cells["table"]) in done["tables"]:
            drill2["compared"] += 1
        elif is_drill2:
            drill2_not.add(cells["table"])
    for f in failures[:40]:
        print("FAIL " + f)
    if len(failures) > 40:
        print(f"FAIL ... and {len(failures) - 40} more")
    both = f" ({nboth} rows side by side)" if nboth else ""
    ex = done["exempt"]
    nots = ", ".join(f"{t} {n}" for t, n in sorted(done["not"].items()))
    print(f"{a.label} {a.size}: {nviews} views; {ntables} tables drawn, "
          f"{len(done['tables'])} compared with a report; {nrows} rows{both}, "
          f"{done['rows']} compared (not: {nots or '-'}); {ncells} numbers drawn, {done['numbers']} values "
          f"compared; {ngroups} compared time groups, {nnamecols} text columns, "
          f"{ncutscreens} screens read for cut text; exempt: {len(ex)} "
          f"({', '.join(sorted(ex)) or '-'}); {len(failures)} failures; "
          f"drill-downs: {drill['compared']} of {drill['drawn']} tables compared "
          f"({drill['drawn'] - drill['compared']} exempt), {drill['compared_rows']} of "
          f"{drill['rows']} rows; second level: {drill2['compared']} of "
          f"{drill2['drawn']} tables compared ({drill2['drawn'] - drill2['compared']} "
          f"exempt: {', '.join(sorted(drill2_not)) or '-'}), {drill2['compared_rows']} of "
          f"{drill2['rows']} rows")
    if not ncutscreens:
        print(f"FAIL {a.label}: no screen said what it cut (@@cuts)")
        return 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
