#!/bin/sh
# Many ranks: a generated 64-rank job with planted stragglers; `report
# outliers` lists exactly the planted ranks first; the distributions cover
# every metric; the heatmap is reachable headless at 80x24.
. "${SRCDIR:-.}/tests/lib.sh"
D=$(mktemp -d) || exit 99
trap 'rm -rf "$D"' EXIT
export HOME="$D" TERM=dumb LINES=24 COLUMNS=80

"$TRACETOP" demo-trace -q -o "$D/job" --ranks 64 --steps 3 --layers 6 --gzip || exit 99
n=$(ls "$D/job" | wc -l)
[ "$n" -eq 64 ] && pass "64 rank files" || fail "demo-trace wrote $n files"

# the planted ranks, as the generator marks them in each file
planted=$(for f in "$D"/job/rank-*.json.gz; do
	if gzip -dc "$f" | head -c 200000 | grep -q '"demo_straggler": true'; then
		b=${f##*/rank-}
		echo "${b%%.*}"
	fi
done | sort -n | tr '\n' ' ')
k=$(echo $planted | wc -w)
[ "$k" -ge 1 ] && pass "planted stragglers: $planted" || fail "no planted straggler found"

"$TRACETOP" report outliers -q -f csv --table outliers "$D/job" > "$D/out.csv"
rc=$?
check_rc "report outliers" 0 $rc && pass "report outliers runs"
head -1 "$D/out.csv" | grep -q '^rank,host,metric,robust_z,value,median,unit,also,reason' &&
	pass "outliers CSV header" || fail "outliers CSV header: $(head -1 "$D/out.csv")"
# the first k rows are exactly the planted ranks
first=$(sed -n "2,$((k + 1))p" "$D/out.csv" | cut -d, -f1 | sort -n | tr '\n' ' ')
[ "$first" = "$planted" ] && pass "planted ranks listed first ($first)" ||
	fail "first outliers '$first', planted '$planted'"
rows=$(($(wc -l < "$D/out.csv") - 1))
[ "$rows" -eq "$k" ] && pass "no other rank listed" || fail "$rows outliers for $k planted"
# every listed rank says why
awk -F, 'NR > 1 && $0 !~ / vs median / { bad = 1 } END { exit bad }' "$D/out.csv" &&
	pass "each outlier has a reason" || fail "an outlier without a reason"
# the causes the generator planted, when it planted all three (from 16 ranks)
if [ "$k" -ge 3 ]; then
	grep -q 'mostly host wait' "$D/out.csv" && pass "host straggler explained" ||
		fail "no host-wait reason"
	grep -q 'slow GPU' "$D/out.csv" && pass "slow GPU explained" || fail "no slow GPU reason"
	grep -q 'slow link' "$D/out.csv" && pass "slow link explained" || fail "no slow link reason"
fi

# distributions instead of 64 rows
"$TRACETOP" report outliers -q -f csv --table rank_distributions "$D/job" > "$D/dist.csv" ||
	fail "rank_distributions"
drows=$(($(wc -l < "$D/dist.csv") - 1))
[ "$drows" -eq 7 ] && pass "seven metric distributions" || fail "$drows distribution rows"
grep -q '^idle_pctg,64,' "$D/dist.csv" && pass "idle over 64 ranks" ||
	fail "no idle row: $(cat "$D/dist.csv")"
# and every rank on demand
"$TRACETOP" report outliers -q -f csv --table rank_metrics "$D/job" > "$D/all.csv"
[ "$(($(wc -l < "$D/all.csv") - 1))" -eq 64 ] && pass "rank_metrics lists 64 ranks" ||
	fail "rank_metrics rows"
# the text report fits the distributions in a few lines
"$TRACETOP" report outliers -q --width 200 "$D/job" > "$D/out.txt" || fail "text report"
[ "$(wc -l < "$D/out.txt")" -lt 30 ] && pass "text report is short" ||
	fail "text report has $(wc -l < "$D/out.txt") lines"
# a subset of ranks: only the planted host straggler (rank 5) among 0-7
"$TRACETOP" report outliers -q -f csv --table outliers --ranks 0-7 "$D/job" > "$D/sub.csv"
[ "$(sed -n 2p "$D/sub.csv" | cut -d, -f1)" = 5 ] && pass "ranks 0-7: rank 5" ||
	fail "ranks 0-7: $(sed -n 2p "$D/sub.csv")"

# The heatmap headless at 80x24: the Overview turns into the heatmap when
# the ranks do not fit as rows (64 ranks, 24 rows).
"$TRACETOP" --headless --size 80x24 --keys '' -q "$D/job" > "$D/screen" 2>"$D/err"
rc=$?
check_rc "headless" 0 $rc && pass "headless at 80x24 runs"
if grep -q '\.:-=+\*#%@' "$D/screen"; then
	grep -q 'on 8 nodes' "$D/screen" && pass "heatmap by node" || fail "heatmap layout"
	"$TRACETOP" --headless --size 80x24 --keys 'mmmmmm' -q "$D/job" > "$D/screen2"
	grep -q 'outlier' "$D/screen2" && pass "heatmap lists outliers" ||
		fail "no outlier line: $(cat "$D/screen2")"
else
	fail "64 ranks at 80x24: the Overview is not the heatmap: $(head -n 5 "$D/screen")"
fi
summary
