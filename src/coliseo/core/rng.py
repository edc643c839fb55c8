"""The seeded random number generator every game draws its chance from.

A small splitmix64 generator: its whole state is one integer, so it clones for free, serializes
into a position, and gives the same numbers on every Python version.
"""

_MASK = (1 << 64) - 1
_SPAN = 1 << 64


class Rng:
    __slots__ = ("state",)

    def __init__(self, seed: int = 0):
        self.state = seed & _MASK

    def clone(self) -> "Rng":
        return Rng(self.state)

    def next64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """A uniform integer in [0, n), without modulo bias."""
        if n <= 0:
            raise ValueError("randrange needs n > 0")
        limit = _SPAN - _SPAN % n
        while True:
            # next64, inlined: every game draws all its chance here, and a playout draws often
            self.state = z = (self.state + 0x9E3779B97F4A7C15) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            x = z ^ (z >> 31)
            if x < limit:
                return x % n

    def choice(self, seq):
        return seq[self.randrange(len(seq))]

    def shuffle(self, items: list) -> None:
        """Fisher–Yates in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randrange(i + 1)
            items[i], items[j] = items[j], items[i]

    def roll(self, sides: int) -> int:
        """A die roll 1..sides."""
        return self.randrange(sides) + 1


def seed_from(*parts: int | str) -> int:
    """A 64-bit seed derived from several values (e.g. a run seed and a game index)."""
    import hashlib

    text = "/".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(text).digest()[:8], "big")
