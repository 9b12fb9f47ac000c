"""What the side-by-side pairing checks of tests/diff-view.sh share: the
last table a headless run wrote with <Cells>, and what each stream of a
trace carries, read from the trace files themselves (not from tracetop)."""
import glob
import gzip
import json


def last_cells(path, pane):
    """The last "@@cells" record of a headless run's output: the pane's
    table, both sides of a diff (asserted)."""
    cells = [json.loads(l[len("@@cells "):]) for l in open(path)
             if l.startswith("@@cells ")][-1]
    assert cells["pane"] == pane and cells.get("both"), cells["pane"]
    return cells


def stream_kinds(folder):
    """stream -> the kind of kernel with the most time on it: nccl*
    communication, Memcpy/Memset memory, the rest compute."""
    t = {}
    for f in glob.glob(folder + "/*.json*"):
        op = gzip.open if f.endswith(".gz") else open
        for e in json.load(op(f, "rt"))["traceEvents"]:
            s = (e.get("args") or {}).get("stream")
            if e.get("ph") != "X" or s is None or s == -1 or "dur" not in e:
                continue
            n = e.get("name", "")
            k = "comm" if "nccl" in n.lower() else \
                "memory" if n.startswith(("Memcpy", "Memset")) else "compute"
            d = t.setdefault(str(s), {})
            d[k] = d.get(k, 0) + float(e["dur"])
    return {s: max(d, key=d.get) for s, d in t.items()}
