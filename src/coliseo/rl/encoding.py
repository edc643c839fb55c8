"""Encoders: one player's observation (never the state) as a fixed-size float32 vector.

Each game has its own encoder in `coliseo.rl.encoders.<game id>`; a game without one gets
`HashedEncoder`, which works for any JSON observation, so a new game runs in every adapter
before anyone writes its encoder. Encoders read only `state.observation(player)`: whatever
they produce, the player was allowed to know.
"""

from __future__ import annotations

import importlib
import zlib
from typing import Any

import numpy as np


def bucket(token: str, buckets: int) -> int:
    """A stable small integer for a token (crc32: the same in every process, unlike hash())."""
    return zlib.crc32(token.encode("utf-8")) % buckets


class Encoder:
    """Declares named parts (blocks of the vector, each with a shape) and fills them from an observation.

    Subclasses call `self.part(name, *shape)` in `declare()` and write into the views in `fill()`.
    """

    # Every value lies in [-bound, bound] (encode clips to it), so observation spaces have finite bounds.
    bound = 1000.0

    def __init__(self, game):
        self.game = game
        self.parts: dict[str, tuple[int, tuple[int, ...]]] = {}
        self._slices: list[tuple[str, int, int, tuple[int, ...]]] = []
        self.size = 0
        self.declare()

    def part(self, name: str, *shape: int) -> None:
        if name in self.parts:
            raise ValueError(f"encoder part {name!r} declared twice")
        size = int(np.prod(shape))
        self.parts[name] = (self.size, shape)
        self._slices.append((name, self.size, self.size + size, shape))
        self.size += size

    def declare(self) -> None:
        raise NotImplementedError

    def fill(self, observation: dict, player: int, out: dict[str, np.ndarray]) -> None:
        raise NotImplementedError

    def encode(self, observation: dict, player: int) -> np.ndarray:
        vector = np.zeros(self.size, np.float32)
        views = {name: vector[start:stop].reshape(shape) for name, start, stop, shape in self._slices}
        self.fill(observation, player, views)
        return np.clip(vector, -self.bound, self.bound, out=vector)

    def describe(self) -> list[tuple[str, tuple[int, ...]]]:
        """The parts in vector order: [(name, shape), ...]."""
        return [(name, shape) for name, (_, shape) in self.parts.items()]


class HashedEncoder(Encoder):
    """Any JSON observation as hashed `path=value` tokens (numbers also as a squashed value per path).

    Collisions are accepted: this is the fallback for a game that has no encoder of its own yet.
    """

    buckets = 4096

    def declare(self) -> None:
        self.part("tokens", self.buckets)
        self.part("numbers", self.buckets)

    def fill(self, observation: dict, player: int, out: dict[str, np.ndarray]) -> None:
        for path, value in _leaves(observation, ""):
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                out["numbers"][bucket(path, self.buckets)] += np.tanh(value / 10.0)
            else:
                out["tokens"][bucket(f"{path}={value}", self.buckets)] += 1.0


def _leaves(value: Any, path: str):
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _leaves(item, f"{path}.{key}")
    elif isinstance(value, list):
        for item in value:  # list positions are dropped: lists are bags here
            yield from _leaves(item, f"{path}[]")
    else:
        yield path, value


def encoder_for(game) -> Encoder:
    """The game's own encoder (`coliseo.rl.encoders.<id>.make_encoder`), else a HashedEncoder."""
    try:
        module = importlib.import_module(f"coliseo.rl.encoders.{game.id}")
    except ModuleNotFoundError as error:
        if error.name != f"coliseo.rl.encoders.{game.id}":
            raise
        return HashedEncoder(game)
    return module.make_encoder(game)


# --- helpers the game encoders share ----------------------------------------------------------------

def square_xy(square: str) -> tuple[int, int]:
    """'b3' -> (1, 2): file and rank from 0."""
    return ord(square[0]) - ord("a"), int(square[1:]) - 1


def others(player: int, count: int) -> list[int]:
    """The other players in seat order after `player`, so 'next opponent' is always slot 0."""
    return [(player + k) % count for k in range(1, count)]
