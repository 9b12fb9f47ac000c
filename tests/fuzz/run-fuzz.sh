#!/bin/sh
# make fuzz-smoke / make fuzz: replay the regression inputs, then fuzz.
#   run-fuzz.sh FUZZER SECONDS JOBS
# Runs in the build directory; SRCDIR defaults to this script's tree.
# Exits non-zero on any crash, leak, timeout or sanitizer report; the input
# that caused it is left in tests/fuzz/corpus/artifacts/ (store it, shrunk
# with -minimize_crash=1, under tests/fixtures/bad/ with a test of its
# message in tests/robustness.sh).  Everything made here is under
# tests/fuzz/corpus/ (seeds, inputs found, artifacts), which git ignores.
FUZZER=$1
SECONDS_=${2:-60}
JOBS=${3:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$HERE/../.." && pwd)}"
: "${SHARED:=$SRCDIR/../shared}"
: "${TRACETOP:=$(pwd)/tracetop}"
export SRCDIR SHARED TRACETOP
W=tests/fuzz/corpus
mkdir -p "$W/found" "$W/artifacts"
if [ ! -d "$W/seeds" ]; then
	sh "$HERE/make-corpus.sh" "$W/seeds.tmp" && mv "$W/seeds.tmp" "$W/seeds" || exit 99
fi
# 1. the stored regression inputs, once each
set -- "$SRCDIR"/tests/fixtures/bad/*
if [ -f "$1" ]; then
	"$FUZZER" -runs=1 "$@" >"$W/replay.log" 2>&1 || {
		cat "$W/replay.log"
		echo "fuzz: a stored regression input fails again" >&2
		exit 1
	}
	echo "fuzz: $# regression inputs replayed"
fi
# 2. fuzz; the corpus directory grows from run to run
if [ "$JOBS" -gt 1 ]; then
	PAR="-jobs=$JOBS -workers=$JOBS"
else
	PAR=
fi
# shellcheck disable=SC2086
"$FUZZER" -max_total_time="$SECONDS_" $PAR -timeout=20 -rss_limit_mb=3072 -max_len=65536 \
	-dict="$HERE/json.dict" -artifact_prefix="$W/artifacts/" -print_final_stats=1 \
	"$W/found" "$W/seeds"
rc=$?
if [ $rc -ne 0 ]; then
	ls -l "$W"/artifacts/ >&2
	echo "fuzz: the fuzzer found a problem (status $rc); inputs in $W/artifacts/" >&2
	exit 1
fi
echo "fuzz: no crash in ${SECONDS_}s"
