#!/bin/sh
# make bench: the timeline of a whole job -- key to redraw on the all-ranks
# timeline of a generated 512-rank job (tracetop demo-trace --ranks 512,
# gzip, kept in bench/out/ between runs: ~30 MB, a few seconds to write),
# headless at 200x50 and 80x24, every key timed from the key to the end of
# its redraw (TRACETOP_TIME_KEYS).  Prints figures; never fails on time.
#   jobtl.sh SRCDIR BUILDDIR
# Environment: BENCH_JOBTL_RANKS (512), TRACETOP (the binary).
set -e
SRCDIR=${1:-.}
B=${2:-.}
N=${BENCH_JOBTL_RANKS:-512}
TT=${TRACETOP:-$B/tracetop}
OUT=$B/bench/out/jobtl-$N
export LC_ALL=C TZ=UTC

if [ ! -f "$OUT/job.stamp" ]; then
	echo "bench-jobtl: generating a $N-rank job into $OUT"
	rm -rf "$OUT"
	"$TT" demo-trace -q -o "$OUT/json" --ranks "$N" --gzip
	date > "$OUT/job.stamp"
fi
events=$("$TT" report summary -f csv -q "$OUT/json" 2>/dev/null |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "events") c = i }
		 NR > 1 && c { s += $c } END { print s }')

# 9 opens the timeline of every rank (a summary row per rank, in groups),
# then: rows and ranks, zoom, pan, the cursor, fit, unfold a group and a
# rank, fold, the group modes, the row modes, a search across ranks and its
# matches, the rank that arrived last at a collective, a jump to a rank, a
# mark and the range of every rank
KEYS='<Wait>9jjjjkkkkJJJKKK++++----llllhhhhLLHH=<Enter>jjj<Enter>oozzzRRRRRR'
KEYS=$KEYS'/nccl<Enter>nnnNw<Escape><Escape>:rank 300<Enter>mLLA<Escape>Gg'
for size in 200x50 80x24; do
	TRACETOP_TIME_KEYS=1 "$TT" --headless -q --size "$size" --keys "$KEYS" "$OUT/json" \
		> "$OUT/screen.txt" 2> "$OUT/keys-$size.txt" || true
	echo "bench-jobtl: the timeline of $N ranks ($events events), $size, headless:"
	awk '
		/^key / { ms = $(NF - 1); name = $2
			  if (!opened && name == "9") { opened = 1; open = ms; next }
			  if (!opened) next
			  n++; sum += ms; if (ms > worst) { worst = ms; wk = name " (key " n ")" }
			  if (ms > 30) slow = slow " " name "(" n ")=" ms "ms" }
		END {
			printf "  9 (open, index the summary rows) %.1f ms\n", open
			if (n) printf "  %d keys after it: mean %.2f ms, worst %.1f ms (%s)   target <= 30 ms: %s\n",
				n, sum / n, worst, wk, (worst <= 30 ? "met" : "NOT met")
			if (slow != "") print "  keys over 30 ms:" slow
		}' "$OUT/keys-$size.txt"
done
echo "bench-jobtl: load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
