#!/bin/sh
# The fuzzers' regression inputs (tests/fixtures/bad/) and the fixtures,
# through the fuzz harnesses built with the ordinary compiler: each input
# goes through every path of tests/fuzz/fuzz_load.c, every report and pane
# of tests/fuzz/fuzz_all.c, and (the .tts files) tests/fuzz/fuzz_tts.c; none
# may crash or abort.
. "${SRCDIR:-.}/tests/lib.sh"
B="${TRACETOP_BUILDDIR:-.}/tests/fuzz"
for r in fuzz_replay fuzz_all_replay fuzz_tts_replay; do
	[ -x "$B/$r" ] || { echo "skip: $B/$r not built"; exit 77; }
done
run() { # harness input
	"$B/$1" "$2" >/dev/null 2>"${TMPDIR:-/tmp}/replay.$$"
	rc=$?
	if [ $rc -eq 0 ]; then pass "$1 $(basename "$2")"; else
		fail "$1 $(basename "$2"): status $rc: $(tail -n 3 "${TMPDIR:-/tmp}/replay.$$")"; fi
}
for f in "$SRCDIR"/tests/fixtures/bad/* "$SRCDIR"/tests/fixtures/*.json; do
	[ -f "$f" ] || continue
	run fuzz_replay "$f"
	case $f in
	*.tts) run fuzz_tts_replay "$f" ;;
	*) run fuzz_all_replay "$f" ;;
	esac
done
rm -f "${TMPDIR:-/tmp}/replay.$$"
summary
