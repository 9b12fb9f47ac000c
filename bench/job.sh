#!/bin/sh
# make bench: the job-wide analyses (collectives matched across ranks, the
# job's critical path) on generated jobs of 64, 256 and 1024 ranks, kept in
# BUILDDIR/bench/out/ between runs (about 40 s to generate the first time).
# The 64-rank job has the demo's shape (6 steps, 24 layers); the 256- and
# 1024-rank ones are smaller per rank (3 steps, 8 layers) so that the
# figures at N and 4N ranks compare.  Prints figures, never fails on time.
#   job.sh SRCDIR BUILDDIR
# Environment: BENCH_REPEAT (3), BENCH_THREADS (all cores).
set -e
B=${2:-.}
OUT=$B/bench/out
J=${BENCH_THREADS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
export LC_ALL=C TZ=UTC
mkdir -p "$OUT"

job() { # NAME RANKS STEPS LAYERS
	d=$OUT/$1
	if [ ! -f "$d/stamp" ]; then
		rm -rf "$d"
		"$B/tracetop" demo-trace -q -o "$d" --ranks "$2" --steps "$3" --layers "$4" --gzip
		echo "$2 $3 $4" > "$d/stamp"
	fi
}
job job-64 64 6 24
job job-256 256 3 8
job job-1024 1024 3 8
echo "Job-wide analyses (generated jobs, $J threads, load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)):"
for n in 64 256 1024; do
	echo " $n ranks ($(cat "$OUT/job-$n/stamp" | awk '{ print $2 " steps, " $3 " layers" }')):"
	"$B/bench/jobbench" -r "${BENCH_REPEAT:-3}" -j "$J" "$OUT/job-$n"
done
