#!/usr/bin/env python3
"""Writes small OSM PBF seed files for the pbf fuzzer (made here; no OSM data is copied).

    make_seeds.py OUTPUT_DIR
"""
import os
import sys
import zlib


def varint(value):
    out = bytearray()
    value &= (1 << 64) - 1
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def zigzag(value):
    return (value << 1) ^ (value >> 63)


def key(field, wire):
    return varint(field << 3 | wire)


def field_bytes(field, data):
    return key(field, 2) + varint(len(data)) + data


def field_int(field, value):
    return key(field, 0) + varint(value)


def packed(field, values, signed=False):
    return field_bytes(field, b"".join(varint(zigzag(v) if signed else v) for v in values))


def deltas(values):
    previous, out = 0, []
    for value in values:
        out.append(value - previous)
        previous = value
    return out


def blob(kind, block, compress):
    if compress:
        body = field_int(2, len(block)) + field_bytes(3, zlib.compress(block))
    else:
        body = field_bytes(1, block)
    header = field_bytes(1, kind.encode()) + field_int(3, len(body))
    return len(header).to_bytes(4, "big") + header + body


def header_block():
    return field_bytes(4, b"OsmSchema-V0.6") + field_bytes(4, b"DenseNodes") + field_bytes(16, b"seed")


def data_block():
    strings = [b"", b"highway", b"residential", b"name", b"A", b"B", b"type", b"multipolygon", b"outer", b"leisure", b"park"]
    table = b"".join(field_bytes(1, s) for s in strings)
    ids = [1, 2, 3, 4, 5]
    lats = [601700000, 601701000, 601702000, 601701000, 601700000]
    lons = [249400000, 249401000, 249400000, 249399000, 249400000]
    dense = packed(1, deltas(ids), True) + packed(8, deltas(lats), True) + packed(9, deltas(lons), True)
    way_a = field_int(1, 10) + packed(2, [1, 3]) + packed(3, [2, 4]) + packed(8, deltas([1, 2, 3]), True)
    way_b = field_int(1, 11) + packed(2, [1, 3]) + packed(3, [2, 5]) + packed(8, deltas([4, 2, 5]), True)
    ring = field_int(1, 12) + packed(8, deltas([1, 2, 3, 4, 1]), True)
    relation = (field_int(1, 20) + packed(2, [6, 9, 3]) + packed(3, [7, 10, 4]) + packed(8, [8])
                + packed(9, deltas([12]), True) + packed(10, [1]))
    group = field_bytes(2, dense) + field_bytes(3, way_a) + field_bytes(3, way_b) + field_bytes(3, ring) + field_bytes(4, relation)
    return field_bytes(1, table) + field_bytes(2, group)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for name, compress in (("seed-raw.osm.pbf", False), ("seed-zlib.osm.pbf", True)):
        with open(os.path.join(out, name), "wb") as handle:
            handle.write(blob("OSMHeader", header_block(), compress) + blob("OSMData", data_block(), compress))


if __name__ == "__main__":
    main()
