#!/bin/sh
# The explorer through the real binary without a terminal:
#   tracetop --headless --size WxH --keys KEYS [--dump FILE] PATH
# at 80x24 and 160x50: every pane by its key, drilling in and out, sorting,
# filtering, help, ranks, the too-small screen, keymap files, ASCII mode.
# Assertions are on key texts, never on whole screens.
. "${SRCDIR:-.}/tests/lib.sh"
[ -x "$TRACETOP" ] || { echo "no binary: $TRACETOP"; exit 99; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-ui-headless.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
# a pinned environment: no user keymap or theme, no colour, UTF-8
HOME=$tmp/home
mkdir -p "$HOME"
TERM=dumb
export HOME TERM
unset TRACETOP_KEYMAP TRACETOP_THEME TRACETOP_THEMES TRACETOP_TIME_KEYS NO_COLOR

# run SIZE KEYS ARGS...: the screens into $out, stderr into $err, status $rc
run() {
	size=$1 keys=$2
	shift 2
	"$TRACETOP" --headless --size "$size" --keys "$keys" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	out=$tmp/out
}
# has NAME TEXT [FILE]: the screen (or FILE) shows TEXT
has() {
	if grep -qF -- "$2" "${3:-$out}"; then
		pass "$1"
	else
		fail "$1: '$2' not on the screen"
		sed 's/^/    | /' "${3:-$out}" | head -40
	fi
}
hasnt() {
	if grep -qF -- "$2" "${3:-$out}"; then
		fail "$1: '$2' is on the screen"
		sed 's/^/    | /' "${3:-$out}" | head -40
	else
		pass "$1"
	fi
}
# screen N: the Nth screen (from 1) of a run with <Dump>s, into $tmp/screen
screen() {
	awk -v n="$1" 'BEGIN { k = 1 } /^----$/ { k++; next } k == n' "$out" >"$tmp/screen"
}
# cursor_line: the table row under the cursor on the last screen
cursor_line() {
	grep '^>' "$out" | tail -1
}

# the demo job written once: a run on its files is a run on the same job
# as --demo's without generating it again (seconds each under the
# sanitizers); the runs that check what only --demo shows (its status line,
# the regressed run in the Diff pane) use --demo itself
DEMO=$tmp/demo
"$TRACETOP" demo-trace -o "$DEMO" >"$tmp/out" 2>&1 || {
	echo "demo-trace failed:"
	cat "$tmp/out"
	exit 99
}

titles='Overview Temporal Idle Kernels Overlap Launch Counters Patterns Timeline Diff'

for size in 80x24 160x50; do
	w=${size%x*} h=${size#*x}

	# ---- open ----
	run "$size" '' --demo
	check_rc "$size open" 0 "$rc" && pass "$size open: exit 0"
	n=$(wc -l <"$out")
	[ "$n" -eq "$h" ] && pass "$size: $h rows" || fail "$size: $n rows, expected $h"
	long=$(wc -L <"$out")
	[ "$long" -le "$w" ] && pass "$size: no row wider than $w" || fail "$size: a row $long wide"
	has "$size open: Overview" ' Overview'
	has "$size open: header" 'busy %'
	has "$size open: straggler" 'straggler: rank 5, idle'
	has "$size open: status" 'demo job: 8 ranks'
	has "$size open: status hints" '?:help q:quit'
	has "$size open: cursor on rank 0" '>    0 '
	for r in 1 2 3 4 5 6 7; do
		grep -q "^     $r  " "$out" || fail "$size open: no row for rank $r"
	done

	# ---- every pane by its key ----
	run "$size" '1<Dump>2<Dump>3<Dump>4<Dump>5<Dump>6<Dump>7<Dump>8<Dump>9<Dump>0<Dump>' --demo
	check_rc "$size panes" 0 "$rc"
	i=1
	for t in $titles; do
		screen $i
		if sed -n 2p "$tmp/screen" | grep -q "^ $t"; then
			pass "$size key $((i % 10)): $t"
		else
			fail "$size key $((i % 10)): '$t' expected, got '$(sed -n 2p "$tmp/screen")'"
		fi
		body=$(sed -n "3,$((h - 1))p" "$tmp/screen" | grep -c '[^ ]')
		[ "$body" -gt 0 ] && pass "$size $t: not empty" || fail "$size $t: empty body"
		i=$((i + 1))
	done
	screen 2
	has "$size Temporal: columns" 'idle %' "$tmp/screen"
	screen 3
	has "$size Idle: largest gap" 'largest gap: rank 5 stream 20' "$tmp/screen"
	screen 4
	has "$size Kernels: most time" 'most time: ncclDevKernel_AllReduce' "$tmp/screen"
	screen 5
	has "$size Overlap: summary" 'of communication time overlaps' "$tmp/screen"
	screen 6
	has "$size Launch: cutoffs" 'cutoffs: runtime 50 us' "$tmp/screen"
	screen 7
	has "$size Counters: queue" 'queue, stream 7' "$tmp/screen"
	screen 8
	has "$size Patterns: op" 'aten::convolution_backward' "$tmp/screen"
	screen 10
	has "$size Diff: the regressed run" 'ProfilerStep#*' "$tmp/screen"
	run "$size" '0' "$SRCDIR/tests/fixtures/phases.json"
	has "$size Diff: how to" 'tracetop with --diff CONTROL TEST'
	# a trace of the autograd profiler before Kineto: CPU ops, no GPU, said
	run "$size" '1' "$SRCDIR/tests/fixtures/bare.json"
	has "$size Overview: a rank without GPU activity" 'rank 0: no GPU activity (no kernel,'
	# Tab cycles
	run "$size" '<Tab><Tab><S-Tab>' "$DEMO"
	has "$size Tab: Temporal" ' Temporal'

	# ---- drill in and out ----
	run "$size" 'jjjjj<Enter>' "$DEMO"
	has "$size drill: rank 5" 'Overview > rank 5'
	has "$size drill: streams" 'GPU 5 stream 7'
	run "$size" 'jjjjj<Enter>j<Escape>' "$DEMO"
	case $(cursor_line) in
	'>    5 '*) pass "$size back: the cursor on rank 5 again" ;;
	*) fail "$size back: cursor on '$(cursor_line)'" ;;
	esac
	hasnt "$size back: the drill-down is gone" 'Overview > rank 5'
	run "$size" '4<Enter>' "$DEMO"
	has "$size kernel: histogram" 'instances; durations:'
	has "$size kernel: slowest" 'slowest instances first'
	run "$size" '4jj<Enter><Backspace>' "$DEMO"
	cl=$(cursor_line)
	run "$size" '4jj' "$DEMO"
	[ "$cl" = "$(cursor_line)" ] && pass "$size Backspace: back to the third kernel" ||
		fail "$size Backspace: '$cl' vs '$(cursor_line)'"
	run "$size" '3<Enter>' "$DEMO"
	has "$size gaps: stream" 'Idle > rank 5 stream 20'
	has "$size gaps: category" 'host_wait'
	run "$size" '6<Enter>' "$DEMO"
	has "$size outliers" 'Launch > rank 0'
	has "$size outliers: kind" 'long delay'

	# ---- sort ----
	run "$size" 's' "$DEMO"
	has "$size sort: status" 'sorted by rank'
	case $(grep -m1 '^>' "$out") in
	'> '*' 7 '*) pass "$size sort: rank 7 first" ;;
	*) fail "$size sort: '$(grep -m1 '^>' "$out")'" ;;
	esac
	run "$size" 'sS' "$DEMO"
	case $(grep -m1 '^>' "$out") in
	'> '*' 0 '*) pass "$size S: reversed" ;;
	*) fail "$size S: '$(grep -m1 '^>' "$out")'" ;;
	esac
	run "$size" 'sssssss' "$DEMO"
	has "$size sort: idle %" 'sorted by idle %'
	case $(grep -m1 '^>' "$out") in
	'>    5 '*) pass "$size sort: the straggler first by idle %" ;;
	*) fail "$size sort by idle: '$(grep -m1 '^>' "$out")'" ;;
	esac

	# ---- filter ----
	run "$size" '4/sgemm<Enter>' "$DEMO"
	has "$size filter: status" "3 rows match 'sgemm'"
	has "$size filter: subtitle" 'filter: sgemm'
	n=$(grep -c 'ampere_sgemm' "$out")
	[ "$n" -eq 3 ] && pass "$size filter: 3 rows" || fail "$size filter: $n rows"
	n=$(grep -c '^[> ] ncclDevKernel' "$out")
	[ "$n" -eq 0 ] && pass "$size filter: no other kernel" || fail "$size filter: nccl row shown"
	run "$size" '4/sgemm<Enter><Escape>' "$DEMO"
	has "$size filter cleared" 'filter cleared: 14 rows'
	has "$size filter cleared: all rows" '/14  all ranks'
	run "$size" '4/zzz<Enter>' "$DEMO"
	has "$size filter: no match" 'no row matches the filter'

	# ---- ranks ----
	run "$size" ']]' "$DEMO"
	has "$size ]: rank 1" 'showing rank 1'
	n=$(grep -c '^[> ]    [0-9] ' "$out")
	[ "$n" -eq 1 ] && pass "$size ]: one rank row" || fail "$size ]: $n rank rows"
	run "$size" ']]a' "$DEMO"
	has "$size a: all ranks" 'showing all ranks'
	run "$size" 'r0,6-7<Enter>' "$DEMO"
	has "$size r: three ranks" '3 ranks'
	run "$size" 'rxyz<Enter>' "$DEMO"
	has "$size r: bad list" 'not a rank list'

	# ---- help ----
	run "$size" '4?' "$DEMO"
	has "$size help: title" 'help: Kernels'
	has "$size help: keys" 'Keys everywhere'
	has "$size help: j" 'j <Down>'
	run "$size" '4??' "$DEMO"
	hasnt "$size help: ? closes it" 'Keys everywhere'

	# ---- unknown keys say so ----
	run "$size" 'x' "$DEMO"
	has "$size unbound key" 'x: no action'
done

# ---- the too-small screen, and back ----
run 40x8 '' "$DEMO"
has "40x8: too small" 'terminal too small'
run 1x1 '' "$DEMO"
check_rc "1x1" 0 "$rc" && pass "1x1: exit 0"
run 50x10 '' "$DEMO"
hasnt "50x10: big enough" 'too small'

# ---- --dump, bad --size ----
"$TRACETOP" --headless --size 80x24 --keys '4' --dump "$tmp/dump" "$DEMO" >"$tmp/out" 2>&1
check_rc "--dump" 0 $?
[ -s "$tmp/out" ] && fail "--dump: something on stdout" || pass "--dump: stdout empty"
has "--dump: the file" ' Kernels' "$tmp/dump"
run 80 '' "$DEMO"
check_rc "bad --size" 2 "$rc" && pass "bad --size: exit 2"
has "bad --size: message" 'bad --size' "$tmp/err"

# ---- a keymap file ----
printf 'bind generic x pane-kernels\nbind generic y frobnicate\n' >"$tmp/rc"
TRACETOP_KEYMAP=$tmp/rc run 80x24 'x' "$DEMO"
has "keymap: x opens Kernels" ' Kernels'
has "keymap: warning with FILE:LINE" "$tmp/rc:2: unknown action 'frobnicate'" "$tmp/err"
mkdir -p "$HOME/.config/tracetop"
printf 'bind generic z pane-idle\n' >"$HOME/.config/tracetop/tracetoprc"
run 80x24 'z' "$DEMO"
has "~/.config/tracetop/tracetoprc" ' Idle'
rm -f "$HOME/.config/tracetop/tracetoprc"

# ---- ASCII glyphs when the locale is not UTF-8 ----
LC_ALL=C run 80x24 '1<Dump>3<Dump>4<Dump>5<Dump>4<Enter>' "$DEMO"
if LC_ALL=C grep -q "$(printf '[\200-\377]')" "$out"; then
	fail "LC_ALL=C: bytes >= 0x80 on the screen"
	LC_ALL=C grep -n "$(printf '[\200-\377]')" "$out" | head -5
else
	pass "LC_ALL=C: ASCII only"
fi
has "LC_ALL=C: ASCII bars" '#####'

# ---- timing keys ----
TRACETOP_TIME_KEYS=1 run 80x24 'jjk' "$DEMO"
has "TRACETOP_TIME_KEYS" 'keys 3  mean' "$tmp/err"

# ---- the shared traces ----
SHARED="${SHARED:-$SRCDIR/../shared}"
if [ -d "$SHARED/traces" ]; then
	t=$SHARED/traces/hta-2rank
	for size in 80x24 160x50; do
		run "$size" '1<Dump>2<Dump>3<Dump>4<Dump>5<Dump>6<Dump>7<Dump>8<Dump>9<Dump>0<Dump>' "$t"
		check_rc "hta-2rank $size" 0 "$rc"
		i=1
		for p in $titles; do
			screen $i
			sed -n 2p "$tmp/screen" | grep -q "^ $p" || fail "hta-2rank $size: key $((i % 10)) is not $p"
			i=$((i + 1))
		done
		pass "hta-2rank $size: every pane"
		screen 1
		has "hta-2rank $size: two ranks" '2 ranks. Enter' "$tmp/screen"
		screen 3
		has "hta-2rank $size: largest gap" 'largest gap: rank 1 stream 23, 448 ms' "$tmp/screen"
		screen 4
		has "hta-2rank $size: most time" 'most time: ncclKernel_SendRecv' "$tmp/screen"
		run "$size" 'j<Enter>' "$t"
		has "hta-2rank $size: drill" 'Overview > rank 1'
		run "$size" 'j<Enter><Escape>' "$t"
		case $(cursor_line) in
		'>    1 '*) pass "hta-2rank $size: back on rank 1" ;;
		*) fail "hta-2rank $size: back on '$(cursor_line)'" ;;
		esac
	done
	run 120x30 '' --diff "$SHARED/traces/compare-base" "$SHARED/traces/compare-test"
	has "--diff: opens the Diff" ' Diff'
	has "--diff: both sides" 'Control/step'
	for d in "$SHARED"/traces/*/; do
		run 100x30 '1<Enter><Escape>2<Enter>3<Enter><Escape>4<Enter><Enter>5678<Enter>90' "$d"
		if [ "$rc" -ge 128 ]; then
			fail "$(basename "$d"): crashed ($rc)"
		else
			pass "$(basename "$d"): every pane (exit $rc)"
		fi
	done
	# --wide prints every text whole
	"$TRACETOP" report kernels -q --wide "$SHARED/traces/hta-2rank" >"$tmp/k.txt" 2>&1
	has "report --wide: whole kernel names" \
		'ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)' "$tmp/k.txt"
	hasnt "report --wide: no name cut" '…' "$tmp/k.txt"
fi
"$TRACETOP" report advice -q --wide --demo >"$tmp/a.txt" 2>&1
has "report --wide: whole findings" \
	'on 7 of 8 ranks (rank 1 30.7 %, rank 3 30.2 %, rank 7 29.7 %, rank 6 28.3 %, ...): try gradient compression or accumulation, or a larger batch' "$tmp/a.txt"
hasnt "report --wide: no finding cut" '…' "$tmp/a.txt"
# the status line: a path shortened from the left, whole messages
mkdir -p "$tmp/a-rather-long-directory-name/where-csv-files/are-written-by-the-explorer"
( cd "$tmp/a-rather-long-directory-name/where-csv-files/are-written-by-the-explorer" &&
	"$TRACETOP" --headless --size 80x24 --keys '4w' "$DEMO" >"$tmp/w.txt" 2>&1 )
has "CSV path from the left" 'are-written-by-the-explorer/tracetop-kernels.csv' "$tmp/w.txt"

shared_or_skip "every pane on the trace sets of ../shared"
summary
