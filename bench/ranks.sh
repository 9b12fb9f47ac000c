#!/bin/sh
# The many-ranks benchmark (issue 10): a generated job of 1024 ranks of about
# 2 MB gzip each, loaded from JSON and from .tts caches; peak memory against
# the model's size; the outliers report; the heatmap's redraw time.  Prints
# figures and never fails on time.
#   ranks.sh SRCDIR BUILDDIR
# Environment: BENCH_RANKS (1024), BENCH_RANKS_STEPS (33), BENCH_RANKS_LAYERS
# (24) size the job; BENCH_THREADS (all cores); TRACETOP (the binary);
# BENCH_RANKS_OUT (where the job is kept).  The job and its caches are kept
# in BUILDDIR/bench/out/ between runs: ~2 GB of gzip and ~5.5 GB of .tts for
# 1024 ranks, about 20 minutes to generate and 5 to summarize on 2 cores.
set -e
SRCDIR=${1:-.}
B=${2:-.}
N=${BENCH_RANKS:-1024}
STEPS=${BENCH_RANKS_STEPS:-33}
LAYERS=${BENCH_RANKS_LAYERS:-24}
TT=${TRACETOP:-$B/tracetop}
J=${BENCH_THREADS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
OUT=${BENCH_RANKS_OUT:-$B/bench/out/ranks-$N-$STEPS-$LAYERS}
export LC_ALL=C TZ=UTC

secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b - a) / 1e9 }'; }
now() { date +%s%N; }

# ---- the job (kept between runs) ----
if [ ! -f "$OUT/job.stamp" ]; then
	echo "bench-ranks: generating $N ranks ($STEPS steps x $LAYERS layers) into $OUT"
	rm -rf "$OUT"
	mkdir -p "$OUT"
	t0=$(now)
	"$TT" demo-trace -q -o "$OUT/json" --ranks "$N" --steps "$STEPS" --layers "$LAYERS" --gzip
	t1=$(now)
	echo "bench-ranks: generated in $(secs "$t0" "$t1") s"
	date > "$OUT/job.stamp"
fi
# the caches: written again when this build cannot read them (a new format)
first=$(ls "$OUT"/json/*.json.gz | head -1)
if [ ! -f "$OUT/tts.stamp" ] || ! "$TT" report load -q "$first.tts" > /dev/null 2>&1; then
	echo "bench-ranks: writing .tts caches ($J at a time)"
	t0=$(now)
	ls "$OUT"/json/*.json.gz | xargs -P "$J" -n 16 "$TT" summarize 2> "$OUT/summarize.log"
	t1=$(now)
	echo "bench-ranks: caches written in $(secs "$t0" "$t1") s"
	date > "$OUT/tts.stamp"
fi

gz=$(cat "$OUT"/json/*.json.gz | wc -c)
tts=$(cat "$OUT"/json/*.tts | wc -c)
nf=$(ls "$OUT"/json/*.json.gz | wc -l)
# the model's size: what summarize reports per rank (tt_rank_memsize)
model=$(awk '/wrote/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "MB,") s += $i } END { printf "%.0f", s }' \
	"$OUT/summarize.log")
echo "bench-ranks: $nf ranks, $(awk -v b="$gz" -v n="$nf" 'BEGIN { printf "%.0f MB gzip (%.2f MB per rank)", b / 1e6, b / 1e6 / n }'), .tts $(awk -v b="$tts" 'BEGIN { printf "%.0f MB", b / 1e6 }'), model ${model} MB"
echo "bench-ranks: $J threads, $(nproc 2>/dev/null || echo '?') cores"

TIME=
if [ -x /usr/bin/time ]; then
	TIME="/usr/bin/time -f %e:%M:%U:%S -o $OUT/time.txt"
fi

# run NAME CMD...: wall time and peak RSS
run() {
	name=$1
	shift
	t0=$(now)
	$TIME "$@" > "$OUT/$name.out" 2> "$OUT/$name.err" || echo "bench-ranks: $name failed: $(tail -1 "$OUT/$name.err")"
	t1=$(now)
	rss=
	if [ -n "$TIME" ]; then
		# CPU time too: on a busy machine it says more than the wall clock
		rss=$(awk -F: '{ printf ", CPU %.1f s, peak RSS %.0f MB", $3 + $4, $2 / 1024 }' \
			"$OUT/time.txt")
	fi
	printf 'bench-ranks: %-24s %7s s%s\n' "$name" "$(secs "$t0" "$t1")" "$rss"
}

echo "bench-ranks: load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
# load only (the load report does no analysis): gzip inflated by this
# build's library (ISA-L where it has it), then by zlib; beside them the
# same files inflated by as many zcat (and igzip) processes as threads
run "load JSON ($("$TT" --version | sed -n 's/.*gzip: \([^ )]*\).*/\1/p'))" \
	"$TT" report load -q --no-cache -j "$J" "$OUT/json"
if "$TT" --version | grep -q 'gzip: ISA-L'; then
	run "load JSON (zlib)" env TRACETOP_GZIP=zlib "$TT" report load -q --no-cache -j "$J" "$OUT/json"
fi
run "zcat, $J in parallel" sh -c 'ls "$1"/*.json.gz | xargs -P "$2" -n 16 zcat > /dev/null' - "$OUT/json" "$J"
if command -v igzip > /dev/null 2>&1; then
	run "igzip -dc, $J in parallel" sh -c 'ls "$1"/*.json.gz | xargs -P "$2" -n 16 igzip -dc > /dev/null' - "$OUT/json" "$J"
fi
run "load .tts" "$TT" report load -q -j "$J" "$OUT/json"
run "load .tts again" "$TT" report load -q -j "$J" "$OUT/json"
# the outliers report: load + every rank's metrics + distributions
run "report outliers (.tts)" "$TT" report outliers -q -j "$J" "$OUT/json"
head -8 "$OUT/report outliers (.tts).out" | sed 's/^/    /'
# the heatmap: per-key redraw times (the first pane; the Overview shows the
# heatmap when the ranks do not fit as rows)
TRACETOP_TIME_KEYS=1 "$TT" --headless --size 200x60 -j "$J" \
	--keys 'mmmmmmm<Right><Right><Down><Down><Left><Up>nnN' "$OUT/json" > "$OUT/heatmap.screen" \
	2> "$OUT/heatmap.err" || true
if grep -q '\.:-=+\*#%@' "$OUT/heatmap.screen"; then
	echo "bench-ranks: heatmap redraw per key (200x60): $(grep '^keys' "$OUT/heatmap.err")"
else
	echo "bench-ranks: first pane (not the heatmap yet) per key: $(grep '^keys' "$OUT/heatmap.err")"
fi
