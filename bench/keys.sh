#!/bin/sh
# make bench: how long a key makes the explorer wait, on a 5 M-event rank
# and in a diff of two such ranks, at 200x50 as in a terminal (the headless
# driver with <Async>: a pane whose work is not done says "computing" and
# the keys go on).  For every pane and view: the key that opened it (the
# time to its redraw, and whether that redraw said "computing"), the time
# until its content was there (first open), and its worst key after that.
# Target: every key redrawn within 100 ms, or "computing" within 100 ms.
#   keys.sh SRCDIR BUILDDIR
# The two ranks (demo-trace --steps 1160, the base and the regressed run)
# are generated once into BUILDDIR/bench/out/five/ (about a minute).
set -e
SRCDIR=${1:-.}
B=${2:-.}
TT=${TRACETOP:-$B/tracetop}
OUT=$B/bench/out/five
STEPS=${BENCH_KEYS_STEPS:-1160}
export LC_ALL=C TZ=UTC
mkdir -p "$OUT"

for v in base regressed; do
	if ! "$TT" report summary -q "$OUT/$v.tts" > /dev/null 2>&1 ||
		[ "$(cat "$OUT/$v.stamp" 2>/dev/null)" != "$STEPS" ]; then
		echo "bench: generating a one-rank $v job of $STEPS steps into $OUT/$v.tts"
		rm -rf "$OUT/$v"
		"$TT" demo-trace -q -o "$OUT/$v" --ranks 1 --steps "$STEPS" --variant "$v"
		"$TT" summarize -q "$OUT/$v/rank-0.pt.trace.json" -o "$OUT/$v.tts"
		rm -rf "$OUT/$v"
		echo "$STEPS" > "$OUT/$v.stamp"
	fi
done

# the keys of a list pane once it is there: move, page, ends, sort both
# ways, scroll the columns, filter and clear it, drill in and back
L='jjjkk<PgDn><PgUp>Gg'"ssSllhh/a<Enter><Escape>"'<Enter><Ready>jj<Escape>'
# every pane key, then every view of the menu (v, its n-th row)
view() { # N: the n-th view of the menu
	k='v<Ready>g'
	i=0
	while [ "$i" -lt "$1" ]; do k="${k}j"; i=$((i + 1)); done
	printf '%s' "$k<Enter><Ready>$L<Escape><Escape>"
}
TLKEYS='++--llhhjjkkHL<Tab>c=GgRRRJK/nccl<Enter>nN<Escape>:step 500<Enter>mllA<Ready><Escape>'
ONE="<Async><Ready>1<Ready>${L}2<Ready>${L}3<Ready>${L}4<Ready>${L}5<Ready>${L}6<Ready>${L}"
ONE="${ONE}7<Ready>${L}8<Ready>${L}9<Ready>${TLKEYS}<Escape>0<Ready>"
for n in 0 1 2 3 4 5 6 7 8 9 10; do ONE="$ONE$(view $n)"; done
# a diff: the Diff pane, a row's instances and the split timeline at one,
# the panes side by side, each side alone (d), the split timeline (D), the
# diff's own views
SPLIT='jjll]][<Escape>'
TWO="<Async><Ready>jj<Enter><Ready>jj<Enter><Ready>${SPLIT}<Escape><Escape>"
for p in 1 2 3 4 5 6 7 8; do TWO="$TWO$p<Ready>$L"; done
TWO="${TWO}4<Ready>jj<Enter><Ready>jj<Enter><Ready>${SPLIT}<Escape>"
TWO="${TWO}9<Ready>D<Ready>${SPLIT}d1<Ready>${L}d9<Ready>${TLKEYS}d0<Ready>"
for n in 0 3 8 11 12; do TWO="$TWO$(view $n)"; done

# summary: one line per pane or view, in the order first met; the times
# are wall times (the machine's load in them), cpu the UI thread's own
report() { # LABEL FILE
	awk -v label="$1" '
	/^key / {
		key = $2; ms = $3 + 0; sec = $5; comp = ($6 == "computing")
		cpu = 0
		for (i = 6; i < NF; i++) if ($i == "cpu") cpu = $(i + 1) + 0
		if (sec != cur) {
			# a new pane in view: this key opened it
			cur = sec
			if (!(sec in okey)) {
				okey[sec] = key; oms[sec] = ms; ocpu[sec] = cpu; ocomp[sec] = comp
				first[sec] = comp ? -1 : ms
				order[n++] = sec
			}
		} else if (ms > worst[sec] + 0) {
			worst[sec] = ms; wkey[sec] = key; wcpu[sec] = cpu
		}
		if (ms > 100 && !comp) slow[sec] = slow[sec] " " key "=" ms
		next
	}
	/^ready / {
		ms = $3 + 0; sec = $5
		if ((sec in first) && first[sec] < 0) first[sec] = ms
		next
	}
	END {
		printf "%s\n", label
		printf "  %-15s %11s %28s %30s   %s\n", "pane or view", "first open",
			"its key: redraw (cpu)", "worst key after: redraw (cpu)", "target"
		bad = 0
		for (i = 0; i < n; i++) {
			s = order[i]
			f = first[s] < 0 ? "?" : sprintf("%.1f ms", first[s])
			k = sprintf("%s %.1f (%.1f) ms%s", okey[s], oms[s], ocpu[s],
				ocomp[s] ? " comp." : "")
			if (okey[s] == "(start)")
				k = sprintf("(start) %.1f ms%s", oms[s], ocomp[s] ? " comp." : "")
			w = (s in worst) ? sprintf("%s %.1f (%.1f) ms", wkey[s], worst[s], wcpu[s]) : "-"
			ok = (oms[s] < 100 && ((s in worst) ? worst[s] : 0) < 100) ? "met" : "NOT met"
			if (ok != "met") bad++
			printf "  %-15s %11s %28s %30s   %s%s\n", s, f, k, w, ok,
				(s in slow) ? "  (over 100 ms:" slow[s] ")" : ""
		}
		printf "  %d panes and views; %d with a key over 100 ms that did not say computing\n", n, bad
	}' "$2"
}

echo
echo "Keys (200x50, headless as in a terminal; load average $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)):"
echo "  first open: from the key to the pane's content; its key: the key's time to the"
echo "  redraw (comp.: it said computing); target: every key under 100 ms or computing"
events=$("$TT" report summary -f csv -q "$OUT/base.tts" 2>/dev/null |
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "events") c = i }
		 NR == 2 && c { print $c }')
TRACETOP_TIME_KEYS=1 "$TT" --headless -q --size 200x50 --keys "$ONE" "$OUT/base.tts" \
	2> "$OUT/keys-one.txt" > /dev/null
report "one rank ($OUT/base.tts, ${events:-?} events):" "$OUT/keys-one.txt"
TRACETOP_TIME_KEYS=1 "$TT" --headless -q --size 200x50 --keys "$TWO" \
	--diff "$OUT/base.tts" "$OUT/regressed.tts" 2> "$OUT/keys-diff.txt" > /dev/null
report "a diff of two (base.tts and regressed.tts):" "$OUT/keys-diff.txt"
