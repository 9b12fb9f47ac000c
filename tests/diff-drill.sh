#!/bin/sh
# Enter on a diff row opens the name's instances on both sides, headless:
# each side's count and total are those of separate reports -- from the
# Kernels pane side by side, `report kernels` of each side (every kernel
# name kept); from the Diff pane, the row's counts and durations in
# `report diff` -- and the instances come longest first; Enter on an
# instance opens the split timeline at the instance's step, its side's
# rank and the paired one, the cursor on the instance.  Choosing one rank
# (r, [ ]) pairs the Test's rank with it as the diff does.  On the demo pair
# (always) and the shared diff pair (skipped when ../shared is absent).
. "${SRCDIR:-.}/tests/lib.sh"
[ -x "$TRACETOP" ] || { echo "no binary: $TRACETOP"; exit 99; }
command -v python3 >/dev/null || { echo "skip: python3 reads the cells"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-drill.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
HOME=$tmp/home
mkdir -p "$HOME"
export HOME
unset TRACETOP_KEYMAP TRACETOP_THEME TRACETOP_THEMES NO_COLOR

shot() { # NAME KEYS ARGS...: the 80x24 screen after KEYS in $tmp/NAME
	n=$1 keys=$2
	shift 2
	"$TRACETOP" --headless -q --size 80x24 --keys "$keys" "$@" >"$tmp/$n" 2>"$tmp/$n.err"
	check_rc "$n" 0 $? || cat "$tmp/$n.err"
}

# the figures line of SIDE: "COUNT TOTAL_US DECIMALS_US" (the total as
# shown, in µs, and half its last digit: how far the rounding may be off)
figs() { # FILE SIDE
	awk -v s="$2" '$1 == s && $2 ~ /^[0-9]+$/ && NF >= 10 {
		f = $4 == "ns" ? 0.001 : $4 == "ms" ? 1000 : $4 == "s" ? 1000000 : 1
		d = index($3, ".") ? length($3) - index($3, ".") : 0
		printf "%d %.3f %.3f\n", $2, $3 * f, 0.5 * f / 10 ^ d + 0.001; exit }' "$1"
}
# compare the figures of SIDE in FILE with COUNT and TOTAL_US
same() { # LABEL FILE SIDE COUNT TOTAL_US
	f=$(figs "$2" "$3")
	if [ -z "$f" ] || [ -z "$4" ]; then
		fail "$1: $3: no figures ('$f') or no report value ('$4')"
		cat "$2"
		return
	fi
	n=${f%% *} rest=${f#* }
	shown=${rest%% *} tol=${rest#* }
	if [ "$n" = "$4" ] && awk -v a="$shown" -v b="$5" -v e="$tol" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= e) }'; then
		pass "$1: $3: $n instances, $shown µs shown for $5 µs reported"
	else
		fail "$1: $3: $n instances, $shown µs shown; the report: $4, $5 µs"
		cat "$2"
	fi
}
# the instances' durations (µs) in table order, one a line
durs() { # FILE
	awk '/^  side  *rank  *step/ { on = 1; f = /duration \(ms\)/ ? 1000 : /duration \(s\)/ ? 1e6 : /duration \(ns\)/ ? 0.001 : 1; next }
		on && /^[> ] *(Control|Test) / { sub(/^>/, " "); print $5 * f }' "$1"
}
longest_first() { # LABEL FILE
	if durs "$2" | awk 'NR > 1 && $1 > prev + 1e-9 { bad = 1 } { prev = $1; n++ } END { exit bad || n < 2 }'; then
		pass "$1: the instances come longest first"
	else
		fail "$1: the instances are not longest first"
		cat "$2"
	fi
}
# CSV rows as NAME<tab>the other fields, space-separated (a quoted name
# may hold commas; the other fields are numbers and words)
csvtab() {
	awk '{ if (substr($0, 1, 1) == "\"") { i = index(substr($0, 2), "\","); n = substr($0, 2, i - 1); r = substr($0, i + 3) }
		else { i = index($0, ","); n = substr($0, 1, i - 1); r = substr($0, i + 1) }
		gsub(/""/, "\"", n); gsub(/,/, " ", r); print n "\t" r }'
}
# a kernel's count and total (µs) on one side: report kernels, every name
kreport() { # NAME PATH...
	k=$1
	shift
	"$TRACETOP" report kernels -q --format csv --num-kernels 100000 --duration-ratio 1 \
		--table kernel_breakdown "$@" 2>/dev/null | csvtab |
		awk -F'\t' -v k="$k" '$1 == k { split($2, f, " "); n += f[8]; t += f[1] } END { if (n) printf "%d %d\n", n, t }'
}

# kernels LABEL A B: Enter on the Kernels pane's first row side by side
kernels() {
	label=$1 a=$2 b=$3
	shot "$label.k" '4<Enter>' --diff "$a" "$b"
	name=$(sed -n 2p "$tmp/$label.k" | sed 's/^ Kernels > \(.*\)  \[Control | Test | Δ\] *$/\1/')
	if [ -z "$name" ] || [ "$name" = "$(sed -n 2p "$tmp/$label.k")" ]; then
		fail "$label: Enter on a kernel side by side opens no drill-down over both sides"
		cat "$tmp/$label.k"
		return
	fi
	# (the subtitle may be the name shortened: the report's row that starts so)
	full=$("$TRACETOP" report kernels -q --format csv --table kernels_across_ranks "$a" 2>/dev/null |
		csvtab | awk -F'\t' -v k="$name" 'index($1, k) == 1 { print $1; exit }')
	[ -n "$full" ] || full=$name
	# shellcheck disable=SC2046
	set -- $(kreport "$full" "$a") $(kreport "$full" "$b")
	same "$label kernels ($full)" "$tmp/$label.k" Control "$1" "$2"
	same "$label kernels ($full)" "$tmp/$label.k" Test "$3" "$4"
	longest_first "$label kernels" "$tmp/$label.k"
}

# diffrow LABEL KEYS A B: Enter on a row of the Diff pane (KEYS get to it)
diffrow() {
	label=$1 keys=$2 a=$3 b=$4
	shot "$label.d" "0$keys<Enter>" --diff "$a" "$b"
	name=$(sed -n 2p "$tmp/$label.d" | sed 's/^ Diff > \(.*\)  \[Control | Test | Δ\] *$/\1/')
	# compare_traces: name, A counts, A duration, B counts, B duration
	# shellcheck disable=SC2046
	set -- $("$TRACETOP" report diff -q --format csv --table compare_traces "$a" "$b" 2>/dev/null |
		csvtab | awk -F'\t' -v k="$name" 'index($1, k) == 1 { print $2; exit }')
	same "$label diff row ($name)" "$tmp/$label.d" Control "$1" "$2"
	same "$label diff row ($name)" "$tmp/$label.d" Test "$3" "$4"
	longest_first "$label diff row" "$tmp/$label.d"
}

# split LABEL KEYS SIDE ARGS...: Enter on an instance opens the split
# timeline at its step, the cursor on it on its side
split() {
	label=$1 keys=$2 side=$3
	shift 3
	shot "$label.i" "$keys" "$@"
	shot "$label.s" "$keys<Enter>" "$@"
	row=$(awk '/^> *(Control|Test) / { print; exit }' "$tmp/$label.i")
	# shellcheck disable=SC2086
	set -- $row
	rank=$3 step=$4
	title=$(grep -E "^ $side  .*  rank $rank  ProfilerStep#$step  " "$tmp/$label.s")
	other=$( [ "$side" = Control ] && echo Test || echo Control)
	if [ -n "$title" ] && grep -qE "^ $other  .*  rank [0-9]+  ProfilerStep#[0-9]+  " "$tmp/$label.s"; then
		pass "$label: the split timeline at $side rank $rank, step $step, both halves"
	else
		fail "$label: no split timeline at $side rank $rank step $step"
		cat "$tmp/$label.s"
		return
	fi
	# the cursor: on the instance's side, the event its name and duration
	cur=$(grep -E "^ cursor " "$tmp/$label.s")
	y_title=$(grep -nE "^ $side  " "$tmp/$label.s" | head -1 | cut -d: -f1)
	y_other=$(grep -nE "^ $other  " "$tmp/$label.s" | head -1 | cut -d: -f1)
	y_cur=$(grep -n '^>' "$tmp/$label.s" | head -1 | cut -d: -f1)
	if [ "$side" = Control ]; then
		ok=$([ "$y_cur" -gt "$y_title" ] && [ "$y_cur" -lt "$y_other" ] && echo y)
	else
		ok=$([ "$y_cur" -gt "$y_title" ] && echo y)
	fi
	if [ -n "$ok" ] && echo "$cur" | grep -q " $side: "; then
		pass "$label: the cursor is on the $side half, on an event"
	else
		fail "$label: cursor row $y_cur, titles $y_title/$y_other: '$cur'"
		cat "$tmp/$label.s"
	fi
	dur=$(durs "$tmp/$label.i" | head -1)
	shown=$(echo "$cur" | sed -n 's/.*  \([0-9.]*\) \([nµm]*s\) at .*/\1 \2/p' |
		awk '{ f = $2 == "ms" ? 1000 : $2 == "s" ? 1e6 : $2 == "ns" ? 0.001 : 1; print $1 * f }')
	if [ -n "$shown" ] && awk -v a="$shown" -v b="$dur" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.01 * b + 0.5) }'; then
		pass "$label: the event under the cursor lasts the instance's $dur µs"
	else
		fail "$label: the cursor's event lasts '$shown' µs, the instance $dur µs"
		cat "$tmp/$label.s"
	fi
}

"$TRACETOP" demo-trace -q -o "$tmp/base" >/dev/null 2>&1 &&
	"$TRACETOP" demo-trace -q -o "$tmp/regressed" --variant regressed >/dev/null 2>&1 ||
	{ echo "demo-trace failed"; exit 99; }
kernels demo "$tmp/base" "$tmp/regressed"
diffrow demo "" "$tmp/base" "$tmp/regressed"
diffrow demo-2 "j" "$tmp/base" "$tmp/regressed"
split demo-test '4<Enter>' Test --diff "$tmp/base" "$tmp/regressed"
split demo-control '4<Enter>/Control<Enter>' Control --diff "$tmp/base" "$tmp/regressed"
# a row only one side has: its instances on that side, none on the other
shot demo-added '0/Pageable<Enter><Enter>' --diff "$tmp/base" "$tmp/regressed"
if grep -qE '^ Control +0 +- +- +- +-' "$tmp/demo-added" && grep -qE '^ Test +[1-9]' "$tmp/demo-added"; then
	pass "a name only in Test: no Control instance, its figures a dash"
else
	fail "a name only in Test"
	cat "$tmp/demo-added"
fi

# the headline above the drill-down's figures reads to its end at 80x24:
# the same words as on a 200-column screen
shot demo-head '0<Enter>' --diff "$tmp/base" "$tmp/regressed"
"$TRACETOP" --headless -q --size 200x60 --keys '0<Enter>' --diff "$tmp/base" "$tmp/regressed" \
	>"$tmp/demo-head-wide" 2>/dev/null
narrow=$(awk 'NR >= 3 && /^ +count +total/ { exit } NR >= 3' "$tmp/demo-head" | sed 's/^ //; s/ *$//' | tr '\n' ' ' | sed 's/ *$//')
wide=$(sed -n 3p "$tmp/demo-head-wide" | sed 's/^ //; s/ *$//')
if [ -n "$wide" ] && [ "$narrow" = "$wide" ]; then
	pass "the headline above the drill-down reads whole at 80x24"
else
	fail "the headline at 80x24: '$narrow', at 200 columns: '$wide'"
fi

# one rank (r, [ ]) pairs the Test's rank with it as the diff does; the
# status says both: "rank C | T"
onerank() { # LABEL KEYS WANT ARGS...
	label=$1 keys=$2 want=$3
	shift 3
	shot "$label.r" "$keys" "$@"
	if tail -1 "$tmp/$label.r" | grep -q "  $want  "; then
		pass "$label: $keys shows $want"
	else
		fail "$label: $keys: no '$want' in the status line"
		cat "$tmp/$label.r"
	fi
}
onerank demo-r '1r2<Enter>' 'rank 2 | 2' --demo --diff
onerank demo-next '1]' 'rank 0 | 0' --demo --diff
onerank demo-prev '1[' 'rank 7 | 7' --demo --diff

# Enter on a side-by-side row of a pane that drills into one side opens
# both: each side's drill-down, the side in the first column, both sides'
# rows there -- as many of each as the side's own drill-down has (the same
# keys in the Control view and in the Test view; s sorts by rank, the
# first column, on every view)
bothsides() { # LABEL PANE_KEYS WANT_SUBTITLE ARGS...
	label=$1 keys=$2 want=$3
	shift 3
	"$TRACETOP" --headless -q --size 120x60 --keys "${keys}<Enter><Cells>" --diff "$@" >"$tmp/$label.both"
	"$TRACETOP" --headless -q --size 120x60 --keys "d${keys}<Enter><Cells>" --diff "$@" >"$tmp/$label.c"
	"$TRACETOP" --headless -q --size 120x60 --keys "dd${keys}<Enter><Cells>" --diff "$@" >"$tmp/$label.t"
	"$TRACETOP" --headless -q --size 120x60 --keys "${keys}<Enter>G<Cells>" --diff "$@" >"$tmp/$label.bg"
	"$TRACETOP" --headless -q --size 120x60 --keys "dd${keys}<Enter>G<Cells>" --diff "$@" >"$tmp/$label.tg"
	if python3 - "$tmp/$label.both" "$tmp/$label.c" "$tmp/$label.t" "$want" "$tmp/$label.bg" "$tmp/$label.tg" <<'EOF' >"$tmp/$label.out" 2>&1; then
import json, sys
def cells(f):
    return [json.loads(l[len("@@cells "):]) for l in open(f) if l.startswith("@@cells ")][-1]
import re
b, c, t = cells(sys.argv[1]), cells(sys.argv[2]), cells(sys.argv[3])
bg, tg = cells(sys.argv[5]), cells(sys.argv[6])
assert b["pane"] == "sides", b["pane"]
assert re.fullmatch(sys.argv[4], b["subtitle"]), (b["subtitle"], sys.argv[4])
def rows(x, side=None):
    return [{k: v for k, v in r["csv"].items() if k != "side"} for r in x["rows"]
            if side is None or r["csv"]["side"] == side]
# the top: the Control's rows as its own drill-down has them, in its order;
# the bottom (G): the Test's last rows as its own has them
top, bottom = rows(b, "Control"), rows(bg, "Test")
assert top and bottom, (len(top), len(bottom))
assert top == rows(c)[:len(top)], ("Control", top[:2], rows(c)[:2])
assert bottom == rows(tg)[-len(bottom):], ("Test", bottom[-2:], rows(tg)[-2:])
print(f"{b['subtitle']}: {len(top)} Control rows at the top, {len(bottom)} Test rows at "
      f"the bottom, each its side's own drill-down")
EOF
		pass "$label: Enter side by side opens both sides: $(tail -1 "$tmp/$label.out")"
	else
		fail "$label: Enter side by side:"
		sed 's/^/    /' "$tmp/$label.out"
	fi
}
bothsides demo-overview 1s 'rank ([0-9]+) \| rank \1' --demo
bothsides demo-launch 6s 'rank ([0-9]+) \| rank \1' --demo
# a rank's collectives side by side (Distributed, rank 5 first by |Δ|):
# Enter opens the split timeline of that rank pair, not of the first ranks
shot demo-coll 'v/Distributed<Enter><Enter><Enter><Enter>' --demo --diff
if sed -n 2p "$tmp/demo-coll" | grep -q 'split: Control rank 5 above, Test rank 5 below'; then
	pass "a rank's collectives, side by side: the split timeline of rank 5 | 5"
else
	fail "a rank's collectives, side by side: $(sed -n 2p "$tmp/demo-coll")"
fi
# as on a terminal (<Async>: the analyses in the background): opened while
# a side's results are still computed, the drill-down shows them once they
# are (it said "computing" for good)
shot demo-coll-async '<Async>v/Distributed<Enter><Enter><Ready><Enter><Ready>' --demo --diff
if grep -q '^> Control  allreduce ' "$tmp/demo-coll-async" && grep -q '^  Test     allreduce ' "$tmp/demo-coll-async"; then
	pass "a rank's collectives, side by side, computed in the background: both sides' rows"
else
	fail "a rank's collectives, side by side, computed in the background:"
	cat "$tmp/demo-coll-async"
fi

# Enter on a Diff steps row: that step's names, HTA's compare_traces of
# the step over the rank pairs (report diff --iteration N --map ...)
stepnames() { # LABEL DOWN MAP ARGS...
	label=$1 down=$2 map=$3
	shift 3
	"$TRACETOP" --headless -q --size 120x60 --keys "v/Diff steps<Enter><Enter>${down}<Enter><Cells>" --diff "$@" >"$tmp/$label.sn"
	step=$(grep '^@@cells' "$tmp/$label.sn" | tail -1 | python3 -c 'import json,sys; print(json.loads(sys.stdin.read()[8:])["subtitle"].split("#")[1])')
	"$TRACETOP" report diff -q -f csv --table compare_traces --iteration "$step" --map "$map" "$@" >"$tmp/$label.csv"
	if python3 - "$tmp/$label.sn" "$tmp/$label.csv" <<'EOF' >"$tmp/$label.out" 2>&1; then
import csv, json, sys
cells = [json.loads(l[len("@@cells "):]) for l in open(sys.argv[1]) if l.startswith("@@cells ")][-1]
assert cells["pane"] == "stepnames", cells["pane"]
rep = {r["name"]: r for r in csv.DictReader(open(sys.argv[2]))}
n = 0
for r in cells["rows"]:
    c = r["csv"]
    w = rep[c["name"]]
    for k in ("Control_per_step", "Test_per_step", "diff_per_step", "Control_counts", "Test_counts"):
        assert abs(float(c[k]) - float(w[k])) <= 1e-6 * max(1, abs(float(w[k]))), (c["name"], k, c[k], w[k])
    n += 1
assert n >= 5, n
print(f"{n} names drawn of {len(rep)}, each that step's report row")
EOF
		pass "$label: Enter on step $step: $(tail -1 "$tmp/$label.out")"
	else
		fail "$label: Enter on a Diff steps row:"
		sed 's/^/    /' "$tmp/$label.out"
	fi
}
stepnames demo-steps jj 0:0,1:1,2:2,3:3,4:4,5:5,6:6,7:7 --demo

SHARED="${SHARED:-$SRCDIR/../shared}"
A="$SHARED/traces/diff-control" B="$SHARED/traces/diff-test"
if [ -d "$A" ] && [ -d "$B" ]; then
	# rank 3 of the control, rank 1 of the test: paired in order
	onerank diff-r '4r3<Enter>' 'rank 3 | 1' --diff "$A" "$B"
	onerank diff-next '4]' 'rank 3 | 1' --diff "$A" "$B"
	# in the Test view the Test's numbers are typed
	onerank diff-test-r '4ddr1<Enter>' 'rank 3 | 1' --diff "$A" "$B"
	onerank diff-none '4r5<Enter>' 'rank 5 | none' --diff "$A" "$B"
	# each side has one rank: the side-by-side rows are those of all ranks
	shot diff-all '4' --diff "$A" "$B"
	sed -n '/^  name/,/^ *$/p' "$tmp/diff-all" >"$tmp/all.rows"
	sed -n '/^  name/,/^ *$/p' "$tmp/diff-r.r" >"$tmp/one.rows"
	if [ -s "$tmp/all.rows" ] && grep -q '[0-9]' "$tmp/one.rows" && cmp -s "$tmp/all.rows" "$tmp/one.rows"; then
		pass "rank 3 | 1: both sides' kernels, as with all ranks"
	else
		fail "rank 3 | 1: the side-by-side rows differ from all ranks'"
		diff "$tmp/all.rows" "$tmp/one.rows" | head
	fi
	kernels diff "$A" "$B"
	diffrow diff "/Memcpy<Space>DtoD<Enter>" "$A" "$B"
	# rank 3 of the control with rank 1 of the test, as the diff pairs them
	split diff-test '4<Enter>' Test --diff "$A" "$B"
	split diff-control '4<Enter>/Control<Enter>' Control --diff "$A" "$B"
	bothsides diff-idle 3 'rank 3 stream 20 \| rank 1 stream 14' "$A" "$B"
	stepnames diff-steps jj 3:1 "$A" "$B"
fi

shared_or_skip "diff-control vs diff-test (the demo pair was checked)"
summary
