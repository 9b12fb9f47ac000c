#!/bin/sh
# Traces as PyTorch writes them (tensorboard_trace_handler): profiling
# cycles of one job matched across workers, the newest complete cycle
# opened, --cycle, the cycle in every report, a log directory of runs
# (--run, the run list), cycles being written passed over without a
# warning; and the old inputs (a folder of rank files, one file, a glob,
# standard input, a .tts cache) as before.  Fixtures: tests/tools/mkcycles.py.
. "${SRCDIR:-.}/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "skip: no python3"; exit 77; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
MK="python3 $SRCDIR/tests/tools/mkcycles.py"
for l in three-cycles hostpid logdir plain; do $MK $l "$D/$l" || exit 99; done
tt() { "$TRACETOP" "$@"; }
# the value of CSV column $1 on every data row of the first table of
# standard input
col() { python3 -c '
import csv, sys
lines = [l for l in sys.stdin if not l.startswith("#")]
while lines and not lines[0].strip():
    lines.pop(0)
end = next((i for i, l in enumerate(lines) if not l.strip()), len(lines))
rows = list(csv.reader(lines[:end]))
i = rows[0].index(sys.argv[1])
print(" ".join(r[i] for r in rows[1:]))' "$1"; }

# ---- one worker, three cycles ----
tt report summary -f csv "$D/three-cycles" >"$D/out" 2>"$D/err"
check_rc "three cycles" 0 $? &&
	[ "$(col file <"$D/out")" = "worker0.1700000120000.pt.trace.json" ] &&
	[ "$(col cycle <"$D/out")" = 3 ] && [ "$(col rank <"$D/out")" = 0 ] &&
	pass "a worker's three cycles: the newest (cycle 3) opens, as rank 0" ||
	fail "three cycles: $(cat "$D/out" "$D/err")"
grep -q "same rank" "$D/err" && fail "cycles warned as a rank clash: $(cat "$D/err")" ||
	pass "no 'same rank' warning for one worker's cycles"
tt report summary -f csv --cycle 1 "$D/three-cycles" >"$D/out" 2>/dev/null
[ "$(col file <"$D/out")" = "worker0.1700000000000.pt.trace.json" ] && [ "$(col cycle <"$D/out")" = 1 ] &&
	pass "--cycle 1 opens the oldest" || fail "--cycle 1: $(cat "$D/out")"
tt report summary --cycle 4 "$D/three-cycles" >/dev/null 2>"$D/err"
check_rc "--cycle 4" 2 $? && grep -q "no cycle 4: .*has 3 cycles" "$D/err" &&
	pass "--cycle 4 of 3: refused, saying how many there are" || fail "--cycle 4: $(cat "$D/err")"
tt report summary --cycle x "$D/three-cycles" >/dev/null 2>"$D/err"
check_rc "--cycle x" 2 $? && pass "--cycle x refused" || fail "--cycle x"
# the text report says which cycle, with the steps it holds
TZ=UTC tt report overlap "$D/three-cycles" >"$D/out" 2>/dev/null
head -1 "$D/out" | grep -qx "cycle 3 of 3 (22:15:20, steps 30-32)" &&
	pass "a text report starts with its cycle: $(head -1 "$D/out")" || fail "text report: $(head -3 "$D/out")"
# --cycle all: one table, a row per rank and cycle
tt report overlap -f csv --cycle all "$D/three-cycles" >"$D/out" 2>"$D/err"
check_rc "--cycle all" 0 $? && [ "$(col cycle <"$D/out")" = "1 2 3" ] &&
	pass "--cycle all: the report of each cycle in one table (cycles $(col cycle <"$D/out"))" ||
	fail "--cycle all: $(cat "$D/out" "$D/err")"
# each cycle of --cycle all as --cycle N alone (the numbers, not only the column)
ok=0
for c in 1 2 3; do
	a=$(tt report overlap -f csv --cycle $c "$D/three-cycles" 2>/dev/null | tail -n +2)
	grep -qxF "$a" "$D/out" && ok=$((ok + 1))
done
[ $ok = 3 ] && pass "--cycle all rows are those of --cycle 1, 2 and 3 ($ok of 3)" ||
	fail "--cycle all rows differ from the single cycles ($ok of 3)"
# a cycle diff: two cycles of one folder
tt report diff -f csv --cycle 1 --cycle 3 "$D/three-cycles" >"$D/out" 2>"$D/err"
check_rc "cycle diff" 0 $? && [ "$(col control_cycle <"$D/out" | cut -d' ' -f1)" = 1 ] &&
	[ "$(col test_cycle <"$D/out" | cut -d' ' -f1)" = 3 ] &&
	grep -q '^10,30,' "$D/out" &&
	pass "report diff --cycle 1 --cycle 3: steps 10 vs 30, the cycles in columns" ||
	fail "cycle diff: $(head -5 "$D/out") $(cat "$D/err")"

# ---- 4 {hostname}_{pid} workers x 2 cycles ----
tt report summary -f csv "$D/hostpid" >"$D/out" 2>"$D/err"
check_rc "hostpid" 0 $? && [ "$(col rank <"$D/out")" = "0 1 2 3" ] &&
	[ "$(col cycle <"$D/out")" = "2 2 2 2" ] &&
	[ "$(col file <"$D/out" | tr ' ' '\n' | grep -c '\.170000006')" = 4 ] &&
	pass "4 workers x 2 cycles: cycle 2 opens with 4 ranks, each the newest file" ||
	fail "hostpid: $(cat "$D/out" "$D/err")"
grep -q "warning" "$D/err" && fail "hostpid warns: $(cat "$D/err")" || pass "no warning for 4 workers x 2 cycles"
tt report summary -f csv --cycle 1 "$D/hostpid" 2>/dev/null | col file | tr ' ' '\n' >"$D/files"
[ "$(grep -c '\.170000000' "$D/files")" = 4 ] && pass "--cycle 1: the 4 older files" ||
	fail "hostpid --cycle 1: $(cat "$D/files")"
# a glob of them groups the same way
tt report summary -f csv "$D/hostpid/*.gz" 2>/dev/null | col cycle >"$D/c"
[ "$(cat "$D/c")" = "2 2 2 2" ] && pass "a glob of the files: cycles too" || fail "glob: $(cat "$D/c")"
# the explorer's status line
TZ=UTC tt --headless --size 100x12 "$D/hostpid" >"$D/scr" 2>/dev/null
tail -1 "$D/scr" | grep -q "^ cycle 2 of 2 (22:14:20, steps 40-41) " &&
	pass "status line: $(tail -1 "$D/scr" | sed 's/  */ /g')" || fail "status line: $(tail -1 "$D/scr")"

# ---- keys: the cycle list, {, }, p ----
TZ=UTC tt --headless --size 100x16 --keys '4c<Dump>k<Enter><Dump>}<Dump>p<Dump>p<Dump>' "$D/three-cycles" \
	>"$D/scr" 2>/dev/null
csplit -s -z -f "$D/s" "$D/scr" '/^----$/+1' '{*}'
grep -q '>     3  2023-11-14 22:15:20 .* shown' "$D/s00" && grep -q '^ Kernels > cycles' "$D/s00" &&
	pass "c: the cycles, the one shown under the cursor" || fail "cycle list: $(cat "$D/s00")"
grep -q '^ Kernels' "$D/s01" && tail -2 "$D/s01" | grep -q "cycle 2 of 3 (22:14:20, steps 20-22)" &&
	pass "Enter on cycle 2: cycle 2 in the pane that was in view (Kernels)" ||
	fail "Enter on a cycle: $(cat "$D/s01")"
tail -2 "$D/s02" | grep -q "cycle 3 of 3" && pass "}: the next cycle" || fail "}: $(tail -2 "$D/s02")"
grep -q 'cycle 2 | cycle 3 | Δ' "$D/s03" && tail -3 "$D/s03" | grep -q "cycle 2 | cycle 3 side by side" &&
	pass "p: this cycle beside the previous one" || fail "p: $(cat "$D/s03")"
tail -2 "$D/s04" | grep -q "cycle 3 of 3" && ! grep -q 'Δ' "$D/s04" &&
	pass "p again: back to the cycle alone" || fail "p again: $(cat "$D/s04")"

# the cycle list: the steps of each cycle opened so far
TZ=UTC tt --headless --size 100x16 --keys 'ck<Enter>c<Dump>' "$D/three-cycles" >"$D/scr" 2>/dev/null
grep -qE '^ +3 +2023-11-14 22:15:20 +1 +1 +[0-9.]+ KB +30-32 +complete' "$D/scr" &&
	grep -qE '^> +2 +2023-11-14 22:14:20 +1 +1 +[0-9.]+ KB +20-22 +shown' "$D/scr" &&
	grep -qE '^ +1 +2023-11-14 22:13:20 +1 +1 +[0-9.]+ KB +complete' "$D/scr" &&
	pass "the cycle list: steps of cycles 3 (opened before) and 2 (shown), none of 1 (never opened)" ||
	fail "cycle list steps: $(cat "$D/scr")"

# ---- a log directory of two runs ----
tt report summary "$D/logdir" >/dev/null 2>"$D/err"
check_rc "logdir report" 2 $? && grep -q "is a log directory of 2 runs (r1, r2): choose one with --run NAME" "$D/err" &&
	pass "report of a log directory: asks for --run, naming the runs" || fail "logdir: $(cat "$D/err")"
tt report summary -f csv --run r1 "$D/logdir" >"$D/out" 2>/dev/null
[ "$(col cycle <"$D/out")" = "2 2" ] && col file <"$D/out" | grep -q "worker0.1700000060000" &&
	pass "--run r1: its newest cycle" || fail "--run r1: $(cat "$D/out")"
tt report summary --run r9 "$D/logdir" >/dev/null 2>"$D/err"
check_rc "--run r9" 2 $? && grep -q "no such run .*(runs: r1, r2)" "$D/err" && pass "--run r9 refused" ||
	fail "--run r9: $(cat "$D/err")"
tt report summary --run r "$D/logdir" >/dev/null 2>"$D/err"
check_rc "--run r" 2 $? && grep -q "several runs start so" "$D/err" && pass "--run r: ambiguous" ||
	fail "--run r: $(cat "$D/err")"
tt report summary --run r1 "$D/plain" >/dev/null 2>"$D/err"
check_rc "--run of no logdir" 2 $? && grep -q "is not a log directory" "$D/err" &&
	pass "--run on a folder of traces: refused" || fail "--run plain: $(cat "$D/err")"
tt report diff -f csv --run r1 --run r2 "$D/logdir" >"$D/out" 2>/dev/null
grep -q '^10,100,2,' "$D/out" && pass "report diff --run r1 --run r2: two runs by name" ||
	fail "run diff: $(head -4 "$D/out")"
TZ=UTC tt report diff --run r1 --run r2 "$D/logdir" 2>/dev/null | head -2 >"$D/out"
[ "$(cat "$D/out")" = "Control: run r1, cycle 2 of 2 (22:14:20, steps 10-12)
Test: run r2, cycle 1 of 1 (22:16:20, steps 100-102)" ] &&
	pass "a text diff of two runs: a line each side says which run and cycle" ||
	fail "run diff text: $(cat "$D/out")"
# the explorer: the runs first; Enter opens one; o comes back
TZ=UTC tt --headless --size 80x24 --keys '<Dump>1<Dump>j<Enter><Dump>o' "$D/logdir" >"$D/scr" 2>/dev/null
csplit -s -z -f "$D/l" "$D/scr" '/^----$/+1' '{*}'
grep -q '^> r1  *2  *2  2023-11-14 22:14:20' "$D/l00" && grep -q '^  r2  *2  *1  2023-11-14 22:16:20' "$D/l00" &&
	pass "a log directory opens on its runs (name, workers, cycles, newest, size)" ||
	fail "run list: $(cat "$D/l00")"
tail -3 "$D/l01" | grep -q "choose a run first" && pass "pane keys wait for a run" ||
	fail "keys before a run: $(tail -2 "$D/l01")"
tail -2 "$D/l02" | grep -q "r2: cycle 1 of 1 (22:16:20, steps 100-102)" &&
	pass "Enter opens run r2" || fail "Enter on r2: $(cat "$D/l02")"
grep -q '^> r2 .*open' "$D/l03" && pass "o: the runs again, r2 open" || fail "o: $(cat "$D/l03")"
tt --headless --size 80x12 --keys '<Click:20,0>' "$D/logdir" 2>/dev/null | sed -n 2p | grep -qx ' runs' &&
	pass "a click on a pane's tab waits for a run too" || fail "tab click before a run"
TZ=UTC tt --headless --size 80x10 --run r1 "$D/logdir" 2>/dev/null | tail -1 | grep -q "r1: cycle 2 of 2" &&
	pass "--run r1 opens the run at once" || fail "--run r1 in the explorer"

# ---- cycles being written ----
W=$D/writing
cp -r "$D/three-cycles" "$W"
f3=$W/worker0.1700000120000.pt.trace.json
head -c 20000 "$D/three-cycles/worker0.1700000120000.pt.trace.json" >"$f3"
tt report summary -f csv "$W" >"$D/out" 2>"$D/err"
check_rc "being written" 0 $? && [ "$(col cycle <"$D/out")" = 2 ] &&
	grep -q "cycle 3 is being written: showing cycle 2" "$D/err" && ! grep -q "warning" "$D/err" &&
	pass "a cycle being written (plain, cut): passed over, said, not warned" ||
	fail "being written: $(cat "$D/out" "$D/err")"
tt report summary --cycle 3 "$W" >/dev/null 2>"$D/err"
check_rc "--cycle of one being written" 2 $? && grep -q "cycle 3 is still being written" "$D/err" &&
	pass "--cycle 3 while it is written: refused, not shown cut" || fail "--cycle 3 writing: $(cat "$D/err")"
# a gzip stream cut mid-stream, just written: the same
G=$D/gz
cp -r "$D/hostpid" "$G"
g=$(ls "$G"/node-b_778.170000006*)
head -c 900 "$D/hostpid/$(basename "$g")" >"$g"
tt report summary -f csv "$G" >"$D/out" 2>"$D/err"
check_rc "gzip cut" 0 $? && [ "$(col cycle <"$D/out")" = "1 1 1 1" ] &&
	grep -q "cycle 2 is being written (node-b_778" "$D/err" && ! grep -q "warning" "$D/err" &&
	pass "a gzip file cut mid-stream, just written: its cycle passed over, not warned" ||
	fail "gzip cut: $(cat "$D/out" "$D/err")"
# the same file an hour old is a truncated trace, as before: shown, warned
touch -d '1 hour ago' "$g" "$f3"
tt report summary -f csv "$G" >"$D/out" 2>"$D/err"
[ "$(col cycle <"$D/out")" = "2 2 2 2" ] && grep -q "node-b_778.*warning: file truncated" "$D/err" &&
	pass "an old cut file: a truncated trace, shown with its warning" ||
	fail "old cut file: $(cat "$D/out" "$D/err")"
# a worker's file missing from the newest cycle
rm "$D/hostpid"/node-a_4243.170000006*
tt report summary -f csv "$D/hostpid" >"$D/out" 2>"$D/err"
[ "$(col cycle <"$D/out")" = "1 1 1 1" ] && grep -q "cycle 2 lacks node-a_4243: showing cycle 1" "$D/err" &&
	pass "a cycle lacking a worker: the one before opens, the worker named" ||
	fail "missing worker: $(cat "$D/out" "$D/err")"

# ---- the old inputs, as before ----
tt report summary -f csv "$D/plain" >"$D/out" 2>"$D/err"
[ "$(col file <"$D/out")" = "rank-0.json rank-1.json" ] && ! head -1 "$D/out" | grep -q cycle &&
	pass "a folder of rank files: every file, no cycle column" || fail "plain: $(cat "$D/out")"
tt report overlap "$D/plain" 2>/dev/null | head -1 | grep -q "^cycle" && fail "plain: a cycle line" ||
	pass "a folder of rank files: no cycle line in text"
tt report summary -f csv "$D/plain/rank-1.json" "$D/plain/rank-0.json" 2>/dev/null | col file >"$D/c"
[ "$(cat "$D/c")" = "rank-0.json rank-1.json" ] && pass "files given one by one" || fail "files: $(cat "$D/c")"
tt report summary -f csv - <"$D/plain/rank-1.json" 2>/dev/null | col rank >"$D/c"
[ "$(cat "$D/c")" = 1 ] && pass "standard input" || fail "stdin: $(cat "$D/c")"
tt summarize -q "$D/three-cycles/worker0.1700000060000.pt.trace.json" &&
	tt report summary -f csv "$D/three-cycles/worker0.1700000060000.pt.trace.json.tts" 2>/dev/null | col cycle |
	grep -qx 1 && pass "a .tts cache of a cycle file" || fail ".tts of a cycle file"
# its cache does not make a cycle of its own in the folder
tt report summary -f csv --cycle 2 "$D/three-cycles" 2>/dev/null | col file | grep -qx "worker0.1700000060000.pt.trace.json" &&
	pass "a cache beside its trace: still 3 cycles" || fail "cache beside its trace"
summary
