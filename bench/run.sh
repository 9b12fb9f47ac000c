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
exec "$B/bench/bench" -r "${BENCH_REPEAT:-3}" "$OUT/big.json" "$OUT/big.json.gz" "$OUT/big.json.tts"
