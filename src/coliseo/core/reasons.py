"""Why a game ended: one vocabulary of end-reason codes, with their words in English and Spanish.

A result's `reason` is a snake_case code saying what ended the game. The table's commands (resign, a draw by
agreement, abandonment) and every end that more than one game has are named here, once. A game declares which of
these its rules use (`Game.shared_reasons`) and the ends only it has, with their words (`Game.own_reasons`, kept in
its text.py). Records, run files and positions written before the codes were one vocabulary may carry older codes;
where a result is read back they read as today's (`canonical_reason`: OLD_REASONS here, `Game.old_reasons` for a
game's own).
"""

from __future__ import annotations

END_REASONS = {
    # The table's commands (core/match.py).
    "resigned": {"en": "by resignation", "es": "por rendición"},
    "draw_agreed": {"en": "drawn by agreement", "es": "empate de común acuerdo"},
    "abandoned": {"en": "abandoned", "es": "abandonada"},
    # Ends that the rules of more than one game have.
    "turn_limit": {"en": "turn limit", "es": "límite de turnos"},
    "deck_out": {"en": "a deck ran out", "es": "se agotó un mazo"},
}
COMMAND_REASONS = ("resigned", "draw_agreed", "abandoned")
# A resignation said with who resigned, where the match is at hand to tell (Match.resigner).
RESIGNED_BY = {"en": "{player} resigned", "es": "{player} se rindió"}

# The codes these meanings had before, in records and run files (`resign` and `agreed_draw` only the web page knew).
OLD_REASONS = {"resign": "resigned", "agreed_draw": "draw_agreed", "max_turns": "turn_limit", "deckout": "deck_out"}


def end_reasons(game) -> tuple[str, ...]:
    """Every code a game's rules may end it with: the shared ones it uses, then its own."""
    return (*game.shared_reasons, *game.own_reasons)


def canonical_reason(game, code):
    """Today's code for `code`, which may be an older one of the vocabulary or of `game` (a Game or its class)."""
    if not isinstance(code, str):
        return code
    return OLD_REASONS.get(code) or game.old_reasons.get(code, code)


def canonical_result(game, result):
    """A result read back (from a record, a run file or a position) with its reason in today's code."""
    if not isinstance(result, dict) or "reason" not in result:
        return result
    reason = canonical_reason(game, result["reason"])
    return result if reason == result["reason"] else {**result, "reason": reason}


def reason_words(game, code, lang: str, resigner: str | None = None) -> str:
    """Why a game ended, in `lang`: "by resignation", "turn limit"; a code nobody declared reads as its words. With
    `resigner` (a player's name) a resignation says who: "Player 1 resigned"."""
    code = canonical_reason(game, code)
    if code == "resigned" and resigner:
        return RESIGNED_BY[lang].format(player=resigner)
    words = END_REASONS.get(code) or game.own_reasons.get(code)
    return words[lang] if words else str(code).replace("_", " ")
