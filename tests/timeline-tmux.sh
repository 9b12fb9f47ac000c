#!/bin/sh
# The timeline pane end to end on a real terminal (tmux), on the demo job:
# open it with 9 (every rank, a summary row each), unfold a rank with
# Enter, zoom, pan, fit, move between rows, Tab through events, a kernel's
# collective lined up across the ranks and w to the rank that arrived last
# (rank 5, the demo's straggler), Enter for details and Escape back, c along the links (kernel -> launching call ->
# op -> back), m and the distance to the mark, two ranks chosen, quit.
# At 120x40 and 80x24.  Every wait polls capture-pane until the text shows;
# none sleeps a fixed time.  Skips (77) without tmux.
. "${SRCDIR:-.}/tests/lib.sh"
. "${SRCDIR:-.}/tests/tmux-lib.sh"

# the text of the cursor line
cursor_line() { cap "$1" | grep -E '^ cursor ' | head -1; }
# wait_count NAME REGEX N: poll until N lines of the screen match REGEX
wait_count() {
	n=0
	while [ $n -lt 300 ]; do
		[ "$(cap "$1" | grep -cE -- "$2")" = "$3" ] && return 0
		sleep 0.05
		n=$((n + 1))
	done
	screen "timed out waiting for $3 lines ~ /$2/" "$1"
	return 1
}

for size in 120x40 80x24; do
	w=${size%x*} h=${size#*x}
	s=t$w
	start $s "$w" "$h" "$env_tt --demo"
	check "$size: opens" wait_for $s 'demo job: 8 ranks'

	# 9: the whole job on one time axis, a summary row per rank, fitted
	# to the job's span
	$T send-keys -t $s 9
	check "$size: 9 opens the timeline of every rank" wait_for $s 'Timeline: all 8 ranks (0-7)'
	check "$size: 8 rank rows" wait_count $s '^[ >]▸ r[0-7] ' 8
	check "$size: the cursor on rank 0" wait_re $s '^>▸ r0 2 streams +│'
	check "$size: rank 5 stands out (idle)" wait_re $s '^ ▸ r5 ! idle +│'
	check "$size: a ruler in ms" wait_re $s '^time +[0-9]+ ms +[0-9]+ ms'
	check "$size: fitted to the job's span" wait_re $s 'window 0 ms \.\. 53'
	check "$size: compute and communication on a summary row" \
		wait_re $s 'r1 2 streams +│.*###.*==='
	check "$size: the legend" wait_for $s '# comp'

	# Enter: rank 0's streams and threads under its summary row
	$T send-keys -t $s Enter
	check "$size: Enter unfolds rank 0" wait_re $s '^>▾ r0 2 streams +│'
	check "$size: GPU stream rows" wait_for $s ' r0 GPU 0 stream 7'
	check "$size: the NCCL stream" wait_for $s 'r0 GPU 0 stream 20'
	check "$size: CPU thread rows" wait_for $s 'r0 thread 4000'
	check "$size: the other ranks folded" wait_re $s '^ ▸ r1 2 streams +│'
	$T send-keys -t $s j
	check "$size: j to the first stream" wait_for $s '>r0 GPU 0 stream 7'
	fit=$(cap $s | grep -E '^ window ' | head -1)
	check "$size: compute cells" wait_re $s 'stream 7 +.*###'
	check "$size: communication cells" wait_re $s 'stream 20 +.*==='

	# zoom in around the cursor, out again, fit
	$T send-keys -t $s + + +
	check "$size: + zooms in" wait_gone $s "$fit"
	$T send-keys -t $s - - -
	check "$size: - zooms back out to the same window" wait_for $s "$fit"
	# pan: G takes the cursor to the end, the window follows
	$T send-keys -t $s + + G
	check "$size: G pans to the end" wait_re $s 'window [1-9][0-9.]* ms \.\. 53[0-9.]* ms'
	$T send-keys -t $s h h h l
	check "$size: h and l move the cursor" wait_re $s '^ cursor [0-9.]+ ms'
	$T send-keys -t $s =
	check "$size: = fits again" wait_for $s "$fit"

	# rows and events: the NCCL stream, Tab to its first kernel
	$T send-keys -t $s j
	check "$size: j moves to the next row" wait_for $s '>r0 GPU 0 stream 20'
	# (the cursor line shows an NCCL kernel already: wait for g first)
	$T send-keys -t $s g
	check "$size: g goes to the start" wait_re $s '^ cursor 0(\.[0-9]+)? ms'
	$T send-keys -t $s Tab
	check "$size: Tab selects the first NCCL kernel" wait_re $s '^ cursor .*= allreduce #[0-9]+ of pg 0: nccl'
	first=$(cursor_line $s)
	$T send-keys -t $s Tab
	check "$size: Tab again: the next one" wait_re $s '^ cursor .*= allreduce #[0-9]+ of pg 0: nccl'
	n=0
	while [ "$(cursor_line $s)" = "$first" ] && [ $n -lt 100 ]; do sleep 0.05; n=$((n + 1)); done
	check "$size: a different kernel" [ "$(cursor_line $s)" != "$first" ]
	$T send-keys -t $s BTab
	check "$size: S-Tab goes back" wait_for $s "$first"

	# the kernel's collective, lined up across the ranks: who arrived last,
	# how long the others waited; w goes to the last
	check "$size: its collective" wait_re $s '^ cursor .*= allreduce #[0-9]+ of pg 0: nccl'
	check "$size: the arrival line" \
		wait_re $s '^ rank 5 arrived [0-9.]+ ms after the first; 7 ranks waited [0-9.]+ ms on average'
	$T send-keys -t $s w
	check "$size: w lands on rank 5" wait_re $s '^>r5 GPU 5 stream 20 '
	check "$size: and says so" wait_for $s 'rank 5 arrived last at allreduce'
	$T send-keys -t $s Escape
	check "$size: Esc: back on rank 0" wait_for $s "$first"
	check "$size: its row" wait_for $s '>r0 GPU 0 stream 20'

	# Enter: the details; Escape: back at the same place
	$T send-keys -t $s Enter
	check "$size: Enter shows the event" wait_for $s 'Esc: back to the timeline'
	check "$size: its correlation id" wait_for $s 'correlation'
	check "$size: its stream" wait_for $s 'device, stream'
	$T send-keys -t $s Escape
	check "$size: Escape returns" wait_for $s "$first"

	# c: the launching call, its op, and back to the kernel
	$T send-keys -t $s c
	check "$size: c: the launching call" wait_for $s 'the runtime call that launched it'
	check "$size: on a CPU thread" wait_re $s '^>r0 thread'
	check "$size: a runtime call" wait_re $s '^ cursor .* r cuda'
	$T send-keys -t $s c
	check "$size: c: the op" wait_for $s 'the op it runs in'
	check "$size: a CPU op" wait_re $s '^ cursor .* o '
	$T send-keys -t $s c
	check "$size: c: back to the kernel" wait_for $s "$first"
	check "$size: on its stream" wait_for $s '>r0 GPU 0 stream 20'

	# m: the mark, then the distance to the next kernel and the gap
	$T send-keys -t $s m
	check "$size: m sets the mark" wait_re $s '^ mark [0-9.]+ ms'
	$T send-keys -t $s Tab
	check "$size: the distance to the mark" wait_re $s 'cursor - mark \+[0-9.]+ ms'
	check "$size: the gap between their events" wait_for $s 'gap between their events'
	$T send-keys -t $s BTab m
	check "$size: m at the mark clears it" wait_gone $s 'cursor - mark'

	# o folds rank 0 again
	$T send-keys -t $s o
	check "$size: o folds the rank" wait_re $s '^>▸ r0 2 streams +│'
	check "$size: its rows gone" wait_gone $s 'r0 thread 4000'

	# two ranks chosen: theirs only; R R: every stream and thread
	$T send-keys -t $s r 0 , 1 Enter 9
	check "$size: ranks 0,1" wait_for $s 'Timeline: ranks 0-1 (2 of 8)'
	check "$size: 2 rank rows" wait_count $s '^[ >]▸ r[0-7] ' 2
	$T send-keys -t $s R R
	check "$size: rank 1's rows" wait_for $s 'r1 GPU 1 stream 7'
	check "$size: R R: every thread" wait_for $s 'r1 thread 4023'

	$T send-keys -t $s q
	check "$size: q quits" wait_for $s 'tracetop exited 0'
	$T kill-session -t $s >/dev/null 2>&1
done
summary
