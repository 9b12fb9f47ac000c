#!/bin/sh
# The timeline as a navigator, through the real binary without a terminal,
# on the demo and on hta-2rank (when ../shared is there), rank 1 of each:
#   - search: the third match of a kernel name is the third such event in
#     time order of `tracetop report range --table range_events`, at the
#     same time to the ns, and the match count is the events' count;
#   - jump: the cursor lands on the typed time, within one cell;
#   - clamping: zooming out stops at the data, pans stop at both ends;
#   - range statistics: one ProfilerStep marked (M) and opened (A); the pane
#     shows what `tracetop report range` prints for the same times, and
#     tests/tools/rangecheck.py recomputes every number of that report from
#     the events CSV (and, on hta-2rank, the kernels from the trace file).
. "${SRCDIR:-.}/tests/lib.sh"
[ -x "$TRACETOP" ] || { echo "no binary: $TRACETOP"; exit 99; }
command -v python3 >/dev/null || { echo "skip: python3 checks the numbers"; exit 77; }
CHECK="$SRCDIR/tests/tools/rangecheck.py"

D=$(mktemp -d "${TMPDIR:-/tmp}/tt-nav.XXXXXX") || exit 99
trap 'rm -rf "$D"' EXIT INT TERM
HOME=$D/home
mkdir -p "$HOME"
TERM=dumb
export HOME TERM
unset TRACETOP_KEYMAP TRACETOP_THEME NO_COLOR

# screen KEYS ARGS...: the headless screen at 80x24 into $D/screen
screen() {
	keys=$1
	shift
	"$TRACETOP" --headless --size 80x24 --keys "$keys" "$@" >"$D/screen" 2>"$D/err"
	rc=$?
	[ $rc -eq 0 ] || { fail "headless '$keys': exit $rc"; cat "$D/err"; }
}
# time TEXT: "219.672 ms" -> ns (exact)
ns_of() {
	python3 -c '
import sys
from decimal import Decimal
v, u = sys.argv[1].split()
print(int(Decimal(v) * {"ns": 1, "us": 1000, "\u00b5s": 1000, "ms": 10**6, "s": 10**9}[u]))' "$1"
}
# the status line (a long message wraps onto the row above it)
status() { tail -2 "$D/screen" | tr -d '\n'; }
cursor_line() { grep -E '^ cursor ' "$D/screen" | head -1; }

nav() {
	label=$1 rank=$2 name=$3
	shift 3
	# ---- search: the third match ----
	"$TRACETOP" report range --ranks "$rank" -f csv --table range_events "$@" >"$D/ev.csv" ||
		fail "$label: report range --table range_events"
	python3 - "$D/ev.csv" "$name" >"$D/third" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1]))
        if sys.argv[2].lower() in r["name"].lower()]
rows.sort(key=lambda r: int(r["ts_ns"]))
from decimal import Decimal
print(len(rows), int(Decimal(rows[2]["start(us)"]) * 1000) if len(rows) > 2 else -1)
PY
	read -r nmatch third <"$D/third"
	screen "r$rank<Enter>9/$name<Enter>nn" "$@"
	at=$(cursor_line | sed -n 's/.* at \([0-9.]* [nuµm]*s\)$/\1/p')
	if [ -n "$at" ] && [ "$(ns_of "$at")" = "$third" ]; then
		pass "$label: match 3 of '$name' at $at, the third in the events CSV"
	else
		fail "$label: match 3 of '$name' at '$at', the events CSV says $third ns"
		cat "$D/screen"
	fi
	if status | grep -qE "match 3/$(printf "%'d" "$nmatch" 2>/dev/null || echo "$nmatch") "; then
		pass "$label: $nmatch matches, as many as the events"
	else
		fail "$label: '$(status)' for $nmatch events"
	fi

	# ---- jump: within a cell ----
	for t in 250ms 37.5ms 1.1s; do
		screen "r$rank<Enter>9:$t<Enter>" "$@"
		cur=$(cursor_line | sed -n 's/^ cursor \([0-9.]* [nuµm]*s\).*/\1/p')
		cell=$(grep -E '^ window ' "$D/screen" | sed -n 's/.*   \([0-9.]* [nuµm]*s\) per cell.*/\1/p')
		want=$(python3 -c 'import sys; from decimal import Decimal as D
s = sys.argv[1]; u = {"ms": 10**6, "s": 10**9}
print(int(D(s[:-2]) * u["ms"]) if s.endswith("ms") else int(D(s[:-1]) * u["s"]))' "$t")
		if [ -z "$cur" ] || [ -z "$cell" ]; then
			fail "$label: jump $t: no cursor or cell size"
			cat "$D/screen"
			continue
		fi
		if status | grep -q 'the end of the data shown'; then
			pass "$label: jump $t: past the end, said so"
			continue
		fi
		d=$(python3 -c 'import sys; a, b, c = map(int, sys.argv[1:]); print(abs(a - b) <= c)' \
			"$(ns_of "$cur")" "$want" "$(ns_of "$cell")")
		[ "$d" = True ] && pass "$label: jump $t lands at $cur (cells of $cell)" ||
			fail "$label: jump $t lands at $cur (cells of $cell)"
	done

	# ---- clamping at both ends ----
	"$TRACETOP" report range --ranks "$rank" -f csv --table range "$@" >"$D/bounds.csv"
	span=$(python3 -c 'import csv, sys
r = next(csv.DictReader(open(sys.argv[1])))
print(int(r["range_end_ns"]) - int(r["range_start_ns"]))' "$D/bounds.csv")
	screen "r$rank<Enter>9------" "$@"
	win=$(grep -E '^ window ' "$D/screen" | sed -n 's/^ window \(.*\) \.\. \([0-9.]* [nuµm]*s\) .*/\1|\2/p')
	a=${win%|*} b=${win#*|}
	ok=$(python3 -c 'import sys; a, b, s = map(int, sys.argv[1:]); print(a >= 0 and b <= s * 1.0005)' \
		"$(ns_of "$a")" "$(ns_of "$b")" "$span")
	[ "$ok" = True ] && pass "$label: zoomed out: window $a .. $b inside the data" ||
		fail "$label: zoomed out: window $a .. $b, the data ends at $span ns"
	status | grep -q 'the whole trace is in view' && pass "$label: - stops at the whole trace" ||
		fail "$label: '$(status)' after zooming out"
	screen "r$rank<Enter>9+++GLL" "$@"
	status | grep -q 'at the end of the trace' && pass "$label: L stops at the end" ||
		fail "$label: '$(status)' after G L L"
	screen "r$rank<Enter>9+++gHH" "$@"
	status | grep -q 'at the start of the trace' && pass "$label: H stops at the start" ||
		fail "$label: '$(status)' after g H H"

	# ---- the range of one step ----
	step=$("$TRACETOP" report steps --table steps -f csv --ranks "$rank" "$@" |
		awk -F, 'NR == 2 { print $2 }')
	screen "r$rank<Enter>9:step $step<Enter>MA" "$@"
	head=$(grep -E '^ [0-9.]+ ms \.\. [0-9.]+ ms' "$D/screen" | head -1)
	from=$(echo "$head" | sed -n 's/^ \([0-9.]*\) ms \.\. .*/\1ms/p')
	to=$(echo "$head" | sed -n 's/^ [0-9.]* ms \.\. \([0-9.]*\) ms.*/\1ms/p')
	kline=$(grep -E "^ rank $rank: kernel time" "$D/screen")
	if [ -z "$from" ] || [ -z "$kline" ]; then
		fail "$label: step $step: no range pane"
		cat "$D/screen"
		return
	fi
	pass "$label: step $step marked: $from .. $to"
	"$TRACETOP" report range --ranks "$rank" --from "$from" --to "$to" -f csv "$@" >"$D/rep.csv"
	"$TRACETOP" report range --ranks "$rank" --from "$from" --to "$to" -f csv \
		--table range_events "$@" >"$D/evr.csv"
	k=$(awk -F, '/^# range$/ { getline; getline; print $3 " " $4; exit }' "$D/rep.csv")
	nk=${k% *} kt=${k#* }
	shown=$(echo "$kline" | sed -n 's/.*kernel time \([0-9.]* [nuµm]*s\) in \([0-9]*\) kernels.*/\1|\2/p')
	# the pane rounds to 3 digits: within 0.5 % of the report
	ok=$(python3 -c 'import sys
from decimal import Decimal as D
v, u = sys.argv[1].split()
ns = D(v) * {"ns": 1, "us": 1000, "\u00b5s": 1000, "ms": 10**6, "s": 10**9}[u]
print(abs(ns - D(sys.argv[2]) * 1000) <= D(sys.argv[2]) * 1000 / 200)' "${shown%|*}" "$kt")
	if [ "${shown#*|}" = "$nk" ] && [ "$ok" = True ]; then
		pass "$label: the pane's kernel time ${shown%|*} in $nk kernels is the report's (${kt} us)"
	else
		fail "$label: pane '$kline', report $nk kernels, $kt us"
	fi
	if python3 "$CHECK" "$D/rep.csv" "$D/evr.csv" ${TRACE_FILE:+--trace "$TRACE_FILE" --rank "$rank"} \
		>"$D/check" 2>&1; then
		pass "$label: report range = the events clipped: $(cat "$D/check")"
	else
		fail "$label: report range differs from the events:"
		cat "$D/check"
	fi
	# the whole trace of both ranks too
	"$TRACETOP" report range -f csv --top 1000 "$@" >"$D/all.csv"
	"$TRACETOP" report range -f csv --table range_events "$@" >"$D/allev.csv"
	if python3 "$CHECK" "$D/all.csv" "$D/allev.csv" >"$D/check" 2>&1; then
		pass "$label: whole trace: $(cat "$D/check")"
	else
		fail "$label: whole trace differs:"
		cat "$D/check"
	fi
}

TRACE_FILE='' nav demo 1 ncclDevKernel --demo

SHARED="${SHARED:-$SRCDIR/../shared}"
if [ -d "$SHARED/traces/hta-2rank" ]; then
	TRACE_FILE=$SHARED/traces/hta-2rank/sampled_rank-1.json.gz
	nav hta-2rank 1 ncclKernel "$SHARED/traces/hta-2rank"
fi
shared_or_skip "the timeline of hta-2rank (the demo was checked)"
summary
