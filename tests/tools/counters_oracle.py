#!/usr/bin/env python3
"""An independent reading of queue length and memory bandwidth
(../shared/docs/metrics.md §8, §9), from the trace files alone, in plain
Python: the oracle tests/parity-counters.sh judges tracetop by where HTA's
own result depends on the order of its unstable sort.

  counters_oracle.py FOLDER QUEUE.csv BW.csv

Writes queue_length_summary and memory_bw_summary as tracetop's report
prints them (rank,stream|name,count,mean,std,min,25%,50%,75%,max), in the
order the docs give: a launch (+1) before a GPU start (-1) at the same
time; a copy's end before another's start at the same time, |sum| < 1e-9
GB/s as 0.  Each row has one more column, order_dependent: 1 where equal
times put a +1 and a -1 together (the queue of a stream; the copies of a
kind touching), so that HTA's unstable quicksort may have applied them in
another order; 0 where every order gives the same series, and HTA's numbers
must be these exactly.
"""
import csv
import gzip
import json
import math
import os
import re
import sys

LAUNCH = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
          "cudaMemcpyAsync", "cudaMemsetAsync",
          "runFunction - job_prep_and_submit_for_execution", "hipLaunchKernel",
          "hipExtModuleLaunchKernel", "hipMemcpyAsync", "hipMemsetAsync", "hipMemcpyWithStream"}


def describe(v):
    """pandas describe(): count, mean, std (n - 1), min, 25/50/75 % (linear), max"""
    n = len(v)
    s = sorted(v)
    mean = math.fsum(s) / n
    std = math.sqrt(math.fsum((x - mean) ** 2 for x in s) / (n - 1)) if n > 1 else math.nan

    def q(p):
        h = (n - 1) * p
        lo = math.floor(h)
        hi = min(lo + 1, n - 1)
        return s[lo] + (h - lo) * (s[hi] - s[lo])
    return [n, mean, std, s[0], q(0.25), q(0.5), q(0.75), s[-1]]


def load(path):
    op = gzip.open if path.endswith(".gz") else open
    with op(path, "rt", encoding="utf-8") as f:
        return json.load(f)


def memkind(name):
    n = name.lower()
    if n.startswith("memset"):
        return "Memset"
    for k in ("HtoD", "DtoH", "DtoD", "PtoP"):
        if "memcpy " + k.lower() in n:
            return "Memcpy " + k
    return "Memcpy Unknown"


def rank_of(d):
    r = (d.get("distributedInfo") or {}).get("rank")
    return int(r) if r is not None else 0


def gpu_side(e):
    """§0.3: a GPU-side event of the correlation links"""
    a = e.get("args") or {}
    c = a.get("correlation", -1)
    if c is None or c == -1:
        return False
    return (a.get("stream", -1) != -1 and c >= 0) or e.get("name") in ("Event Sync",
                                                                        "Context Sync")


def step_filter(ev, steps):
    """§0.4: with two or more ProfilerStep names over the job, keep the CPU
    side before the last step's start and the GPU events they launched;
    positions in the file stay those of the whole file"""
    keep = list(range(len(ev)))
    if steps < 2:
        return keep
    cpu = [i for i in keep if not gpu_side(ev[i]) and "ts" in ev[i]]
    starts = [ev[i]["ts"] for i in cpu if re.match(r"ProfilerStep#\d+", ev[i].get("name", ""))]
    last = max(starts) if starts else min((ev[i]["ts"] for i in cpu), default=0)
    kept_cpu = [i for i in cpu if ev[i]["ts"] < last]
    corr = {(ev[i].get("args") or {}).get("correlation", -1) for i in kept_cpu}
    return sorted(kept_cpu + [i for i in keep if gpu_side(ev[i]) and
                              (ev[i].get("args") or {}).get("correlation") in corr])


def one_rank(d, steps, qrows, brows):
    ev = d["traceEvents"]
    rank = rank_of(d)
    frac = any(isinstance(e.get("ts"), float) and e["ts"] != int(e["ts"]) for e in ev
               if "ts" in e)
    ts = (lambda e: math.ceil(e["ts"])) if frac else (lambda e: e["ts"])
    keep = step_filter(ev, steps)
    # correlation links (§0.3): GPU side and CPU side, by position in the file;
    # a partner at position 0 counts as absent (HTA's bug, reproduced)
    gpu, cpu = {}, {}
    for i in keep:
        e = ev[i]
        c = (e.get("args") or {}).get("correlation", -1)
        if c is None or c == -1:
            continue
        (gpu if gpu_side(e) else cpu).setdefault(c, i)
    # queue length (§8)
    series = {}
    for c, i in cpu.items():
        e = ev[i]
        if e.get("name") not in LAUNCH or c not in gpu or gpu[c] == 0 or i == 0:
            continue
        g = ev[gpu[c]]
        st = (g.get("args") or {}).get("stream", -1)
        if st == -1:
            continue
        series.setdefault(st, []).extend([(ts(e), 0), (ts(g), 1)])
    for st, pts in series.items():
        pts.sort()  # equal times: +1 (0) before -1 (1)
        tie = any(pts[k][0] == pts[k + 1][0] and pts[k][1] != pts[k + 1][1]
                  for k in range(len(pts) - 1))
        v, q = [], 0
        for _, kind in pts:
            q += 1 if kind == 0 else -1
            v.append(q)
        qrows.append([rank, st] + describe(v) + [int(tie)])
    # memory bandwidth (§9): by sub-kind, all streams together
    kinds = {}
    for e in (ev[i] for i in keep):
        if e.get("ph") != "X" or e.get("cat") not in ("gpu_memcpy", "gpu_memset"):
            continue
        b = (e.get("args") or {}).get("memory bandwidth (GB/s)", 0) or 0
        t0 = ts(e)
        t1 = math.floor(e["ts"] + e.get("dur", 0)) if frac else e["ts"] + e.get("dur", 0)
        if t1 <= t0:
            t1 = t0 + 1
        kinds.setdefault(memkind(e.get("name", "")), []).extend([(t0, 1, b), (t1, 0, -b)])
    for k, pts in kinds.items():
        pts.sort(key=lambda p: (p[0], p[1]))  # equal times: ends (0) before starts (1)
        tie = any(pts[j][0] == pts[j + 1][0] and pts[j][1] != pts[j + 1][1]
                  for j in range(len(pts) - 1))
        v, s = [], 0.0
        for _, _, b in pts:
            s += b
            if abs(s) < 1e-9:
                s = 0.0
            if s > 0:
                v.append(s)
        if v:
            brows.append([rank, k] + describe(v) + [int(tie)])


def main():
    folder, qout, bout = sys.argv[1:4]
    qrows, brows = [], []
    docs = [load(os.path.join(folder, f)) for f in sorted(os.listdir(folder))
            if f.endswith(".json") or f.endswith(".json.gz")]
    steps = {e.get("name") for d in docs for e in d["traceEvents"]
             if re.match(r"ProfilerStep#\d+", str(e.get("name", "")))}
    for d in docs:
        one_rank(d, len(steps), qrows, brows)
    cols = ["count", "mean", "std", "min", "25%", "50%", "75%", "max", "order_dependent"]
    for path, key, rows in ((qout, "stream", qrows), (bout, "name", brows)):
        with open(path, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["rank", key] + cols)
            for r in rows:
                w.writerow([repr(x) if isinstance(x, float) else x for x in r])


if __name__ == "__main__":
    main()
