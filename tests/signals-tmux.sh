#!/bin/sh
# The explorer and signals, in tmux: every signal that ends it restores the
# terminal first and ends with the signal's status (128+n); a mapped .tts
# cache cut while in use ends it with one line naming the file, the
# terminal restored (it was SIGBUS, status 135, the terminal left raw).
. "${SRCDIR:-.}/tests/lib.sh"
. "$SRCDIR/tests/tmux-lib.sh"

cp "$SRCDIR/tests/fixtures/phases.json" "$tmp/t.json"
# start_tt NAME ARGS: tracetop in a session whose shell, after it, prints
# its status and whether the terminal is in canonical mode with echo again
start_tt() {
	$T new-session -d -s "$1" -x 100 -y 30 \
		"sh -c 'ulimit -c 0; $env_tt $2; echo \"tracetop exited \$?\"; stty -a | tr \" \" \"\\n\" | grep -Ex -- \"-?(icanon|echo)\" | tr \"\\n\" \" \"; echo; exec cat'" ||
		exit 99
}
# the pid of tracetop: the child of the session's shell
tt_pid() {
	sh_pid=$($T list-panes -t "$1" -F '#{pane_pid}')
	n=0
	while [ $n -lt 200 ]; do
		p=$(pgrep -P "$sh_pid" | head -n 1)
		[ -n "$p" ] && { echo "$p"; return; }
		sleep 0.05
		n=$((n + 1))
	done
}

# (Linux's numbers)
for sn in TERM:15 HUP:1 INT:2 QUIT:3 USR1:10 USR2:12 ALRM:14; do
	sig=${sn%:*} num=${sn#*:}
	s=sig$num
	start_tt $s "$tmp/t.json"
	if ! wait_for $s 't.json: 1 rank'; then
		fail "SIG$sig: the explorer did not start"
		continue
	fi
	kill -s "$sig" "$(tt_pid $s)"
	if wait_for $s "tracetop exited $((128 + num))" && wait_for $s 'icanon echo'; then
		pass "SIG$sig: the terminal restored, status $((128 + num))"
	else
		fail "SIG$sig: $(cap $s | grep -E 'exited|icanon|echo')"
	fi
	$T kill-session -t $s 2>/dev/null
done

# a cache cut while the explorer has it mapped
"$tt" summarize -q "$tmp/t.json" -o "$tmp/c.tts" || fail "summarize"
start_tt bus "$tmp/c.tts"
if wait_for bus 'c.tts: 1 rank'; then
	: >"$tmp/c.tts"
	$T send-keys -t bus 9
	if wait_for bus "tracetop: $tmp/c.tts: the cache file changed while in use (cut or overwritten)" &&
		wait_for bus 'tracetop exited 1' && wait_for bus 'icanon echo'; then
		pass "a cache cut while in use: one line naming it, the terminal restored, status 1"
	else
		fail "SIGBUS: $(cap bus | tail -n 5)"
	fi
else
	fail "the explorer did not open the cache"
fi
summary
