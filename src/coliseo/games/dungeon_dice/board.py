"""Board geometry: squares, notation, the 11 cube nets in 8 orientations, and placement tables.

Squares are ints `y * W + x` (x = file index from `a`, y = rank - 1). Sets of squares are bitmasks.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

# R17: the 11 cube nets as (x, y) offsets around the origin.
NETS = {
    "T": ((-1, 1), (0, 1), (1, 1), (0, 0), (0, -1), (0, -2)),
    "Y": ((-1, 1), (0, 1), (0, 0), (1, 0), (0, -1), (0, -2)),
    "Z": ((-1, 1), (0, 1), (0, 0), (0, -1), (0, -2), (1, -2)),
    "V": ((-1, 1), (0, 1), (0, 0), (0, -1), (1, -1), (0, -2)),
    "X": ((0, 1), (-1, 0), (0, 0), (1, 0), (0, -1), (0, -2)),
    "N": ((0, 1), (-1, 0), (0, 0), (0, -1), (1, -1), (0, -2)),
    "M": ((-1, 1), (0, 1), (0, 0), (0, -1), (1, -1), (1, -2)),
    "E": ((-1, 1), (-1, 0), (0, 0), (0, -1), (1, -1), (1, -2)),
    "P": ((-1, 1), (-1, 0), (0, 0), (1, 0), (0, -1), (0, -2)),
    "R": ((-1, 1), (-1, 0), (0, 0), (0, -1), (1, -1), (0, -2)),
    "L": ((0, 2), (0, 1), (0, 0), (1, 0), (1, -1), (1, -2)),
}
NET_LETTERS = tuple(NETS)
BOARDS = {"jdmc": (14, 20, ("g1", "h20")), "classic": (13, 19, ("g1", "g19"))}
DIRS = ((0, 1), (1, 0), (0, -1), (-1, 0))   # up, right, down, left (player 1's view)


def orient(offsets, o: int) -> tuple:
    """Offsets in orientation o = r + 4m: mirror (x,y)->(-x,y) if m, then r clockwise turns (x,y)->(y,-x)."""
    r, m = o % 4, o // 4
    out = []
    for x, y in offsets:
        if m:
            x = -x
        for _ in range(r):
            x, y = y, -x
        out.append((x, y))
    return tuple(out)


def _norm(offsets) -> tuple:
    """The offsets translated so the smallest (y, x) is at (0, 0), as a sorted tuple; plus that minimum."""
    mn = min(offsets, key=lambda p: (p[1], p[0]))
    return tuple(sorted((x - mn[0], y - mn[1]) for x, y in offsets)), mn


class Shape:
    """One of the 64 distinct oriented nets: its canonical (net, o) and offsets."""

    __slots__ = ("index", "net", "o", "offsets", "norm", "min")

    def __init__(self, index, net, o, offsets):
        self.index, self.net, self.o, self.offsets = index, net, o, offsets
        self.norm, self.min = _norm(offsets)


def _build_shapes():
    shapes, by_key, canon = [], {}, {}
    for net in NET_LETTERS:
        for o in range(8):
            offs = orient(NETS[net], o)
            key, mn = _norm(offs)
            if key not in by_key:
                by_key[key] = Shape(len(shapes), net, o, offs)
                shapes.append(by_key[key])
            shape = by_key[key]
            # (net, o) -> (shape, anchor shift to add to the given anchor to get the canonical anchor)
            canon[(net, o)] = (shape, (mn[0] - shape.min[0], mn[1] - shape.min[1]))
    return shapes, canon


SHAPES, CANON = _build_shapes()


class Geometry:
    """Everything about one board size that never changes: names, neighbours, placements."""

    def __init__(self, board: str):
        w, h, masters = BOARDS[board]
        self.board, self.w, self.h, self.n = board, w, h, w * h
        self.names = [chr(97 + i % w) + str(i // w + 1) for i in range(w * h)]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.masters = tuple(self.index[m] for m in masters)
        self.nbrs = []
        for i in range(self.n):
            x, y = i % w, i // w
            self.nbrs.append(tuple((y + dy) * w + x + dx for dx, dy in DIRS
                                   if 0 <= x + dx < w and 0 <= y + dy < h))
        self.nbr_mask = [sum(1 << j for j in nb) for nb in self.nbrs]
        self.full = (1 << self.n) - 1
        self.not_last_file = sum(1 << i for i in range(self.n) if i % w != w - 1)   # may step right (<< 1)
        self.not_first_file = sum(1 << i for i in range(self.n) if i % w != 0)      # may step left (>> 1)
        self.home_rank = (sum(1 << x for x in range(w)), sum(1 << ((h - 1) * w + x) for x in range(w)))
        # rays[sq][d] = squares from sq outward in direction d (up to 3), for attack lines
        self.rays = []
        for i in range(self.n):
            x, y = i % w, i // w
            per = []
            for dx, dy in DIRS:
                ray = []
                for k in range(1, 4):
                    nx, ny = x + dx * k, y + dy * k
                    if 0 <= nx < w and 0 <= ny < h:
                        ray.append(ny * w + nx)
                per.append(tuple(ray))
            self.rays.append(tuple(per))
        # in_line[sq]: the squares of sq's rays, as a bitmask (the squares that may attack sq from range 3 or less)
        self.in_line = [sum(1 << s for ray in per for s in ray) for per in self.rays]
        # rays_within[r][sq]: the rays cut to an attack range r (1..3), cut once here rather than per attack
        self.rays_within = [()] + [[tuple(ray[:r] for ray in per) for per in self.rays] for r in (1, 2, 3)]
        # Every on-board placement: (shape index, anchor, squares, mask, neighbour mask)
        self.placements = []
        self.placement_at = {}             # (shape index, anchor) -> placement id
        self.by_square = [[] for _ in range(self.n)]
        for shape in SHAPES:
            for anchor in range(self.n):
                ax, ay = anchor % w, anchor // w
                sqs = []
                for dx, dy in shape.offsets:
                    x, y = ax + dx, ay + dy
                    if not (0 <= x < w and 0 <= y < h):
                        break
                    sqs.append(y * w + x)
                else:
                    mask = sum(1 << s for s in sqs)
                    nb = 0
                    for s in sqs:
                        nb |= self.nbr_mask[s]
                    pid = len(self.placements)
                    self.placements.append((shape.index, anchor, tuple(sorted(sqs)), mask, nb & ~mask))
                    self.placement_at[(shape.index, anchor)] = pid
                    for s in sqs:
                        self.by_square[s].append(pid)

        # Per shape: the anchors where it fits on the board (mask) and its offsets as square deltas,
        # so that all placements of a shape are tested at once with shifts of a bitmask. The shapes share
        # few deltas (21 on the standard board): `fitting` shifts each board mask once per delta.
        self.deltas = sorted({dy * w + dx for shape in SHAPES for dx, dy in shape.offsets})
        slot = {d: i for i, d in enumerate(self.deltas)}
        self.shape_table = []     # per shape: (on-board anchors, its deltas' slots)
        self.shape_ids = []       # per shape: anchor + 1 (the bit length of the anchor's bit) -> placement id
        for shape in SHAPES:
            ids = [self.placement_at.get((shape.index, a)) for a in range(self.n)]
            ok = sum(1 << a for a, pid in enumerate(ids) if pid is not None)
            self.shape_ids.append([None] + ids)
            self.shape_table.append((ok, tuple(slot[dy * w + dx] for dx, dy in shape.offsets)))
        self.top_bit = [0] + [1 << a for a in range(self.n)]     # bit length -> that bit alone
        self.lift = -self.deltas[0]      # a mask shifted up by this moves back by delta d with `>> (d + lift)`
        # The shapes' slots as a trie, most shared slots first (119 nodes for 64 shapes of 6 slots): `fitting`
        # ANDs a mask once per node instead of six times per shape. Nodes in depth-first order:
        # (depth, slot, index of the node after its subtree, shape at a leaf or -1).
        shared = Counter(i for _, slots in self.shape_table for i in slots)
        paths = {}
        for k, (_, slots) in enumerate(self.shape_table):
            path = tuple(sorted(slots, key=lambda i: (-shared[i], i)))
            for depth in range(1, len(path) + 1):
                paths.setdefault(path[:depth], -1)
            paths[path] = k
        order = sorted(paths, key=lambda path: [(-shared[i], i) for i in path])
        self.trie = []
        for j, path in enumerate(order):
            after = next((m for m in range(j + 1, len(order)) if order[m][:len(path)] != path), len(order))
            self.trie.append((len(path), path[-1], after, paths[path]))
        self.trie_depth = 1 + max(len(path) for path in order)

    def shifted(self, mask: int) -> list[int]:
        """`mask` moved back by each delta: bit a of shifted[i] is bit a + deltas[i] of mask."""
        return [mask >> d if d >= 0 else mask << -d for d in self.deltas]

    def fitting(self, empty: int, touch: int, extra=()) -> list[tuple[int, int]]:
        """Per shape, in SHAPES order: (shape index, mask of the anchors where the shape covers only `empty`
        squares and meets `touch` and each `extra` mask); shapes with no such anchor are left out."""
        empty_at, touch_at = self.shifted(empty), self.shifted(touch)
        extra_at = [self.shifted(mask) for mask in extra]
        table = self.shape_table
        fits = [0] * len(table)
        ok_at, hit_at = [-1] * self.trie_depth, [0] * self.trie_depth   # by depth in the trie; 0 is the root
        nodes, i = self.trie, 0
        while i < len(nodes):
            depth, at, after, shape = nodes[i]
            ok = ok_at[depth - 1] & empty_at[at]
            if not ok:
                i = after
                continue
            hit = hit_at[depth - 1] | touch_at[at]
            if shape < 0:
                ok_at[depth], hit_at[depth] = ok, hit
            else:
                on_board, slots = table[shape]
                ok &= hit & on_board
                for masks in extra_at:
                    if not ok:
                        break
                    hit = 0
                    for j in slots:
                        hit |= masks[j]
                    ok &= hit
                fits[shape] = ok
            i += 1
        return [(shape, anchors) for shape, anchors in enumerate(fits) if anchors]

    def first_fit(self, empty: int, touch: int, extra=()) -> tuple[int, int] | None:
        """The first pair `fitting` gives, or None; it shifts only what the shapes it tries need (most often
        the first shape's six slots), since it is asked at every spend position."""
        lift, deltas = self.lift, self.deltas
        empty, touch = empty << lift, touch << lift
        extra = [mask << lift for mask in extra]
        for shape, (ok, slots) in enumerate(self.shape_table):
            hit = 0
            for j in slots:
                ok &= empty >> deltas[j] + lift
                if not ok:
                    break
                hit |= touch >> deltas[j] + lift
            else:
                ok &= hit
                for mask in extra:
                    if not ok:
                        break
                    hit = 0
                    for j in slots:
                        hit |= mask >> deltas[j] + lift
                    ok &= hit
                if ok:
                    return shape, ok
        return None

    def square(self, name: str) -> int | None:
        return self.index.get(name)

    def placement_of(self, net: str, o: int, anchor: int) -> int | None:
        """The placement id of `N<o>@anchor` in any orientation, or None if it leaves the board."""
        found = CANON.get((net, o))
        if found is None:
            return None
        shape, (sx, sy) = found
        x, y = anchor % self.w + sx, anchor // self.w + sy
        if not (0 <= x < self.w and 0 <= y < self.h):
            return None
        return self.placement_at.get((shape.index, y * self.w + x))

    def placement_text(self, pid: int) -> str:
        shape_index, anchor = self.placements[pid][:2]
        shape = SHAPES[shape_index]
        return f"{shape.net}{shape.o}@{self.names[anchor]}"

    def distance(self, a: int, b: int) -> int:
        return abs(a % self.w - b % self.w) + abs(a // self.w - b // self.w)

    def nearest(self, candidates, target: int, player: int) -> int:
        """R19: smallest Manhattan distance, then player-relative rank, then player-relative file."""
        w, n, tx, ty = self.w, self.n, target % self.w, target // self.w
        # rank then file orders squares as their numbers do (s = rank * w + file): one int says it all
        sign = 1 if player == 0 else -1
        return min(candidates, key=lambda s: (abs(s % w - tx) + abs(s // w - ty)) * n + sign * s)


@cache
def geometry(board: str) -> Geometry:
    return Geometry(board)


def bits(mask: int):
    """The squares of a bitmask, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
