#!/bin/sh
# make fuzz-smoke / make fuzz: replay a target's regression inputs, then fuzz.
#   run-fuzz.sh FUZZER SECONDS JOBS
# Runs in the build directory; SRCDIR defaults to this script's tree.
# Exits non-zero on any crash, leak, timeout or sanitizer report; the input
# that caused it is left in tests/fuzz/corpus/TARGET/artifacts/ (store it,
# shrunk with -minimize_crash=1, under tests/fixtures/bad/ with a test of its
# message in tests/robustness.sh or tests/hardening.sh).  Everything made
# here is under tests/fuzz/corpus/ (seeds, inputs found, artifacts), which
# git ignores.  The last line gives the executions and the inputs kept.
FUZZER=$1
SECONDS_=${2:-60}
JOBS=${3:-1}
HERE=$(cd "$(dirname "$0")" && pwd)
: "${SRCDIR:=$(cd "$HERE/../.." && pwd)}"
: "${SHARED:=$SRCDIR/../shared}"
: "${TRACETOP:=$(pwd)/tracetop}"
export SRCDIR SHARED TRACETOP
NAME=$(basename "$FUZZER")
C=tests/fuzz/corpus
W=$C/$NAME
mkdir -p "$W/found" "$W/artifacts"
if [ ! -d "$C/seeds" ]; then
	sh "$HERE/make-corpus.sh" "$C/seeds.tmp" && mv "$C/seeds.tmp" "$C/seeds" || exit 99
fi
# the .tts target starts from caches, the others from traces
case $NAME in
fuzz_tts)
	SEEDS=$C/seeds-tts
	if [ ! -d "$SEEDS" ]; then
		mkdir -p "$SEEDS.tmp" && cp "$C"/seeds/*.tts "$SRCDIR"/tests/fixtures/bad/*.tts "$SEEDS.tmp/" &&
			mv "$SEEDS.tmp" "$SEEDS" || exit 99
	fi
	set -- "$SRCDIR"/tests/fixtures/bad/*.tts
	OPTS="-max_len=262144"
	;;
*)
	SEEDS=$C/seeds
	set -- "$SRCDIR"/tests/fixtures/bad/*
	OPTS="-max_len=65536 -dict=$HERE/json.dict"
	;;
esac
# 1. the stored regression inputs, once each
if [ -f "$1" ]; then
	"$FUZZER" -runs=1 "$@" >"$W/replay.log" 2>&1 || {
		cat "$W/replay.log"
		echo "fuzz: $NAME: a stored regression input fails again" >&2
		exit 1
	}
	echo "fuzz: $NAME: $# regression inputs replayed"
fi
# 2. fuzz; the corpus directory grows from run to run
if [ "$JOBS" -gt 1 ]; then
	PAR="-jobs=$JOBS -workers=$JOBS"
else
	PAR=
fi
# FUZZ_SEED fixes libFuzzer's seed (CI: runs start alike); unset, each run
# starts from a new one.  Runs from one seed still part ways: the inputs run
# in a time depend on the machine's speed, and the explorer's background
# thread makes coverage, hence the inputs kept, vary from run to run.
SEED=
[ -n "${FUZZ_SEED:-}" ] && SEED="-seed=$FUZZ_SEED"
# (-timeout: an input that runs for a minute hangs; a generated trace of
# 30,000 events through every report and pane takes ~10 s under the
# sanitizers, twice that on a loaded machine)
# shellcheck disable=SC2086
"$FUZZER" -max_total_time="$SECONDS_" $SEED $PAR -timeout=60 -rss_limit_mb=3072 $OPTS \
	-artifact_prefix="$W/artifacts/" -print_final_stats=1 \
	"$W/found" "$SEEDS" 2>"$W/fuzz.log"
rc=$?
tail -n 25 "$W/fuzz.log" | grep -v '^stat::' >&2
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$W/fuzz.log" | tail -n 1)
if [ $rc -ne 0 ]; then
	ls -l "$W"/artifacts/ >&2
	echo "fuzz: $NAME: the fuzzer found a problem (status $rc); inputs in $W/artifacts/" >&2
	exit 1
fi
echo "fuzz: $NAME: no crash in ${SECONDS_}s: ${runs:-?} inputs run, $(ls "$W/found" | wc -l) kept in $W/found"
