#!/bin/sh
# The timeline's prompts and the mouse on a real terminal (tmux), on the
# demo at 80x24: a prompt key a view refuses swallows what is typed after it
# (q must not quit, digits must not switch panes) up to Enter; search and
# n; a jump; Esc leaves a prompt with no effect.  The mouse, with the
# reports a terminal sends (written into the pane): a click on a tab, on a
# table row, a double click, the wheel, in the timeline a click and
# Ctrl-wheel; reporting on while running and off after; --no-mouse.  Every wait polls
# capture-pane until the text shows; none sleeps a fixed time.  Skips (77)
# without tmux.
. "${SRCDIR:-.}/tests/lib.sh"
. "${SRCDIR:-.}/tests/tmux-lib.sh"

s=nav
start $s 80 24 "$env_tt --demo"
check "opens" wait_for $s 'demo job: 8 ranks'

# ---- a refused prompt swallows the typing ----
$T send-keys -t $s '?'
check "?: the help" wait_re $s '^ Overview > help'
$T send-keys -t $s /
check "/ in a view without rows: refused" wait_for $s 'keys ignored to Enter/Esc'
$T send-keys -t $s q 1 j
check "the typing shows, does nothing" wait_re $s 'Enter/Esc\) q1j'
$T send-keys -t $s Enter
check "Enter closes it" wait_gone $s 'keys ignored'
$T send-keys -t $s 2
check "still running, 2 still a pane key" wait_re $s '^ Temporal'
check "q did not quit" sh -c "! $T capture-pane -p -t $s | grep -q 'tracetop exited'"

# ---- search, n, jump, Esc ----
$T send-keys -t $s 9
check "9: the timeline" wait_re $s '^ Timeline: all 8 ranks'
$T send-keys -t $s / n c c l D e v Enter
check "/ncclDev: the first match" wait_re $s 'match 1/[0-9]+ +.ncclDev'
check "the cursor on it" wait_re $s '^ cursor .*= allreduce #[0-9]+ of pg 0: ncclDev'
check "its rank unfolded" wait_re $s '^>r[0-7] GPU [0-7] stream 20'
$T send-keys -t $s n
check "n: the second" wait_re $s 'match 2/[0-9]+'
$T send-keys -t $s : 2 5 0 m s Enter
check ": 250ms" wait_for $s 'cursor at 250 ms'
check "the cursor there" wait_re $s '^ cursor 25[0-9] ms'
$T send-keys -t $s / x y Escape
check "Esc closes the prompt" wait_gone $s 'search (text'
check "with no effect" wait_for $s 'cursor at 250 ms'

$T send-keys -t $s q
check "q quits" wait_for $s 'tracetop exited 0'
$T kill-session -t $s >/dev/null 2>&1

# ---- the mouse: xterm's X10 reports, as a terminal sends them ----
# press NAME BUTTON X Y: a report for button (0 left, 64/65 wheel up/down,
# +16 Ctrl) at column X, row Y (from 0), then the release
press() {
	$T send-keys -t "$1" -l "$(printf "\033[M$(printf '\\%03o\\%03o\\%03o' $((32 + $2)) $((33 + $3)) $((33 + $4)))")"
	$T send-keys -t "$1" -l "$(printf "\033[M#$(printf '\\%03o\\%03o' $((33 + $3)) $((33 + $4)))")"
}
# dpress NAME X Y: a double click (both presses in one write: no gap)
dpress() {
	one="$(printf "\033[M $(printf '\\%03o\\%03o' $((33 + $2)) $((33 + $3)))")"
	one="$one$(printf "\033[M#$(printf '\\%03o\\%03o' $((33 + $2)) $((33 + $3)))")"
	$T send-keys -t "$1" -l "$one$one"
}
# tab NAME KEY: the column of pane key KEY's tab in the title bar
tab() { cap "$1" | head -1 | awk -v k=" $2 " '{ print index($0, k) }'; }
flag() { $T display -p -t "$1" '#{mouse_any_flag}'; }

s=mouse
start $s 80 24 "$env_tt --demo"
check "mouse: opens" wait_for $s 'demo job: 8 ranks'
check "mouse: reporting is on" [ "$(flag $s)" = 1 ]
press $s 0 "$(tab $s 4)" 0
check "a click on the 4 tab: Kernels" wait_re $s '^ Kernels'
y=$(cap $s | grep -n '^  ' | sed -n 3p | cut -d: -f1)
press $s 0 5 $((y - 1))
check "a click selects the row under it" wait_row $s "$y" '^>'
press $s 65 5 $((y - 1))
check "the wheel moves the cursor" wait_row $s "$((y + 3))" '^>'
dpress $s 5 $((y - 1))
check "a double click drills in" wait_for $s 'instances; durations:'
$T send-keys -t $s Escape 9
check "mouse: the timeline" wait_re $s '^ Timeline: all 8 ranks'
$T send-keys -t $s Enter
check "Enter unfolds rank 0" wait_for $s 'r0 GPU 0 stream 20'
y=$(cap $s | grep -n 'r0 GPU 0 stream 20' | cut -d: -f1)
press $s 0 40 $((y - 1))
check "a click selects a row of the timeline" wait_re $s '^>r0 GPU 0 stream 20'
fit=$(cap $s | grep -E '^ window ' | head -1)
press $s $((64 + 16)) 40 $((y - 1))
check "Ctrl-wheel zooms at the pointer" wait_gone $s "$fit"
press $s $((65 + 16)) 40 $((y - 1))
check "and back out" wait_for $s "$fit"
$T send-keys -t $s q
check "mouse: q quits" wait_for $s 'tracetop exited 0'
check "mouse reporting is off again" [ "$(flag $s)" = 0 ]
$T kill-session -t $s >/dev/null 2>&1

# --no-mouse: reporting stays off, and reports typed in do nothing
s=nomouse
start $s 80 24 "$env_tt --no-mouse --demo"
check "--no-mouse: opens" wait_for $s 'demo job: 8 ranks'
check "--no-mouse: reporting stays off" [ "$(flag $s)" = 0 ]
press $s 0 "$(tab $s 4)" 0
$T send-keys -t $s r
check "--no-mouse: (keys still work)" wait_for $s 'ranks (e.g.'
check "--no-mouse: the click did nothing" wait_row $s 2 '^ Overview'
$T send-keys -t $s Escape q
check "--no-mouse: q quits" wait_for $s 'tracetop exited 0'
$T kill-session -t $s >/dev/null 2>&1
summary
