#!/bin/sh
# The timeline's prompts and the mouse on a real terminal (tmux), on the
# demo at 80x24: a prompt key a view refuses swallows what is typed after it
# (q must not quit, digits must not switch panes) up to Enter; search and
# n; a jump; Esc leaves a prompt with no effect.  Every wait polls
# capture-pane until the text shows; none sleeps a fixed time.  Skips (77)
# without tmux.
. "${SRCDIR:-.}/tests/lib.sh"
. "${SRCDIR:-.}/tests/tmux-lib.sh"

s=nav
start $s 80 24 "$env_tt --demo"
check "opens" wait_for $s 'demo job: 8 ranks'

# ---- a refused prompt swallows the typing ----
$T send-keys -t $s 0
check "0: the Diff" wait_re $s '^ Diff'
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
check "9: the timeline" wait_re $s '^ Timeline: rank 0'
$T send-keys -t $s / n c c l D e v Enter
check "/ncclDev: the first match" wait_re $s 'match 1/[0-9]+ +.ncclDev'
check "the cursor on it" wait_re $s '^ cursor .*= ncclDev'
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
summary
