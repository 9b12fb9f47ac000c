#!/usr/bin/env python3
"""Compare a tracetop CSV with an HTA reference CSV, column by column.

Rows are matched by --key columns (repeated keys are matched in order of
appearance).  Numeric cells must agree within a tolerance: |a - b| <= abs or
|a - b| <= rel * |b|; empty cells (NaN) match only empty cells.  Text cells
must be equal.  Prints one line: rows compared, cells compared (numbers and
texts), and the largest deviation per column; exits 1 on any difference (the
first ones are listed).

A table with no row to compare fails: a reference without rows, or no row in
common, compares nothing.  --empty REASON allows it where both tables are
empty for a stated reason (then their headers must agree, ours holding every
column of the reference's), and fails if either has rows.

--order-dependent ORACLE names the rows whose reference value depends on
the order of the reference's unstable sort: the rows of the CSV file ORACLE
(same key columns) whose order_dependent column is 1.  On those rows a
column given --otol COL=ABS[:REL] is compared within that tolerance (the
deviation the order can make) instead of its own; the rest as any row.

--tally FILE appends "LABEL<TAB>rows<TAB>numbers<TAB>texts" to FILE, so that
a suite can add up what it compared and fail below its floor.

  csvcmp.py OURS REF --key rank,stream [--abs 1] [--rel 1e-4]
            [--tol COL=ABS[:REL]] [--ignore COL,...] [--only COL,...]
            [--drop-zero COL] [--label TEXT] [--empty REASON] [--tally FILE]
            [--order-dependent ORACLE --otol COL=ABS[:REL]...]
"""
import argparse
import csv
import math
import sys


def num(s):
    if s is None or s == "":
        return math.nan
    try:
        return float(s)
    except ValueError:
        return None


def load(path, key, drop_zero):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    out = {}
    seen = {}
    for r in rows:
        if drop_zero and num(r.get(drop_zero)) == 0:
            continue
        k = tuple(r[c] for c in key)
        i = seen.get(k, 0)
        seen[k] = i + 1
        out[k + (i,)] = r
    with open(path, newline="") as f:
        header = next(csv.reader(f), [])
    return out, header


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ours")
    ap.add_argument("ref")
    ap.add_argument("--key", required=True)
    ap.add_argument("--abs", type=float, default=0.0)
    ap.add_argument("--rel", type=float, default=0.0)
    ap.add_argument("--tol", action="append", default=[])
    ap.add_argument("--ignore", default="")
    ap.add_argument("--only", default="")
    ap.add_argument("--drop-zero", default="")
    ap.add_argument("--label", default="")
    ap.add_argument("--empty", default="")
    ap.add_argument("--tally", default="")
    ap.add_argument("--order-dependent", default="")
    ap.add_argument("--otol", action="append", default=[])
    a = ap.parse_args()
    key = a.key.split(",")
    ours, our_cols = load(a.ours, key, a.drop_zero)
    ref, ref_cols = load(a.ref, key, a.drop_zero)
    ignore = set(filter(None, a.ignore.split(","))) | set(key)
    only = set(filter(None, a.only.split(",")))
    tol = {}
    for t in a.tol:
        c, v = t.split("=", 1)
        parts = v.split(":")
        tol[c] = (float(parts[0]), float(parts[1]) if len(parts) > 1 else a.rel)
    otol = {}
    for t in a.otol:
        c, v = t.split("=", 1)
        parts = v.split(":")
        otol[c] = (float(parts[0]), float(parts[1]) if len(parts) > 1 else 0.0)
    odep = set()
    if a.order_dependent:
        with open(a.order_dependent, newline="") as f:
            odep = {tuple(r[c] for c in key) for r in csv.DictReader(f)
                    if r.get("order_dependent") == "1"}
    nodep = 0
    cols = [c for c in ref_cols if c not in ignore and (not only or c in only)]
    errors = []
    missing = sorted(set(ref) - set(ours))
    extra = sorted(set(ours) - set(ref))
    for k in missing[:5]:
        errors.append("row missing from ours: %s" % (k[:-1],))
    for k in extra[:5]:
        errors.append("row not in the reference: %s" % (k[:-1],))
    maxdev = {c: 0.0 for c in cols}
    compared = nnum = ntext = 0
    for k in sorted(set(ref) & set(ours)):
        compared += 1
        dep = k[:-1] in odep
        nodep += dep
        for c in cols:
            if c not in ours[k]:
                errors.append("column %s missing from ours" % c)
                continue
            x, y = ours[k][c], ref[k][c]
            nx, ny = num(x), num(y)
            if nx is None or ny is None:
                ntext += 1
                if x != y:
                    errors.append("%s %s: %r != %r" % (k[:-1], c, x, y))
                continue
            nnum += 1
            if math.isnan(nx) or math.isnan(ny):
                if not (math.isnan(nx) and math.isnan(ny)):
                    errors.append("%s %s: %s vs reference %s" % (k[:-1], c, x or "empty", y or "empty"))
                continue
            d = abs(nx - ny)
            maxdev[c] = max(maxdev[c], d)
            at, rt = otol[c] if dep and c in otol else tol.get(c, (a.abs, a.rel))
            if d > at and d > rt * abs(ny):
                errors.append("%s %s: %s vs reference %s (diff %g)" % (k[:-1], c, x, y, d))
    if a.empty:
        if ours or ref:
            errors.append("rows where both tables should be empty (%s): ours %d, reference %d"
                          % (a.empty, len(ours), len(ref)))
        lost = [c for c in ref_cols if c not in our_cols]
        if not ref_cols or lost:
            errors.append("headers differ: ours %s, reference %s" % (",".join(our_cols),
                                                                      ",".join(ref_cols)))
    elif not compared:
        errors.append("no row compared (ours %d rows, reference %d): an empty comparison "
                      "proves nothing" % (len(ours), len(ref)))
    elif not cols:
        errors.append("no column compared besides the key")
    dev = " ".join("%s=%g" % (c, v) for c, v in maxdev.items())
    label = a.label or a.ref
    what = ("both empty, as they should be (%s); headers agree" % a.empty if a.empty and
            not errors else "rows %d (ours %d, reference %d), %d numbers, %d texts"
            % (compared, len(ours), len(ref), nnum, ntext))
    if a.order_dependent:
        what += "; %d order-dependent (%s within %s)" % (
            nodep, ",".join(otol) or "-", " ".join("%g:%g" % v for v in otol.values()) or "-")
    print("%s: %s; max deviation: %s" % (label, what, dev or "-"))
    if a.tally:
        with open(a.tally, "a") as f:
            f.write("%s\t%d\t%d\t%d\n" % (label, compared, nnum, ntext))
    if missing or extra:
        print("  %d rows missing, %d extra" % (len(missing), len(extra)))
    for e in errors[:15]:
        print("  " + e)
    if len(errors) > 15:
        print("  ... %d more" % (len(errors) - 15))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
