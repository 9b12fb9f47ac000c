#!/bin/sh
# The bad-input corpus: each input gives its exact one-line error or warning,
# nothing crashes, and a good trace given alongside still loads.
. "${SRCDIR:-.}/tests/lib.sh"

D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
GOOD="$SRCDIR/tests/fixtures/phases.json"

# expect_error FILE LINE: FILE is rejected with LINE, the good file still loads
expect_error() {
	"$TRACETOP" report summary -f csv "$1" "$GOOD" >"$D/out" 2>"$D/err"
	rc=$?
	check_rc "$1 with a good file" 0 $rc || return
	grep -Fxq -- "$2" "$D/err" || { fail "$1: expected '$2', got: $(cat "$D/err")"; return; }
	grep -q '^phases.json,3,' "$D/out" || { fail "$1: the good trace did not load"; return; }
	"$TRACETOP" report summary "$1" >/dev/null 2>&1
	check_rc "$1 alone" 2 $? || return
	pass "$1"
}

# expect_warning FILE LINE: FILE loads, with LINE on stderr
expect_warning() {
	"$TRACETOP" report summary -f csv "$1" >"$D/out" 2>"$D/err"
	rc=$?
	check_rc "$1" 0 $rc || return
	grep -Fxq -- "$2" "$D/err" || { fail "$1: expected '$2', got: $(cat "$D/err")"; return; }
	pass "$1 (warning)"
}

w() { printf '%s' "$2" > "$D/$1"; }

w empty.json ''
expect_error "$D/empty.json" "tracetop: $D/empty.json:0: empty file"

w notjson.json 'hello world'
expect_error "$D/notjson.json" \
	"tracetop: $D/notjson.json:0: not a JSON trace: expected '{' or '[', found bytes 68 65 6c 6c 6f 20 77 6f"

printf '\000\001\002\377binary' > "$D/binary.bin"
expect_error "$D/binary.bin" \
	"tracetop: $D/binary.bin:0: not a JSON trace: expected '{' or '[', found bytes 00 01 02 ff 62 69 6e 61"

printf '\050\265\057\375rest' > "$D/zstd.json"
expect_error "$D/zstd.json" "tracetop: $D/zstd.json:0: compressed with zstd: decompress it first"
printf 'BZh91AY' > "$D/bz.json.gz"
expect_error "$D/bz.json.gz" "tracetop: $D/bz.json.gz:0: compressed with bzip2: decompress it first"

w noevents.json '{"schemaVersion": 1}'
expect_error "$D/noevents.json" \
	"tracetop: $D/noevents.json:0: no traceEvents array in the top-level object"

w notarray.json '{"traceEvents": {}}'
expect_error "$D/notarray.json" "tracetop: $D/notarray.json:16: traceEvents is not an array"

w toplevel.json '"just a string"'
expect_error "$D/toplevel.json" \
	"tracetop: $D/toplevel.json:0: not a JSON trace: expected '{' or '[', found bytes 22 6a 75 73 74 20 61 20"

w nan.json '{"traceEvents": [{"ph": "X", "ts": NaN, "dur": 1}]}'
expect_error "$D/nan.json" "tracetop: $D/nan.json:35: NaN is not valid JSON"
w inf.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": Infinity}]}'
expect_error "$D/inf.json" "tracetop: $D/inf.json:45: Infinity is not valid JSON"
w ninf.json '{"traceEvents": [{"ph": "X", "ts": -Infinity, "dur": 1}]}'
expect_error "$D/ninf.json" "tracetop: $D/ninf.json:35: -Infinity is not valid JSON"

w phnum.json '{"traceEvents": [{"ph": 1, "ts": 1}]}'
expect_error "$D/phnum.json" "tracetop: $D/phnum.json:17: event 0: 'ph' is not a string"
w tsstr.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}, {"ph": "X", "ts": "12", "dur": 1}]}'
expect_error "$D/tsstr.json" "tracetop: $D/tsstr.json:49: event 1: 'ts' is not a number"
w durstr.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": "5"}]}'
expect_error "$D/durstr.json" "tracetop: $D/durstr.json:17: event 0: 'dur' is not a number"
w pidfloat.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1, "pid": 1.5}]}'
expect_error "$D/pidfloat.json" \
	"tracetop: $D/pidfloat.json:17: event 0: 'pid' is neither an integer nor a string"
w bigts.json '{"traceEvents": [{"ph": "X", "ts": 1e20, "dur": 1}]}'
expect_error "$D/bigts.json" \
	"tracetop: $D/bigts.json:17: event 0: 'ts' is beyond the int64 nanosecond range"
w rankstr.json '{"distributedInfo": {"rank": "3"}, "traceEvents": [{"ph": "X", "ts": 1, "dur": 1}]}'
expect_error "$D/rankstr.json" \
	"tracetop: $D/rankstr.json:20: distributedInfo.rank is not a non-negative integer"

w quote.json '{"traceEvents": [{"ph": "X", "name": "a"b", "ts": 1, "dur": 1}]}'
expect_error "$D/quote.json" \
	"tracetop: $D/quote.json:40: expected ',' or '}' after a field of the event"

w trailing.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}]} xyz'
expect_error "$D/trailing.json" \
	"tracetop: $D/trailing.json:50: unexpected bytes after the end of the JSON value"

# nesting deeper than 64 levels inside args
python3 -c 'print("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1, \"dur\": 1, \"args\": {\"a\": " + "["*70 + "]"*70 + "}}]}")' > "$D/deep.json"
expect_error "$D/deep.json" "tracetop: $D/deep.json:122: nesting deeper than 64 levels"

# one string over 16 MiB, and one of 100 MB (made here, never stored)
{ printf '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1, "name": "'; head -c 17000000 /dev/zero | tr '\0' a; printf '"}]}'; } > "$D/longstr.json"
expect_error "$D/longstr.json" "tracetop: $D/longstr.json:56: string longer than 16 MiB"
{ printf '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1, "args": {"x": "'; head -c 100000000 /dev/zero | tr '\0' b; printf '"}}]}'; } > "$D/string100m.json"
expect_error "$D/string100m.json" "tracetop: $D/string100m.json:62: string longer than 16 MiB"
rm -f "$D/string100m.json"

# truncated JSON: mid-string before any event, mid-number after two events
w cutstr.json '{"traceEvents": [{"ph": "X", "name": "abc'
expect_error "$D/cutstr.json" "tracetop: $D/cutstr.json:17: file ends before any complete event"
w cutnum.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}, {"ph": "X", "ts": 2, "dur": 1}, {"ph": "X", "ts": 12'
expect_warning "$D/cutnum.json" \
	"tracetop: $D/cutnum.json:81: warning: file truncated: events after the cut are lost: 20 bytes after the last complete event lost, 2 events kept"

# gzip: truncated stream (salvaged), garbage inside, a corrupt stream
python3 - "$D" <<'PY'
import gzip, sys, os
d = sys.argv[1]
ev = ',\n'.join('{"ph": "X", "cat": "cpu_op", "name": "op%d", "pid": 1, "tid": 1, "ts": %d, "dur": 5}' % (i, 10 * i) for i in range(20000))
text = ('{"schemaVersion": 1, "traceEvents": [\n' + ev + '\n]}').encode()
z = gzip.compress(text, 6)
open(os.path.join(d, 'cutgz.json.gz'), 'wb').write(z[:len(z) // 2])
open(os.path.join(d, 'garbage.json.gz'), 'wb').write(gzip.compress(b'hello, not json'))
bad = bytearray(z)
for i in range(len(bad) // 2, len(bad) // 2 + 64):
    bad[i] ^= 0x55
open(os.path.join(d, 'corrupt.json.gz'), 'wb').write(bytes(bad))
PY
"$TRACETOP" report summary -f csv "$D/cutgz.json.gz" >"$D/out" 2>"$D/err"
if [ $? -eq 0 ] && grep -q "cutgz.json.gz:[0-9]* (decompressed): warning: file truncated: events after the cut are lost: [0-9]* bytes after the last complete event lost, [0-9]* events kept (gzip stream ends early at compressed byte [0-9]*)" "$D/err"; then
	pass "truncated gzip keeps its events"
else
	fail "truncated gzip: $(cat "$D/err")"
fi
expect_error "$D/garbage.json.gz" \
	"tracetop: $D/garbage.json.gz:0 (decompressed): not a JSON trace: expected '{' or '[', found bytes 68 65 6c 6c 6f 2c 20 6e"
"$TRACETOP" report summary "$D/corrupt.json.gz" >/dev/null 2>"$D/err"
rc=$?
if [ $rc -eq 2 ] && grep -q "^tracetop: $D/corrupt.json.gz:[0-9]* (\(compressed\|decompressed\)): " "$D/err"; then
	pass "corrupt gzip is rejected with an offset"
else
	fail "corrupt gzip (rc $rc): $(cat "$D/err")"
fi

# a directory without traces; a path that does not exist
mkdir "$D/empty-dir"
"$TRACETOP" report summary "$D/empty-dir" >/dev/null 2>"$D/err"
check_rc "empty directory" 2 $? &&
	grep -Fxq "tracetop: $D/empty-dir: no trace files (*.json, *.json.gz, *.gz, *.tts) in this directory" "$D/err" &&
	pass "empty directory" || fail "empty directory: $(cat "$D/err")"

# tolerated with a warning
printf '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1, "name": "bad \377 byte"}]}' > "$D/utf8.json"
expect_warning "$D/utf8.json" \
	"tracetop: $D/utf8.json:17: warning: invalid UTF-8 or control character in a string (replaced)"
w negdur.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}, {"ph": "X", "ts": 5, "dur": -3}]}'
expect_warning "$D/negdur.json" "tracetop: $D/negdur.json:49: warning: negative duration (event dropped)"
w longdur.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}, {"ph": "X", "ts": 5, "dur": 900000000000}]}'
expect_warning "$D/longdur.json" "tracetop: $D/longdur.json:49: warning: duration over 7 days (event dropped)"
w noph.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}, {"ts": 5, "dur": 3}]}'
expect_warning "$D/noph.json" "tracetop: $D/noph.json:49: warning: event without ph (skipped)"
w nots.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}, {"ph": "X", "dur": 3}]}'
expect_warning "$D/nots.json" "tracetop: $D/nots.json:49: warning: event without ts (skipped)"
w noname.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1, "name": "a"}, {"ph": "X", "ts": 2, "dur": 3}]}'
expect_warning "$D/noname.json" "tracetop: $D/noname.json:62: warning: event without a name"
w dupmeta.json '{"distributedInfo": {"rank": 1}, "traceEvents": [{"ph": "X", "ts": 1, "dur": 1}], "distributedInfo": {"rank": 2}}'
expect_warning "$D/dupmeta.json" "tracetop: $D/dupmeta.json:101: warning: duplicate top-level key (last wins)"
w unknownph.json '{"traceEvents": [{"ph": "X", "ts": 1, "dur": 1}, {"ph": "Q", "ts": 5}]}'
expect_warning "$D/unknownph.json" "tracetop: $D/unknownph.json:49: warning: unknown phase (event skipped)"

# two files claiming the same rank: both kept, the warning names the other
w a-rank.json '{"distributedInfo": {"rank": 4}, "traceEvents": [{"ph": "X", "ts": 1, "dur": 1}]}'
w b-rank.json '{"distributedInfo": {"rank": 4}, "traceEvents": [{"ph": "X", "ts": 1, "dur": 1}]}'
"$TRACETOP" report summary -f csv "$D/a-rank.json" "$D/b-rank.json" >"$D/out" 2>"$D/err"
if [ $? -eq 0 ] && [ "$(grep -c ',4,' "$D/out")" = 2 ] &&
	grep -Fxq "tracetop: $D/a-rank.json: warning: another file has the same rank (rank 4, also $D/b-rank.json)" "$D/err"; then
	pass "duplicate rank"
else
	fail "duplicate rank: $(cat "$D/err")"
fi

summary
