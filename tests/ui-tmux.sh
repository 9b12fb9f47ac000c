#!/bin/sh
# The explorer end to end on a real terminal: tmux at 80x24 and 160x50.
# Open, every pane by its key, drill in and out, arrows and Escape, resize
# (one, a storm, down to 1x1 and back), quit and SIGTERM restore the
# terminal, stdin closed, colours (capture-pane -e) with and without
# NO_COLOR, TERM=dumb, stdout not a terminal, SIGWINCH while loading.
# Every wait polls capture-pane until the text appears; none sleeps a fixed
# time.  Skips (77) without tmux.
. "${SRCDIR:-.}/tests/lib.sh"
. "${SRCDIR:-.}/tests/tmux-lib.sh"

# size_is NAME W H: the window has that size, and tracetop drew for it
size_is() {
	[ "$($T display -p -t "$1" '#{window_width}x#{window_height}')" = "$2x$3" ]
}
# restored NAME: not left in curses mode (normal screen, cursor shown,
# keypad mode off)
restored() {
	[ "$($T display -p -t "$1" '#{alternate_on}#{cursor_flag}#{keypad_cursor_flag}')" = 010 ]
}
# the pid of tracetop in session NAME (the child of its shell; comm is the
# binary's name, cut to 15 characters)
comm=$(basename "$tt" | cut -c1-15)
tt_pid() {
	ps -o pid= -o comm= --ppid "$($T display -p -t "$1" '#{pane_pid}')" |
		awk -v c="$comm" '$2 == c { print $1 }'
}
# (tmux-lib.sh keeps a session open: killing the others never stops the
# server under the next new-session)

titles='Overview Temporal Idle Kernels Overlap Launch Counters Patterns Timeline Diff'

for size in 80x24 160x50; do
	w=${size%x*} h=${size#*x}
	s=s$w
	start $s "$w" "$h" "$env_tt --demo"
	check "$size: opens on the Overview" wait_for $s 'demo job: 8 ranks'
	check "$size: the straggler" wait_for $s 'straggler: rank 5'
	check "$size: curses mode (alternate screen)" [ "$($T display -p -t $s '#{alternate_on}')" = 1 ]
	check "$size: the status line on the last row" wait_row $s "$h" 'demo job: 8 ranks'

	# every pane by its key: its title under the title bar
	k=1
	for t in $titles; do
		$T send-keys -t $s "$((k % 10))"
		check "$size: key $((k % 10)) shows $t" wait_row $s 2 "^ $t"
		k=$((k + 1))
	done
	$T send-keys -t $s Tab
	check "$size: Tab cycles to the Overview" wait_row $s 2 '^ Overview'
	$T send-keys -t $s BTab
	check "$size: Shift-Tab goes back to the Diff" wait_row $s 2 '^ Diff'

	# arrows, Enter, Escape
	$T send-keys -t $s 1 Down Down Down Down Down
	check "$size: Down moves the cursor to rank 5" wait_for $s '>    5 '
	$T send-keys -t $s Up j
	check "$size: Up and j" wait_for $s '>    5 '
	$T send-keys -t $s Enter
	check "$size: Enter drills into rank 5" wait_for $s 'Overview > rank 5'
	check "$size: its streams" wait_for $s 'GPU 5 stream 7'
	$T send-keys -t $s Escape
	check "$size: a lone Escape goes back" wait_gone $s 'Overview > rank 5'
	check "$size: the cursor is on rank 5 again" wait_for $s '>    5 '
	$T send-keys -t $s 4 Enter
	check "$size: a kernel's histogram" wait_for $s 'instances; durations:'
	$T send-keys -t $s BSpace
	check "$size: Backspace goes back" wait_gone $s 'instances; durations:'
	$T send-keys -t $s / s g e m m Enter
	check "$size: filter" wait_for $s "3 rows match 'sgemm'"
	$T send-keys -t $s Escape s
	check "$size: sort" wait_for $s 'sorted by'
	$T send-keys -t $s '?'
	check "$size: help" wait_for $s 'Keys everywhere'
	$T send-keys -t $s '?' 1
	check "$size: back from help" wait_row $s 2 '^ Overview'

	# quit: the shell gets a restored terminal
	$T send-keys -t $s q
	check "$size: q quits with status 0" wait_for $s 'tracetop exited 0'
	check "$size: q restores the terminal" restored $s
	$T kill-session -t $s
done

# ---- resize ----
start rs 80 24 "$env_tt --demo"
wait_for rs 'demo job: 8 ranks' >/dev/null || fail "resize: did not open"
$T resize-window -t rs -x 100 -y 30
check "resize to 100x30: the status line moves to row 30" wait_row rs 30 'demo job: 8 ranks'
check "resize to 100x30: the wider title bar" wait_row rs 1 '^ tracetop  1 Over'
$T resize-window -t rs -x 160 -y 50
check "resize to 160x50: full pane names" wait_row rs 1 '1 Overview  2 Temporal'
# a storm of sizes, as fast as tmux takes them
for wh in 81x25 120x40 60x15 200x60 50x10 90x20 150x45 70x30 45x9 100x35 \
	33x12 180x55 80x24 120x20 65x50 99x31; do
	$T resize-window -t rs -x "${wh%x*}" -y "${wh#*x}"
done
$T resize-window -t rs -x 120 -y 33
check "resize storm: still running, drawn at the last size" wait_row rs 33 'demo job: 8 ranks'
check "resize storm: the title bar at 120 columns" wait_row rs 1 '1 Overview  2 Temporal'
# too small, down to 1x1, and back
$T resize-window -t rs -x 40 -y 8
check "40x8: terminal too small" wait_for rs 'terminal too small (40x8)'
$T resize-window -t rs -x 20 -y 3
check "20x3: terminal too small" wait_row rs 1 '^terminal too small'
$T resize-window -t rs -x 1 -y 1
check "1x1: the window is 1x1" size_is rs 1 1
$T send-keys -t rs j
check "1x1: still running" [ -n "$(tt_pid rs)" ]
$T resize-window -t rs -x 80 -y 24
check "1x1 and back to 80x24: the explorer again" wait_row rs 24 'demo job: 8 ranks'
check "back to 80x24: no 'too small' left" wait_gone rs 'too small'
$T send-keys -t rs 4
check "back to 80x24: keys work" wait_row rs 2 '^ Kernels'
# resized twice while busy (stopped here, as a slow key would keep it): the
# terminal reflowed text curses never drew; every line must be redrawn
$T send-keys -t rs 3
check "busy resize: the Idle pane" wait_row rs 2 '^ Idle'
pid=$(tt_pid rs)
kill -STOP "$pid"
# (tmux gives the terminal its size a moment after the window's: wait for
# the terminal's own, or both resizes would fold into none)
tty=$($T display -p -t rs '#{pane_tty}')
tty_size_is() {
	n=0
	while [ $n -lt 300 ]; do
		[ "$(stty -F "$tty" size 2>/dev/null)" = "$1" ] && return 0
		sleep 0.02
		n=$((n + 1))
	done
	return 1
}
$T resize-window -t rs -x 30 -y 8
check "busy resize: the terminal is 30x8" tty_size_is '8 30'
$T resize-window -t rs -x 80 -y 24
check "busy resize: the terminal is 80x24 again" tty_size_is '24 80'
kill -CONT "$pid"
check "busy resize: the title bar on row 1" wait_row rs 1 '^ tt 1 Over 2 Temp 3 Idle'
check "busy resize: the pane title on row 2" wait_row rs 2 '^ Idle'
check "busy resize: the status line on row 24" wait_row rs 24 'demo job: 8 ranks'
# C-l sends every cell again: text written behind curses' back goes
echo 'JUNKJUNKJUNK written behind the screen' >"$($T display -p -t rs '#{pane_tty}')"
check "C-l: the junk is on the screen first" wait_for rs 'written behind the screen'
$T send-keys -t rs C-l
check "C-l: the junk is gone" wait_gone rs 'written behind the screen'
check "C-l: the pane is still there" wait_row rs 2 '^ Idle'
$T send-keys -t rs q
check "resize: q after all that" wait_for rs 'tracetop exited 0'
check "resize: restored" restored rs
$T kill-session -t rs

# ---- SIGTERM restores the terminal ----
start st 80 24 "$env_tt --demo"
wait_for st 'demo job: 8 ranks' >/dev/null || fail "SIGTERM: did not open"
pid=$(tt_pid st)
if [ -n "$pid" ]; then
	kill -TERM "$pid"
	check "SIGTERM: tracetop ends" wait_for st 'tracetop exited'
	check "SIGTERM: the terminal is restored" restored st
else
	fail "SIGTERM: no tracetop process"
fi
$T kill-session -t st

# ---- stdin closed: exits cleanly, does not spin ----
start sc 80 24 "$env_tt --demo </dev/null"
check "stdin closed: tracetop exits with 0" wait_for sc 'tracetop exited 0' 30
check "stdin closed: the terminal is restored" restored sc
$T kill-session -t sc

# ---- colours ----
# the SGR colour parameters (30-38, 40-48, 90-97, 100-107) in a capture
colours() {
	$T capture-pane -e -p -t "$1" | grep -o "$(printf '\033')\[[0-9;]*m" |
		tr -d '\033[m' | tr ';' '\n' | grep -cE '^(3[0-8]|4[0-8]|9[0-7]|10[0-7])$'
}
start c1 100 30 "$env_tt --demo"
wait_for c1 'demo job: 8 ranks' >/dev/null
n=$(colours c1)
check "default theme: colour codes on the screen ($n)" [ "$n" -gt 0 ]
$T kill-session -t c1
start c2 100 30 "env NO_COLOR=1 TERM=xterm-256color LC_ALL=C.UTF-8 $tt --demo"
wait_for c2 'demo job: 8 ranks' >/dev/null
n=$(colours c2)
check "NO_COLOR=1: no colour codes ($n)" [ "$n" -eq 0 ]
# the cursor row: reverse video (SGR 7), then the > marker
reverse_cursor() {
	$T capture-pane -e -p -t "$1" |
		grep -qE "^($(printf '\033')\[[0-9;]*m)*$(printf '\033')\[([0-9]+;)*7m($(printf '\033')\[[0-9;]*m)*>"
}
check "NO_COLOR=1: the cursor row still shows (reverse)" reverse_cursor c2
$T kill-session -t c2
start c3 100 30 "env TRACETOP_THEME=mono TERM=xterm-256color LC_ALL=C.UTF-8 $tt --demo"
wait_for c3 'demo job: 8 ranks' >/dev/null
check "TRACETOP_THEME=mono: no colour codes" [ "$(colours c3)" -eq 0 ]
$T kill-session -t c3
start c4 100 30 "env TERM=xterm-256color LC_ALL=C.UTF-8 $tt --theme light --demo"
wait_for c4 'demo job: 8 ranks' >/dev/null
check "--theme light: colour codes" [ "$(colours c4)" -gt 0 ]
$T kill-session -t c4

# ---- TERM=dumb: the Overview as text, then exit ----
start du 100 40 "env TERM=dumb LC_ALL=C.UTF-8 $tt --demo"
check "TERM=dumb: exits with 0" wait_for du 'tracetop exited 0'
check "TERM=dumb: the Overview, readable" wait_for du 'straggler: rank 5, idle'
check "TERM=dumb: the rank rows" wait_for du '>    0 '
check "TERM=dumb: says why" wait_for du 'cannot move the cursor'
check "TERM=dumb: no alternate screen" restored du
$T kill-session -t du

# ---- stdout not a terminal: refuse, with the hint ----
start np 100 30 "$env_tt --demo | cat"
check "stdout a pipe: the hint to use tracetop report" wait_for np "use 'tracetop report"
$T kill-session -t np
"$tt" --demo >"$tmp/out" 2>"$tmp/err" </dev/null
rc=$?
check "stdout a file: exit 2" [ "$rc" -eq 2 ]
check "stdout a file: the hint" grep -q "tracetop report" "$tmp/err"
check "stdout a file: nothing written" [ ! -s "$tmp/out" ]

# ---- SIGWINCH while loading: the explorer comes up at the new size ----
"$tt" demo-trace -o "$tmp/big" --ranks 64 --steps 5 -q || fail "demo-trace failed"
start lw 80 24 "$env_tt --no-cache $tmp/big"
# resize as soon as the loader says something (or the explorer is up)
n=0
while [ $n -lt 600 ]; do
	cap lw | grep -qE 'loading|64 ranks' && break
	sleep 0.05
	n=$((n + 1))
done
loading=$(cap lw | grep -c 'loading')
$T resize-window -t lw -x 120 -y 40
check "SIGWINCH during load ($loading): up at 120x40" wait_row lw 40 "64 ranks" 120
check "SIGWINCH during load: the title bar fits 120 columns" wait_row lw 1 '1 Overview  2 Temporal'
# 64 ranks do not fit as rows at 40 lines: the Overview is the heatmap, outliers first
check "SIGWINCH during load: the heatmap names rank 5" wait_for lw 'rank 5 '
$T send-keys -t lw q
check "SIGWINCH during load: q" wait_for lw 'tracetop exited 0'
$T kill-session -t lw

summary
