"""Board geometry: squares as small ints (rank·W + file), notation, rays and the O ring."""

from __future__ import annotations

from functools import lru_cache

ORTHOGONAL = ((0, 1), (1, 0), (0, -1), (-1, 0))
DIAGONAL = ((1, 1), (1, -1), (-1, -1), (-1, 1))
DIRECTIONS = {"+": ORTHOGONAL, "X": DIAGONAL, "*": ORTHOGONAL + DIAGONAL}


class Board:
    """Precomputed tables for one board size; shared by every state of a game."""

    def __init__(self, width: int, height: int, o_pattern: str):
        self.width, self.height = width, height
        self.size = width * height
        squares = range(self.size)
        # rays[pattern][sq]: for each direction, the squares walked from sq to the edge
        self.rays = {p: [[self._walk(sq, d) for d in dirs] for sq in squares] for p, dirs in DIRECTIONS.items()}
        self.ring = [self._ring(sq, o_pattern) for sq in squares]
        self._lines: dict[tuple[str, int], list] = {}

    def lines(self, pattern: str, reach: int) -> list[tuple[tuple[int, ...], ...]]:
        """lines(pattern, reach)[sq]: the rays from sq cut to `reach` squares, empty ones left out (built once)."""
        key = (pattern, reach)
        if key not in self._lines:
            self._lines[key] = [tuple(ray[:reach] for ray in rays if ray) for rays in self.rays[pattern]]
        return self._lines[key]

    def file(self, sq: int) -> int:
        return sq % self.width

    def rank(self, sq: int) -> int:
        return sq // self.width

    def distance(self, a: int, b: int) -> int:
        return max(abs(a % self.width - b % self.width), abs(a // self.width - b // self.width))

    def name(self, sq: int) -> str:
        return square_name(sq, self.width)

    def parse(self, text: str) -> int | None:
        """The square written as `text` (e.g. "c3"), or None when it is not on this board."""
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            return None
        f, r = ord(text[0].lower()) - ord("a"), int(text[1:]) - 1
        if 0 <= f < self.width and 0 <= r < self.height:
            return r * self.width + f
        return None

    def _walk(self, sq: int, d: tuple[int, int]) -> tuple[int, ...]:
        f, r = sq % self.width, sq // self.width
        out = []
        while True:
            f, r = f + d[0], r + d[1]
            if not (0 <= f < self.width and 0 <= r < self.height):
                return tuple(out)
            out.append(r * self.width + f)

    def _ring(self, sq: int, o_pattern: str) -> tuple[int, ...]:
        f, r = sq % self.width, sq // self.width
        out = []
        for dr in range(-2, 3):
            for df in range(-2, 3):
                if max(abs(df), abs(dr)) != 2:
                    continue
                if o_pattern == "star" and not (df == 0 or dr == 0 or abs(df) == abs(dr)):
                    continue
                if 0 <= f + df < self.width and 0 <= r + dr < self.height:
                    out.append((r + dr) * self.width + f + df)
        return tuple(out)


def square_name(sq: int, width: int) -> str:
    return f"{chr(ord('a') + sq % width)}{sq // width + 1}"


@lru_cache(maxsize=16)
def board_for(width: int, height: int, o_pattern: str) -> Board:
    return Board(width, height, o_pattern)
