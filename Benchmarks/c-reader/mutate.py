#!/usr/bin/env python3
"""mutate.py GMAP GMAP_REF MAP [ITERATIONS] [SEED] [SECTIONS]

Damages MAP many times and checks that gmap_ref answers every damaged copy exactly as gmap does:
each iteration overwrites 1 to 4 random bytes of one of SECTIONS (default GRID,TILE; e.g.
GRID,TILE,FEAT,PROP,LAYR,STRS,META; HEAD is the header and the section table), writes the copy, and runs `gmap query COPY - [--all]` and
`gmap_ref COPY [--all]` on 3,500 points of the first layer's grid (3,000 anywhere in it, 500 at
whole units). A copy both refuse counts as refused; any other difference in standard output
(answers, or one reader refusing what the other opens) is printed and makes the exit status 1.
The copy is written as mutate-ITERATION.gmap in the current directory when they differ.
"""
import random
import struct
import subprocess
import sys


def sections(data):
    header_length, count = struct.unpack_from('<II', data, 12)
    for i in range(count):
        entry = header_length + 32 * i
        offset, length = struct.unpack_from('<QQ', data, entry + 8)
        yield bytes(data[entry:entry + 4]), offset, length


def main():
    if len(sys.argv) < 4:
        print(__doc__.strip().splitlines()[0], file=sys.stderr)
        return 2
    gmap, ref, path = sys.argv[1:4]
    iterations = int(sys.argv[4]) if len(sys.argv) > 4 else 200
    random.seed(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
    targets = [t.encode() for t in (sys.argv[6] if len(sys.argv) > 6 else 'GRID,TILE').split(',')]
    original = open(path, 'rb').read()
    table = {tag: (offset, length) for tag, offset, length in sections(original)}
    header_length, count = struct.unpack_from('<II', original, 12)
    table[b'HEAD'] = (0, header_length + 32 * count)
    grid_offset = table[b'GRID'][0]
    ox, oy, tw, th, columns, rows = struct.unpack_from('<iiIIII', original, grid_offset)
    units = struct.unpack_from('<I', original, 20)[0]
    points = []
    for _ in range(3000):
        x = (ox + random.random() * columns * tw) / units
        y = (oy + random.random() * rows * th) / units
        points.append('%.9f %.9f' % (min(y, 90), min(x, 180)))
    for _ in range(500):
        x = ox + random.randrange(columns * tw)
        y = oy + random.randrange(rows * th)
        points.append('%.7f %.7f' % (min(y / units, 90), min(x / units, 180)))
    text = ('\n'.join(points) + '\n').encode()
    opened = refused = differing = 0
    for iteration in range(iterations):
        copy = bytearray(original)
        tag = random.choice([t for t in targets if t in table and table[t][1] > 0])
        offset, length = table[tag]
        for _ in range(random.randint(1, 4)):
            copy[offset + random.randrange(length)] = random.randrange(256)
        name = 'mutate-copy.gmap'
        open(name, 'wb').write(copy)
        for mode in (['--all'], []):
            a = subprocess.run([gmap, 'query', name, '-'] + mode, input=text, capture_output=True)
            b = subprocess.run([ref, name] + mode, input=text, capture_output=True)
            if a.returncode == 2 and b.returncode == 2 and not a.stdout.strip() and not b.stdout.strip():
                refused += mode == ['--all']
                continue
            opened += mode == ['--all']
            if a.stdout != b.stdout:
                differing += 1
                lines = [(p, x, y) for p, x, y in zip(points, a.stdout.split(b'\n'), b.stdout.split(b'\n')) if x != y]
                print('iteration %d, %s damaged, %s: %d lines differ, e.g. %s; gmap says %r, gmap_ref %r' % (
                    iteration, tag.decode(), ' '.join(mode) or 'smallest', len(lines), lines[:2],
                    a.stderr[:120], b.stderr[:120]))
                open('mutate-%d.gmap' % iteration, 'wb').write(copy)
    print('%d damaged copies of %s (%s): %d opened, %d refused by both, %d answers that differ' % (
        iterations, path, ','.join(t.decode() for t in targets), opened, refused, differing))
    return 1 if differing else 0


if __name__ == '__main__':
    sys.exit(main())
