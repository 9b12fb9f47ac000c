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
#    no id names an op, so the plugin shows no device time: the reference's
#    *_nested.csv hold the plugin's own figures with runtime calls charged
#    to the innermost operator around them, and a value must equal the
#    plugin's or that one, nothing else;
#  * runtime calls inside a collective's annotation are subtracted twice
#    from the host self of the op around it (record_param_comms): the test's
#    own op tree says by how much;
#  * communication kernels count only when their External id links them to
#    an nccl:/gloo: op (none do on the shared traces): tracetop also
#    recognises them by name, and its Kernel time must equal the plugin's
#    kernel time by kernel name (the reference's derived columns); the
#    latency of a collective is its CPU span only: checked against the
#    test's own reading of the collectives;
#  * fractional-µs traces: the plugin's float64 µs lose the ns (at epoch
#    magnitudes 0.25 µs: on ns-resolution an aten::mul whose rounded end
#    passes its parent's is dropped, 814 calls for 815), so those sets are
#    compared with the plugin run on rebased timestamps.
#
# The closing tables: values matched per set and view, how many were judged
# against the plugin, the nested reference, derived columns and the test's
# own model, and the plugin tables matched per set.
#
# Counted: every (set, view) of ../shared/reference-tb is compared (N of M,
# M counted from the folders), and the values judged against the plugin's
# own files (its tables, its nested figures, its derived columns) may not
# fall below the floors at the end; the values judged against the test's
# own model are counted apart and are no part of those floors, and that
# model is first checked against a micro-trace derived by hand.
. "${SRCDIR:-.}/tests/lib.sh"
need_shared
command -v python3 >/dev/null || { echo "skip: python3 runs tbparity.py"; exit 77; }
REF="$SHARED/reference-tb"
[ -d "$REF" ] || { echo "skip: $REF is absent"; exit 77; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT

# the test's own model first, against numbers derived by hand
if python3 "$SRCDIR/tests/tools/tbparity.py" --selftest >"$D/self" 2>&1; then
	pass "$(tail -n 1 "$D/self")"
else
	fail "the own model: $(cat "$D/self")"
fi

VIEWS="${TB_VIEWS:-overview operators gpu kernels memory distributed advice}"
for dir in "$SHARED"/traces/*/; do
	set_name=$(basename "$dir")
	[ -d "$REF/$set_name" ] || { skipped "$set_name: no folder in $REF"; continue; }
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
# the tables of it all
[ -f "$D/lines" ] && python3 - "$D/lines" <<'PY'
import re, sys
cells, tabs, judged, sets, views = {}, {}, {}, [], []
J = ("plugin", "nested", "derived", "own")
for line in open(sys.argv[1]):
    m = re.match(r"(\S+) (\w+): (\d+) rows, (\d+) values matched(?:, (\d+) differ)?; "
                 r"judged against (.*?); tables (\d+) matched, (\d+) matched with plugin bugs named, "
                 r"(\d+) differ", line)
    if not m:
        continue
    s, v = m.group(1), m.group(2)
    ok, bad = int(m.group(4)), int(m.group(5) or 0)
    sets += [s] if s not in sets else []
    views += [v] if v not in views else []
    cells[s, v] = "%d/%d" % (ok, ok + bad)
    t = tabs.setdefault(s, [0, 0, 0])
    for i in range(3):
        t[i] += int(m.group(7 + i))
    j = judged.setdefault(s, dict.fromkeys(J, 0))
    for k, n in re.findall(r"(\w+) (\d+)", m.group(6)):
        j[k] += int(n)
if not sets:
    sys.exit(0)
w = max(len(c) for c in cells.values())
print("values matched / compared")
print("%-17s" % "set" + "".join(" %*s" % (w, v) for v in views))
for s in sets:
    print("%-17s" % s + "".join(" %*s" % (w, cells.get((s, v), "-")) for v in views))
print()
print("values judged against: the plugin, the nested reference, derived columns, the test's own model;")
print("plugin tables: matched, matched with plugin bugs named, differ (of %d per set)" % 13)
print("%-17s %9s %9s %9s %9s   %7s %7s %7s" % ("set", "plugin", "nested", "derived", "own",
                                             "matched", "+bugs", "differ"))
tot = dict.fromkeys(J, 0)
for s in sets:
    j, t = judged[s], tabs[s]
    for k in J:
        tot[k] += j[k]
    print("%-17s %9d %9d %9d %9d   %7d %7d %7d" % ((s,) + tuple(j[k] for k in J) + tuple(t)))
print("%-17s %9d %9d %9d %9d" % (("all",) + tuple(tot[k] for k in J)))
PY
# the totals: (set, view) pairs compared, values judged against each source
set -- $(python3 - "$D/lines" <<'PY'
import re, sys
n, tot = 0, {"plugin": 0, "nested": 0, "derived": 0, "own": 0}
for line in open(sys.argv[1]):
    m = re.match(r"\S+ \w+: \d+ rows, \d+ values matched(?:, \d+ differ)?; judged against (.*?);",
                 line)
    if m:
        n += 1
        for k, v in re.findall(r"(\w+) (\d+)", m.group(1)):
            tot[k] += int(v)
print(n, tot["plugin"], tot["nested"], tot["derived"], tot["own"])
PY
)
nsets=0
for r in "$REF"/*/; do [ -f "$r/overview_steps.csv" ] && nsets=$((nsets + 1)); done
nviews=$(echo $VIEWS | wc -w)
m=$((nsets * nviews))
echo "TensorBoard plugin: compared $1 of $m (set, view) pairs; values judged against the" \
	"plugin's tables $2, its nested figures $3, its derived columns $4;" \
	"against this test's own model (counted apart) $5"
if [ "$1" -ge "$m" ]; then
	pass "TensorBoard plugin: $1 of $m (set, view) pairs compared"
else
	fail "TensorBoard plugin: $1 of $m (set, view) pairs compared"
fi
# the floors, for the full set of views only (TB_VIEWS picks some)
if [ -z "${TB_VIEWS:-}" ]; then
	at_least "values judged against the plugin's tables" 63039 "$2"
	at_least "values judged against the plugin's nested figures" 26717 "$3"
	at_least "values judged against the plugin's derived columns" 52 "$4"
fi
summary
