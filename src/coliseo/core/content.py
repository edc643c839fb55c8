"""Content packs: TOML files read and validated with one clear error per bad field."""

from __future__ import annotations

import re
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from .errors import ContentError

ID_PATTERN = re.compile(r"^[a-z0-9_]+$")
_MISSING = object()


def read_toml(path: str | Path) -> dict:
    """A TOML file as a dict; a missing or unparsable file raises ContentError naming it."""
    path = Path(path)
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ContentError(f"{path}: no such content file") from None
    except tomllib.TOMLDecodeError as e:
        raise ContentError(f"{path}: not valid TOML: {e}") from None


def file_stamps(paths) -> tuple:
    """Each content file as it stands now: (absolute path, size, time of change), or (absolute path, None) for a
    file that is not there; a folder stands for the files in it. Equal stamps, the same content read again."""
    stamps = []
    for path in map(Path, paths):
        path = path.resolve()
        for file in sorted(path.iterdir()) if path.is_dir() else [path]:
            try:
                stat = file.stat()
            except OSError:
                stamps.append((str(file), None))
            else:
                stamps.append((str(file), stat.st_size, stat.st_mtime_ns))
    return tuple(stamps)


def bundled_file(package: str, name: str) -> Path:
    """The path of a content file shipped inside a game package."""
    return Path(str(resources.files(package).joinpath(name)))


class Entry:
    """One table of a content file, read field by field with errors that say where."""

    def __init__(self, where: str, data: Any):
        if not isinstance(data, dict):
            raise ContentError(f"{where}: must be a table, got {type(data).__name__}")
        self.where = where
        self.data = data

    def fail(self, message: str) -> ContentError:
        return ContentError(f"{self.where}: {message}")

    def get(self, name: str, kind: type | tuple, default: Any = _MISSING, *, minimum: float | None = None,
            maximum: float | None = None, choices: tuple | None = None) -> Any:
        value = self.data.get(name, default)
        if value is _MISSING:
            raise self.fail(f"missing field {name!r}")
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if (bool not in kinds and isinstance(value, bool)) or not isinstance(value, kinds):
            names = " or ".join(k.__name__ for k in kinds)
            raise self.fail(f"field {name!r} must be {names}, got {value!r}")
        if minimum is not None and value < minimum:
            raise self.fail(f"field {name!r} must be at least {minimum}, got {value}")
        if maximum is not None and value > maximum:
            raise self.fail(f"field {name!r} must be at most {maximum}, got {value}")
        if choices is not None and value not in choices:
            raise self.fail(f"field {name!r} must be one of {', '.join(map(str, choices))}; got {value!r}")
        return value

    def id(self, name: str = "id") -> str:
        value = self.get(name, str)
        if not ID_PATTERN.match(value):
            raise self.fail(f"field {name!r} must match [a-z0-9_]+, got {value!r}")
        return value

    def names(self) -> dict[str, str]:
        """The `name.en` / `name.es` pair."""
        name = self.get("name", dict)
        for lang in ("en", "es"):
            if not isinstance(name.get(lang), str) or not name[lang]:
                raise self.fail(f"field 'name.{lang}' must be a non-empty string")
        return {"en": name["en"], "es": name["es"]}

    def sub(self, name: str, default: Any = _MISSING) -> Entry:
        return Entry(f"{self.where}.{name}", self.get(name, dict, default))

    def known_fields(self, allowed: set[str]) -> None:
        unknown = sorted(set(self.data) - allowed)
        if unknown:
            raise self.fail(f"unknown field(s) {', '.join(unknown)}; allowed: {', '.join(sorted(allowed))}")


def entries(where: str, doc: dict, table: str) -> list[Entry]:
    """The `[[table]]` array of a content file as Entries, each named by its position and id."""
    items = doc.get(table, [])
    if not isinstance(items, list):
        raise ContentError(f"{where}: [[{table}]] must be an array of tables")
    found = []
    for i, item in enumerate(items):
        label = item.get("id", i) if isinstance(item, dict) else i
        found.append(Entry(f"{where}: {table}[{label}]", item))
    return found


def unique_ids(where: str, ids: list[str], seen: set[str]) -> None:
    """Ids must be unique across every pack loaded together."""
    for i in ids:
        if i in seen:
            raise ContentError(f"{where}: id {i!r} is defined twice (ids are unique across all loaded packs)")
        seen.add(i)
