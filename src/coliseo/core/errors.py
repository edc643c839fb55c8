"""The errors every game raises, all `ValueError`s with a message written for a person."""


class ColiseoError(ValueError):
    """Base of every error the engine raises on bad input. Where the engine has the words, `es` gives the message in
    Spanish too; `text(lang)` is the message in the reader's language (English where it has none)."""

    def __init__(self, message: str = "", *, es: str | None = None):
        super().__init__(message)
        self.translations = {"es": es} if es else {}

    def text(self, lang: str = "en") -> str:
        return self.translations.get(lang) or str(self)


class IllegalAction(ColiseoError):
    """A well-formed action that is not legal in this position; the state is untouched."""


class InvalidNotation(ColiseoError):
    """Text that is not an action of this game, or not a legal one here; the message lists what is legal."""


class SetupError(ColiseoError):
    """A setup (teams, decks, placements) or option that breaks the rules."""


class PositionError(ColiseoError):
    """A position document (`to_json`) that is malformed; the message names the field."""


class ContentError(ColiseoError):
    """A content pack that does not validate; the message names the file, entry and field."""


class RecordError(ColiseoError):
    """A game record that is malformed, tampered with, or does not replay to its result."""
