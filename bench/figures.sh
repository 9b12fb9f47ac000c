#!/bin/sh
# Every figure tracetop reports, to check that a change leaves them alone:
# each report of `tracetop report --list` (range over a window) in CSV and
# JSON, on every trace set of ../shared/traces, on the demo job and on the
# bench trace; diff on the pairs of traces; critical-path also with
# --model hta where the build has it.  Each output (with its stderr and
# exit status) goes to its own file, so that two captures compare with
# diff -r.
#
#   figures.sh capture TRACETOP OUTDIR [BENCH_TRACE]
#   figures.sh compare DIR_A DIR_B
#   figures.sh against REV [BENCH_TRACE]
#
# `against REV` builds REV (a commit; main, say) in a temporary worktree,
# captures with it and with ./tracetop, compares, and says "N outputs,
# byte-identical" or lists the differences (status 1).  The bench trace is
# bench/out/big.json by default (make bench builds it); it is skipped when
# absent.  Run from the top of a configured and built tree.
set -u
SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
SHARED=${SHARED:-$SRCDIR/../shared}
export LC_ALL=C TZ=UTC

capture() { # TRACETOP OUTDIR [BENCH_TRACE]
	tt=$1
	out=$2
	big=${3:-$SRCDIR/bench/out/big.json}
	mkdir -p "$out"
	reports=$("$tt" report --list | awk '{ print $1 }')
	# the sets: name and paths
	sets=""
	for d in "$SHARED"/traces/*/; do
		[ -d "$d" ] && sets="$sets $(basename "$d")"
	done
	one() { # NAME REPORT ARGS...: one output, its stderr and status
		name=$1
		shift
		"$tt" report "$@" > "$out/$name.out" 2> "$out/$name.err"
		echo "$?" > "$out/$name.rc"
	}
	hta=
	if "$tt" report critical-path --model hta --demo > /dev/null 2>&1; then
		hta=1
	fi
	for set in $sets demo big; do
		case $set in
		demo) src="--demo" ;;
		big) [ -f "$big" ] || continue
		     src="--no-cache $big" ;;
		*) src="--no-cache $SHARED/traces/$set" ;;
		esac
		for r in $reports; do
			for f in csv json; do
				case $r in
				diff) continue ;;
				range) # shellcheck disable=SC2086
					one "$set.$r.$f" "$r" -q -f "$f" --from 1ms --to 40ms $src ;;
				*) # shellcheck disable=SC2086
				   one "$set.$r.$f" "$r" -q -f "$f" $src ;;
				esac
			done
		done
		if [ -n "$hta" ]; then
			for f in csv json; do
				# shellcheck disable=SC2086
				one "$set.critical-path-hta.$f" critical-path -q -f "$f" --model hta $src
			done
		fi
	done
	# the diffs: the pairs the shared traces hold, and the demo with its
	# regressed run
	for f in csv json; do
		one "diff.control-test.$f" diff -q -f "$f" --no-cache \
			"$SHARED/traces/diff-control" "$SHARED/traces/diff-test"
		one "diff.compare.$f" diff -q -f "$f" --no-cache \
			"$SHARED/traces/compare-base" "$SHARED/traces/compare-test"
		one "diff.demo.$f" diff -q -f "$f" --demo
	done
	ls "$out" | grep -c '\.out$'
}

compare() { # DIR_A DIR_B
	n=$(ls "$1" | grep -c '\.out$')
	if diff -r -q "$1" "$2" > /dev/null; then
		echo "figures: $n outputs (CSV and JSON, with stderr and status), byte-identical"
		return 0
	fi
	echo "figures: outputs that differ (of $n):"
	diff -r -q "$1" "$2" | sed 's/^/  /'
	return 1
}

case ${1:-} in
capture)
	[ $# -ge 3 ] || { echo "usage: figures.sh capture TRACETOP OUTDIR [BENCH_TRACE]" >&2; exit 2; }
	capture "$2" "$3" "${4:-}" > /dev/null
	;;
compare)
	[ $# -eq 3 ] || { echo "usage: figures.sh compare DIR_A DIR_B" >&2; exit 2; }
	compare "$2" "$3"
	;;
against)
	[ $# -ge 2 ] || { echo "usage: figures.sh against REV [BENCH_TRACE]" >&2; exit 2; }
	rev=$2
	tmp=$(mktemp -d)
	trap 'git -C "$SRCDIR" worktree remove --force "$tmp/src" > /dev/null 2>&1; rm -rf "$tmp"' EXIT
	echo "figures: building $rev in $tmp/src"
	git -C "$SRCDIR" worktree add --detach -q "$tmp/src" "$rev" || exit 2
	(cd "$tmp/src" && autoreconf -fi > /dev/null 2>&1 && ./configure -q > /dev/null &&
		make -j"$(nproc 2>/dev/null || echo 2)" tracetop > /dev/null 2>&1) ||
		{ echo "figures: $rev does not build" >&2; exit 2; }
	echo "figures: capturing with $rev and with this tree"
	capture "$tmp/src/tracetop" "$tmp/a" "${3:-}" > /dev/null
	capture "$SRCDIR/tracetop" "$tmp/b" "${3:-}" > /dev/null
	compare "$tmp/a" "$tmp/b"
	;;
*)
	echo "usage: figures.sh capture TRACETOP OUTDIR [BENCH_TRACE] | compare DIR_A DIR_B | against REV [BENCH_TRACE]" >&2
	exit 2
	;;
esac
