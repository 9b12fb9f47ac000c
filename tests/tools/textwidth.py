#!/usr/bin/env python3
"""Text reports fit their width.

  textwidth.py WIDTH FILE   lines of FILE (UTF-8) wider than WIDTH display
                            columns (wide characters count 2), one per line
                            ("LINE: COLUMNS: text"); exit 1 when there is any
  textwidth.py --max FILE   the widest line's columns
"""
import sys
import unicodedata


def width(s):
    w = 0
    for c in s:
        if unicodedata.combining(c):
            continue
        w += 2 if unicodedata.east_asian_width(c) in "WF" else 1
    return w


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    lines = open(sys.argv[2], encoding="utf-8", errors="replace").read().split("\n")
    if sys.argv[1] == "--max":
        print(max((width(l) for l in lines), default=0))
        return 0
    lim = int(sys.argv[1])
    bad = 0
    for i, l in enumerate(lines, 1):
        if width(l) > lim:
            bad += 1
            if bad <= 5:
                print(f"{i}: {width(l)}: {l[:100]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
