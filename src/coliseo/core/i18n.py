"""Events rendered as text in Spanish or English.

Each game declares `event_text = {type: {"en": template or [templates], "es": ...}}`. With a list,
the first template whose fields the event has is used, so an event with a private part reads
fully for the player who may see it and without it for everyone else.
"""

import locale
import os
import string

from .errors import IllegalAction
from .reasons import reason_words

LANGS = ("en", "es")

# Words shared by every game's text.
COMMON = {
    "player": {"en": "Player {n}", "es": "Jugador {n}"},
    "draw": {"en": "draw", "es": "empate"},
}

# The table's commands (resign, draw offers, abandonment) happen in every game: their events (their reasons are
# core/reasons.py's).
COMMAND_EVENTS = {
    "resigned": {"en": "{player} resigns", "es": "{player} se rinde"},
    "draw_offered": {"en": "{player} offers a draw", "es": "{player} ofrece un empate"},
    "draw_declined": {"en": "{player} declines the draw", "es": "{player} rechaza el empate"},
    "draw_agreed": {"en": "{player} accepts the draw: the game is drawn by agreement",
                    "es": "{player} acepta el empate: la partida termina en empate de común acuerdo"},
    "draw_offer_lapsed": {"en": "{player}'s draw offer lapses", "es": "la oferta de empate de {player} caduca"},
    "abandoned": {"en": "The game was idle too long and ends as abandoned",
                  "es": "La partida estuvo inactiva demasiado tiempo y termina abandonada"},
}
# Why an action is refused, in words every game shares; a game's own reasons are its `refusals` table.
REFUSALS = {
    "over": ("the game is over", "la partida ha terminado"),
    "not_action": ("that is not an action of {game}", "eso no es una acción de {game}"),
    "not_now": ("not legal now", "no es legal ahora"),
    "not_your_turn": ("it is not your turn", "no es tu turno"),
    "ai_seat": ("this seat is played by the AI", "este asiento lo juega la IA"),
}
RESULT_WORDS = {
    "winners": {"en": "{w} wins", "es": "gana {w}"},
    "several": {"en": "{w} share the win", "es": "{w} comparten la victoria"},
    "draw": {"en": "Draw", "es": "Empate"},
    "and": {"en": " and ", "es": " y "},
    "or": {"en": " or ", "es": " o "},
}

# Spanish for the words the card lists show in their `kind` and `faction` columns.
CARD_WORDS_ES = {
    "king": "rey", "monster": "monstruo", "light": "luz", "dark": "oscuridad", "electric": "electricidad",
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
    entry = game.event_text.get(event["type"]) or COMMAND_EVENTS.get(event["type"])
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


def refusal(game, key: str, lang: str = "en", **fields) -> str:
    """Why an action is refused: `game.refusals[key]` (else the shared reason) as (en, es), in `lang`."""
    en, es = game.refusals.get(key) or REFUSALS[key]
    return (es if lang == "es" else en).format(game=game.name(lang), **fields)


def refused(game, key: str, **fields) -> IllegalAction:
    """The refusal `key` as an error carrying both languages (`error.text(lang)` picks one)."""
    return IllegalAction(refusal(game, key, "en", **fields), es=refusal(game, key, "es", **fields))


def joined(phrases: list[str], word: str, lang: str) -> str:
    """"a, b and c" (`word` "and" or "or", in `lang`)."""
    if len(phrases) < 2:
        return "".join(phrases)
    return ", ".join(phrases[:-1]) + RESULT_WORDS[word][lang] + phrases[-1]


def result_words(game, result: dict, lang: str, resigner: int | None = None) -> str:
    """A result in words: who won (or a draw) and why, e.g. "Player 2 wins — by resignation", or with the player
    who resigned (Match.resigner) "Player 2 wins — Player 1 resigned"."""
    winners = [player_name(p, lang) for p in result.get("winners") or []]
    if not winners:
        head = RESULT_WORDS["draw"][lang]
    else:
        key = "winners" if len(winners) == 1 else "several"
        head = RESULT_WORDS[key][lang].format(w=joined(winners, "and", lang))
    if not result.get("reason"):
        return head
    who = player_name(resigner, lang) if resigner is not None else None
    return f"{head} — {reason_words(game, result['reason'], lang, who)}"
