#!/bin/sh
# Parity of the TensorBoard views with the plugin's own numbers
# (../shared/reference-tb/<set>/, its parser run from source) on every
# shared trace set: tests/tools/tbparity.py compares tracetop's CSV tables
# with the plugin's CSV files, times within 1 µs or 0.1 %, percentages
# within 0.1 point, counts and bytes exact.
#
# Where the plugin is wrong (../shared/docs/tbviews.md), the check asserts
# tracetop's value by another route and its line names the plugin's bug:
#  * runtime calls are linked to ops by External id only; on newer traces
#    no id names an op, so the plugin shows no device time and counts the
#    runtime calls as host self: tracetop nests them by time, checked
#    against an independent nesting in python, and its host self plus the
#    runtime time must equal the plugin's host self;
#  * communication kernels count only when their External id links them to
#    an nccl:/gloo: op (none do on the shared traces): tracetop also
#    recognises them by name, and its Kernel time must equal the plugin's
#    kernel time by kernel name (the reference's derived columns);
#  * fractional-µs traces: the plugin's float64 µs lose the ns, so those
#    sets are compared with the plugin run on rebased timestamps.
. "${SRCDIR:-.}/tests/lib.sh"
need_shared
command -v python3 >/dev/null || { echo "skip: python3 runs tbparity.py"; exit 77; }
REF="$SHARED/reference-tb"
[ -d "$REF" ] || { echo "skip: $REF is absent"; exit 77; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

VIEWS="${TB_VIEWS:-overview operators gpu kernels distributed advice}"
for dir in "$SHARED"/traces/*/; do
	set_name=$(basename "$dir")
	[ -d "$REF/$set_name" ] || continue
	for v in $VIEWS; do
		if python3 "$SRCDIR/tests/tools/tbparity.py" "$v" "$dir" "$REF/$set_name" \
			"$TRACETOP" >"$D/out" 2>&1; then
			pass "$set_name $(head -n 1 "$D/out")"
		else
			fail "$set_name $(cat "$D/out")"
		fi
		echo "$set_name $(head -n 1 "$D/out")" >>"$D/lines"
	done
done
# the table of it all: per set and view, values matched of values compared,
# and (+N) how many of those differ from the plugin on purpose (its bugs,
# checked by another route)
[ -f "$D/lines" ] && python3 - "$D/lines" <<'PY'
import re, sys
cells, sets, views = {}, [], []
for line in open(sys.argv[1]):
    m = re.match(r"(\S+) (\w+): (\d+) rows, (\d+) values matched(?:, (\d+) differ)?(.*)", line)
    if not m:
        continue
    s, v, rows, ok, bad = m.group(1), m.group(2), int(m.group(3)), int(m.group(4)), int(m.group(5) or 0)
    bugs = sum(int(n) for n in re.findall(r"\((\d+) values\)", m.group(6)))
    sets += [s] if s not in sets else []
    views += [v] if v not in views else []
    cells[s, v] = "%d/%d%s" % (ok, ok + bad, " (+%d)" % bugs if bugs else "")
w = max(len(c) for c in cells.values())
print("values matched / compared, (+N) of them differ from the plugin on purpose")
print("%-17s" % "set" + "".join(" %*s" % (w, v) for v in views))
for s in sets:
    print("%-17s" % s + "".join(" %*s" % (w, cells.get((s, v), "-")) for v in views))
PY
summary
