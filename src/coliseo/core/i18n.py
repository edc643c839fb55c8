"""Events rendered as text in Spanish or English.

Each game declares `event_text = {type: {"en": template or [templates], "es": ...}}`. With a list,
the first template whose fields the event has is used, so an event with a private part reads
fully for the player who may see it and without it for everyone else.
"""

import locale
import os
import string

LANGS = ("en", "es")

# Words shared by every game's text.
COMMON = {
    "player": {"en": "Player {n}", "es": "Jugador {n}"},
    "draw": {"en": "draw", "es": "empate"},
}

# Spanish for the words the card lists show in their `kind` and `faction` columns.
CARD_WORDS_ES = {
    "king": "rey", "monster": "monstruo", "light": "luz", "dark": "oscuridad", "electric": "eléctrica",
    "earth": "tierra", "die (common)": "dado (común)", "die (particular)": "dado (particular)",
    "die (special)": "dado (especial)", "spell": "hechizo", "trap": "trampa", "adventurer": "aventurero",
    "artifact": "artefacto", "beast": "bestia", "creature": "criatura", "dog": "perro", "dragon": "dragón",
    "event": "evento", "quest": "misión", "equip": "equipo", "magic": "magia", "ritual": "ritual",
}


def card_word(value, lang: str):
    """A card list's kind or faction word in `lang` (other values unchanged)."""
    return CARD_WORDS_ES.get(value, value) if lang == "es" and isinstance(value, str) else value


def default_lang() -> str:
    """`es` when the user's locale is Spanish, else `en`."""
    for var in ("COLISEO_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:
            return "es" if value.lower().startswith("es") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "es" if loc.lower().startswith("es") else "en"


def check_lang(lang: str) -> str:
    if lang not in LANGS:
        raise ValueError(f"language {lang!r} is not available; choose one of {', '.join(LANGS)}")
    return lang


def player_name(player: int | None, lang: str) -> str:
    if player is None:
        return COMMON["draw"][lang]
    return COMMON["player"][lang].format(n=player + 1)


def _fields_of(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def render_event(game, event: dict, lang: str) -> str:
    """The event as one line of narration; unknown event types fall back to their fields."""
    entry = game.event_text.get(event["type"])
    if entry is None:
        fields = ", ".join(f"{k}={v}" for k, v in event.items() if k not in ("type", "private"))
        return f"{event['type']}: {fields}"
    templates = entry.get(lang) or entry["en"]
    if isinstance(templates, str):
        templates = [templates]
    for template in templates:
        names = _fields_of(template)
        if names <= event.keys():
            values = {k: game.render_value(k, event[k], lang) for k in names}
            return template.format(**values)
    raise KeyError(f"no {lang} text for event {event['type']!r} with fields {sorted(event)}")
