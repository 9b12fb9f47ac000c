#!/usr/bin/env python3
"""Compare tracetop's critical path (report critical-path --table
critical_path -f csv) with HTA's critical_path_edges.csv.gz, edge by edge.

An edge matches when its type, duration (µs), start and end time relative to
the path's first node, the names of both nodes and whether each is a start,
the attributed event's name, bound_by and category are all equal.  Event
indices are not compared: HTA's are rows of the trace file, tracetop's are
positions in its model.  Prints one line; exits 1 on any difference, and on
a path with no edge (an empty comparison proves nothing).  --tally FILE
appends "LABEL<TAB>edges<TAB>numbers<TAB>texts" (3 numbers and 8 texts an
edge) to FILE.

  cppath.py OURS REF.csv.gz --rank R [--label TEXT] [--tally FILE]
"""
import argparse
import csv
import gzip
import sys


def key(r, true):
    t0 = float(r["t0"])
    return (
        r["type"],
        round(float(r["duration"]), 3),
        round(float(r["start_ts"]) - t0, 3),
        round(float(r["end_ts"]) - t0, 3),
        r["u_name"],
        r["u_is_start"] == true,
        r["v_name"],
        r["v_is_start"] == true,
        r["attributed_name"],
        r["bound_by"],
        r["category"],
    )


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ours")
    ap.add_argument("ref")
    ap.add_argument("--rank", required=True)
    ap.add_argument("--label", default="")
    ap.add_argument("--tally", default="")
    a = ap.parse_args()
    with open(a.ours, newline="") as f:
        ours = [r for r in csv.DictReader(f) if r["rank"] == a.rank]
    with gzip.open(a.ref, "rt", newline="") as f:
        ref = [r for r in csv.DictReader(f) if r["rank"] == a.rank]
    for rows in (ours, ref):
        for r in rows:
            r["t0"] = rows[0]["start_ts"]
    bad = []
    for i, (o, r) in enumerate(zip(ours, ref)):
        ko, kr = key(o, "1"), key(r, "True")
        if ko != kr:
            bad.append((i, ko, kr))
    label = a.label + ": " if a.label else ""
    if a.tally:
        with open(a.tally, "a") as f:
            n = min(len(ours), len(ref))
            f.write("%s\t%d\t%d\t%d\n" % (a.label, n, 3 * n, 8 * n))
    if not ref:
        print(f"{label}no edge in the reference for rank {a.rank}: nothing compared")
        sys.exit(1)
    if len(ours) != len(ref) or bad:
        print(f"{label}{len(ours)} edges vs reference {len(ref)}, {len(bad)} differ")
        for i, ko, kr in bad[:3]:
            print(f"  edge {i}: ours {ko}")
            print(f"  edge {i}: ref  {kr}")
        sys.exit(1)
    print(f"{label}{len(ours)} edges, every one as HTA's")


if __name__ == "__main__":
    main()
