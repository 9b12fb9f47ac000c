#!/bin/sh
# The fuzzer's regression inputs (tests/fixtures/bad/) and the fixtures,
# through the fuzz harness built with the ordinary compiler: each input goes
# through every path of tests/fuzz/fuzz_load.c and none may crash or abort.
. "${SRCDIR:-.}/tests/lib.sh"
R="${TRACETOP_BUILDDIR:-.}/tests/fuzz/fuzz_replay"
[ -x "$R" ] || { echo "skip: $R not built"; exit 77; }
for f in "$SRCDIR"/tests/fixtures/bad/* "$SRCDIR"/tests/fixtures/*.json; do
	[ -f "$f" ] || continue
	"$R" "$f" >/dev/null 2>"${TMPDIR:-/tmp}/replay.$$"
	rc=$?
	if [ $rc -eq 0 ]; then pass "$(basename "$f")"; else
		fail "$(basename "$f"): status $rc: $(tail -n 3 "${TMPDIR:-/tmp}/replay.$$")"; fi
done
rm -f "${TMPDIR:-/tmp}/replay.$$"
summary
