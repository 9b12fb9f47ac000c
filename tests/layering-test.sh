#!/bin/sh
# Rooms: cJSON only under src/json, curses and termkey only under src/tui.
# From the includes, and from the object files' symbols (nm): curses and
# termkey only in term.c's object, the core never calls the TUI, and the
# src/tui object files call one way (app -> help, views -> registry ->
# panes -> pane.c; src/tui/pane.h states the rule) with no cycle.  The
# core's rooms call one way too (each room only the rooms listed for it
# below), zlib only from src/io and cJSON only from src/json.
. "${SRCDIR:-.}/tests/lib.sh"
B=${TRACETOP_BUILDDIR:-.}
cd "$SRCDIR" || exit 99
bad=$(grep -rlE '#include <cjson/cJSON.h>|#include <cJSON.h>' src include | grep -v '^src/json/')
[ -z "$bad" ] && pass "cJSON only in src/json" || fail "cJSON included outside src/json: $bad"
bad=$(grep -rlE '#include <(n?curses|ncursesw/curses|termkey)\.h>' src include | grep -v '^src/tui/')
[ -z "$bad" ] && pass "curses and termkey only in src/tui" || fail "curses/termkey outside src/tui: $bad"
# the core library links without curses: no curses symbol is undefined in it
if command -v nm >/dev/null && [ -f "$B/libttcore.a" ]; then
	bad=$(nm -u "$B/libttcore.a" 2>/dev/null | grep -E ' U (initscr|newterm|wrefresh|termkey_)' | head -3)
	[ -z "$bad" ] && pass "libttcore.a needs no curses" || fail "libttcore.a uses curses: $bad"
fi
# analyses and the model never print
bad=$(grep -lE '\b(printf|fprintf|puts|fputs)\(' src/analysis/*.c src/model/*.c 2>/dev/null)
[ -z "$bad" ] && pass "analysis and model do not print" || fail "printing in: $bad"

# ---- from the symbols of the object files ----

# (0) the core's rooms: what each room's objects may call
if command -v nm >/dev/null && [ -f "$B/libttcore.a" ]; then
	rtmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-rooms.XXXXXX") || exit 99
	# "room symbol" defined, "room object symbol" needed; objects of the
	# current sources only (a build tree may keep objects of removed ones)
	for room in base io json model analysis render report demo; do
		for c in src/$room/*.c; do
			[ -f "$c" ] || continue
			o=$B/src/$room/libttcore_a-$(basename "$c" .c).o
			[ -f "$o" ] || continue
			nm -g --defined-only "$o" | awk -v r=$room '{ print r, $NF }' >>"$rtmp/defs"
			nm -u "$o" | awk -v r=$room -v o="${c#src/}" '{ print r, o, $NF }' >>"$rtmp/refs"
		done
	done
	awk 'NR == FNR { def[$2] = $1; next } ($3 in def) && def[$3] != $1 { print $1, def[$3], $2, $3 }' \
		"$rtmp/defs" "$rtmp/refs" | sort -u >"$rtmp/calls"
	# the direction: io -> json -> model -> analysis -> render -> report,
	# base under all; report writes traces through io, the demo generator
	# writes files through io and loads through model
	allowed() {
		case $1 in
		base) echo "" ;;
		io) echo "base" ;;
		json) echo "base io" ;;
		model) echo "base io json" ;;
		analysis) echo "base model" ;;
		render) echo "base" ;;
		report) echo "base io model analysis render" ;;
		demo) echo "base io model" ;;
		esac
	}
	: >"$rtmp/bad"
	while read -r from to obj sym; do
		case " $(allowed "$from") " in
		*" $to "*) ;;
		*) echo "$obj calls $to's $sym" >>"$rtmp/bad" ;;
		esac
	done <"$rtmp/calls"
	n=$(wc -l <"$rtmp/calls")
	[ "$n" -gt 100 ] && grep -q '^report analysis ' "$rtmp/calls" &&
		pass "calls between the core's rooms seen ($n)" ||
		fail "too few calls between rooms seen ($n): is the check broken?"
	bad=$(head -5 "$rtmp/bad" | tr '\n' ';')
	[ -z "$bad" ] && pass "the core's rooms call one way (io -> json -> model -> analysis -> render -> report)" ||
		fail "calls against the rooms: $bad"
	# libraries: zlib only from io, cJSON only from json (the symbols their
	# shared libraries define)
	lib_users() { # LIBNAME: "room object" lines that call it
		so=$(ldd "$TRACETOP" 2>/dev/null | awk -v l="$1" '$1 ~ l && $3 ~ /^\// { print $3 }')
		[ -n "$so" ] || return 1
		nm -D --defined-only "$so" 2>/dev/null | awk '{ print $NF }' | sort -u >"$rtmp/lib"
		[ -s "$rtmp/lib" ] || return 1
		awk 'NR == FNR { l[$1] = 1; next } ($3 in l) { print $1, $2 }' "$rtmp/lib" "$rtmp/refs" | sort -u
	}
	for lib in libz:io libcjson:json; do
		if users=$(lib_users "${lib%%:*}"); then
			echo "$users" | grep -q "^${lib#*:} " &&
				pass "${lib%%:*} is used (from src/${lib#*:})" ||
				fail "no call into ${lib%%:*} seen (is the check broken?)"
			bad=$(echo "$users" | grep -v "^${lib#*:} " | awk '{ print $2 }' | tr '\n' ' ')
			[ -z "$bad" ] && pass "${lib%%:*} only from src/${lib#*:}" ||
				fail "${lib%%:*} used outside src/${lib#*:}: $bad"
		else
			echo "${lib%%:*}: shared library not found, check skipped"
		fi
	done
	rm -rf "$rtmp"
fi

term=$B/src/tui/tracetop-term.o
if ! command -v nm >/dev/null || [ ! -f "$B/libttui.a" ] || [ ! -f "$term" ]; then
	echo "no nm or no objects: symbol checks skipped"
	summary
	exit $?
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tt-layering.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT INT TERM
# "object symbol" lines: what each object defines and what it needs
{
	nm -A -g --defined-only "$B/libttui.a"
	nm -A -g --defined-only "$term"
} 2>/dev/null | awk '{ n = split($1, p, ":"); o = p[n - 1]; sub(/.*\//, "", o); print o, $NF }' >"$tmp/defs"
{
	nm -A -u "$B/libttui.a"
	nm -A -u "$term"
} 2>/dev/null | awk '{ n = split($1, p, ":"); o = p[n - 1]; sub(/.*\//, "", o); print o, $NF }' >"$tmp/refs"

# (a) curses and termkey: the symbols their shared libraries define, else
# the best-known names; referenced by term.c's object only
libs=$(ldd "$TRACETOP" 2>/dev/null | awk '/curses|tinfo|termkey/ && $3 ~ /^\// { print $3 }')
: >"$tmp/curses"
for l in $libs; do
	nm -D --defined-only "$l" 2>/dev/null | awk '{ print $NF }' >>"$tmp/curses"
done
[ -s "$tmp/curses" ] || printf '%s\n' initscr newterm endwin wrefresh wnoutrefresh doupdate \
	start_color init_pair use_default_colors resizeterm termkey_new termkey_getkey \
	termkey_destroy termkey_strfkey >"$tmp/curses"
sort -u "$tmp/curses" -o "$tmp/curses"
awk 'NR == FNR { c[$1] = 1; next } ($2 in c) { print }' "$tmp/curses" "$tmp/refs" >"$tmp/uses"
n=$(grep -c '^tracetop-term\.o ' "$tmp/uses")
[ "$n" -gt 0 ] && pass "term.c's object uses curses/termkey ($n symbols)" ||
	fail "no curses symbol found in term.c's object (is the check broken?)"
bad=$(grep -v '^tracetop-term\.o ' "$tmp/uses" | head -5)
[ -z "$bad" ] && pass "curses/termkey symbols only in term.c's object" ||
	fail "curses/termkey used outside term.c: $bad"
bad=$(nm -u "$B/libttcore.a" 2>/dev/null | awk 'NR == FNR { c[$1] = 1; next } ($NF in c) { print $NF }' "$tmp/curses" - | sort -u | head -5)
[ -z "$bad" ] && pass "the core references no curses/termkey symbol" || fail "core uses curses: $bad"

# (b) the calls between src/tui objects: "from to" edges
awk 'NR == FNR { def[$2] = $1; next } ($2 in def) && def[$2] != $1 { print $1, def[$2] }' \
	"$tmp/defs" "$tmp/refs" | sort -u >"$tmp/edges"
for e in 'app.o registry.o' 'registry.o overview.o' 'overview.o pane.o' 'tracetop-term.o app.o'; do
	grep -qx "$e" "$tmp/edges" && pass "call seen: ${e% *} -> ${e#* }" ||
		fail "expected call ${e% *} -> ${e#* } not seen (is the check broken?)"
done
# levels: a call goes to a lower level; pane files (level 2) may call each
# other (the drill-downs) as long as there is no cycle
awk '
function level(o) {
	if (o == "tracetop-term.o" || o == "headless.o") return 6
	if (o == "app.o") return 5
	if (o == "help.o" || o == "views.o") return 4
	if (o == "registry.o") return 3
	if (o == "pane.o") return 1
	return 2
}
{ if (level($1) < level($2) || (level($1) == level($2) && level($1) != 2)) print $1 " -> " $2 }
' "$tmp/edges" >"$tmp/up"
bad=$(head -5 "$tmp/up" | tr '\n' ' ')
[ -z "$bad" ] && pass "src/tui calls go one way (app -> registry -> panes -> pane.c)" ||
	fail "src/tui calls against the direction: $bad"
# cycles: an object that reaches itself
cyc=$(awk '
{ n[$1] = 1; n[$2] = 1; r[$1, $2] = 1 }
END {
	for (k in n) for (i in n) if ((i, k) in r) for (j in n) if ((k, j) in r) r[i, j] = 1
	for (i in n) if ((i, i) in r) print i
}' "$tmp/edges" | sort | tr '\n' ' ')
[ -z "$cyc" ] && pass "no call cycle among the src/tui objects" || fail "call cycle through: $cyc"

# (c) the core never calls the TUI
awk '{ print $2 }' "$tmp/defs" | sort -u >"$tmp/tuisyms"
bad=$(nm -u "$B/libttcore.a" 2>/dev/null | awk 'NR == FNR { t[$1] = 1; next } ($NF in t) { print $NF }' "$tmp/tuisyms" - | sort -u | head -5)
[ -s "$tmp/tuisyms" ] && [ -z "$bad" ] && pass "the core references no TUI symbol" ||
	fail "the core calls the TUI: $bad"

# (d) the public headers hold what the program uses: a function the program
# exports and calls from no other of its files, only from a unit test, is
# declared in include/tracetop/testing.h, and none declared there is called
# from another file of the program (it belongs in its room's header then)
if command -v nm >/dev/null && [ -f "$B/libttcore.a" ] && [ -f "$B/libttui.a" ] &&
	ls "$B"/tests/unit/*.o >/dev/null 2>&1; then
	prog="$B/libttcore.a $B/libttui.a $(ls "$B"/src/tracetop-*.o "$B"/src/tui/tracetop-*.o 2>/dev/null)"
	# shellcheck disable=SC2086
	nm -g --defined-only $prog 2>/dev/null | awk '$2 == "T" { print $3 }' | sort -u >"$tmp/exported"
	# shellcheck disable=SC2086
	nm -u $prog 2>/dev/null | awk '{ print $NF }' | sort -u >"$tmp/called"
	nm -u "$B"/tests/unit/*.o 2>/dev/null | awk '{ print $NF }' | sort -u >"$tmp/unitcalls"
	ls "$B"/bench/*.o >/dev/null 2>&1 &&
		nm -u "$B"/bench/*.o 2>/dev/null | awk '{ print $NF }' | sort -u >"$tmp/benchcalls"
	touch "$tmp/benchcalls"
	grep -vE '^[[:space:]]*(/\*|\*)' include/tracetop/testing.h |
		grep -oE '\b(tt|tl)_[a-z0-9_]+\(' | tr -d '(' | sort -u >"$tmp/testing"
	comm -23 "$tmp/exported" "$tmp/called" | comm -12 - "$tmp/unitcalls" |
		comm -23 - "$tmp/benchcalls" >"$tmp/testonly"
	bad=$(comm -23 "$tmp/testonly" "$tmp/testing" | head -5 | tr '\n' ' ')
	[ -z "$bad" ] && pass "$(wc -l <"$tmp/testonly") functions exported for the unit tests" \
		"alone, each declared in testing.h, not in a public header" ||
		fail "exported for the unit tests alone, not in testing.h: $bad"
	bad=$(comm -12 "$tmp/testing" "$tmp/called" | head -5 | tr '\n' ' ')
	[ -s "$tmp/testing" ] && [ -z "$bad" ] &&
		pass "no function of testing.h is called from another file of the program" ||
		fail "testing.h declares what the program calls (move it to its header): $bad"
else
	skipped "the test-only exports: no objects to read (nm, the libraries, tests/unit)"
fi
summary
