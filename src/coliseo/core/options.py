"""Game options: a declared schema, validated with a clear error per bad option."""

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .errors import SetupError

KIND_ES = {bool: "true o false", int: "un número entero", str: "un texto", list: "una lista"}


@dataclass(frozen=True)
class Option:
    name: str
    default: Any
    help: str
    choices: tuple = ()
    kind: type | None = None          # bool, int, str, list; None = type of default
    minimum: int | None = None
    maximum: int | None = None
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)

    def validate(self, value: Any) -> Any:
        kind = self.kind or type(self.default)
        if kind is int and isinstance(value, bool) or not isinstance(value, kind):
            if kind is list and isinstance(value, tuple):
                value = list(value)
            else:
                kind_es = KIND_ES.get(kind, kind.__name__)
                raise SetupError(f"option {self.name!r} must be {kind.__name__}, got {value!r}",
                                 es=f"la opción {self.name!r} debe ser {kind_es}, no {value!r}")
        if self.choices and value not in self.choices:
            choices = ", ".join(map(str, self.choices))
            raise SetupError(f"option {self.name!r} must be one of {choices}; got {value!r}",
                             es=f"la opción {self.name!r} debe ser una de {choices}; no {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise SetupError(f"option {self.name!r} must be at least {self.minimum}, got {value}",
                             es=f"la opción {self.name!r} debe ser al menos {self.minimum}, no {value}")
        if self.maximum is not None and value > self.maximum:
            raise SetupError(f"option {self.name!r} must be at most {self.maximum}, got {value}",
                             es=f"la opción {self.name!r} debe ser como mucho {self.maximum}, no {value}")
        if self.check:
            problem = self.check(value)
            if problem:
                raise SetupError(f"option {self.name!r}: {problem}")
        return value


def resolve_options(schema: list[Option], given: dict[str, Any]) -> dict[str, Any]:
    """Defaults merged with the given options; unknown names and bad values raise SetupError."""
    known = {o.name: o for o in schema}
    unknown = sorted(set(given) - set(known))
    if unknown:
        raise SetupError(f"unknown option(s) {', '.join(unknown)}; this game takes: {', '.join(known)}",
                         es=f"opción(es) desconocida(s) {', '.join(unknown)}; este juego admite: {', '.join(known)}")
    return {o.name: o.validate(given[o.name]) if o.name in given else _fresh(o.default) for o in schema}


def _fresh(default: Any) -> Any:
    return list(default) if isinstance(default, list) else default


def parse_option_text(schema: list[Option], text: str) -> tuple[str, Any]:
    """`name=value` from a command line, the value typed by the option's schema."""
    name, sep, raw = text.partition("=")
    name = name.strip().replace("-", "_")
    known = {o.name: o for o in schema}
    if not sep or name not in known:
        raise SetupError(f"bad option {text!r}: write name=value with a name among {', '.join(known)}",
                         es=f"opción incorrecta {text!r}: escribe nombre=valor con un nombre entre {', '.join(known)}")
    kind = known[name].kind or type(known[name].default)
    raw = raw.strip()
    if kind is bool:
        if raw.lower() not in ("true", "false", "1", "0", "yes", "no", "on", "off"):
            raise SetupError(f"option {name!r} takes true or false, got {raw!r}",
                             es=f"la opción {name!r} admite true o false, no {raw!r}")
        return name, raw.lower() in ("true", "1", "yes", "on")
    if kind is int:
        try:
            return name, int(raw)
        except ValueError:
            raise SetupError(f"option {name!r} takes a whole number, got {raw!r}",
                             es=f"la opción {name!r} admite un número entero, no {raw!r}") from None
    if kind is list:
        return name, [part.strip() for part in raw.split(",") if part.strip()]
    return name, raw
