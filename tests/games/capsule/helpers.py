"""Building Capsule Monsters positions for scenario tests."""

from coliseo import load_game

GAME = load_game("capsule")


def piece(sq, owner, card, kind=None, **fields):
    """A piece entry of a position; the kind is guessed from the card unless given."""
    if kind is None:
        kind = "king" if card.endswith("_king") else "monster"
    return {"sq": sq, "owner": owner, "kind": kind, "card": card, **fields}


def kings(p1="d1", p2="d8"):
    return [piece(p1, 0, "dawn_king"), piece(p2, 1, "dusk_king")]


def position(pieces, game=GAME, active=0, ap=6, turn=1, destroyed=None, **fields):
    doc = {"format": "coliseo-position/1", "game": "capsule", "options": game.options, "rng": 1,
           "turn": turn, "active": active, "ap": ap, "passes": 0, "acted": False, "pieces": pieces,
           "destroyed": destroyed or [[], []], "result": None}
    doc.update(fields)
    return game.state_from_json(doc)


def act(state, text):
    """Parse and apply an action in notation; returns its events."""
    return state.apply(state.game.parse_action(state, text))


def at(state, sq):
    """The observation (omniscient: player None would hide capsules) of the piece on sq, from its owner."""
    for owner in (0, 1):
        for p in state.observation(owner)["pieces"]:
            if p["sq"] == sq and p["owner"] == owner:
                return p
    return None


def types(events):
    return [e["type"] for e in events]


def legal_texts(state):
    return {state.game.format_action(a) for a in state.legal_actions()}


# The starter presets on fixed squares (the King on d, the team on c, e, b), for tests that need known squares.
FIXED = {"players": [{"preset": "starter_dawn", "placement": {"d1": "K", "c1": 0, "e1": 1, "b1": 2}},
                     {"preset": "starter_dusk", "placement": {"d8": "K", "c8": 0, "e8": 1, "b8": 2}}]}
