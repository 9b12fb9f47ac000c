#!/bin/sh
# tracetop under valgrind (memcheck): zero errors and zero definite or
# indirect leaks on real traces: two gzip ranks loaded in parallel, a plain
# file, a .tts cache (written and read), and the error paths (a truncated
# gzip salvaged, a corrupt file rejected) next to a good trace.
# Skips (77) without valgrind or ../shared, unless VALGRIND_REQUIRED is set.
. "${SRCDIR:-.}/tests/lib.sh"
skip() {
	if [ -n "$VALGRIND_REQUIRED" ]; then echo "valgrind: $1" >&2; exit 1; fi
	echo "skip: $1"; exit 77
}
command -v valgrind >/dev/null 2>&1 || skip "valgrind is not installed"
# (a sanitizer build cannot run under valgrind: ./configure --enable-asan)
grep -qa __asan_init "$TRACETOP" && skip "tracetop is built with AddressSanitizer"
SHARED="${SHARED:-$SRCDIR/../shared}"
[ -d "$SHARED/traces" ] || skip "$SHARED/traces is absent"
T="$SHARED/traces"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
VG="valgrind -q --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect"
VG="$VG --log-file=$D/vg.log"

# vg NAME EXPECTED-STATUS ARGS...: no valgrind report, the expected status
vg() {
	name=$1 want=$2
	shift 2
	: > "$D/vg.log"
	$VG "$TRACETOP" "$@" >"$D/out" 2>"$D/err"
	rc=$?
	if [ -s "$D/vg.log" ]; then
		fail "$name: valgrind: $(head -n 30 "$D/vg.log")"
	elif [ $rc -ne "$want" ]; then
		fail "$name: exit status $rc, expected $want: $(head -n 5 "$D/err")"
	else
		pass "$name"
	fi
}

vg "hta-2rank, two gzip ranks" 0 report summary -q "$T/hta-2rank"
gzip -dc "$T/non-gpu/rank_non_gpu.json.gz" > "$D/plain.json"
vg "a plain file, one thread" 0 report summary -q -j 1 "$D/plain.json"
cp "$T/hta-2rank/sampled_rank-0.json.gz" "$D/r0.json.gz"
vg "summarize writes a .tts" 0 summarize -q "$D/r0.json.gz"
[ -s "$D/r0.json.gz.tts" ] || fail "no .tts written"
vg "a .tts cache" 0 report summary -q "$D/r0.json.gz.tts"
head -c 60000 "$T/hta-2rank/sampled_rank-1.json.gz" > "$D/cut.json.gz"
printf '{"traceEvents": [{"ph": "X", "ts": 1, "dur": "x"}]}' > "$D/bad.json"
vg "error paths: truncated gzip, bad file, good file" 0 \
	report summary -q "$D/cut.json.gz" "$D/bad.json" "$T/cpu-only"
vg "nothing loads" 2 report summary -q "$D/bad.json"
summary
