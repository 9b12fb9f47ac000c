#!/bin/sh
# Rooms: cJSON only under src/json, curses and termkey only under src/tui.
. "${SRCDIR:-.}/tests/lib.sh"
cd "$SRCDIR" || exit 99
bad=$(grep -rlE '#include <cjson/cJSON.h>|#include <cJSON.h>' src include | grep -v '^src/json/')
[ -z "$bad" ] && pass "cJSON only in src/json" || fail "cJSON included outside src/json: $bad"
bad=$(grep -rlE '#include <(n?curses|ncursesw/curses|termkey)\.h>' src include | grep -v '^src/tui/')
[ -z "$bad" ] && pass "curses and termkey only in src/tui" || fail "curses/termkey outside src/tui: $bad"
# the core library links without curses: no curses symbol is undefined in it
if command -v nm >/dev/null && [ -f "$TRACETOP_BUILDDIR/libttcore.a" ]; then
	bad=$(nm -u "$TRACETOP_BUILDDIR/libttcore.a" 2>/dev/null | grep -E ' U (initscr|newterm|wrefresh|termkey_)' | head -3)
	[ -z "$bad" ] && pass "libttcore.a needs no curses" || fail "libttcore.a uses curses: $bad"
fi
# analyses and the model never print
bad=$(grep -lE '\b(printf|fprintf|puts|fputs)\(' src/analysis/*.c src/model/*.c 2>/dev/null)
[ -z "$bad" ] && pass "analysis and model do not print" || fail "printing in: $bad"
summary
