#!/bin/sh
# Issue 7, robustness: the bad inputs that tests/bad-inputs.sh does not cover
# already, each with its exact one-line error or warning and the proof that a
# good rank given in the same run still loads; then the limits (--max-events,
# --max-memory, the item and string limits).  The parts that read real traces
# from ../shared skip (77) when it is absent; the rest still runs first.
. "${SRCDIR:-.}/tests/lib.sh"

D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
SHARED="${SHARED:-$SRCDIR/../shared}"
T="$SHARED/traces"
GOOD="$SRCDIR/tests/fixtures/phases.json"
GOODROW='^phases.json,3,'
OPTS=

run() {
	# shellcheck disable=SC2086
	"$TRACETOP" report summary -f csv $OPTS "$@" >"$D/out" 2>"$D/err"
}
row_of() { grep -q "^$(basename "$1")," "$D/out"; }

# expect_error FILE LINE: FILE is rejected with exactly LINE, the good trace
# beside it still loads; FILE alone gives status 2
expect_error() {
	run "$1" "$GOOD"
	rc=$?
	check_rc "$1 with a good file" 0 $rc || return
	grep -Fxq -- "$2" "$D/err" || { fail "$1: expected '$2', got: $(cat "$D/err")"; return; }
	grep -q "$GOODROW" "$D/out" || { fail "$1: the good trace did not load"; return; }
	row_of "$1" && { fail "$1: a rejected file has a row"; return; }
	run "$1"
	check_rc "$1 alone" 2 $? || return
	pass "$(basename "$1"): $3${TRACETOP_GZIP:+ (TRACETOP_GZIP=$TRACETOP_GZIP)}"
}

# expect_warning FILE LINE: FILE loads with exactly LINE on stderr, and so
# does the good trace beside it
expect_warning() {
	run "$1" "$GOOD"
	rc=$?
	check_rc "$1 with a good file" 0 $rc || return
	grep -Fxq -- "$2" "$D/err" || { fail "$1: expected '$2', got: $(cat "$D/err")"; return; }
	grep -q "$GOODROW" "$D/out" || { fail "$1: the good trace did not load"; return; }
	row_of "$1" || { fail "$1: no row for the file: $(cat "$D/out")"; return; }
	pass "$(basename "$1"): $3${TRACETOP_GZIP:+ (TRACETOP_GZIP=$TRACETOP_GZIP)}"
}

w() { printf '%s' "$2" > "$D/$1"; }
# at FILE TEXT [FROM]: byte offset of TEXT in the (small) file $D/FILE
at() {
	python3 -c 'import sys; print(open(sys.argv[1], "rb").read().index(sys.argv[2].encode("latin-1"), int(sys.argv[3])))' \
		"$D/$1" "$2" "${3:-0}"
}
EV='{"ph": "X", "ts": 1, "dur": 1, "name": "a"}'
TEXT="{\"traceEvents\": [$EV]}" # 62 bytes

# ---- gzip ----------------------------------------------------------------
# the same messages whichever library inflates: ISA-L where the build has it
# (zlib takes over a member on any error), and zlib forced (TRACETOP_GZIP)
gzip_cases() {
	# a PNG image, gzipped: inflates fine, is not JSON
	printf '\211PNG\r\n\032\n\000\000\000\rIHDR' | gzip -c > "$D/png.json.gz"
	expect_error "$D/png.json.gz" \
		"tracetop: $D/png.json.gz:0 (decompressed): not a JSON trace: expected '{' or '[', found bytes 89 50 4e 47 0d 0a 1a 0a" \
		"gzip of a binary file"
	# a gzip header followed by bytes that are not deflate data
	printf '\037\213\010\000\000\000\000\000\000\003this is not deflate data' > "$D/hdrjunk.json.gz"
	expect_error "$D/hdrjunk.json.gz" \
		"tracetop: $D/hdrjunk.json.gz:18 (compressed): invalid code lengths set (0 bytes inflated)" \
		"gzip magic, then garbage"
	printf '\037\213\011\000\000\000\000\000\000\003xxxxxxxx' > "$D/method.json.gz"
	expect_error "$D/method.json.gz" \
		"tracetop: $D/method.json.gz:4 (compressed): unknown compression method (0 bytes inflated)" \
		"gzip with an unknown method"
	# CRC and length mismatches: one bit flipped in the trailer
	printf '%s' "{\"traceEvents\": [$EV]}" | gzip -c > "$D/crc.json.gz"
	cp "$D/crc.json.gz" "$D/len.json.gz"
	n=$(wc -c < "$D/crc.json.gz")
	printf '\377' | dd of="$D/crc.json.gz" bs=1 seek=$((n - 8)) conv=notrunc 2>/dev/null
	printf '\377' | dd of="$D/len.json.gz" bs=1 seek=$((n - 1)) conv=notrunc 2>/dev/null
	expect_error "$D/crc.json.gz" \
		"tracetop: $D/crc.json.gz:$((n - 4)) (compressed): gzip CRC mismatch (62 bytes inflated)" "gzip CRC mismatch"
	expect_error "$D/len.json.gz" \
		"tracetop: $D/len.json.gz:$n (compressed): gzip length mismatch (62 bytes inflated)" "gzip length mismatch"
	# junk after the last member: ignored, with a warning at the end of the text
	{ printf '%s' "{\"traceEvents\": [$EV]}" | gzip -c; printf 'JUNK'; } > "$D/junk.json.gz"
	expect_warning "$D/junk.json.gz" \
		"tracetop: $D/junk.json.gz:62 (decompressed): warning: bytes after the gzip data ignored" \
		"junk after the gzip data"
	: | gzip -c > "$D/emptygz.json.gz"
	expect_error "$D/emptygz.json.gz" "tracetop: $D/emptygz.json.gz:0 (decompressed): empty file" \
		"gzip of nothing"
	printf '%s' "{\"traceEvents\": [$EV]}" | gzip -c | gzip -c > "$D/twice.json.gz"
	expect_error "$D/twice.json.gz" \
		"tracetop: $D/twice.json.gz:0 (decompressed): compressed with gzip inside the file: decompress it first" \
		"gzip inside gzip"
	# a stream cut before any text came out (here: after its 10-byte header) is
	# a truncation, not an empty file
	printf '%s' "$TEXT" | gzip -c | head -c 10 > "$D/cuthead.json.gz"
	expect_error "$D/cuthead.json.gz" \
		"tracetop: $D/cuthead.json.gz:0 (decompressed): gzip stream ends early (compressed byte 10) before any complete event" \
		"gzip cut right after its header"
}
gzip_cases
if "$TRACETOP" --version | grep -q 'gzip: ISA-L'; then
	pass "gzip inflated by ISA-L ($("$TRACETOP" --version))"
	TRACETOP_GZIP=zlib "$TRACETOP" --version | grep -q 'gzip: zlib' &&
		pass "TRACETOP_GZIP=zlib: $(TRACETOP_GZIP=zlib "$TRACETOP" --version)" ||
		fail "TRACETOP_GZIP=zlib: $(TRACETOP_GZIP=zlib "$TRACETOP" --version)"
	TRACETOP_GZIP=zlib
	export TRACETOP_GZIP
	gzip_cases
	unset TRACETOP_GZIP
elif grep -q '^#define HAVE_ISAL 1' "${TRACETOP_BUILDDIR:-.}/config.h" 2>/dev/null; then
	fail "built with ISA-L, but --version says: $("$TRACETOP" --version)"
else
	echo "skip - ISA-L is not in this build: zlib inflates ($("$TRACETOP" --version))"
fi

# ---- empty, whitespace, paths ----------------------------------------------
printf ' \n\t\r\n  ' > "$D/blank.json"
expect_error "$D/blank.json" "tracetop: $D/blank.json:7: no JSON value (only whitespace)" "whitespace only"
run "$D/no-such-file.json" "$GOOD"
check_rc "missing file" 0 $? &&
	grep -Fxq "tracetop: $D/no-such-file.json: No such file or directory" "$D/err" &&
	grep -q "$GOODROW" "$D/out" && pass "a missing file beside a good one" ||
	fail "missing file: $(cat "$D/err")"
run "$D/nothing-*.json" "$GOOD"
check_rc "glob" 0 $? &&
	grep -Fxq "tracetop: $D/nothing-*.json: no file matches this pattern" "$D/err" &&
	grep -q "$GOODROW" "$D/out" && pass "a pattern that matches nothing" ||
	fail "glob: $(cat "$D/err")"
mkdir -p "$D/notraces/sub"
echo notes > "$D/notraces/README.txt"
echo '{}' > "$D/notraces/sub/deeper.json"
run "$D/notraces" "$GOOD"
check_rc "directory without traces" 0 $? &&
	grep -Fxq "tracetop: $D/notraces: no trace files (*.json, *.json.gz, *.gz, *.tts) in this directory" "$D/err" &&
	grep -q "$GOODROW" "$D/out" && pass "a directory with only other files (not searched below)" ||
	fail "directory without traces: $(cat "$D/err")"
mkdir "$D/mixed"
cp "$GOOD" "$D/mixed/good.json"
w mixed/bad.json '{"traceEvents": [{"ph": 5}]}'
run "$D/mixed"
check_rc "directory with a bad trace" 0 $? &&
	grep -Fxq "tracetop: $D/mixed/bad.json:17: event 0: 'ph' is not a string" "$D/err" &&
	grep -q '^good.json,3,' "$D/out" && pass "a directory with a good and a bad trace" ||
	fail "mixed directory: $(cat "$D/err")"

# ---- binary files ----------------------------------------------------------
cp "$TRACETOP" "$D/program.json"
expect_error "$D/program.json" \
	"tracetop: $D/program.json:0: not a JSON trace: expected '{' or '[', found bytes 7f 45 4c 46 02 01 01 00" \
	"an executable"
w controlbyte.json "{\"traceEvents\": [$EV], \"x\": $(printf '\001')}"
expect_error "$D/controlbyte.json" "tracetop: $D/controlbyte.json:$(at controlbyte.json "$(printf '\001')"): expected a value, found byte 0x01" \
	"a control byte where a value belongs"

# ---- UTF-8 (repaired, with a warning at the event) ---------------------------
U8='warning: invalid UTF-8 or control character in a string (replaced)'
utf8() {
	printf '{"traceEvents": [%s, {"ph": "X", "ts": 2, "dur": 1, "name": "%b"}]}' "$EV" "$2" > "$D/$1"
	expect_warning "$D/$1" "tracetop: $D/$1:62: $U8" "$3"
}
utf8 overlong.json 'a\300\257b' "overlong UTF-8"
utf8 surrogate.json 'a\355\240\200b' "a UTF-16 surrogate encoded in UTF-8"
utf8 cutseq.json 'ab\342\202' "a sequence cut by the closing quote"
utf8 ctrl.json 'a\001b\tc' "raw control characters"
utf8 nul.json 'a\000b' "a raw NUL byte"
OPTS=--verify-json
utf8 nul.json 'a\000b' "a raw NUL byte, both parsers agree (--verify-json)"
OPTS=
printf '{"traceEvents": [{"ph": "C", "name": "q", "pid": 1, "ts": 1, "args": {"a\377b": 3}}, %s]}' "$EV" > "$D/key.json"
expect_warning "$D/key.json" "tracetop: $D/key.json:17: $U8" "invalid UTF-8 in a counter's series name"
printf '{"traceEvents": [%s, {"ph": "X", "ts": 2, "dur": 1, "name": "\377"}]}' "$EV" | gzip -c > "$D/u8.json.gz"
expect_warning "$D/u8.json.gz" "tracetop: $D/u8.json.gz:62 (decompressed): $U8" "invalid UTF-8 in a gzip file"
w escapes.json "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": 2, \"dur\": 1, \"name\": \"\\u0000\\ud800\\udc00x\"}]}"
run "$D/escapes.json" "$GOOD"
check_rc "escapes" 0 $? && row_of "$D/escapes.json" && grep -q "$GOODROW" "$D/out" &&
	pass "escaped NUL and lone surrogates load" || fail "escapes: $(cat "$D/err")"

# ---- NaN and Infinity, wherever they are ---------------------------------------
w nan-args.json "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": 2, \"dur\": 1, \"args\": {\"x\": NaN}}]}"
expect_error "$D/nan-args.json" "tracetop: $D/nan-args.json:$(at nan-args.json NaN): NaN is not valid JSON" "NaN in args"
w inf-meta.json "{\"traceEvents\": [$EV], \"deviceProperties\": [{\"id\": 0, \"totalGlobalMem\": Infinity}]}"
expect_error "$D/inf-meta.json" "tracetop: $D/inf-meta.json:$(at inf-meta.json Infinity): Infinity is not valid JSON" \
	"Infinity in metadata after the events"
w nan-bare.json "[$EV, {\"ph\": \"C\", \"name\": \"q\", \"ts\": 2, \"args\": {\"q\": -NaN}}]"
expect_error "$D/nan-bare.json" "tracetop: $D/nan-bare.json:$(at nan-bare.json -NaN): NaN is not valid JSON" "-NaN in a bare array"
w nan-lower.json "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": nan, \"dur\": 1}]}"
expect_error "$D/nan-lower.json" "tracetop: $D/nan-lower.json:35: expected a value, found 'n'" "lower-case nan"

# ---- durations ---------------------------------------------------------------
w dur-huge.json "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": 2, \"dur\": 1e30, \"name\": \"b\"}]}"
expect_warning "$D/dur-huge.json" "tracetop: $D/dur-huge.json:62: warning: duration over 7 days (event dropped)" \
	"a duration beyond int64 nanoseconds is dropped, not fatal"
w dur-neghuge.json "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": 2, \"dur\": -1e30, \"name\": \"b\"}]}"
expect_warning "$D/dur-neghuge.json" "tracetop: $D/dur-neghuge.json:62: warning: negative duration (event dropped)" \
	"a hugely negative duration"
w dur-7d.json "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": 2, \"dur\": 604800000000, \"name\": \"week\"}, {\"ph\": \"X\", \"ts\": 3, \"dur\": 604800000000.001, \"name\": \"more\"}]}"
expect_warning "$D/dur-7d.json" "tracetop: $D/dur-7d.json:$(at dur-7d.json '{"ph": "X", "ts": 3'): warning: duration over 7 days (event dropped)" \
	"7 days are kept, 7 days and 1 ns are not"
# (the span, in ns, still reaches the end of the week-long event)
grep -q '^dur-7d.json,0,3,604800000001,' "$D/out" || fail "dur-7d.json: the week-long event: $(cat "$D/out")"
w be-long.json "{\"traceEvents\": [$EV, {\"ph\": \"B\", \"name\": \"b\", \"pid\": 1, \"tid\": 1, \"ts\": -3000000000000000}, {\"ph\": \"E\", \"pid\": 1, \"tid\": 1, \"ts\": 3000000000000000}]}"
expect_warning "$D/be-long.json" "tracetop: $D/be-long.json: warning: duration over 7 days (event dropped)" \
	"a B/E pair 190 years long"
w ts-far.json "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": 5e15, \"dur\": 1}]}"
expect_error "$D/ts-far.json" "tracetop: $D/ts-far.json:62: event 1: 'ts' is more than 4e18 ns (127 years) from 1970" \
	"a ts in the 22nd century"
w base-far.json "{\"baseTimeNanoseconds\": 9000000000000000000, \"traceEvents\": [$EV]}"
expect_warning "$D/base-far.json" "tracetop: $D/base-far.json:24: warning: metadata value of an unexpected type (ignored)" \
	"a baseTimeNanoseconds that would overflow"

# ---- missing and odd fields ----------------------------------------------------
w nodur.json "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": 2, \"name\": \"b\"}]}"
expect_warning "$D/nodur.json" "tracetop: $D/nodur.json:62: warning: X event without dur (skipped)" "X without dur"
w phempty.json "{\"traceEvents\": [$EV, {\"ph\": \"\", \"ts\": 2}]}"
expect_warning "$D/phempty.json" "tracetop: $D/phempty.json:62: warning: unknown phase (event skipped)" "an empty ph"
w phnull.json "{\"traceEvents\": [$EV, {\"ph\": null, \"ts\": 2}]}"
expect_error "$D/phnull.json" "tracetop: $D/phnull.json:62: event 1: 'ph' is not a string" "ph null"
w namenull.json "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": 2, \"dur\": 1, \"name\": null}]}"
expect_warning "$D/namenull.json" "tracetop: $D/namenull.json:62: warning: event without a name" "name null"
w instant-nots.json "{\"traceEvents\": [$EV, {\"ph\": \"i\", \"name\": \"b\", \"s\": \"t\"}]}"
expect_warning "$D/instant-nots.json" "tracetop: $D/instant-nots.json:62: warning: event without ts (skipped)" \
	"an instant without ts"
w counter-nots.json "{\"traceEvents\": [$EV, {\"ph\": \"C\", \"name\": \"q\", \"args\": {\"a\": 1}}]}"
expect_warning "$D/counter-nots.json" "tracetop: $D/counter-nots.json:62: warning: event without ts (skipped)" \
	"a counter without ts"
w tsnull.json "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": null, \"dur\": 1}]}"
expect_error "$D/tsnull.json" "tracetop: $D/tsnull.json:62: event 1: 'ts' is not a number" "ts null"

# a kernel without pid is on device 0, whatever the event before it said
# (it took the pid of a skipped event: two streams instead of one)
w nopid-kernel.json '{"traceEvents": [{"pid": 10, "ts": 1}, {"ph": "X", "cat": "kernel", "name": "k", "ts": 2, "dur": 1, "args": {"stream": 7}}, {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "ts": 5, "dur": 1, "args": {"stream": 7}}]}'
expect_warning "$D/nopid-kernel.json" "tracetop: $D/nopid-kernel.json:17: warning: event without ph (skipped)" \
	"a kernel without pid after an event with one"
grep -q '^nopid-kernel.json,0,3,[0-9]*,1,2,' "$D/out" || fail "nopid-kernel.json: one stream, two kernels: $(cat "$D/out")"

# an op without name is work, whatever the name of the skipped event before it
w noname-op.json '{"traceEvents": [{"name": "Record Window End"}, {"ph": "X", "cat": "cpu_op", "ts": 5, "dur": 3}]}'
expect_warning "$D/noname-op.json" "tracetop: $D/noname-op.json:17: warning: event without ph (skipped)" \
	"an op without name after an event named like a marker"
grep -q '^noname-op.json,0,2,3,0,0,0,0,0,0,1,' "$D/out" || fail "noname-op.json: the op is work: $(cat "$D/out")"

# ---- duplicates ----------------------------------------------------------------
w two-arrays.json "{\"traceEvents\": [$EV], \"traceEvents\": [{\"ph\": \"X\", \"ts\": 5, \"dur\": 1, \"name\": \"b\"}]}"
expect_warning "$D/two-arrays.json" "tracetop: $D/two-arrays.json:78: warning: duplicate top-level key (last wins)" \
	"two traceEvents arrays"
grep -q '^two-arrays.json,0,2,' "$D/out" || fail "two-arrays.json: the events of both arrays: $(cat "$D/out")"
w dup-devprops.json "{\"deviceProperties\": [], \"traceEvents\": [$EV], \"deviceProperties\": [{\"id\": 0}]}"
expect_warning "$D/dup-devprops.json" "tracetop: $D/dup-devprops.json:$(at dup-devprops.json '[{"id"'): warning: duplicate top-level key (last wins)" \
	"deviceProperties twice"
w dup-key.json "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": 2, \"dur\": 1, \"name\": \"b\", \"args\": {\"stream\": 7, \"stream\": 8}}]}"
expect_warning "$D/dup-key.json" "tracetop: $D/dup-key.json:62: warning: duplicate key in an event (last wins)" \
	"a key twice in args"
w dup-event.json "{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 1, \"name\": \"a\", \"args\": {\"correlation\": 5}}, {\"ph\": \"X\", \"ts\": 1, \"dur\": 1, \"name\": \"a\", \"args\": {\"correlation\": 5}}]}"
expect_warning "$D/dup-event.json" "tracetop: $D/dup-event.json: warning: identical duplicate event (dropped)" \
	"the same X event twice"

# ---- ranks ---------------------------------------------------------------------
w rank-4.json "{\"traceEvents\": [$EV]}"
w other.json "{\"distributedInfo\": {\"rank\": 4}, \"traceEvents\": [$EV]}"
run "$D/rank-4.json" "$D/other.json" "$GOOD"
if [ $? -eq 0 ] && [ "$(grep -c ',4,' "$D/out")" = 2 ] && grep -q "$GOODROW" "$D/out" &&
	grep -Fxq "tracetop: $D/rank-4.json: warning: another file has the same rank (rank 4, also $D/other.json)" "$D/err" &&
	grep -Fxq "tracetop: $D/other.json: warning: another file has the same rank (rank 4, also $D/rank-4.json)" "$D/err"; then
	pass "one rank from the file name, the same from distributedInfo"
else
	fail "rank from name and JSON: $(cat "$D/err" "$D/out")"
fi
w rank-5.json "{\"distributedInfo\": {\"rank\": 6}, \"traceEvents\": [$EV]}"
expect_warning "$D/rank-5.json" \
	"tracetop: $D/rank-5.json: warning: file name and distributedInfo disagree on the rank (name says 5, using 6)" \
	"the file name and distributedInfo disagree"

# ---- nesting: 64 levels load, 65 do not (top object = 1) -----------------------
nest() {
	# nest FILE PREFIX N SUFFIX: N objects {"a": ...} around 1
	python3 -c 'import sys; n = int(sys.argv[2]); sys.stdout.write(sys.argv[1] + "{\"a\": " * n + "1" + "}" * n + sys.argv[3])' \
		"$2" "$3" "$4" > "$D/$1"
}
nest deep64.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1, "args": {"a": ' 60 '}}]}'
expect_warning "$D/deep64.json" "tracetop: $D/deep64.json:17: warning: event without a name" "args objects 64 levels deep"
nest deep65.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1, "args": {"a": ' 61 '}}]}'
expect_error "$D/deep65.json" "tracetop: $D/deep65.json:$((62 + 6 * 60)): nesting deeper than 64 levels" "args objects 65 levels deep"
nest mdeep64.json '{"x": ' 63 ', "traceEvents": [{"ph": "X", "ts": 1, "dur": 1}]}'
expect_warning "$D/mdeep64.json" "tracetop: $D/mdeep64.json:466: warning: event without a name" "metadata 64 levels deep"
nest mdeep65.json '{"x": ' 64 ', "traceEvents": [{"ph": "X", "ts": 1, "dur": 1}]}'
expect_error "$D/mdeep65.json" "tracetop: $D/mdeep65.json:$((6 + 6 * 63)): nesting deeper than 64 levels" "metadata 65 levels deep"
nest bdeep64.json '[{"ph": "X", "ts": 1, "dur": 1, "args": {"a": ' 61 '}}]'
expect_warning "$D/bdeep64.json" "tracetop: $D/bdeep64.json:1: warning: event without a name" "a bare array 64 levels deep"
nest bdeep65.json '[{"ph": "X", "ts": 1, "dur": 1, "args": {"a": ' 62 '}}]'
expect_error "$D/bdeep65.json" "tracetop: $D/bdeep65.json:$((46 + 6 * 61)): nesting deeper than 64 levels" "a bare array 65 levels deep"

# ---- one huge string or item (made here, deleted at once) -----------------------
big() {
	# big FILE PREFIX MBYTES SUFFIX [gzip]
	{ printf '%s' "$2"; head -c "$(($3 * 1000000))" /dev/zero | tr '\0' x; printf '%s' "$4"; } |
		if [ -n "$5" ]; then gzip -1; else cat; fi > "$D/$1"
}
big str-meta.json '{"traceName": "' 100 '", "traceEvents": []}'
expect_error "$D/str-meta.json" "tracetop: $D/str-meta.json:14: string longer than 16 MiB" \
	"a 100 MB metadata string"
rm -f "$D/str-meta.json"
big str-key.json "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": 2, \"dur\": 1, \"args\": {\"" 100 '": 1}}]}'
# (a key is measured once its end is found: the event is over 64 MiB first)
expect_error "$D/str-key.json" "tracetop: $D/str-key.json:62: one item is larger than 64 MiB" "a 100 MB key"
rm -f "$D/str-key.json"
big str-gz.json.gz "{\"traceEvents\": [$EV, {\"ph\": \"X\", \"ts\": 2, \"dur\": 1, \"name\": \"" 100 '"}]}' gz
expect_error "$D/str-gz.json.gz" "tracetop: $D/str-gz.json.gz:101 (decompressed): string longer than 16 MiB" \
	"a 100 MB name in a 100 kB gzip file"
# seven strings of 10 MB: each is allowed, the event is not
{
	printf '{"traceEvents": [%s, {"ph": "X", "ts": 2, "dur": 1, "args": {' "$EV"
	for k in 1 2 3 4 5 6 7; do
		printf '"k%d": "' $k
		head -c 10000000 /dev/zero | tr '\0' y
		printf '"'
		[ $k -lt 7 ] && printf ', '
	done
	printf '}}]}'
} > "$D/item.json"
expect_error "$D/item.json" "tracetop: $D/item.json:62: one item is larger than 64 MiB" "a 70 MB event"
rm -f "$D/item.json"

# ---- --max-events ----------------------------------------------------------------
python3 - "$D" <<'PY'
import gzip, os, sys
d = sys.argv[1]
ev = ',\n'.join('{"ph": "X", "cat": "cpu_op", "name": "op%d", "pid": 1, "tid": %d, "ts": %d, "dur": 5}'
                % (i, i % 7, 10 * i) for i in range(200000))
text = '{"schemaVersion": 1, "traceEvents": [\n' + ev + '\n]}'
open(os.path.join(d, 'many.json'), 'w').write(text)
with gzip.open(os.path.join(d, 'many.json.gz'), 'wt', compresslevel=1) as f:
    f.write(text)
# the offset of event 500 (the 501st), where --max-events 500 stops
open(os.path.join(d, 'off500'), 'w').write(str(text.index('{"ph": "X", "cat": "cpu_op", "name": "op500"')))
PY
O=$(cat "$D/off500")
OPTS="--max-events 500"
expect_error "$D/many.json" \
	"tracetop: $D/many.json:$O: more than 500 events in one file (see --max-events)" "--max-events"
expect_error "$D/many.json.gz" \
	"tracetop: $D/many.json.gz:$O (decompressed): more than 500 events in one file (see --max-events)" \
	"--max-events on a gzip file"
OPTS=

# ---- --max-memory: one line with what the file would need ----------------------------
"$TRACETOP" report summary -f csv --max-memory 1M "$D/many.json" "$GOOD" >"$D/out" 2>"$D/err"
rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l < "$D/err")" -le 2 ] && grep -q "$GOODROW" "$D/out" &&
	grep -Eq "^tracetop: $D/many.json:[0-9]+: the model needs more than the memory budget of 1.00 MB \(--max-memory\): [0-9.]+ MB in use at this event, about [0-9]+ MB for the whole file$" "$D/err"; then
	pass "--max-memory: a clear line, the other file loads"
else
	fail "--max-memory (status $rc): $(cat "$D/err")"
fi
"$TRACETOP" report summary -f csv --max-memory 1M "$D/many.json.gz" >"$D/out" 2>"$D/err"
rc=$?
if [ $rc -eq 2 ] && grep -Eq "^tracetop: $D/many.json.gz:[0-9]+ \(decompressed\): the model needs more than the memory budget of 1.00 MB \(--max-memory\): [0-9.]+ MB in use at this event$" "$D/err"; then
	pass "--max-memory on a gzip file"
else
	fail "--max-memory on gzip (status $rc): $(cat "$D/err")"
fi
"$TRACETOP" report summary -f csv --max-memory 1G "$D/many.json" >"$D/out" 2>"$D/err" &&
	grep -q '^many.json,0,200000,' "$D/out" && pass "a budget that suffices" ||
	fail "--max-memory 1G: $(cat "$D/err")"
rm -f "$D/many.json" "$D/many.json.gz"

# split_as_whole LOST-AND-KEPT LABEL: $D/split.json loads the same split over
# two threads as whole, with the truncation warning saying LOST-AND-KEPT
split_as_whole() {
	"$TRACETOP" report summary -f csv -j 2 --no-split "$D/split.json" >"$D/whole.out" 2>"$D/whole.err"
	"$TRACETOP" report summary -f csv -j 2 "$D/split.json" >"$D/out" 2>"$D/err"
	sw_rc=$?
	if [ $sw_rc -eq 0 ] && cmp -s "$D/whole.out" "$D/out" && cmp -s "$D/whole.err" "$D/err" &&
		grep -Eq "^tracetop: $D/split.json:[0-9]+: warning: file truncated: events after the cut are lost: $1\$" "$D/err"; then
		pass "$2"
	else
		fail "$2 (status $sw_rc): $(diff "$D/whole.err" "$D/err") $(diff "$D/whole.out" "$D/out")"
	fi
}
# ---- a big plain file, loaded split across threads -------------------------------------
# 17 MB of small events, one 45 MB event, then a cut inside the next event:
# with two threads the second part starts at the cut and holds no complete
# event (the split needs 48 MiB)
python3 - "$D/split.json" <<'PY'
import sys
with open(sys.argv[1], 'w') as f:
    f.write('{"schemaVersion": 1, "traceEvents": [\n')
    for i in range(200000):
        f.write('{"ph": "X", "cat": "cpu_op", "name": "op%d", "pid": 1, "tid": 1, "ts": %d, "dur": 5},\n' % (i % 100, 10 * i))
    f.write('{"ph": "X", "name": "big", "pid": 1, "tid": 2, "ts": 1, "dur": 1, "args": {')
    f.write(', '.join('"k%d": "%s"' % (k, 'z' * 15000000) for k in range(3)))
    f.write('}},\n{"ph": "X", "name": "cut", "ts": 12')
PY
split_as_whole "35 bytes after the last complete event lost, 200001 events kept" \
	"a truncated big plain file loads split as it does whole"
# the same file cut right after a complete event: a truncation either way
python3 - "$D/split.json" <<'PY'
import os, sys
with open(sys.argv[1], 'r+b') as f:
    f.seek(-len(b'{"ph": "X", "name": "cut", "ts": 12'), os.SEEK_END)
    f.truncate()
    f.write(b'{"ph": "X", "name": "last", "ts": 12, "dur": 1}')
PY
split_as_whole "0 bytes after the last complete event lost, 200002 events kept" \
	"a big plain file cut right after an event loads split as it does whole"
# the same file closed, then cut inside the metadata that follows the events
python3 - "$D/split.json" <<'PY'
import os, sys
with open(sys.argv[1], 'r+b') as f:
    f.seek(0, os.SEEK_END)
    f.write(b'\n], "INFO": ["loaded at 10:52", "more')
PY
split_as_whole "0 bytes after the last complete event lost, 200002 events kept" \
	"a big plain file cut in its trailing metadata loads split as it does whole"
OPTS="-j 2 --max-events 1000"
run "$D/split.json"
grep -Fxq "tracetop: $D/split.json:$(grep -ob '{"ph": "X", "cat": "cpu_op", "name": "op0", "pid": 1, "tid": 1, "ts": 10000,' "$D/split.json" | cut -d: -f1): more than 1000 events in one file (see --max-events)" "$D/err" &&
	pass "--max-events holds for a file big enough to be split" ||
	fail "--max-events on a big file: $(cat "$D/err")"
OPTS=
rm -f "$D/split.json"

# ---- the fuzzer's regression inputs (tests/fixtures/bad/) -------------------------
# (tests/fuzz/replay.sh runs them through every path of the fuzz harness)
B="$SRCDIR/tests/fixtures/bad"
n=0
nb=$(ls "$B" | wc -l)
for f in "$B"/*; do
	"$TRACETOP" report summary -q "$f" >/dev/null 2>&1
	rc=$?
	if [ $rc -eq 0 ] || [ $rc -eq 2 ]; then n=$((n + 1)); else fail "$(basename "$f"): status $rc"; fi
done
# (the count today: 28 inputs)
[ "$n" -eq "$nb" ] && [ "$n" -ge 28 ] &&
	pass "$n of $nb fuzz regression inputs loaded (0) or refused (2), none crashed (floor 28)" ||
	fail "$n of $nb fuzz regression inputs loaded (0) or refused (2), none crashed (floor 28)"
expect_warning "$B/meta-huge-numbers.json" \
	"tracetop: $B/meta-huge-numbers.json:216: warning: arg of an unexpected type (ignored)" \
	"numbers beyond int64 in metadata and grid (was undefined behaviour)"
expect_error "$B/pid-huge-number.json" \
	"tracetop: $B/pid-huge-number.json:17: event 0: 'pid' is neither an integer nor a string" \
	"a pid of 1e30 (was undefined behaviour)"
expect_error "$B/rank-huge-number.json" \
	"tracetop: $B/rank-huge-number.json:20: distributedInfo.rank is not a non-negative integer" \
	"a rank of 1e300 (was undefined behaviour)"
expect_warning "$B/split-cut-in-first-event-of-part.json" \
	"tracetop: $B/split-cut-in-first-event-of-part.json:49: warning: file truncated: events after the cut are lost: 20 bytes after the last complete event lost, 1 events kept" \
	"cut inside the first event of a split part (failed when split)"
expect_warning "$B/raw-nul-in-string.json" \
	"tracetop: $B/raw-nul-in-string.json:1: warning: event without ph (skipped)" \
	"a raw NUL in a string (the parsers disagreed)"
expect_warning "$B/split-cut-in-metadata-after-events.json" \
	"tracetop: $B/split-cut-in-metadata-after-events.json:58: warning: file truncated: events after the cut are lost: 0 bytes after the last complete event lost, 1 events kept" \
	"cut in the metadata after the events (failed when split)"
expect_error "$B/split-cut-after-skipped-events.json" \
	"tracetop: $B/split-cut-after-skipped-events.json:49: file ends before any complete event" \
	"a cut after skipped events only (loaded, empty, when split)"
expect_error "$B/split-eof-between-events.json" \
	"tracetop: $B/split-eof-between-events.json:63: file ends before any complete event" \
	"the end of the text after a skipped event (loaded, empty, when split)"
expect_warning "$B/split-eof-after-event.json" \
	"tracetop: $B/split-eof-after-event.json:79: warning: file truncated: events after the cut are lost: 0 bytes after the last complete event lost, 2 events kept" \
	"the end of the text right after an event (no warning when split)"
expect_warning "$B/gpu-event-without-pid.json" \
	"tracetop: $B/gpu-event-without-pid.json:68: warning: event without ph (skipped)" \
	"a GPU event without pid after one with pid 10 (split and whole differed)"
expect_warning "$B/split-second-traceevents-array.json" \
	"tracetop: $B/split-second-traceevents-array.json:35: warning: duplicate top-level key (last wins)" \
	"a second traceEvents array (its events were lost when split)"
grep -q '^split-second-traceevents-array.json,0,1,' "$D/out" ||
	fail "split-second-traceevents-array.json: the event of the second array: $(cat "$D/out")"
expect_warning "$B/instant-without-name-after-marker.json" \
	"tracetop: $B/instant-without-name-after-marker.json:47: warning: event without a name" \
	"an instant without name after a skipped \"Record Window End\" (was a marker, not when split)"
# (version 1 files: the harness makes their header current to reach the bugs)
expect_error "$B/tts-bool-byte-in-track.tts" \
	"tracetop: $B/tts-bool-byte-in-track.tts:16: cache version 1, this tracetop reads version 6: run tracetop summarize again" \
	"a .tts with a bool byte of 114 (undefined behaviour)"
expect_error "$B/tts-section-size-after-unmap.tts" \
	"tracetop: $B/tts-section-size-after-unmap.tts:16: cache version 1, this tracetop reads version 6: run tracetop summarize again" \
	"a .tts with a bad section (read after unmapping)"

# ---- real traces from ../shared ----------------------------------------------------------
if [ ! -d "$T" ]; then
	summary || exit 1
	echo "skip: $T is absent: the parts on real traces did not run"
	exit 77
fi
GOOD="$T/hta-2rank/sampled_rank-1.json.gz"
GOODROW='^sampled_rank-1.json.gz,1,'

# cutinfo TEXTFILE: "CUT LOST KEPT" for a text that ends inside traceEvents,
# found independently of tracetop with Python's JSON decoder
cat > "$D/cutinfo.py" <<'PY'
import json, sys
text = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
raw = open(sys.argv[1], 'rb').read()
dec = json.JSONDecoder()
pos = text.index('[', text.index('"traceEvents"')) + 1
kept, ws = 0, ' \t\r\n'
while True:
    here = pos
    while pos < len(text) and text[pos] in ws:
        pos += 1
    if pos == len(text):
        cut = here
        break
    try:
        _, end = dec.raw_decode(text, pos)
    except ValueError:
        cut = pos
        break
    kept += 1
    pos = end
    while text[pos] in ws:
        pos += 1
    assert text[pos] == ','
    pos += 1
# byte offsets (the text is ASCII up to the cut in these traces)
cutb = len(text[:cut].encode('utf-8', 'replace'))
print(cutb, len(raw) - cutb, kept)
PY

# a gzip trace cut at half its size: the complete events are kept
Z="$T/hta-2rank/sampled_rank-0.json.gz"
n=$(($(wc -c < "$Z") / 2))
head -c $n "$Z" > "$D/rank0-cut.json.gz"
python3 -c 'import sys, zlib; sys.stdout.buffer.write(zlib.decompressobj(31).decompress(open(sys.argv[1], "rb").read()))' \
	"$D/rank0-cut.json.gz" > "$D/inflated"
set -- $(python3 "$D/cutinfo.py" "$D/inflated")
expect_warning "$D/rank0-cut.json.gz" \
	"tracetop: $D/rank0-cut.json.gz:$1 (decompressed): warning: file truncated: events after the cut are lost: $2 bytes after the last complete event lost, $3 events kept (gzip stream ends early at compressed byte $n)" \
	"a real gzip trace cut in half"

# the same trace inflated and cut inside a string, then inside a number
gzip -dc "$Z" > "$D/rank0.json"
python3 - "$D" <<'PY'
import os, sys
d = sys.argv[1]
t = open(os.path.join(d, 'rank0.json'), 'rb').read()
s = t.index(b'"name": "', len(t) // 3) + 12          # inside a name
n = t.index(b'"ts": ', 2 * len(t) // 3) + 6 + 5      # inside a ts
open(os.path.join(d, 'cut-string.json'), 'wb').write(t[:s])
open(os.path.join(d, 'cut-number.json'), 'wb').write(t[:n])
PY
for f in cut-string cut-number; do
	set -- $(python3 "$D/cutinfo.py" "$D/$f.json")
	expect_warning "$D/$f.json" \
		"tracetop: $D/$f.json:$1: warning: file truncated: events after the cut are lost: $2 bytes after the last complete event lost, $3 events kept" \
		"a real trace cut inside a ${f#cut-}"
done

# cut inside a key that follows the events (cpu-only keeps displayTimeUnit
# and baseTimeNanoseconds after traceEvents): the events stay, the rest is lost
gzip -dc "$T"/cpu-only/*.json.gz > "$D/cpu.json"
python3 - "$D" <<'PY'
import os, sys
d = sys.argv[1]
t = open(os.path.join(d, 'cpu.json'), 'rb').read()
k = t.index(b'"baseTimeNanoseconds"')
open(os.path.join(d, 'cut-key.json'), 'wb').write(t[:k + 8])
open(os.path.join(d, 'cut-key.off'), 'w').write(str(t.rindex(b',', 0, k) + 1))  # after the comma
PY
expect_warning "$D/cut-key.json" \
	"tracetop: $D/cut-key.json:$(cat "$D/cut-key.off"): warning: file truncated: events after the cut are lost: 0 bytes after the last complete event lost, 30 events kept" \
	"a real trace cut inside a key after the events"

# multi-member gzip of a real trace: the same summary as one member
split -b 700000 "$D/rank0.json" "$D/part."
for p in "$D"/part.*; do gzip -c "$p"; done > "$D/members.json.gz"
"$TRACETOP" report summary -f csv -q "$Z" | sed 1d | cut -d, -f2- > "$D/one"
"$TRACETOP" report summary -f csv -q "$D/members.json.gz" | sed 1d | cut -d, -f2- > "$D/many"
[ -s "$D/one" ] && cmp -s "$D/one" "$D/many" && pass "a real trace as $(ls "$D"/part.* | wc -l) gzip members" ||
	fail "multi-member gzip: $(cat "$D/one" "$D/many")"

# two copies of a real rank: both kept, each named in the other's warning
cp "$GOOD" "$D/copy-a.json.gz"
cp "$GOOD" "$D/copy-b.json.gz"
run "$D/copy-a.json.gz" "$D/copy-b.json.gz" "$T/hta-2rank/sampled_rank-0.json.gz"
if [ $? -eq 0 ] && [ "$(grep -c '^copy-.\.json\.gz,1,4720,' "$D/out")" = 2 ] &&
	grep -q '^sampled_rank-0.json.gz,0,' "$D/out" &&
	grep -Fxq "tracetop: $D/copy-a.json.gz: warning: another file has the same rank (rank 1, also $D/copy-b.json.gz)" "$D/err"; then
	pass "two files claim the same real rank"
else
	fail "same real rank: $(cat "$D/err" "$D/out")"
fi

# a .tts cache whose checksum is right but whose content is not (crafted)
cp "$GOOD" "$D/c.json.gz"
"$TRACETOP" summarize -q "$D/c.json.gz" && [ -s "$D/c.json.gz.tts" ] || fail "summarize"
python3 - "$D/c.json.gz.tts" "$D/count.tts" "$D/name.tts" "$D/bool.tts" <<'PY'
import struct, sys
src, bad_count, bad_name, bad_bool = sys.argv[1:5]
b = bytearray(open(src, 'rb').read())
HDR, SEC, M = 72, 32, (1 << 64) - 1
def sum64(p):
    # the .tts checksum (sum64 in src/model/cache.c)
    k1, k2 = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F
    lane = [(k1 * (i + 1)) & M for i in range(4)]
    n = len(p)
    p = bytes(p) + bytes(32 - n % 32)
    for o in range(0, len(p), 32):
        for i in range(4):
            w = struct.unpack_from('<Q', p, o + 8 * i)[0]
            l = lane[i] ^ ((w * k2) & M)
            l = ((l << 31) | (l >> 33)) & M
            lane[i] = (l * k1) & M
    h = (n * k1) & M
    for i in range(4):
        h ^= lane[i]
        h = ((((h << 27) | (h >> 37)) & M) * k2) & M
    return h ^ (h >> 33)
assert struct.unpack_from("<I", b, 16)[0] == 6, 'a .tts version this test does not know'
assert struct.unpack_from('<Q', b, 56)[0] == sum64(b[HDR:]), 'a .tts checksum this test does not know'
nsec = struct.unpack_from('<I', b, 48)[0]
def sec(i):
    return struct.unpack_from('<IIQQQ', b, HDR + SEC * i)
def save(buf, path):
    struct.pack_into('<Q', buf, 56, sum64(buf[HDR:]))
    open(path, 'wb').write(buf)
ev = [i for i in range(nsec) if sec(i)[0] == 9][0]           # S_EVENTS
c = bytearray(b)
struct.pack_into('<Q', c, HDR + SEC * ev + 8, sec(ev)[2] + 1)  # one event more than it holds
save(c, bad_count)
c = bytearray(b)
struct.pack_into('<I', c, sec(ev)[3] + 16, 0x7fffffff)        # event 0 names a missing string
save(c, bad_name)
tr = [i for i in range(nsec) if sec(i)[0] == 8][0]           # S_TRACKS
c = bytearray(b)
c[sec(tr)[3] + 1] = 0x72                                      # track 0: pid_is_str is no bool
save(c, bad_bool)
PY
off=$(python3 -c 'import struct, sys; b = open(sys.argv[1], "rb").read(); print([struct.unpack_from("<IIQQQ", b, 72 + 32 * i)[3] for i in range(struct.unpack_from("<I", b, 48)[0]) if struct.unpack_from("<I", b, 72 + 32 * i)[0] == 9][0])' "$D/count.tts")
expect_error "$D/count.tts" \
	"tracetop: $D/count.tts:$off: not a valid .tts cache: a section's size does not match its count" \
	"a .tts whose section count lies (checksum fixed)"
expect_error "$D/name.tts" "tracetop: $D/name.tts: not a valid .tts cache: an event is out of range" \
	"a .tts with an event naming a missing string (checksum fixed)"
expect_error "$D/bool.tts" "tracetop: $D/bool.tts: not a valid .tts cache: a track is out of range" \
	"a .tts with a bool that is neither 0 nor 1 (checksum fixed)"

# ---- outputs and windows refused, not acted on ----
"$TRACETOP" demo-trace -q -o "$D/refuse-dir" --ranks 1 --steps 1 --layers 2 || exit 99
t="$D/refuse-dir/rank-0.pt.trace.json"
cp "$t" "$D/before.json"
"$TRACETOP" counters -q "$t" -o "$t" >/dev/null 2>"$D/err"
check_rc "counters: its input as its output" 2 $?
grep -q 'the output is the input' "$D/err" && pass "counters: says the output is the input" ||
	fail "counters, output = input: $(cat "$D/err")"
cmp -s "$t" "$D/before.json" && pass "counters: the input left as it was" ||
	fail "counters rewrote its input"
"$TRACETOP" counters -q "$D/refuse-dir" -o "$t" >/dev/null 2>"$D/err"
check_rc "counters: a file of its input directory as its output" 2 $?
"$TRACETOP" report critical-path -q --from 5 --to 1 "$t" >/dev/null 2>"$D/err"
check_rc "critical-path: --to before --from" 2 $?
grep -q 'must come after --from' "$D/err" && pass "critical-path: says --to must come after --from" ||
	fail "critical-path --from 5 --to 1: $(cat "$D/err")"
"$TRACETOP" summarize -q s3://bucket/rank-0.json >/dev/null 2>"$D/err"
check_rc "summarize: a remote trace without -o" 2 $?
grep -q 'needs -o OUT.tts' "$D/err" && pass "summarize: a remote trace's model needs -o" ||
	fail "summarize s3://: $(cat "$D/err")"

summary
