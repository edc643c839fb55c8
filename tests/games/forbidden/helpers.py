"""Positions for scenario tests and docs/rules/forbidden.md's §8 invariants."""

from __future__ import annotations

import coliseo
from coliseo.games.forbidden.content import MONSTER
from coliseo.games.forbidden.state import CURSE, DEF, ID, MAIN, PLACE, STAR, UP, USED, DuelState


def mon(card: int, up: bool = True, defence: bool = False, star: int = 1, mod: int = 0, curse: int = 0,
        used: bool = False, moved: bool = False, known: bool = False) -> list:
    """A monster record on the field."""
    return [card, up, defence, star, mod, curse, used, moved, known]


def setc(card: int, known: bool = False) -> list:
    """A set (face-down) card in the spell row."""
    return [card, False, False, 0, 0, 0, False, False, known]


def duel(hand=(), opp_hand=(), mine=(), theirs=(), my_spells=(), their_spells=(), phase: str = MAIN,
         player: int = 0, terrain: int = 0, lp=(8000, 8000), deck=None, opp_deck=None, **options) -> DuelState:
    """A position with player `player` to act: zones are filled from m1 (None leaves a zone empty)."""
    game = coliseo.load_game("forbidden", **options)
    s = game.new_state(0)
    p, q = player, 1 - player
    s.player = p
    s.hands[p], s.hands[q] = list(hand), list(opp_hand)
    if deck is not None:
        s.decks[p] = list(deck)
    if opp_deck is not None:
        s.decks[q] = list(opp_deck)
    for side, recs in ((p, mine), (q, theirs)):
        s.monsters[side] = (list(recs) + [None] * 5)[:5]
    for side, recs in ((p, my_spells), (q, their_spells)):
        s.spells[side] = (list(recs) + [None] * 5)[:5]
    s.phase = phase
    s.terrain = terrain
    s.lp = list(lp)
    s._legal = None
    return s


def act(state: DuelState, text: str) -> list[dict]:
    """Apply an action written in notation; returns the events."""
    return state.apply(state.game.parse_action(state, text))


def types(events: list[dict]) -> list[str]:
    return [e["type"] for e in events]


class Invariants:
    """§8 of docs/rules/forbidden.md, checked after every action; remembers the last values per state."""

    def __init__(self):
        self.last: dict[int, tuple] = {}

    def __call__(self, s: DuelState) -> None:
        pack = s.pack
        over = s.is_over
        for side in (0, 1):
            field = [r for r in s.monsters[side] + s.spells[side] if r is not None]
            total = len(s.decks[side]) + len(s.hands[side]) + len(field) + len(s.removed[side])
            assert total == pack.deck_size + len(s.created[side]), "invariant 1: cards appear or vanish"
            assert 0 <= s.lp[side] <= s.max_lp, "invariant 2: LP out of range"
            assert len(s.hands[side]) <= 5, "invariant 3: hand over 5"
            for z, r in enumerate(s.monsters[side]):
                if r is None:
                    continue
                assert pack.cards[r[ID]].kind == MONSTER, "invariant 3: non-monster in a monster zone"
                assert 0 <= s.stat(r) <= 9999 and 0 <= s.stat(r, True) <= 9999, "invariant 4"
                assert r[CURSE] <= 0, "invariant 4: curse > 0"
                if r[USED]:
                    assert not r[DEF], "invariant 4: used monster in defence"
                pending = s.phase == PLACE and side == s.player and z == s.pending
                assert r[STAR] in ((0,) if pending else (1, 2)), "invariant 4: star"
            for r in s.spells[side]:
                if r is not None:
                    assert pack.cards[r[ID]].kind != MONSTER and not r[UP], "invariant 3: spell row"
            values = s.counter_values(side)
            assert values["cards_used"] == pack.deck_size - len(s.decks[side])
            assert 0 <= s.pinned[side] <= 3, "invariant 6: pinned"
            key = (id(s), side)
            previous = self.last.get(key)
            counters = tuple(s.counters[side])
            if previous is not None and previous[2] <= s.turn_no:
                assert all(a >= b for a, b in zip(counters, previous[0])), "invariant 6: a counter decreased"
                assert len(s.removed[side]) >= previous[1], "invariant 3: removed pile shrank"
                assert s.removed[side][:previous[1]] == previous[3], "invariant 3: removed pile changed"
            self.last[key] = (counters, len(s.removed[side]), s.turn_no, list(s.removed[side]))
        lp_zero = 0 in s.lp
        assert over == (lp_zero or s.winner is not None), "invariant 2: over iff LP 0 or a recorded win"
        assert over == (s.legal_actions() == []), "invariant 2/7: over iff no legal actions"
        if s.phase == MAIN:
            assert s.hands[s.player], "invariant 5: main phase with an empty hand"
        if s.phase == PLACE:
            assert s.monsters[s.player][s.pending] is not None, "invariant 5: no pending record"


def ygofm_data():
    """The public YGOFM data folder from $COLISEO_YGOFM_DATA: skipped when unset, a failure when set but wrong.

    CI (.ci/run) always sets it, so there these tests always run on the full data set.
    """
    import pytest

    from coliseo.games.forbidden.importer import DATA_ENV, default_data_dir
    path = default_data_dir()
    if path is None:
        pytest.skip(f"the public YGOFM data set is not here: set {DATA_ENV} to the sg4e/YGOFM-gamedata folder")
    if not (path / "cardinfo.json").is_file():
        pytest.fail(f"{DATA_ENV}={path} holds no cardinfo.json (expected the sg4e/YGOFM-gamedata folder)")
    return path


def write_small_ygofm(folder) -> None:
    """A small data set in the YGOFM JSON format, written from the bundled starter pack's own tables."""
    import csv
    import json
    from pathlib import Path

    from coliseo.games.forbidden.content import BUNDLED, STAR_NAMES, STARS, TYPE_NAMES, TYPES

    def rows(name):
        with (BUNDLED / "starter" / name).open(encoding="utf-8") as f:
            return list(csv.DictReader(f))

    cards = []
    for r in rows("cards.csv"):
        rec = {"cardId": int(r["id"]), "cardName": r["name"], "description": f"  {r['name']}\n\ntext ",
               "level": 4, "attribute": "Light", "password": "", "starchipCost": 999999}
        if r["kind"] == "monster":
            rec.update(type=TYPE_NAMES[TYPES.index(r["type"])], attack=int(r["atk"]), defense=int(r["def"]),
                       guardianStar1=STAR_NAMES[STARS.index(r["star1"])],
                       guardianStar2=STAR_NAMES[STARS.index(r["star2"])])
        else:
            rec.update(type=r["kind"].capitalize(), attack=0, defense=0, guardianStar1="None", guardianStar2="None")
        cards.append(rec)
    pool_types = {"deck": "Deck", "sa_pow": "SAPow", "bcd": "BCD", "sa_tec": "SATec"}
    data = {
        "cardinfo.json": cards,
        "fusions.json": [{"fusionCardId": i, **{k: int(v) for k, v in r.items()}}
                         for i, r in enumerate(rows("fusions.csv"))],
        "equipinfo.json": [{"equipCardId": i, "equipId": int(r["equip"]), "cardId": int(r["monster"])}
                           for i, r in enumerate(rows("equips.csv")) if r["monster"] != "*"],
        "ritualinfo.json": [{"ritualCardId": int(r["ritual"]), **{k: int(r[k]) for k in
                             ("material1", "material2", "material3", "result")}} for r in rows("rituals.csv")],
        "droppool.json": [{"poolId": i, "duelist": int(r["duelist"]), "poolType": pool_types[r["pool"]],
                           "cardId": int(r["card"]), "cardProbability": int(r["weight"])}
                          for i, r in enumerate(rows("pools.csv"))],
        "duelistinfo.json": [{"duelistId": int(r["id"]), "duelist": r["name"], "handSize": int(r["hand_window"])}
                             for r in rows("duelists.csv")],
    }
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for name, records in data.items():
        (folder / name).write_text(json.dumps(records, indent=1), encoding="utf-8")
