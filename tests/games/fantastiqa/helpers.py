"""Fantastiqa test helpers: the §8 invariants and positions built for scenario tests."""

from __future__ import annotations

import json
from collections import Counter

from coliseo import load_game
from coliseo.games.fantastiqa.board import ADJACENT, POSITIONS
from coliseo.games.fantastiqa.state import ADVENTURE, DRAFT, MAIN, OVER, RELEASE, STATUE

GAMES = {n: load_game("fantastiqa", players=n) for n in (2, 3, 4)}


def zones(s) -> list[str]:
    z = [c for c in s.spaces if c] + [c for _, cs in s.pending for c in cs] + s.cdeck
    z += [c for d in s.decks.values() for c in d] + s.row + [q for q in s.open_q if q] + s.box + s.dragons
    z += s.qpool + s.apool
    for p in range(s.n):
        z += s.hand[p] + s.draw[p] + s.play[p] + s.discard[p] + s.priv[p] + s.completed[p]
        z += [c for cs in s.commits[p].values() for c in cs]
    return z


def check_invariants(s, subs_this_adventure: int | None = None) -> None:
    """Rules §8, checked on a full state."""
    g = s.game
    cards, quests = g.content.cards, g.content.quests
    # 1 card conservation
    counts = Counter(zones(s))
    assert all(v == 1 for v in counts.values()), [k for k, v in counts.items() if v > 1]
    assert sorted(counts) == g.all_ids
    # 2 counters
    for p in range(s.n):
        assert s.gems[p] >= 0 and s.carpets[p] >= 0 and s.rearr[p] >= 0
    assert s.bonus_supply >= 0
    assert s.bonus_supply + sum(s.bonus) + sum(s.open_bonus) == 12
    dragons = [c for c in counts if cards.get(c) and cards[c].kind == "dragon"]
    assert len(dragons) == 16
    # 3 quests
    for p in range(s.n):
        assert len(s.priv[p]) <= 3
        for q, cs in s.commits[p].items():
            assert cs, "an empty commit list is never kept"
            req = quests[q].req
            units = Counter()
            for c in cs:
                assert cards[c].units and cards[c].sym in req, (c, q)
                units[cards[c].sym] += cards[c].units
            for x, k in units.items():
                assert k <= req[x] + 1
    # 4 quest tokens: one open quest at most
    for p in range(s.n):
        assert sum(1 for q in s.commits[p] if q in s.open_q) <= 1
        for q in s.commits[p]:
            assert q in s.priv[p] or q in s.open_q
    # 5 board
    for c in s.spaces:
        assert c is None or cards[c].kind == "creature"
    if s.pending:
        assert s.phase == ADVENTURE or (s.phase == RELEASE and s.ret == ADVENTURE)
    # 6 adventurer and route
    if s.phase not in (DRAFT,):
        assert all(0 <= x < 6 for x in s.pos)
    if s.phase == ADVENTURE:
        assert s.route[-1] == s.pos[s.cur]
        if g.route_rule == "no_revisit":
            assert len(set(s.route)) == len(s.route)
        else:
            assert len(set(s.crossed)) == len(s.crossed)
        for (a, b), sp in zip(zip(s.route, s.route[1:]), s.crossed):
            assert (sp, b) in ADJACENT[a]
        if subs_this_adventure is not None:
            assert len(s.pending) == subs_this_adventure
    # 7 play area and reveal row
    for p in range(s.n):
        if p != s.cur or s.phase == DRAFT:
            assert not s.play[p]
    assert (not s.row) or s.phase == STATUE
    # 8 board filled: MAIN only follows a Replenish (a turn action is needed to empty a space)
    if s.phase == MAIN:
        assert all(c is not None for c in s.spaces)
    # 9 scores and end state
    for p in range(s.n):
        pts = sum(quests[q].points for q in s.completed[p]) + s.bonus[p]
        if g.quest_penalty:
            pts -= sum(quests[q].points for q in s.priv[p])
        assert s.score(p) == pts
    assert s.is_over == (s.phase == OVER) == (s.result is not None)
    legal = s.legal_actions()
    if s.is_over:
        assert legal == [] and s.current_player is None
    else:
        assert legal
        kinds = {a[0] for a in legal}
        if s.phase in (MAIN, "after"):
            assert ("end",) in legal
        elif s.phase == ADVENTURE:
            assert ("stop",) in legal
        elif s.phase == STATUE:
            assert kinds & {"done", "keep"}


def observation_ids(obs, drop=("unseen",)) -> str:
    """An observation as JSON text without the fields named in `drop` (for scanning for hidden ids)."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in drop}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return json.dumps(strip(obs))


def check_no_hidden_ids(s) -> None:
    """No player (or spectator) sees another player's hand or draw-pile cards outside the `unseen` multiset,
    and no deck order leaks (hidden parts are listed sorted)."""
    for viewer in (*range(s.n), None):
        obs = s.observation(viewer)
        text = observation_ids(obs)
        for q in range(s.n):
            if q == viewer:
                continue
            for c in s.hand[q] + s.draw[q]:
                assert f'"{c}"' not in text, f"{c} of player {q} visible to {viewer}"
        own = obs["people"][viewer]["draw"] if viewer is not None else None
        if own is not None:
            assert own == sorted(own)
        for block in obs["creature_deck"]:
            assert block["cards"] == sorted(block["cards"])
        for d in obs["decks"].values():
            assert d["unknown"] == sorted(d["unknown"])
        assert "rng" not in json.dumps(obs)


LAYOUT = (["FOR", "FLD", "HGH", "HIL", "WET", "FRZ"], ["AT", "BB", "QC", "AT", "BB", "QC"])


def take(s, c) -> None:
    """Remove card or quest `c` from whatever zone holds it."""
    for i, x in enumerate(s.spaces):
        if x == c:
            s.spaces[i] = None
            s.sgems[i] = 0
            return
    if c in s.cdeck:
        i = s.cdeck.index(c)
        del s.cdeck[i]
        del s.cblock[i]
        return
    for i, x in enumerate(s.open_q):
        if x == c:
            s.open_q[i] = None
            if s.open_bonus[i]:
                s.open_bonus[i] = False
                s.bonus_supply += 1
            return
    lists = [s.box, s.dragons, s.qpool, s.apool, s.row, *s.decks.values()]
    for p in range(s.n):
        lists += [s.hand[p], s.draw[p], s.play[p], s.discard[p], s.priv[p], s.completed[p]]
        lists += list(s.commits[p].values())
    for lst in lists:
        if c in lst:
            lst.remove(c)
            for p in range(s.n):
                for q in [q for q, cs in s.commits[p].items() if not cs]:
                    del s.commits[p][q]
            return
    raise AssertionError(f"{c} is in no zone")


def scenario(game=None, *, spaces=None, positions=None, hands=None, draws=None, discards=None, quests=None,
             commits=None, open_quests=None, gems=None, carpets=None, rearranges=None, phase="main",
             current=0, creature_deck=None, dragon_supply=None, decks=None, **extra):
    """A validated state for a scenario test, built from a real game after the draft.

    Layout: TL FOR/AT, TR FLD/BB, ML HGH/QC, MR HIL/AT, BL WET/BB, BR FRZ/QC. Every player card not named
    (hands, draw piles, discard piles, quests) goes to the box; player 1 stands on TL, the others on BR;
    no open quests unless given; named cards are taken from wherever they are.
    `hands`, `draws`, `discards`, `quests` are per-player lists; `commits` maps (player, quest) to cards.
    """
    game = game or GAMES[2]
    s = game.new_state(1)
    while s.phase == DRAFT:
        s.apply(s.legal_actions()[0])
    s.regions, s.statues = list(LAYOUT[0]), list(LAYOUT[1])
    for p in range(s.n):
        for lst in (s.hand[p], s.draw[p], s.play[p], s.discard[p], s.priv[p], s.completed[p]):
            s.box.extend(lst)
            del lst[:]
        for cs in s.commits[p].values():
            s.box.extend(cs)
        s.commits[p] = {}
    if open_quests is None:
        open_quests = [None, None]
    if open_quests is not None:
        for q in list(s.open_q):
            if q is not None:
                take(s, q)
                s.box.append(q)
        for i, q in enumerate(open_quests):
            if q is not None:
                take(s, q)
                s.open_q[i] = q
                if s.bonus_supply:
                    s.open_bonus[i] = True
                    s.bonus_supply -= 1
    if spaces is not None:
        for c in list(s.spaces):
            if c is not None:
                take(s, c)
                s.box.append(c)
        for i, c in enumerate(spaces):
            if c is not None:
                take(s, c)
                s.spaces[i] = c
                s.sgems[i] = game.content.cards[c].gems
    if creature_deck is not None:
        s.box.extend(s.cdeck)
        s.cdeck, s.cblock = [], []
        for c in creature_deck:
            take(s, c)
            s.cdeck.append(c)
            s.cblock.append(1)
    if dragon_supply is not None:
        s.box.extend(s.dragons)
        s.dragons = []
        for c in dragon_supply:
            take(s, c)
            s.dragons.append(c)
    if decks is not None:
        for k, cards in decks.items():
            s.box.extend(s.decks[k])
            s.decks[k] = []
            for c in cards:
                take(s, c)
                s.decks[k].append(c)
    for name, per in (("hand", hands), ("draw", draws), ("discard", discards), ("priv", quests),
                      ("completed", extra.pop("completed", None))):
        for p, cards in enumerate(per or ()):
            for c in cards:
                take(s, c)
                getattr(s, name)[p].append(c)
    for (p, q), cards in (commits or {}).items():
        for c in cards:
            take(s, c)
            s.commits[p].setdefault(q, []).append(c)
    if spaces is None:                      # a named card taken off the board: refill like Replenish
        cards = game.content.cards
        for i in range(7):
            if s.spaces[i] is None:
                c = next(c for c in reversed(s.cdeck) if cards[c].kind == "creature")
                take(s, c)
                s.spaces[i] = c
                s.sgems[i] = cards[c].gems
    if positions is None:
        positions = ["TL"] + ["BR"] * (s.n - 1)
    s.pos = [POSITIONS.index(x) for x in positions]
    for name, values in (("gems", gems), ("carpets", carpets), ("rearr", rearranges)):
        if values is not None:
            setattr(s, name, list(values))
    s.phase = phase
    s.cur = current
    for k, v in extra.items():
        setattr(s, k, v)
    s._legal = None
    return game.state_from_json(s.to_json())


__all__ = ["GAMES", "check_invariants", "check_no_hidden_ids", "scenario", "take", "POSITIONS"]


SEVEN = ["c01", "c09", "c11", "c15", "c17", "c05", "c13"]   # vulnerabilities WN, BR, FA, HE, CL, FI, NE


def act(s, text):
    """Parse and apply an action in notation, then check the invariants; returns its events."""
    events = s.apply(s.game.parse_action(s, text))
    check_invariants(s)
    return events


def legal_text(s, kind=None):
    return sorted(s.game.format_action(a) for a in s.legal_actions() if kind is None or a[0] == kind)
