#!/usr/bin/env python3
"""Check `tracetop report range` against sums computed here from the events.

  rangecheck.py REPORT.csv EVENTS.csv [--trace FILE.json.gz --rank N]

REPORT.csv is `tracetop report range -f csv ...` (its tables one after the
other, each after a "# name" line); EVENTS.csv is the same command with
`--table range_events`: every event overlapping the range with its own
start and duration.  From the events alone this script clips each to the
range and computes, per rank: kernel count and time, communication kernel
time (metrics.md section 1, rule 1), memcpy and memset time, GPU busy time
(the union over its streams), CPU op count; per GPU stream: events, kernel
time, busy time, idle gaps and the largest; per (kind, name): count and
time summed over the ranks; the longest idle gaps.  Every number the report
prints must equal these exactly (integers of ns: the CSV writes exact µs).

With --trace, the kernels of rank N in the range are also read from the
trace file itself (gzip JSON, timestamps as exact decimals) and must be the
events CSV's kernels of that rank, one for one.

Prints one line of counts; exits 1 on any difference (listed).
"""
import argparse
import csv
import gzip
import io
import json
import re
import sys
from collections import defaultdict
from decimal import Decimal


def ns(us_text):
    """exact µs text -> int ns"""
    return int(Decimal(us_text) * 1000)


def tables(path):
    """{name: [rows as dicts]} of a multi-table CSV ("" for one table alone)"""
    out, name, buf = {}, "", []

    def flush():
        if buf:
            out[name] = list(csv.DictReader(io.StringIO("".join(buf))))

    with open(path, newline="") as f:
        for line in f:
            if line.startswith("# "):
                flush()
                name, buf = line[2:].strip(), []
            elif line.strip():
                buf.append(line)
    flush()
    return out


def is_comm(name):
    return (name.startswith("nccl") or name.startswith("hip") or name.startswith("hccl")
            or "ncclKernel" in name)


def union(ivs):
    tot, blocks = 0, []
    for a, b in sorted(ivs):
        if blocks and a <= blocks[-1][1]:
            blocks[-1][1] = max(blocks[-1][1], b)
        else:
            blocks.append([a, b])
    for a, b in blocks:
        tot += b - a
    return tot, blocks


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("events")
    ap.add_argument("--trace")
    ap.add_argument("--rank", type=int)
    a = ap.parse_args()
    rep = tables(a.report)
    evs = tables(a.events)
    evs = evs.get("range_events", evs.get("", []))
    ranks = rep["range"]
    t0, t1 = int(ranks[0]["range_start_ns"]), int(ranks[0]["range_end_ns"])
    bad = []

    def same(what, got, want):
        if got != want:
            bad.append("%s: report %s, events %s" % (what, got, want))

    # clip every event to the range
    per_rank = defaultdict(lambda: defaultdict(int))
    streams = defaultdict(lambda: {"events": 0, "kernel": 0, "iv": []})
    names = defaultdict(lambda: [0, 0, set()])
    rank_iv = defaultdict(list)
    for e in evs:
        ts, dur = int(e["ts_ns"]), int(e["dur_ns"])
        a0, b0 = max(ts, t0), min(ts + dur, t1)
        inside = b0 - a0 if dur else 0
        if dur and inside <= 0 or not dur and not (t0 <= ts < t1):
            bad.append("event outside the range: %s" % e)
            continue
        rank, kind, name = int(e["rank"]), e["kind"], e["name"]
        nm = names[(kind, name)]
        nm[0] += 1
        nm[1] += inside
        nm[2].add(rank)
        pr = per_rank[rank]
        if kind == "cpu_op":
            pr["cpu_ops"] += 1
        if e["gpu"] != "1":
            continue
        st = streams[(rank, e["track"])]
        st["events"] += 1
        if kind == "kernel":
            pr["kernels"] += 1
            pr["kernel"] += inside
            st["kernel"] += inside
            if is_comm(name):
                pr["comm"] += inside
        elif kind == "memcpy":
            pr["memcpy"] += inside
        elif kind == "memset":
            pr["memset"] += inside
        if inside > 0:
            st["iv"].append((a0, b0))
            rank_iv[rank].append((a0, b0))

    for r in ranks:
        k = int(r["rank"])
        pr = per_rank[k]
        same("rank %d kernels" % k, int(r["kernels"]), pr["kernels"])
        same("rank %d kernel time" % k, ns(r["kernel_time(us)"]), pr["kernel"])
        same("rank %d communication time" % k, ns(r["comm_time(us)"]), pr["comm"])
        same("rank %d memcpy time" % k, ns(r["memcpy_time(us)"]), pr["memcpy"])
        same("rank %d memset time" % k, ns(r["memset_time(us)"]), pr["memset"])
        same("rank %d GPU busy" % k, ns(r["gpu_busy(us)"]), union(rank_iv[k])[0])
        same("rank %d CPU ops" % k, int(r["cpu_ops"]), pr["cpu_ops"])

    gaps = []
    seen = set()
    for r in rep.get("range_streams", []):
        key = (int(r["rank"]), r["stream"])
        seen.add(key)
        st = streams[key]
        busy, blocks = union(st["iv"])
        g, at = [], t0
        for b in blocks + [[t1, t1]]:
            if b[0] > at:
                g.append((at, b[0]))
            at = max(at, b[1])
        for x in g:
            gaps.append((-(x[1] - x[0]), key, x[0], x[1]))
        same("%s events" % (key,), int(r["events"]), st["events"])
        same("%s kernel time" % (key,), ns(r["kernel_time(us)"]), st["kernel"])
        same("%s busy" % (key,), ns(r["busy(us)"]), busy)
        same("%s gaps" % (key,), int(r["idle_gaps"]), len(g))
        if g:
            same("%s largest gap" % (key,), ns(r["max_gap(us)"]), max(x[1] - x[0] for x in g))
    for key in streams:
        if key not in seen:
            bad.append("stream %s has events but no row" % (key,))

    for r in rep.get("range_names", []):
        nm = names.get((r["kind"], r["name"]))
        if nm is None:
            bad.append("name %s %s not among the events" % (r["kind"], r["name"]))
            continue
        what = "%s %s" % (r["kind"], r["name"][:40])
        same(what + " count", int(r["count"]), nm[0])
        same(what + " time", ns(r["time(us)"]), nm[1])
        same(what + " ranks", int(r["ranks"]), len(nm[2]))
    # the listed names are the ones with most time
    listed = rep.get("range_names", [])
    if listed:
        least = min(ns(r["time(us)"]) for r in listed)
        more = [k for k, v in names.items() if v[1] > least and
                not any(r["kind"] == k[0] and r["name"] == k[1] for r in listed)]
        if more:
            bad.append("names with more time than the listed ones: %s" % more[:3])

    gaps.sort()
    lens = sorted((ns(r["duration(us)"]) for r in rep.get("range_gaps", [])), reverse=True)
    same("the longest gaps", lens, [-g[0] for g in gaps[:len(lens)]])

    ntrace = 0
    if a.trace:
        opener = gzip.open if a.trace.endswith(".gz") else open
        with opener(a.trace, "rt") as f:
            doc = json.load(f, parse_float=Decimal, parse_int=Decimal)
        base = int(doc.get("baseTimeNanoseconds", 0) or 0)
        want = []
        for e in doc.get("traceEvents", doc if isinstance(doc, list) else []):
            if e.get("ph") != "X" or e.get("cat") != "kernel":
                continue
            ts = int(Decimal(e["ts"]) * 1000) + base
            dur = int(Decimal(e.get("dur", 0)) * 1000)
            if (dur and ts < t1 and ts + dur > t0) or (not dur and t0 <= ts < t1):
                want.append((ts, dur, e["name"]))
        got = sorted((int(e["ts_ns"]), int(e["dur_ns"]), e["name"]) for e in evs
                     if e["kind"] == "kernel" and int(e["rank"]) == a.rank)
        same("rank %d kernels read from the trace" % a.rank, got, sorted(want))
        ntrace = len(want)

    print("range %d..%d ns: %d ranks, %d streams, %d names, %d gaps, %d events, "
          "%d kernels checked against the trace; %d differences"
          % (t0, t1, len(ranks), len(seen), len(listed), len(lens), len(evs), ntrace, len(bad)))
    for b in bad[:20]:
        print("  " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
