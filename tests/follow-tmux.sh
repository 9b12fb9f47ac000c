#!/bin/sh
# --follow, in tmux: a job still running writes a new cycle while the
# explorer shows the last one (the status line says what it writes).  The
# test writes each worker's file in
# steps (a gzip stream cut mid-stream between them): the cycle is listed
# as being written, never shown cut and never warned about; once every
# file is whole, the status line says "new cycle available (c)" and the
# pane in view stays until c opens it.  Then the same by polling alone
# (--poll, as on a network file system), a job that has written nothing
# yet, a log directory whose run list shows new runs and cycles, and the
# status line at 80 columns.  The time from the last write
# to the offer is printed (a figure, not a limit).
. "${SRCDIR:-.}/tests/lib.sh"
. "$SRCDIR/tests/tmux-lib.sh"
command -v python3 >/dev/null 2>&1 || { echo "skip: no python3"; exit 77; }
MK="python3 $SRCDIR/tests/tools/mkcycles.py"

# mk DIR N STEPS: cycle N (0, 1, ...) of two workers, gzip, into DIR
# (worker1 writes 10 ms after worker0)
mk() {
	$MK file "$1/worker0.$((1700000000000 + 60000 * $2)).pt.trace.json.gz" --rank 0 --world 2 \
		--steps "$3" --kernels 60 --start-ms $((1700000000000 + 60000 * $2 - 20000)) || exit 99
	$MK file "$1/worker1.$((1700000000010 + 60000 * $2)).pt.trace.json.gz" --rank 1 --world 2 \
		--steps "$3" --kernels 60 --start-ms $((1700000000000 + 60000 * $2 - 20000)) || exit 99
}
now_ms() { echo $(($(date +%s%N) / 1000000)); }
# the status line (the screen's last row)
status() { cap "$1" | tail -n 1; }

# ---- a job writing its second cycle ----
J=$tmp/job
mkdir -p "$J" "$tmp/c2"
mk "$J" 0 1-3
mk "$tmp/c2" 1 4-6
w0=worker0.1700000060000.pt.trace.json.gz w1=worker1.1700000060010.pt.trace.json.gz
s0=$(wc -c <"$tmp/c2/$w0")
start job 100 30 "TZ=UTC $env_tt --follow $J"
wait_for job "cycle 1 of 1 (22:13:20, steps 1-3)" || fail "the explorer did not start"
# the Kernels pane, and the list of cycles over it
$T send-keys -t job 4
wait_for job " Kernels" && $T send-keys -t job c
wait_for job "Kernels > cycles" || fail "no cycle list"
wait_for job "following the folder: inotify and polling every 1 s" && pass "the folder is watched with inotify (and polled)" ||
	fail "not following"
# worker1 whole, worker0 a third of its gzip stream: the cycle is listed,
# read once its files stop changing, and found to stop early
cp "$tmp/c2/$w1" "$J/$w1"
wait_for job "cycle 2: 1 of 2 workers written" 20 && status job | grep -q "cycle 2: 1 of 2 workers written" &&
	pass "one worker's file of cycle 2: the status line says 'cycle 2: 1 of 2 workers written'" ||
	fail "one worker written: $(status job)"
head -c $((s0 / 3)) "$tmp/c2/$w0" >"$J/$w0"
if wait_re job '^ +2 +2023-11-14 22:14:20 +2 +2 .*being written: a file stops early' 20; then
	pass "a gzip file cut mid-stream: its cycle 'being written: a file stops early'"
else
	fail "cut file not seen as being written"
fi
wait_for job "cycle 2 being written" 20 || fail "no 'cycle 2 being written': $(status job)"
st=$(status job)
case $st in
*"new cycle"*) fail "a cycle being written offered: $st" ;;
*W:*) fail "a file being written warned about: $st" ;;
*"cycle 2 being written"*) pass "not offered, not warned; the status line says: $st" ;;
*) fail "the status line does not say cycle 2 is being written: $st" ;;
esac
# it grows: listed as growing (no offer, no warning either)
head -c $((2 * s0 / 3)) "$tmp/c2/$w0" | tail -c +$((s0 / 3 + 1)) >>"$J/$w0"
wait_re job '^ +2 +2023-11-14 22:14:20 .*being written: growing' 20 &&
	wait_re job '^ +2 +2023-11-14 22:14:20 .*being written: a file stops early' 20 &&
	! status job | grep -qE 'new cycle|W:' &&
	pass "grown to two thirds: growing, read again, stops early; not offered, not warned" ||
	fail "growing: $(status job)"
# the rest of it: offered once whole (and the cycle list says so)
tail -c +$((2 * s0 / 3 + 1)) "$tmp/c2/$w0" >>"$J/$w0"
t0=$(now_ms)
if wait_for job "new cycle available (c)" 20; then
	echo "# follow latency (inotify): $(($(now_ms) - t0)) ms from the last write to the offer"
	pass "once whole: 'new cycle available (c)'"
else
	fail "the complete cycle was not offered"
fi
cmp -s "$J/$w0" "$tmp/c2/$w0" || fail "the test wrote the file wrong"
wait_re job '^> +2 +2023-11-14 22:14:20 .*new: ready to open' && pass "the cycle list: cycle 2 new, under the cursor" ||
	fail "cycle list after the offer"
# the view is not yanked away: back on Kernels, cycle 1, until c
$T send-keys -t job Escape
wait_row job 2 '^ Kernels' && status job | grep -q "cycle 1 of 2 (22:13:20, steps 1-3)" &&
	pass "the pane in view stays on cycle 1 (Kernels)" || fail "view changed: $(cap job)"
$T send-keys -t job c
wait_for job "cycle 2 of 2 (22:14:20, steps 4-6)" && cap job | sed -n 2p | grep -q '^ Kernels' &&
	! status job | grep -qE 'new cycle|W:' &&
	pass "c: cycle 2 in the same pane, no warning" || fail "c: $(cap job)"

# ---- by polling alone (--poll: as over NFS) ----
P=$tmp/poll
mkdir -p "$P" "$tmp/p2"
mk "$P" 0 1-3
mk "$tmp/p2" 1 4-6
start poll 100 30 "TZ=UTC $env_tt --poll $P"
wait_for poll "cycle 1 of 1" || fail "--poll did not start"
$T send-keys -t poll c
wait_for poll "following the folder: polling every 1 s" && pass "--poll: polling every 1 s, no inotify" ||
	fail "--poll: $(cap poll)"
$T send-keys -t poll Escape
# worker0 first, worker1 a moment later (each written whole at once)
cp "$tmp/p2/$w0" "$P/$w0"
cp "$tmp/p2/$w1" "$P/$w1"
t0=$(now_ms)
if wait_for poll "new cycle available (c)" 20; then
	echo "# follow latency (polling): $(($(now_ms) - t0)) ms from the last write to the offer"
	pass "--poll: the new cycle offered"
else
	fail "--poll: no offer"
fi

# ---- a job that has written nothing yet ----
E=$tmp/empty
mkdir -p "$E"
start empty 100 30 "TZ=UTC $env_tt --follow $E"
wait_for empty "waiting for the first complete cycle" &&
	pass "an empty folder: waiting for the first complete cycle" || fail "empty: $(cap empty)"
mk "$E" 0 7-9
wait_for empty "cycle 1 of 1 (22:13:20, steps 7-9)" && pass "the first cycle opens when complete" ||
	fail "first cycle: $(cap empty)"

# ---- a log directory followed: its runs list new runs and cycles ----
L=$tmp/logdir
$MK logdir "$L" || exit 99
start logdir 100 30 "TZ=UTC $env_tt --follow $L"
wait_re logdir '^> r1 +2 +2 ' || fail "the run list did not open: $(cap logdir)"
$T send-keys -t logdir j
wait_re logdir '^> r2 +2 +1 ' || fail "j in the run list"
# a run starts (a new subfolder, named to come first) and r2 writes a
# second cycle, with the run list in view and no run open
mkdir -p "$L/a0"
mk "$L/a0" 0 1-3
mk "$L/r2" 5 200-202
wait_re logdir '^  a0 +2 +1 +2023-11-14 22:13:20 ' 20 &&
	pass "a run that starts shows in the run list (a0, 1 cycle)" || fail "new run: $(cap logdir)"
wait_re logdir '^> r2 +2 +2 +2023-11-14 22:18:20 ' 20 &&
	pass "r2's new cycle counted, the cursor still on r2" || fail "r2's new cycle: $(cap logdir)"
# Enter: r2 at its newest cycle, followed from there
$T send-keys -t logdir Enter
wait_for logdir "r2: cycle 2 of 2 (22:18:20, steps 200-202)" && pass "Enter opens r2 at the new cycle" ||
	fail "Enter on r2: $(status logdir)"
mk "$L/r2" 6 300-302
wait_for logdir "new cycle available (c)" 20 && status logdir | grep -q "r2: cycle 2 of 3" &&
	pass "the run opened from the list is followed: its next cycle offered" ||
	fail "r2 not followed: $(status logdir)"
# o: the runs again, looked at whole while in view
$T send-keys -t logdir o
wait_re logdir '^> r2 .*open' || fail "o: $(cap logdir)"
mkdir -p "$L/z9"
mk "$L/z9" 0 1-3
wait_re logdir '^  z9 +2 +1 ' 20 && pass "with a run open, the run list in view still shows a new run (z9)" ||
	fail "z9: $(cap logdir)"

# ---- 80 columns: the offer reads whole on the status line ----
N=$tmp/narrow
mkdir -p "$N"
mk "$N" 0 1-3
start narrow 80 24 "TZ=UTC $env_tt --follow $N"
wait_for narrow "cycle 1 of 1" || fail "80x24 did not start"
mk "$N" 1 4-6
wait_for narrow "new cycle available (c)" 20 && status narrow | grep -q '^ cycle 1 of 2 (22:13:20, steps 1-3)' &&
	pass "80x24: $(status narrow | sed 's/  */ /g')" || fail "80x24 status: $(status narrow)"
# in the timeline, whose c is another key: the status line names C
$T send-keys -t narrow 9
wait_for narrow "new cycle available (C)" && pass "the timeline: 'new cycle available (C)'" ||
	fail "timeline: $(status narrow)"
$T send-keys -t narrow C
wait_for narrow "cycle 2 of 2" && pass "C opens it from the timeline" || fail "C in the timeline"
ok=0
for s in job poll empty logdir narrow; do
	$T send-keys -t $s q
	wait_for $s "tracetop exited 0" && ok=$((ok + 1))
done
[ $ok = 5 ] && pass "each of the 5 quits cleanly (status 0)" || fail "$((5 - ok)) of 5 did not quit cleanly"
summary
