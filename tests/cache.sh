#!/bin/sh
# .tts caches: the same model comes back; corrupt, truncated or foreign files
# are refused with a clear error; a fresh cache beside its trace is used.
. "${SRCDIR:-.}/tests/lib.sh"
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
cp "$SRCDIR/tests/fixtures/phases.json" "$D/r.json"
"$TRACETOP" demo-trace -q -o "$D/demo" --ranks 2 --steps 2
"$TRACETOP" report summary -q -f csv "$D/r.json" "$D/demo/rank-1.pt.trace.json" > "$D/want.csv" 2>/dev/null
"$TRACETOP" summarize -q "$D/r.json" "$D/demo/rank-1.pt.trace.json"
check_rc "summarize" 0 $? && [ -s "$D/r.json.tts" ] && pass "summarize writes r.json.tts" || fail "no cache written"

# explicit .tts files give the same summary (names aside)
"$TRACETOP" report summary -q -f csv "$D/r.json.tts" "$D/demo/rank-1.pt.trace.json.tts" 2>/dev/null |
	sed 's/\.tts,/,/' > "$D/got.csv"
if cmp -s "$D/want.csv" "$D/got.csv"; then pass "cache reopens the same model"; else
	fail "cache differs: $(diff "$D/want.csv" "$D/got.csv")"; fi
# every report reads the same from the cache as from the trace
for rep in kernels idle; do
	"$TRACETOP" report $rep -q -f csv "$D/demo/rank-1.pt.trace.json" --no-cache > "$D/a" 2>&1
	"$TRACETOP" report $rep -q -f csv "$D/demo/rank-1.pt.trace.json.tts" > "$D/b" 2>&1
	cmp -s "$D/a" "$D/b" && pass "report $rep same from the cache" || fail "report $rep differs from the cache"
done

# the fresh cache beside its trace is used: change the trace behind the
# cache's back (same size and age) and the cached answer stays
cp "$D/demo/rank-1.pt.trace.json" "$D/t.json"
"$TRACETOP" summarize -q "$D/t.json"
touch -r "$D/t.json" "$D/t.json.tts"
"$TRACETOP" report summary -q -f csv "$D/t.json" > "$D/a" 2>&1
sed -i '0,/"cat": "kernel"/s//"cat": "kernex"/' "$D/t.json"
touch -r "$D/t.json.tts" "$D/t.json"
"$TRACETOP" report summary -q -f csv "$D/t.json" > "$D/b" 2>&1
"$TRACETOP" report summary -q -f csv --no-cache "$D/t.json" > "$D/c" 2>&1
if cmp -s "$D/a" "$D/b" && ! cmp -s "$D/a" "$D/c"; then pass "a fresh cache is used"; else
	fail "cache not used: $(cat "$D/a" "$D/b" "$D/c")"; fi
# once the trace is newer than its cache, the trace is read again
touch -d '+1 minute' "$D/t.json"
"$TRACETOP" report summary -q -f csv "$D/t.json" > "$D/b" 2>&1
cmp -s "$D/b" "$D/c" && pass "a stale cache is ignored" || fail "stale cache used"

# refusals
cp "$D/r.json.tts" "$D/bad.tts"
printf 'X' | dd of="$D/bad.tts" bs=1 seek=200 conv=notrunc 2>/dev/null
"$TRACETOP" report summary "$D/bad.tts" >/dev/null 2>"$D/err"
check_rc "corrupt cache" 2 $? && grep -q "bad.tts:56: not a valid .tts cache: checksum mismatch" "$D/err" &&
	pass "corrupt cache refused" || fail "corrupt cache: $(cat "$D/err")"
head -c 300 "$D/r.json.tts" > "$D/cut.tts"
"$TRACETOP" report summary "$D/cut.tts" >/dev/null 2>"$D/err"
check_rc "truncated cache" 2 $? && grep -q "cut.tts:24: not a valid .tts cache: file size does not match its header" "$D/err" &&
	pass "truncated cache refused" || fail "truncated cache: $(cat "$D/err")"
cp "$D/r.json" "$D/foreign.tts"
"$TRACETOP" report summary "$D/foreign.tts" >/dev/null 2>"$D/err"
check_rc "foreign file" 2 $? && grep -q "foreign.tts:0: not a valid .tts cache: wrong magic bytes" "$D/err" &&
	pass "foreign file refused" || fail "foreign: $(cat "$D/err")"
# a directory of caches loads
mkdir "$D/caches" && cp "$D/r.json.tts" "$D/demo/rank-1.pt.trace.json.tts" "$D/caches/"
n=$("$TRACETOP" report summary -q -f csv "$D/caches" 2>/dev/null | tail -n +2 | wc -l)
[ "$n" = 2 ] && pass "a directory of .tts files" || fail "directory of caches: $n ranks"
summary
