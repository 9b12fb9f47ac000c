#!/usr/bin/env python3
"""Forge .tts caches for tests: change one field, recompute the checksum.

  tts.py event IN OUT MATCH FIELD VALUE
      the first event whose flags contain every bit of MATCH (MATCH 0: the
      first event without a side-table flag) gets FIELD (ts, dur, name, corr,
      ext, aux, cat, ph, flags, track) set to VALUE (ints: 0x.. allowed)
  tts.py sum IN OUT        the checksum recomputed (after other edits)

The layout is src/model/cache.c's: a 72-byte header, a table of 32-byte
sections {id, pad, count, offset, size}, the checksum (sum64) of everything
after the header at byte 56."""
import struct
import sys

HDR, SEC, M = 72, 32, (1 << 64) - 1
S_EVENTS = 9
EVENT = struct.Struct('<qqIIIIHBBI')  # struct tt_event, 40 bytes
FIELDS = ['ts', 'dur', 'name', 'corr', 'ext', 'aux', 'cat', 'ph', 'flags', 'track']
INFO = 0x04 | 0x08 | 0x10 | 0x20 | 0x80  # TT_EF_KINFO | MINFO | OPINFO | MEMEV | SYNCINFO


def sum64(p):
    k1, k2 = 0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F
    lane = [(k1 * (i + 1)) & M for i in range(4)]
    n = len(p)
    p = bytes(p) + bytes(32 - n % 32)
    for o in range(0, len(p), 32):
        for i in range(4):
            w = struct.unpack_from('<Q', p, o + 8 * i)[0]
            x = lane[i] ^ ((w * k2) & M)
            x = ((x << 31) | (x >> 33)) & M
            lane[i] = (x * k1) & M
    h = (n * k1) & M
    for i in range(4):
        h ^= lane[i]
        h = ((((h << 27) | (h >> 37)) & M) * k2) & M
    return h ^ (h >> 33)


def section(b, sid):
    for i in range(struct.unpack_from('<I', b, 48)[0]):
        s = struct.unpack_from('<IIQQQ', b, HDR + SEC * i)
        if s[0] == sid:
            return s[2], s[3]  # count, offset
    sys.exit('tts.py: no section %d' % sid)


def save(b, path):
    assert struct.unpack_from('<I', b, 16)[0] == 6, 'a .tts version tts.py does not know'
    struct.pack_into('<Q', b, 56, sum64(b[HDR:]))
    open(path, 'wb').write(b)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    b = bytearray(open(argv[1], 'rb').read())
    if argv[0] == 'sum':
        save(b, argv[2])
        return
    if argv[0] != 'event' or len(argv) != 6:
        sys.exit(__doc__)
    match, field, value = int(argv[3], 0), argv[4], int(argv[5], 0)
    count, off = section(b, S_EVENTS)
    for i in range(count):
        e = list(EVENT.unpack_from(b, off + EVENT.size * i))
        flags = e[FIELDS.index('flags')]
        if (match and flags & match == match) or (not match and not flags & INFO):
            e[FIELDS.index(field)] = value
            EVENT.pack_into(b, off + EVENT.size * i, *e)
            save(b, argv[2])
            return
    sys.exit('tts.py: no event with flags 0x%x' % match)


if __name__ == '__main__':
    main(sys.argv[1:])
