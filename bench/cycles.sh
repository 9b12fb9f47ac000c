#!/bin/sh
# make bench: folders as tensorboard_trace_handler writes them, at N and 4N
# workers (1024 and 4096 workers x 5 cycles, every file of a cycle with the
# same stamp): looking at the folder and grouping it, opening the newest
# complete cycle, one look of a follower, and how soon a new cycle is
# offered by polling alone; the same files as a log directory of 8 runs (one
# look at every run).  Written to a temporary folder, removed after.
# Prints figures, never fails on time.
#   cycles.sh SRCDIR BUILDDIR
B=${2:-.}
export LC_ALL=C TZ=UTC
T=$(mktemp -d "${TMPDIR:-/tmp}/tt-cycles.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
echo "Runs and cycles (load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)):"
for w in 1024 4096; do
	"$B/bench/cyclebench" "$T/w$w" "$w" 5 | sed 's/^/ /'
	rm -rf "$T/w$w" "$T/w$w.logdir"
done
