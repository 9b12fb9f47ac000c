#!/bin/sh
# Remote reads on many loader threads at once: each CLI child is started
# with its own pipe as standard output and no other pipe of tracetop's (a
# child holding a sibling's write end keeps that reader from its end of
# file until the child exits).  The stand-in aws records the descriptors it
# was started with; the run is repeated, since the leak needs two threads
# to spawn at the same moment.
. "${SRCDIR:-.}/tests/lib.sh"
[ -d /proc/self/fd ] || { echo "skip: no /proc"; exit 77; }
command -v find >/dev/null 2>&1 || { echo "skip: no find"; exit 77; }
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
mkdir "$D/bin" "$D/store" "$D/fds"
"$TRACETOP" demo-trace -q -o "$D/store" --ranks 1 --steps 1 --layers 2 --gzip || exit 99
cat > "$D/bin/aws" <<'SH'
#!/bin/sh
# the descriptors this process was started with (find writes the file
# itself: the shell opens nothing)
find /proc/$$/fd -mindepth 1 -fprintf "$FDS/$$" '%f %l\n'
exec cat "$STORE/rank-0.pt.trace.json.gz"
SH
chmod +x "$D/bin/aws"
export STORE="$D/store" FDS="$D/fds"
urls=
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	urls="$urls s3://b/t$i/rank-0.pt.trace.json.gz"
done
# the pipes this test itself was started with are not tracetop's
for fd in /proc/$$/fd/*; do readlink "$fd"; done >"$D/own" 2>/dev/null
leaks=0
for run in 1 2 3 4; do
	rm -f "$FDS"/*
	# shellcheck disable=SC2086
	PATH="$D/bin:/usr/bin:/bin" "$TRACETOP" report summary -q -f csv -j 16 $urls >"$D/out" 2>"$D/err"
	check_rc "16 objects on 16 threads (run $run)" 0 $? || break
	[ "$(tail -n +2 "$D/out" | wc -l)" = 16 ] ||
		{ fail "run $run: not 16 ranks: $(head -c 300 "$D/err")"; break; }
	n=$(for f in "$FDS"/*; do
		awk -v own="$D/own" 'BEGIN { while ((getline l < own) > 0) o[l] = 1 }
			$1 == "1" { out = $2 } { fd[$1] = $2 }
			END { for (k in fd) if (fd[k] ~ /^pipe:/ && fd[k] != out && !(fd[k] in o)) print }' "$f"
	done | wc -l)
	leaks=$((leaks + n))
done
[ "$(ls "$FDS" | wc -l)" -gt 0 ] && pass "the stand-in recorded its descriptors" ||
	fail "no record from the stand-in (is the check broken?)"
[ "$leaks" -eq 0 ] && pass "no child held another child's pipe (4 runs of 16)" ||
	fail "$leaks pipe ends of other children inherited"
summary
