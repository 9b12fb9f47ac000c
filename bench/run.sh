#!/bin/sh
# make bench: build the scaled trace (deterministic, kept between runs in
# bench/out/), its gzip and its .tts cache, then print the figures.
#   run.sh SRCDIR BUILDDIR
# Environment: BENCH_REPEAT (runs per figure, default 3), BENCH_K (copies of
# the source trace), BENCH_SOURCE (a trace file to scale instead).
set -e
SRCDIR=${1:-.}
B=${2:-.}
OUT=$B/bench/out
mkdir -p "$OUT"
export LC_ALL=C TZ=UTC

SRC=${BENCH_SOURCE:-}
K=${BENCH_K:-}
if [ -z "$SRC" ]; then
	SRC=$SRCDIR/../shared/traces/diff-control/control.json.gz
	[ -n "$K" ] || K=9
	if [ ! -f "$SRC" ]; then
		# no shared traces (e.g. distcheck): one generated demo rank
		SRC=$OUT/demo/rank-0.pt.trace.json
		if [ ! -f "$SRC" ]; then
			echo "bench: ../shared is absent; generating a demo rank"
			"$B/tracetop" demo-trace -q -o "$OUT/demo" --ranks 1 --steps 200
		fi
		if [ -z "${BENCH_K:-}" ]; then
			sz=$(wc -c < "$SRC")
			K=$(( (280000000 + sz / 2) / sz ))
			[ "$K" -ge 1 ] || K=1
		fi
	fi
fi
[ -n "$K" ] || K=1

# rebuild the trace only when its recipe changed (it takes ~25 s)
stamp="$(wc -c < "$SRC") $K $(cksum < "$SRCDIR/bench/scale.c")"
if [ ! -f "$OUT/big.json" ] || [ ! -f "$OUT/big.json.gz" ] ||
	[ "$(cat "$OUT/big.stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "bench: scaling $SRC $K times into $OUT/big.json"
	rm -f "$OUT/big.stamp"
	"$B/bench/scale" "$SRC" "$OUT/big.json.tmp" "$K"
	mv "$OUT/big.json.tmp" "$OUT/big.json"
	gzip -n -6 -c "$OUT/big.json" > "$OUT/big.json.gz.tmp"
	mv "$OUT/big.json.gz.tmp" "$OUT/big.json.gz"
	echo "$stamp" > "$OUT/big.stamp"
fi
# the cache is written by this build's tracetop every time (its format may change)
"$B/tracetop" summarize -q "$OUT/big.json" -o "$OUT/big.json.tts"
"$B/bench/bench" -r "${BENCH_REPEAT:-3}" "$OUT/big.json" "$OUT/big.json.gz" "$OUT/big.json.tts"

# TUI redraw on ~10 M model events: a generated one-rank job (3.5 GB of JSON,
# written, summarized into ten.tts and deleted; the .tts is kept between runs
# and rebuilt when this build cannot open it).
TEN=$OUT/ten.tts
if ! "$B/tracetop" report summary -q "$TEN" > /dev/null 2>&1; then
	echo "bench: generating a 10 M event job into $TEN (about a minute)"
	rm -rf "$OUT/ten"
	"$B/tracetop" demo-trace -q -o "$OUT/ten" --ranks 1 --steps 3600
	"$B/tracetop" summarize -q "$OUT/ten/rank-0.pt.trace.json" -o "$TEN"
	rm -rf "$OUT/ten"
fi
# every pane, drill in and out, sort, filter, the timeline's zoom/pan/track keys
KEYS='<Wait>1234567890<Enter><Escape>ss/nccl<Enter><Escape>9++++--llhhjjkk<Tab>c=G'
t0=$(date +%s.%N)
TRACETOP_TIME_KEYS=1 "$B/tracetop" --headless -q --size 160x50 --keys "$KEYS" "$TEN" \
	2> "$OUT/keys.txt" > /dev/null
t1=$(date +%s.%N)
events=$("$B/tracetop" report summary -f csv -q "$TEN" 2>/dev/null |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "events") c = i }
		 NR == 2 && c { print $c }')
echo
echo "TUI redraw ($TEN, ${events:-?} events, 160x50, headless):"
awk -v t0="$t0" -v t1="$t1" '
	/^key / { ms = $3; if (ms > 30) slow = slow " " $2 "=" ms "ms" }
	/^keys / { printf "  %d keys: mean %s ms, worst %s ms   target <= 30 ms: %s\n",
		   $2, $4, $7, ($7 <= 30 ? "met" : "NOT met") }
	END { printf "  whole run (open, background reports, keys) %.2f s\n", t1 - t0
	      if (slow != "") print "  keys over 30 ms:" slow }' "$OUT/keys.txt"
