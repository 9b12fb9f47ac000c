# Helpers for the tests that drive tracetop in tmux (sourced after lib.sh).
# Skips (77) without tmux.  Every wait polls capture-pane until the text
# shows; none sleeps a fixed time.  Sets tt (tracetop's absolute path), T
# (tmux on a socket of this test's own), tmp and HOME.
command -v tmux >/dev/null 2>&1 || { echo "skip: no tmux"; exit 77; }
[ -x "$TRACETOP" ] || { echo "no binary: $TRACETOP"; exit 99; }
case $TRACETOP in /*) tt=$TRACETOP ;; *) tt=$(pwd)/$TRACETOP ;; esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-tmux.XXXXXX") || exit 99
sock=tt$$
T="tmux -L $sock -f /dev/null"
cleanup() {
	$T kill-server 2>/dev/null
	# a killed server may leave its socket behind
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 99' INT TERM
HOME=$tmp/home
mkdir -p "$HOME"
export HOME
# a session that lives as long as the test: killing the last session of a
# size stops the server, and a new session started while it shuts down
# fails ("server exited unexpectedly")
$T new-session -d -s keep -x 80 -y 24 "exec cat" || exit 99
unset TRACETOP_KEYMAP TRACETOP_THEME TRACETOP_THEMES NO_COLOR TMUX
env_tt="env TERM=xterm-256color LC_ALL=C.UTF-8 $tt"

# start NAME W H COMMAND: a session running COMMAND in sh; when tracetop
# ends, the shell says "tracetop exited N" and keeps the pane open
start() {
	$T new-session -d -s "$1" -x "$2" -y "$3" \
		"sh -c '$4; echo \"tracetop exited \$?\"; exec cat'" || exit 99
}
cap() { $T capture-pane -p -t "$1"; }
# screen NAME: the screen, indented, after a line saying what was awaited
screen() {
	echo "    ($1; the screen:)"
	cap "$2" | sed 's/^/    | /'
}
# wait_for NAME TEXT [SECONDS]: poll the screen until TEXT shows
wait_for() {
	n=0 lim=$((${3:-15} * 20))
	while [ $n -lt $lim ]; do
		cap "$1" | grep -qF -- "$2" && return 0
		sleep 0.05
		n=$((n + 1))
	done
	screen "timed out waiting for '$2'" "$1"
	return 1
}
# wait_re NAME REGEX [SECONDS]: ... until a line matches REGEX
wait_re() {
	n=0 lim=$((${3:-15} * 20))
	while [ $n -lt $lim ]; do
		cap "$1" | grep -qE -- "$2" && return 0
		sleep 0.05
		n=$((n + 1))
	done
	screen "timed out waiting for /$2/" "$1"
	return 1
}
# wait_row NAME ROW REGEX [SECONDS]: ... until row ROW (from 1) matches
wait_row() {
	n=0 lim=$((${4:-15} * 20))
	while [ $n -lt $lim ]; do
		cap "$1" | sed -n "$2p" | grep -qE -- "$3" && return 0
		sleep 0.05
		n=$((n + 1))
	done
	screen "timed out waiting for row $2 ~ /$3/" "$1"
	return 1
}
# wait_gone NAME TEXT: ... until TEXT is no longer on the screen
wait_gone() {
	n=0
	while [ $n -lt 300 ]; do
		cap "$1" | grep -qF -- "$2" || return 0
		sleep 0.05
		n=$((n + 1))
	done
	screen "timed out waiting for '$2' to go" "$1"
	return 1
}
# check NAME COMMAND...: pass when COMMAND succeeds
check() {
	name=$1
	shift
	if "$@"; then pass "$name"; else fail "$name"; fi
}
