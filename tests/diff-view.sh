#!/bin/sh
# A diff in every pane (tracetop --diff A B, and the demo with its regressed
# run): each pane's first line is the headline of `report diff`; the key d
# shows Control, then Test, then both again, and the Control and Test views
# are the panes of each trace set opened alone; side by side, each row's
# Control, Test and Δ columns are the reports of each side and their
# difference, checked by tests/tools/screencheck.py (as tests/consistency.sh
# does for every pane); the rank x metric table (the Diff ranks view) is
# `report diff --table diff_ranks`.  The shared diff pair is skipped when
# ../shared is absent; the demo pair always runs.
. "${SRCDIR:-.}/tests/lib.sh"
[ -x "$TRACETOP" ] || { echo "no binary: $TRACETOP"; exit 99; }
command -v python3 >/dev/null || { echo "skip: python3 reads the cells"; exit 77; }
CHECK="$SRCDIR/tests/tools/screencheck.py"
# (the pairing checks' shared Python: tests/tools/sidebyside.py)
TOOLS="$SRCDIR/tests/tools"
export TOOLS
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-diffview.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
HOME=$tmp/home
mkdir -p "$HOME"
export HOME
unset TRACETOP_KEYMAP TRACETOP_THEME TRACETOP_THEMES NO_COLOR

# the table rows of a screen: from the header line (it has "rank") to the
# first blank line
rows() {
	awk '/^  rank / { on = 1 } on && /^ *$/ { exit } on { sub(/^[> ]/, " "); print }' "$1"
}

# views LABEL CONTROL_ARGS TEST_ARGS DIFF_ARGS...: d cycles the views, and
# the Control and Test views are the panes of each side alone
views() {
	label=$1 ca=$2 ta=$3
	shift 3
	for k in 1 2 3 5 6; do
		# shellcheck disable=SC2086
		"$TRACETOP" --headless -q --size 120x40 --keys "$k" $ca >"$tmp/c.screen" 2>&1
		# shellcheck disable=SC2086
		"$TRACETOP" --headless -q --size 120x40 --keys "$k" $ta >"$tmp/t.screen" 2>&1
		for v in "" d dd ddd; do
			"$TRACETOP" --headless -q --size 120x40 --keys "$k$v" "$@" >"$tmp/v$v.screen" 2>&1
		done
		sed -n 2p "$tmp/v.screen" | grep -q '\[Control | Test | Δ\]' &&
			sed -n 2p "$tmp/vd.screen" | grep -q '\[Control\]' &&
			sed -n 2p "$tmp/vdd.screen" | grep -q '\[Test\]' &&
			sed -n 2p "$tmp/vddd.screen" | grep -q '\[Control | Test | Δ\]' ||
			{ fail "$label pane $k: d does not cycle Control, Test, both"; continue; }
		rows "$tmp/c.screen" >"$tmp/c.rows"
		rows "$tmp/vd.screen" >"$tmp/vd.rows"
		rows "$tmp/t.screen" >"$tmp/t.rows"
		rows "$tmp/vdd.screen" >"$tmp/vdd.rows"
		if [ -s "$tmp/c.rows" ] && cmp -s "$tmp/c.rows" "$tmp/vd.rows" &&
			[ -s "$tmp/t.rows" ] && cmp -s "$tmp/t.rows" "$tmp/vdd.rows"; then
			pass "$label pane $k: d shows Control's rows, then Test's"
		else
			fail "$label pane $k: the Control or Test view is not the side's own pane"
			diff "$tmp/c.rows" "$tmp/vd.rows" | head -5
			diff "$tmp/t.rows" "$tmp/vdd.rows" | head -5
		fi
	done
}

# headline LABEL REPORT_ARGS -- DIFF_ARGS: line 3 of every pane is the
# title of report diff's diff_steps table
headline() {
	label=$1 ra=$2
	shift 2
	# shellcheck disable=SC2086
	want=$("$TRACETOP" report diff -q --wide --table diff_steps $ra | head -1)
	bad=0
	for k in 1 2 3 4 5 6 7 0; do
		got=$("$TRACETOP" --headless -q --size 200x60 --keys "$k" "$@" | sed -n 3p | sed 's/^ //; s/ *$//')
		[ "$got" = "$want" ] || { bad=1; echo "    pane $k: '$got'"; }
	done
	case $want in
	"Test is "*" slower per step"*) ;;
	*) bad=1; echo "    headline: '$want'" ;;
	esac
	if [ $bad = 0 ]; then pass "$label: every pane's first line is the headline: $want"; else fail "$label: headline"; fi
}

# side LABEL SIZE DIFF_ARGS...: every side-by-side cell is its side's report
side() {
	label=$1 size=$2
	shift 2
	if python3 "$CHECK" --tracetop "$TRACETOP" --size "$size" --label "$label" --diff -- "$@" >"$tmp/out" 2>&1 &&
		grep -q 'rows side by side' "$tmp/out"; then
		pass "$(tail -1 "$tmp/out")"
	else
		fail "$label $size:"
		sed 's/^/    /' "$tmp/out"
	fi
}

# ranks LABEL REPORT_ARGS -- DIFF_ARGS: the Diff ranks view's cells are
# report diff's diff_ranks
ranks() {
	label=$1 ra=$2
	shift 2
	# shellcheck disable=SC2086
	"$TRACETOP" report diff -q --table diff_ranks -f csv $ra >"$tmp/ranks.csv"
	"$TRACETOP" --headless -q --size 120x40 --keys 'v/Diff ranks<Enter><Enter><Cells>' "$@" >"$tmp/ranks.out"
	if python3 - "$tmp/ranks.csv" "$tmp/ranks.out" <<'EOF'; then
import csv, json, sys
rep = list(csv.DictReader(open(sys.argv[1])))
cells = [json.loads(l[len("@@cells "):]) for l in open(sys.argv[2]) if l.startswith("@@cells ")][-1]
assert cells["pane"] == "diffranks", cells["pane"]
rows = cells["rows"]
assert rows and len(rows) == len(rep), (len(rows), len(rep))
for r in rows:
    c = r["csv"]
    m = [x for x in rep if x["Control_rank"] == c["Control_rank"]]
    assert len(m) == 1, c["Control_rank"]
    for k, v in m[0].items():
        assert c[k] == v, (k, c[k], v)
    for met in ("step", "gpu_busy", "computation", "communication", "memory", "gpu_idle"):
        a, b, d = (float(c[f"Control_{met}"]), float(c[f"Test_{met}"]), float(c[f"diff_{met}"]))
        assert abs(b - a - d) <= 1e-6 * max(1, abs(a), abs(b)), (met, a, b, d)
# the ranks whose time moved most first: the headline's rank on top
print(f"{len(rows)} rank pairs x 6 metrics")
EOF
		pass "$label: the rank x metric table is report diff's diff_ranks"
	else
		fail "$label: the rank x metric table"
	fi
}

# streams CONTROL TEST: Idle side by side on a pair of one rank each, with
# other rank and stream numbers (Control rank 3: streams 7, 20-22; Test
# rank 1: 7, 14-16): every row is of both sides, says the rank pair "3 | 1"
# and, where the numbers differ, both streams and what they carry; the
# pairing is the one the kernels give (each stream's kernel type with the
# most time, read from the trace files here: nccl* communication,
# Memcpy/Memset memory, the rest compute), and each side's idle is its own
# report's for its stream
streams() {
	"$TRACETOP" --headless -q --size 120x40 --keys '3<Cells>' --diff "$1" "$2" >"$tmp/idle.out"
	"$TRACETOP" report idle -q -f csv --table idle_time_breakdown "$1" >"$tmp/idle-a.csv"
	"$TRACETOP" report idle -q -f csv --table idle_time_breakdown "$2" >"$tmp/idle-b.csv"
	if python3 - "$tmp/idle.out" "$tmp/idle-a.csv" "$tmp/idle-b.csv" "$1" "$2" <<'EOF' >"$tmp/streams" 2>&1; then
import csv, os, sys
sys.path.insert(0, os.environ["TOOLS"])
from sidebyside import last_cells, stream_kinds as kinds
cells = last_cells(sys.argv[1], "idle")

def idle(path):
    out = {}
    for r in csv.DictReader(open(path)):
        k = (r["rank"], r["stream"])
        out[k] = out.get(k, 0.0) + float(r["idle_time"])
    return out

ia, ib = idle(sys.argv[2]), idle(sys.argv[3])
ka, kb = kinds(sys.argv[4]), kinds(sys.argv[5])
n = 0
for row in cells["rows"]:
    c = row["csv"]
    assert c["row_a"] != "-1" and c["row_b"] != "-1", ("a stream of one side only", c)
    assert c["rank"] == "3 | 1", c["rank"]
    sa, sb = c["stream"].split(" | ")[0], c["Test_stream"]
    assert ka[sa] == kb[sb], (sa, ka[sa], sb, kb[sb])
    want = sa if sa == sb else f"{sa} | {sb} ({ka[sa]})"
    assert c["stream"] == want, (c["stream"], want)
    for side, tab, rank, s in (("Control", ia, "3", sa), ("Test", ib, "1", sb)):
        got, exp = float(c[f"{side}_idle"]), tab[(rank, s)]
        assert abs(got - exp) <= 1e-6 * max(1, exp), (side, s, got, exp)
    print(f"stream {sa} beside stream {sb} ({ka[sa]})")
    n += 1
assert n == len(ia) == len(ib) == 4, (n, len(ia), len(ib))
print(f"{n} of {len(ia)} streams of rank 3 beside one of rank 1")
EOF
		pass "Idle side by side: $(tail -1 "$tmp/streams"): $(head -n -1 "$tmp/streams" | tr '\n' ';')"
	else
		fail "Idle side by side: the streams of rank 3 and rank 1:"
		sed 's/^/    /' "$tmp/streams"
	fi
}

# counters CONTROL TEST: Counters side by side on the same pair: every row
# is of both sides and says "3 | 1"; a queue row pairs the streams as Idle
# does (by the kernels they carry, read from the trace files here), a
# bandwidth row the same copy kind; each side's mean, max and count are its
# own report's (queue_length_summary, memory_bw_summary) for its stream or
# copy kind, and every series of either side has its row
counters() {
	"$TRACETOP" --headless -q --size 120x40 --keys '7<Cells>' --diff "$1" "$2" >"$tmp/cnt.out"
	for s in a b; do
		f=$1
		[ "$s" = b ] && f=$2
		"$TRACETOP" report counters -q -f csv --table queue_length_summary "$f" >"$tmp/q-$s.csv"
		"$TRACETOP" report counters -q -f csv --table memory_bw_summary "$f" >"$tmp/bw-$s.csv"
	done
	if python3 - "$tmp/cnt.out" "$tmp" "$1" "$2" <<'EOF' >"$tmp/cnt" 2>&1; then
import csv, os, sys
sys.path.insert(0, os.environ["TOOLS"])
from sidebyside import last_cells, stream_kinds as kinds
cells = last_cells(sys.argv[1], "counters")
d = sys.argv[2]

def summary(side):
    out = {}
    for r in csv.DictReader(open(f"{d}/q-{side}.csv")):
        out[("queue", r["rank"], r["stream"])] = r
    for r in csv.DictReader(open(f"{d}/bw-{side}.csv")):
        out[("bw", r["rank"], r["name"])] = r
    return out

sa_, sb_ = summary("a"), summary("b")
ka, kb = kinds(sys.argv[3]), kinds(sys.argv[4])
seen_a, seen_b, nq, nbw = set(), set(), 0, 0
for row in cells["rows"]:
    c = row["csv"]
    assert c["row_a"] != "-1" and c["row_b"] != "-1", ("a series of one side only", c)
    assert c["rank"] == "3 | 1", c["rank"]
    ser, tser = c["series"], c["Test_series"]
    if ser.startswith("queue, stream "):
        a = ser[len("queue, stream "):].split(" | ")[0]
        b = tser[len("queue, stream "):]
        assert ka[a] == kb[b], (a, ka[a], b, kb[b])
        want = ser if a == b else f"queue, stream {a} | {b} ({ka[a]})"
        assert ser == want, (ser, want)
        keys = (("queue", "3", a), ("queue", "1", b))
        nq += 1
    else:
        assert ser.startswith("GB/s, ") and ser == tser, (ser, tser)
        keys = (("bw", "3", ser[6:]), ("bw", "1", tser[6:]))
        nbw += 1
    for side, tab, key, seen in (("Control", sa_, keys[0], seen_a), ("Test", sb_, keys[1], seen_b)):
        r = tab[key]
        seen.add(key)
        for col in ("mean", "max", "count"):
            got, exp = float(c[f"{side}_{col}"]), float(r[col])
            assert abs(got - exp) <= 1e-6 * max(1, abs(exp)), (side, key, col, got, exp)
assert seen_a == {k for k in sa_ if k[1] == "3"} and seen_b == {k for k in sb_ if k[1] == "1"}, \
    (sorted(seen_a), sorted(seen_b))
assert nq >= 4 and nbw >= 1, (nq, nbw)
print(f"{nq} queue and {nbw} bandwidth rows of rank 3 beside rank 1's, of {len(cells['rows'])} rows")
EOF
		pass "Counters side by side: $(tail -1 "$tmp/cnt")"
	else
		fail "Counters side by side: the series of rank 3 and rank 1:"
		sed 's/^/    /' "$tmp/cnt"
	fi
}

# the demo job and its regressed run, as .tts models (tests/lib.sh,
# to_tts: parsed once, not some ninety times); --demo --diff is the same
# pair, once
"$TRACETOP" demo-trace -q -o "$tmp/base" >/dev/null 2>&1 &&
	"$TRACETOP" demo-trace -q -o "$tmp/regressed" --variant regressed >/dev/null 2>&1 &&
	to_tts "$tmp/base" "$tmp/tts/base" && to_tts "$tmp/regressed" "$tmp/tts/regressed" ||
	{ echo "demo-trace failed"; exit 99; }
b=$tmp/tts/base r=$tmp/tts/regressed
headline demo "--demo" --demo --diff
views demo "$b" "$r" --diff "$b" "$r"
side demo-diff 80x24 "$b" "$r"
ranks demo "$b $r" --diff "$b" "$r"
# d without a second trace says so
"$TRACETOP" --headless -q --size 80x24 --keys 'd' "$tmp/base" >"$tmp/one.screen" 2>&1
if grep -q 'one trace set: start with --diff CONTROL TEST' "$tmp/one.screen"; then
	pass "d on one trace set says how to start a diff"
else
	fail "d on one trace set"
	cat "$tmp/one.screen"
fi

SHARED="${SHARED:-$SRCDIR/../shared}"
A="$SHARED/traces/diff-control" B="$SHARED/traces/diff-test"
if [ -d "$A" ] && [ -d "$B" ]; then
	to_tts "$A" "$tmp/tts/A" && to_tts "$B" "$tmp/tts/B" || exit 99
	a=$tmp/tts/A b=$tmp/tts/B
	headline diff "$a $b" --diff "$a" "$b"
	views diff "$a" "$b" --diff "$a" "$b"
	side diff 80x24 "$a" "$b"
	side diff 120x40 "$a" "$b"
	ranks diff "$a $b" --diff "$a" "$b"
	# (the trace files themselves: the pairing is read from them)
	streams "$A" "$B"
	counters "$A" "$B"
fi

shared_or_skip "diff-control vs diff-test (the demo pair was checked)"
summary
