"""Malformed positions, content packs, setups, options and notation each give a clear error."""

import copy
import json

import pytest
from contract import check_bad_notation
from games.fantastiqa.helpers import GAMES, scenario

from coliseo import load_game
from coliseo.core.errors import ContentError, InvalidNotation, PositionError, SetupError

G = GAMES[2]


def a_position():
    s = G.new_state(3)
    while s.phase == "draft":
        s.apply(s.legal_actions()[0])
    return s.to_json()


def _commit_the_dog(doc):
    me = doc["people"][0]
    pile = me["hand"] if "dog1" in me["hand"] else me["draw"]
    pile.remove("dog1")
    me["commits"] = {me["quests"][0]: ["dog1"]}


@pytest.mark.parametrize("mutate,words", [
    (lambda d: d.update(format="nope"), "format"),
    (lambda d: d.update(game="capsule"), "game"),
    (lambda d: d.update(rng=-1), "rng"),
    (lambda d: d.update(phase="lunch"), "phase"),
    (lambda d: d.update(current=5), "current"),
    (lambda d: d.pop("spaces"), "spaces"),
    (lambda d: d.update(spaces=["c01"] * 7), "more than one zone"),
    (lambda d: d["spaces"].__setitem__(0, "zz99"), "spaces"),
    (lambda d: d["spaces"].__setitem__(0, "p1SW"), "creature"),
    (lambda d: d.update(regions=["FOR"] * 6), "regions"),
    (lambda d: d.update(statues=["AT"] * 6), "statues"),
    (lambda d: d.update(positions=["XX", "TL"]), "positions"),
    (lambda d: d["people"][0].update(gems=-1), "people[0].gems"),
    (lambda d: d["people"][0].update(gems="3"), "people[0].gems"),
    (lambda d: d["people"][1]["hand"].append("q01"), "people[1].hand"),
    (lambda d: d["people"][0]["hand"].append(d["people"][1]["hand"][0]), "more than one zone"),
    (lambda d: d["people"][0]["hand"].pop(), "in no zone"),
    (lambda d: d["people"][0].update(quests=["q01", "q02", "q03", "q04"]), "quests"),
    (lambda d: d["people"][0].update(commits={"q30": ["p1SW"]}), "commits"),
    (lambda d: d.update(bonus_supply=12), "bonus_supply"),
    (lambda d: d.update(creature_blocks=[]), "creature_blocks"),
    (lambda d: d["decks"].update(AT=["b01"]), "decks.AT"),
    (lambda d: d.update(result={"winners": [0]}), "result"),
    (lambda d: d.update(row_kind="AT"), "row_kind"),
    (lambda d: d["draft"].update(step="quest"), "draft.step"),
    (lambda d: d.update(pending=[[1, ["p1SW"]]]), "pending"),
    (lambda d: d.update(route=["TL"]), "route"),
    (lambda d: _commit_the_dog(d), "has no symbol the quest requires"),
])
def test_malformed_positions_name_the_field(mutate, words):
    doc = copy.deepcopy(a_position())
    mutate(doc)
    with pytest.raises(PositionError) as caught:
        G.state_from_json(doc)
    assert words in str(caught.value)


def test_a_position_needs_the_games_options():
    doc = a_position()
    with pytest.raises(PositionError, match="options"):
        load_game("fantastiqa", players=3).state_from_json(doc)


def pack(tmp_path, cards=(), quests=(), name="mine.json", **top):
    doc = {"pack": "mine", "version": 1, "cards": list(cards), "quests": list(quests), **top}
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


GOOD_CARD = {"id": "zz1", "name": "Zed", "kind": "creature", "symbols": ["SW"], "section": 1, "min_players": 2,
             "vuln": ["FI"], "gems": 1}


@pytest.mark.parametrize("change,words", [
    ({"id": "bad id"}, "[A-Za-z0-9]+"),
    ({"kind": "wizard"}, "kind"),
    ({"symbols": ["SW", "FI"]}, "must be equal"),
    ({"symbols": ["XX"]}, "not a symbol"),
    ({"vuln": []}, "vuln"),
    ({"vuln": ["SW"]}, "own symbol"),
    ({"gems": 1, "ability": {"type": "FLY"}}, "never both"),
    ({"ability": {"type": "ZAP"}, "gems": 0}, "ability"),
    ({"ability": {"type": "DRAW"}, "gems": 0}, "'n'"),
    ({"ability": {"type": "WILD", "n": 1}, "gems": 0}, "WILD"),
    ({"section": 4}, "section"),
    ({"min_players": 5}, "min_players"),
    ({"cost": 3}, "unknown field"),
])
def test_bad_content_cards_name_the_entry_and_field(tmp_path, change, words):
    card = {**GOOD_CARD, **change}
    with pytest.raises(ContentError) as caught:
        load_game("fantastiqa", packs=[pack(tmp_path, [card])])
    assert "zz1" in str(caught.value) or "cards[" in str(caught.value)
    assert words in str(caught.value)


@pytest.mark.parametrize("change,words", [
    ({"region": "MOON"}, "region"),
    ({"req": {}}, "req"),
    ({"req": {"SW": 0}}, "req.SW"),
    ({"points": 0}, "points"),
    ({"reward": [{"type": "CAKE", "n": 1}]}, "type"),
])
def test_bad_content_quests_name_the_field(tmp_path, change, words):
    quest = {"id": "zq1", "name": "Z", "region": "FOR", "req": {"SW": 1}, "points": 1, "reward": [], **change}
    with pytest.raises(ContentError) as caught:
        load_game("fantastiqa", packs=[pack(tmp_path, quests=[quest])])
    assert words in str(caught.value)


def test_duplicate_ids_across_packs_are_refused(tmp_path):
    with pytest.raises(ContentError, match="defined twice"):
        load_game("fantastiqa", packs=[pack(tmp_path, [{**GOOD_CARD, "id": "c01"}])])


def test_unreadable_pack_files(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    with pytest.raises(ContentError, match="not valid JSON"):
        load_game("fantastiqa", packs=[str(bad)])
    with pytest.raises(ContentError, match="no such"):
        load_game("fantastiqa", packs=[str(tmp_path / "missing.toml")])


def test_a_user_pack_loads_beside_the_bundled_set(tmp_path):
    game = load_game("fantastiqa", packs=[pack(tmp_path, [GOOD_CARD])])
    assert game.content.cards["zz1"].vuln == (1,)
    s = game.new_state(1)
    assert "zz1" in s.cdeck


def starting_cards(seat: int) -> list[dict]:
    cards = [{"id": f"u{seat}{sym}", "name": f"Tool {sym}", "kind": "adventurer", "star": True, "seat": seat,
              "symbols": [sym]} for sym in ("SW", "FA", "NE", "HE", "WA", "FI", "CL", "WN", "BR")]
    return cards + [
        {"id": f"udog{seat}", "name": "Hound", "kind": "dog", "star": True, "seat": seat, "symbols": [],
         "ability": {"type": "GEMS", "n": 1}},
        {"id": f"udr{seat}", "name": "Calm Dragon", "kind": "dragon", "star": True, "seat": seat, "symbols": [],
         "ability": {"type": "GIFT"}}]


def test_a_user_packs_starting_cards_replace_the_bundled_ones(tmp_path):
    game = load_game("fantastiqa", packs=[pack(tmp_path, starting_cards(1) + starting_cards(2))])
    s = game.new_state(4)
    for seat in (1, 2):
        assert sorted(s.draw[seat - 1]) == sorted(c["id"] for c in starting_cards(seat))
    assert "p1SW" not in game.content.cards and "dog1" not in game.content.cards
    assert len(s.dragons) == 12                               # the supply of Dragons stays
    while not s.is_over and s.turn < 3:
        s.apply(s.legal_actions()[0])
    assert game.state_from_json(s.to_json()) == s


def test_a_user_pack_without_starting_cards_keeps_the_bundled_ones(tmp_path):
    s = load_game("fantastiqa", packs=[pack(tmp_path, [GOOD_CARD])]).new_state(4)
    assert "p1SW" in s.draw[0] and len(s.draw[0]) == 11


def test_a_pack_too_small_for_the_players_is_refused(tmp_path):
    with pytest.raises(ContentError, match="starting quests"):
        load_game("fantastiqa", bundled=False, packs=[pack(tmp_path, [GOOD_CARD])])


def test_bad_options_and_setups():
    with pytest.raises(SetupError, match="players"):
        load_game("fantastiqa", players=5)
    with pytest.raises(SetupError, match="route_rule"):
        load_game("fantastiqa", route_rule="zigzag")
    with pytest.raises(SetupError, match="layout=fixed"):
        G.new_state(1, {"layout": {}})
    fixed = load_game("fantastiqa", layout="fixed")
    with pytest.raises(SetupError, match="layout"):
        fixed.new_state(1)
    lay = {p: ["FOR", "AT"] for p in ("TL", "TR", "ML", "MR", "BL", "BR")}
    with pytest.raises(SetupError, match="each of the six Regions"):
        fixed.new_state(1, {"layout": lay})
    with pytest.raises(SetupError, match="BR"):
        fixed.new_state(1, {"layout": {"TL": ["FOR", "AT"]}})


@pytest.mark.parametrize("text", ["", "fly away", "sub 9 p1SW", "sub 1", "sub 1 p1SW p1SW", "carpet 0",
                                  "power", "commit p1SW", "start ZZ", "buy nothing", "teleport TL TR"])
def test_bad_notation_lists_the_legal_actions(text):
    s = scenario(hands=[["p1SW"]])
    msg = check_bad_notation(G, s, text)
    assert "end" in msg


def test_illegal_notation_says_why():
    s = scenario(hands=[["p1SW"]], carpets=[0, 3])
    with pytest.raises(InvalidNotation, match="Flying Carpet"):
        G.parse_action(s, "carpet 1")


def test_notation_accepts_any_card_order_and_prints_the_canonical_one():
    s = scenario(spaces=["c01", "c09", "c11", "c15", "c17", "c05", "c13"], hands=[["p1SW", "c02"]])
    a = G.parse_action(s, "sub 1 p1SW c02")
    assert G.format_action(a) == "sub 1 c02 p1SW"


def test_malformed_action_tuples_are_refused_with_a_reason():
    from contract import check_illegal_untouched
    s = scenario(hands=[["p1SW"]])
    for action in [("sub",), ("power",), ("commit", "p1SW"), ("zap", 1), ("start",)]:
        assert check_illegal_untouched(G, s, action)


def test_statue_errors_say_what_is_wrong():
    from contract import check_illegal_untouched
    s = scenario(decks={"AT": ["a05"]}, gems=[1, 3])
    s.apply(("draw",))
    assert "costs 5 gems" in check_illegal_untouched(G, s, ("buy", "a05"))
    s = scenario(positions=("ML", "BR"), decks={"QC": ["q01"]})
    s.apply(("draw",))
    assert "keep at least one" in check_illegal_untouched(G, s, ("done",))
