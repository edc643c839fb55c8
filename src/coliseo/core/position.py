"""Reading a position document back (docs/engine.md, "Positions"): every game's `load_position` reads its fields
through a `Doc`, so that each bad value is a PositionError that names its path, as in `pieces[3].owner`."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

from .errors import PositionError

_MISSING = object()
RESULT_FIELDS = ("winners", "reason", "scores")


def shown(value: Any, limit: int = 80) -> str:
    """A value as an error quotes it, cut short when long."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


class Doc:
    """A part of a position document, an object or a list, read key by key (a name in an object, an index in a
    list); `path` is where it stands in the whole document. A missing key is an error unless a default is given;
    `none=True` lets a value be null.

    >>> Doc({"pieces": [{"owner": 2}]}).list("pieces").object(0).int("owner", 0, 1)
    Traceback (most recent call last):
    coliseo.core.errors.PositionError: field 'pieces[0].owner' must be an integer in 0..1, got 2
    """

    __slots__ = ("value", "path")

    def __init__(self, value: Any, path: str = ""):
        self.value = value
        self.path = path

    # --- where, and what went wrong ------------------------------------------------------------
    def path_of(self, key: str | int | None) -> str:
        if key is None:
            return self.path
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def fail(self, key: str | int | None, problem: str) -> PositionError:
        """The error for the value at `key` (None: this part itself), e.g. `field 'holes': g1 is a Master's`."""
        return PositionError(f"field {self.path_of(key)!r}: {problem}")

    def must(self, key: str | int | None, what: str, value: Any) -> PositionError:
        """The error for a value at `key` that is not `what`: `field 'turn' must be an integer ≥ 0, got -1`."""
        return PositionError(f"field {self.path_of(key)!r} must be {what}, got {shown(value)}")

    # --- the raw value -------------------------------------------------------------------------
    def get(self, key: str | int, default: Any = _MISSING) -> Any:
        """The value at `key` as it is; a missing one is an error unless a default is given."""
        value = self.value
        present = key in value if isinstance(value, dict) else 0 <= key < len(value)
        if present:
            return value[key]
        if default is _MISSING:
            raise PositionError(f"missing field {self.path_of(key)!r}")
        return default

    def keys(self) -> Iterable[str | int]:
        """The names of an object, or the indices of a list."""
        return list(self.value) if isinstance(self.value, dict) else range(len(self.value))

    def fields(self, names: Collection[str]) -> None:
        """This object holds exactly the fields `names`, none missing, none unknown."""
        missing = sorted(set(names) - set(self.value))
        if missing:
            raise PositionError(f"missing field(s) {', '.join(self.path_of(n) for n in missing)}")
        unknown = sorted(set(self.value) - set(names))
        if unknown:
            raise PositionError(f"unknown field(s) {', '.join(self.path_of(n) for n in unknown)}")

    # --- single values -------------------------------------------------------------------------
    def int(self, key: str | int, lo: int | None = None, hi: int | None = None, *, none: bool = False,
            default: Any = _MISSING) -> int | None:
        """A whole number (never true/false) in lo..hi (either bound may be open)."""
        value = self.get(key, default)
        if _in_range(value, lo, hi) or (value is None and none):
            return value
        raise self.must(key, _or_null(_int_words(lo, hi), none), value)

    def bool(self, key: str | int, *, default: Any = _MISSING) -> bool:
        value = self.get(key, default)
        if isinstance(value, bool):
            return value
        raise self.must(key, "true or false", value)

    def choice(self, key: str | int, options: Collection, what: str | None = None, *, none: bool = False,
               default: Any = _MISSING) -> Any:
        """One of `options` (strings or whole numbers); the error lists them, or says it is not `what`."""
        value = self.get(key, default)
        if _is_among(value, options) or (value is None and none):
            return value
        raise self.must(key, _or_null(what or f"one of {', '.join(map(str, options))}", none), value)

    def id(self, key: str | int, known: Collection, what: str = "card", *, none: bool = False) -> Any:
        """An id among `known`, the loaded content's, too many to list."""
        value = self.get(key)
        if _is_among(value, known) or (value is None and none):
            return value
        raise self.must(key, _or_null(_id_words(what), none), value)

    # --- parts ---------------------------------------------------------------------------------
    def object(self, key: str | int, *, none: bool = False, default: Any = _MISSING) -> Doc | None:
        value = self.get(key, default)
        if value is None and none:
            return None
        if not isinstance(value, dict):
            raise self.must(key, "an object" + (" or null" if none else ""), value)
        return Doc(value, self.path_of(key))

    def list(self, key: str | int, length: int | None = None, what: str = "entries", *, most: int | None = None,
             default: Any = _MISSING) -> Doc:
        """A list (of exactly `length` or at most `most` entries, if given); `what` names its entries."""
        value = self.get(key, default)
        if not isinstance(value, list) or (length is not None and len(value) != length) or \
                (most is not None and len(value) > most):
            count = f"{length} " if length is not None else f"at most {most} " if most is not None else ""
            raise self.must(key, f"a list of {count}{what}", value)
        return Doc(value, self.path_of(key))

    def pair(self, key: str | int, what: str = "entries", *, default: Any = _MISSING) -> Doc:
        """A list of two, one per player."""
        return self.list(key, 2, f"{what} (one per player)", default=default)

    def record(self, key: str | int, names: Iterable[str], *, none: bool = False) -> Doc | None:
        """A list whose entries have names by their place ([square, uid, card, …]), read as an object, so that an
        error names the entry: `pieces[3].uid`."""
        value = self.get(key)
        names = list(names)
        if value is None and none:
            return None
        if not isinstance(value, list) or len(value) != len(names):
            raise self.must(key, f"[{', '.join(names)}]" + (" or null" if none else ""), value)
        return Doc(dict(zip(names, value)), self.path_of(key))

    # --- lists of single values ----------------------------------------------------------------
    def ints(self, key: str | int, lo: int | None = None, hi: int | None = None, *, length: int | None = None,
             default: Any = _MISSING) -> list[int]:
        items = self.list(key, length, "whole numbers", default=default)
        if not all(_in_range(v, lo, hi) for v in items.value):
            for i in items.keys():
                items.int(i, lo, hi)   # the error names the first one out of range
        return list(items.value)

    def ids(self, key: str | int, known: Collection, what: str = "card", *, length: int | None = None,
            default: Any = _MISSING) -> list:
        items = self.list(key, length, f"{what} ids", default=default)
        if not all(_is_among(v, known) for v in items.value):
            for i in items.keys():
                items.id(i, known, what)   # the error names the first one not known
        return list(items.value)

    def result(self, players: int, key: str = "result", *, default: Any = _MISSING) -> dict | None:
        """A finished game's result ({winners, reason, scores}, one score per player), or null."""
        value = self.get(key, default)
        if value is not None and (not isinstance(value, dict) or set(value) != set(RESULT_FIELDS)
                                  or not isinstance(value["winners"], list) or not isinstance(value["scores"], list)
                                  or len(value["scores"]) != players):
            raise self.must(key, "null or {winners, reason, scores} with one score per player", value)
        return value


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _in_range(value: Any, lo: int | None, hi: int | None) -> bool:
    return _is_int(value) and (lo is None or value >= lo) and (hi is None or value <= hi)


def _is_among(value: Any, options: Collection) -> bool:
    """Whether `value`, a string or a whole number, is one of `options` (so true is not 1 here, nor a list an
    unhashable question to a set)."""
    return (isinstance(value, str) or _is_int(value)) and value in options


def _int_words(lo: int | None, hi: int | None) -> str:
    if lo is not None and hi is not None:
        return f"an integer in {lo}..{hi}"
    if lo is not None:
        return f"an integer ≥ {lo}"
    if hi is not None:
        return f"an integer ≤ {hi}"
    return "an integer"


def _id_words(what: str) -> str:
    return f"{'an' if what[:1].lower() in 'aeiou' else 'a'} {what} id of the loaded content"


def _or_null(words: str, none: bool) -> str:
    return words + " or null" if none else words
