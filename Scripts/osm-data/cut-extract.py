#!/usr/bin/env python3
"""Cut an OpenStreetMap PBF into a K × K grid of regional extracts with complete ways.

usage: cut-extract.py K IN.osm.pbf OUTDIR [--strategy complete_ways|smart] [--check]
  Writes OUTDIR/<stem>-r<row>c<col>.osm.pbf for each cell of a K × K grid (row 0 south, column 0
  west; <stem> is IN's name without .osm.pbf) and prints a line per region: its path, bytes and
  the counts of nodes, ways and relations written. With --check it reads the regions back and
  checks that every way of the input is in at least one region, that the union of the regions'
  node ids is the input's node ids, that each region holds all the nodes (present in the input)
  of each of its ways, and that each file is sorted and has its cell's box; it exits 1 otherwise.
  With --strategy smart it also checks that each multipolygon relation of a region has all its
  way members (present in the input) in that region. The default strategy is complete_ways.

The grid spans the input's header bounding box, or the box of all node locations when the header
has none. Cells are half-open, [south, north) × [west, east), except the last row and column,
which are closed, so every node in the box is in exactly one cell; a node outside the box goes to
the nearest cell (its row and column are clamped). The cut is done in integer units of 1e-7°
(osmium's), so no node sits on a cell edge by rounding.

Regions are made as `osmium extract --strategy complete_ways` makes them:
  - a node is in the region of its cell;
  - a way is in every region holding at least one of its nodes, and that region's file gets all
    of the way's nodes (those outside the cell too);
  - a relation is in every region holding at least one of its members: a node member lying in
    the cell (as osmium, the extra nodes of complete ways do not count), a way member in the
    region's ways, a relation member in the region's relations (repeated until nothing changes);
    its members are not added beyond that.
With --strategy smart they are made as `osmium extract --strategy smart` makes them: as above,
and then, after the relation step above, each relation in a region whose type tag is
multipolygon or boundary (osmium's default types) is completed: all its way members (present in
the input) are added to the region, with all their nodes; its node members and relation members
are not added, and the added ways bring no further relation in (relations are assigned first).
Geofabrik-style extracts are cut this way, so their multipolygons (areas, boundaries) are whole;
with complete_ways a multipolygon crossing a cell edge keeps only the ways that touch the cell.
Each file's header box is its cell's box. Objects are written as read: the input must be sorted
(nodes, ways, relations, each by id; every PBF from Geofabrik or `osmium sort` is), which the
first pass checks. Two passes over the input: the first assigns regions (a bit mask an object id
in a dict), the second writes. The output is deterministic: the same input and K give the same
bytes (for each strategy).

Needs pyosmium: python3 -m venv venv && venv/bin/pip install osmium==4.3.2
(measured with 4.3.2, Python 3.11). Write the regions outside the repository; never commit them.
"""
import os
import sys

import osmium


def die(message):
    sys.exit(f"cut-extract.py: {message}")


def grid_box(src):
    """The box to cut, in integer units (x = lon, y = lat) of 1e-7°: the header's, else the nodes'."""
    reader = osmium.io.Reader(src, osmium.osm.osm_entity_bits.NOTHING)
    box = reader.header().box()
    reader.close()
    if box.valid():
        bl, tr = box.bottom_left, box.top_right
        return (bl.x, bl.y, tr.x, tr.y), "header"
    west = south = None
    for o in osmium.FileProcessor(src, osmium.osm.NODE):
        loc = o.location
        if not loc.valid():
            continue
        if west is None:
            west, east, south, north = loc.x, loc.x, loc.y, loc.y
        else:
            west, east = min(west, loc.x), max(east, loc.x)
            south, north = min(south, loc.y), max(north, loc.y)
    if west is None:
        die(f"{src}: no header box and no node with a location")
    return (west, south, east, north), "nodes"


class Grid:
    def __init__(self, k, box):
        self.k = k
        self.west, self.south, self.east, self.north = box
        self.width = max(self.east - self.west, 1)
        self.height = max(self.north - self.south, 1)

    def index(self, x, y):
        k = self.k
        col = min(max((x - self.west) * k // self.width, 0), k - 1)
        row = min(max((y - self.south) * k // self.height, 0), k - 1)
        return row * k + col

    def edges(self, i, lo, span):
        # cell i holds u with (u - lo) * k // span == i: from lo + ceil(i * span / k)
        k = self.k
        start = lo + -(-i * span // k)
        end = lo + span if i == k - 1 else lo + -(-(i + 1) * span // k)
        return start, end

    def cell_box(self, cell):
        """(west, south, east, north) in degrees; the east and north edges belong to the next cell."""
        row, col = divmod(cell, self.k)
        w, e = self.edges(col, self.west, self.width)
        s, n = self.edges(row, self.south, self.height)
        return w / 1e7, s / 1e7, e / 1e7, n / 1e7


def bits(mask, cache={}):
    found = cache.get(mask)
    if found is None:
        found, m, i = [], mask, 0
        while m:
            if m & 1:
                found.append(i)
            m >>= 1
            i += 1
        cache[mask] = found
    return found


SMART_TYPES = ("multipolygon", "boundary")


def assign(src, grid, smart=False):
    """Pass 1: the regions (bit masks) of every node, way and relation.

    Smart also returns, per region, how many multipolygon relations it holds and how many of
    them it completed (had at least one way member added)."""
    node_cell = {}       # node id -> bit of its cell
    node_extra = {}      # node id -> regions it joins as a node of a way
    way_mask, rel_mask, rel_children = {}, {}, {}
    way_refs = {}        # smart: way id -> its node ids
    multipolygons = []   # smart: (relation id, its way members)
    outside = invalid = 0
    order = {"n": 0, "w": 1, "r": 2}
    last = (-1, None)
    for o in osmium.FileProcessor(src):
        kind = o.type_str()
        key = (order[kind], o.id)
        if last[1] is not None and key <= last:
            die(f"{src} is not sorted (type, then id) at {kind}{o.id}: sort it with `osmium sort`")
        last = key
        if kind == "n":
            loc = o.location
            if loc.valid():
                x, y = loc.x, loc.y
                if not (grid.west <= x <= grid.east and grid.south <= y <= grid.north):
                    outside += 1
                node_cell[o.id] = 1 << grid.index(x, y)
            else:  # no location: region (0, 0), so that every node is somewhere
                invalid += 1
                node_cell[o.id] = 1
        elif kind == "w":
            refs = [r.ref for r in o.nodes]
            if smart:
                way_refs[o.id] = refs
            mask = 0
            for ref in refs:
                mask |= node_cell.get(ref, 0)
            if mask:
                way_mask[o.id] = mask
                for ref in refs:
                    if ref in node_cell:
                        node_extra[ref] = node_extra.get(ref, 0) | mask
        else:
            mask, children = 0, []
            for m in o.members:
                if m.type == "n":
                    mask |= node_cell.get(m.ref, 0)
                elif m.type == "w":
                    mask |= way_mask.get(m.ref, 0)
                elif m.type == "r":
                    children.append(m.ref)
            rel_mask[o.id] = mask
            if children:
                rel_children[o.id] = children
            if smart and o.tags.get("type") in SMART_TYPES:
                multipolygons.append((o.id, [m.ref for m in o.members if m.type == "w"]))
    # a relation joins every region of its relation members, until nothing changes
    changed = True
    while changed:
        changed = False
        for rid, children in rel_children.items():
            mask = rel_mask[rid]
            for child in children:
                mask |= rel_mask.get(child, 0)
            if mask != rel_mask[rid]:
                rel_mask[rid] = mask
                changed = True
    # smart: complete each multipolygon relation in all its regions (after the relation step)
    mp_count = [0] * (grid.k * grid.k)
    mp_completed = [0] * (grid.k * grid.k)
    for rid, ways in multipolygons:
        mask = rel_mask[rid]
        if not mask:
            continue
        added = 0
        for wid in ways:
            refs = way_refs.get(wid)
            if refs is None:  # not in the input
                continue
            new = mask & ~way_mask.get(wid, 0)
            if not new:
                continue
            added |= new
            way_mask[wid] = way_mask.get(wid, 0) | new
            for ref in refs:
                if ref in node_cell:
                    node_extra[ref] = node_extra.get(ref, 0) | new
        for cell in bits(mask):
            mp_count[cell] += 1
        for cell in bits(added):
            mp_completed[cell] += 1
    rel_mask = {rid: mask for rid, mask in rel_mask.items() if mask}
    return node_cell, node_extra, way_mask, rel_mask, outside, invalid, (mp_count, mp_completed)


def region_path(outdir, stem, k, cell):
    row, col = divmod(cell, k)
    return os.path.join(outdir, f"{stem}-r{row}c{col}.osm.pbf")


def write(src, outdir, stem, grid, node_cell, node_extra, way_mask, rel_mask):
    """Pass 2: every object to the files of its regions, in the input's order."""
    k = grid.k
    writers, counts, paths = [], [], []
    for cell in range(k * k):
        path = region_path(outdir, stem, k, cell)
        if os.path.exists(path):
            os.remove(path)
        header = osmium.io.Header()
        header.set("generator", "cut-extract.py (pyosmium)")
        header.add_box(osmium.osm.Box(*grid.cell_box(cell)))
        writers.append(osmium.SimpleWriter(path, header=header))
        counts.append([0, 0, 0])
        paths.append(path)
    for o in osmium.FileProcessor(src):
        kind = o.type_str()
        if kind == "n":
            mask, slot, add = node_cell[o.id] | node_extra.get(o.id, 0), 0, "add_node"
        elif kind == "w":
            mask, slot, add = way_mask.get(o.id, 0), 1, "add_way"
        else:
            mask, slot, add = rel_mask.get(o.id, 0), 2, "add_relation"
        for cell in bits(mask):
            getattr(writers[cell], add)(o)
            counts[cell][slot] += 1
    for w in writers:
        w.close()
    return paths, counts


def read_ids(path):
    ids = {"n": [], "w": [], "r": []}
    ways, multipolygons = {}, {}
    for o in osmium.FileProcessor(path):
        kind = o.type_str()
        ids[kind].append(o.id)
        if kind == "w":
            ways[o.id] = [r.ref for r in o.nodes]
        elif kind == "r" and o.tags.get("type") in SMART_TYPES:
            multipolygons[o.id] = [m.ref for m in o.members if m.type == "w"]
    return ids, ways, multipolygons


def check(src, grid, paths, smart=False):
    """Reads the regions back; prints each check and returns whether all passed."""
    input_nodes, input_ways = set(), set()
    for o in osmium.FileProcessor(src, osmium.osm.NODE | osmium.osm.WAY):
        (input_nodes if o.is_node() else input_ways).add(o.id)
    union_nodes, union_ways = set(), set()
    ok = True
    incomplete = unsorted = badbox = mp_incomplete = mp_total = 0
    for cell, path in enumerate(paths):
        ids, ways, multipolygons = read_ids(path)
        nodes = set(ids["n"])
        union_nodes |= nodes
        union_ways |= set(ids["w"])
        for kind in "nwr":
            if ids[kind] != sorted(ids[kind]) or len(set(ids[kind])) != len(ids[kind]):
                unsorted += 1
        for refs in ways.values():
            if any(ref in input_nodes and ref not in nodes for ref in refs):
                incomplete += 1
        mp_total += len(multipolygons)
        for members in multipolygons.values():
            if any(wid in input_ways and wid not in ways for wid in members):
                mp_incomplete += 1
        reader = osmium.io.Reader(path, osmium.osm.osm_entity_bits.NOTHING)
        box = reader.header().box()
        reader.close()
        want = grid.cell_box(cell)
        got = (box.bottom_left.lon, box.bottom_left.lat, box.top_right.lon, box.top_right.lat)
        if any(abs(a - b) > 5e-8 for a, b in zip(got, want)):
            badbox += 1
    missing_ways = len(input_ways - union_ways)
    missing_nodes = len(input_nodes - union_nodes)
    extra_nodes = len(union_nodes - input_nodes)
    lines = [
        (missing_ways == 0, f"ways of the input in no region: {missing_ways} of {len(input_ways)}"),
        (missing_nodes == 0 and extra_nodes == 0,
         f"union of the regions' node ids = the input's: {missing_nodes} missing, {extra_nodes} extra, "
         f"{len(union_nodes)} of {len(input_nodes)}"),
        (incomplete == 0, f"ways missing one of their nodes in a region: {incomplete}"),
        (unsorted == 0, f"object lists not sorted by id (or with a repeated id): {unsorted}"),
        (badbox == 0, f"files whose header box is not their cell's: {badbox}"),
    ]
    if smart:
        lines.append((mp_incomplete == 0,
                      f"multipolygon relations missing a way member in a region: "
                      f"{mp_incomplete} of {mp_total}"))
    for good, text in lines:
        print(f"check {'ok  ' if good else 'FAIL'} {text}")
        ok = ok and good
    return ok


def main():
    usage = __doc__.split("\n\n")[1].rstrip()
    args, strategy, rest = [], "complete_ways", sys.argv[1:]
    while rest:
        a = rest.pop(0)
        if a == "--check":
            continue
        if a == "--strategy" or a.startswith("--strategy="):
            strategy = a.split("=", 1)[1] if "=" in a else (rest.pop(0) if rest else "")
            if strategy not in ("complete_ways", "smart"):
                sys.exit(usage)
            continue
        args.append(a)
    if len(args) != 3 or not args[0].isdigit() or int(args[0]) < 1:
        sys.exit(usage)
    smart = strategy == "smart"
    k, src, outdir = int(args[0]), args[1], args[2]
    name = os.path.basename(src)
    stem = name[: -len(".osm.pbf")] if name.endswith(".osm.pbf") else os.path.splitext(name)[0]
    os.makedirs(outdir, exist_ok=True)
    box, source = grid_box(src)
    grid = Grid(k, box)
    node_cell, node_extra, way_mask, rel_mask, outside, invalid, mps = assign(src, grid, smart)
    print(f"{src}: {k}×{k} grid over the {source} box "
          f"({box[0] / 1e7}, {box[1] / 1e7}, {box[2] / 1e7}, {box[3] / 1e7}) (west, south, east, north); "
          f"{len(node_cell)} nodes ({outside} outside the box, clamped; {invalid} without a location), "
          f"{len(way_mask)} ways and {len(rel_mask)} relations in some region")
    paths, counts = write(src, outdir, stem, grid, node_cell, node_extra, way_mask, rel_mask)
    for path, (n, w, r) in zip(paths, counts):
        print(f"{path} {os.path.getsize(path)} bytes, {n} nodes, {w} ways, {r} relations")
    if smart:
        for path, held, done in zip(paths, *mps):
            print(f"{path} smart: {held} multipolygon relations, {done} completed (ways added)")
    if "--check" in sys.argv[1:] and not check(src, grid, paths, smart):
        sys.exit(1)


if __name__ == "__main__":
    main()
