"""Import of the public YGOFM dataset into a user pack (rules file §6.3), tested against the real data.

The data is not in the repository: CI has it in ../shared/data/ygofm-gamedata; elsewhere set
COLISEO_YGOFM_DATA. Without it these tests FAIL (they are not skipped). The pack is written into a
temporary COLISEO_HOME, never into the repository.
"""

import json
import random
from collections import Counter

import pytest
from contract import check_round_trips
from games.forbidden.helpers import Invariants

import coliseo
from coliseo.core.errors import ContentError
from coliseo.games.forbidden.importer import DATA_ENV, default_data_dir, import_ygofm
from coliseo.games.forbidden.rules import PLAY, SEQ_INDEX


@pytest.fixture(scope="module")
def data_dir():
    path = default_data_dir()
    if not (path / "cardinfo.json").is_file():
        pytest.fail(f"the YGOFM game data is missing at {path}: set {DATA_ENV} to the folder holding "
                    "cardinfo.json, fusions.json, ... (sg4e/YGOFM-gamedata)")
    return path


@pytest.fixture(scope="module")
def fm(data_dir, tmp_path_factory):
    home = tmp_path_factory.mktemp("coliseo_home")
    mp = pytest.MonkeyPatch()
    mp.setenv("COLISEO_HOME", str(home))
    folder = import_ygofm(data_dir, "fm")
    assert folder == home / "packs" / "forbidden" / "fm"
    yield coliseo.load_game("forbidden", pack="fm")
    mp.undo()


def test_all_722_cards_load(fm, data_dir):
    cards = json.loads((data_dir / "cardinfo.json").read_text())
    assert len(cards) == 722 and len(fm.pack.cards) == 722
    for rec in cards:
        card = fm.pack.cards[rec["cardId"]]
        assert card.name == rec["cardName"]
        if card.kind == 0:
            assert (card.atk, card.defense) == (rec["attack"], rec["defense"])
    assert fm.pack.cards[657].value == 1000 and fm.pack.cards[301].value == 500
    assert fm.pack.cards[686].trigger == "attack" and fm.pack.cards[686].value == 25500
    assert len(fm.pack.duelists) == 39


def test_every_fusion_row_resolves_in_the_engine(fm, data_dir):
    rows = json.loads((data_dir / "fusions.json").read_text())
    base = fm.new_state(1)
    base.hands[0] = []
    kind_dest = {0: 1, 1: 0, 2: 0, 3: 6, 4: 6}
    for row in rows:
        a, b, r = row["material1"], row["material2"], row["result"]
        assert fm.pack.fuse(a, b) == r and fm.pack.fuse(b, a) == r, row
        for first, second in ((a, b), (b, a)):  # and through a real play, in both orders
            s = base.clone()
            s._legal = None
            s.hands[0] = [first, second]
            events = s.apply(PLAY[SEQ_INDEX[(1, 2)]][kind_dest[fm.pack.cards[r].kind]])
            assert events[1] == {"type": "fusion", "player": 0, "materials": [first, second], "result": r}


def random_deck(pack, rng):
    ids = sorted(pack.cards)
    counts, deck = Counter(), []
    while len(deck) < 40:
        c = rng.choice(ids)
        if counts[c] < 3:
            counts[c] += 1
            deck.append(c)
    return deck


def test_random_duels_with_random_decks_from_all_cards_end_without_error(fm):
    inv = Invariants()
    reasons = Counter()
    for i in range(200):
        rng = random.Random(i)
        s = fm.new_state(i, {"decks": [random_deck(fm.pack, rng), random_deck(fm.pack, rng)]})
        step = 0
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            step += 1
            if i < 20:
                inv(s)
            if i < 3 and step % 15 == 0:
                check_round_trips(fm, s)
        reasons[s.result["reason"]] += 1
    assert reasons["lp"] + reasons["deckout"] + reasons["exodia"] == 200


def test_each_duelist_deck_from_its_weights_is_a_playable_opponent(fm):
    for duelist in sorted(fm.pack.duelists):
        game = coliseo.load_game("forbidden", pack="fm", mode="campaign", opponent=duelist)
        s = game.new_state(duelist)
        deck = s.lists[1]
        assert len(deck) == 40 and max(Counter(deck).values()) <= 3
        if duelist != 39:
            weights = dict(fm.pack.pools[(duelist, "deck")])
            assert all(weights[c] > 0 for c in deck) and 721 not in deck and 722 not in deck
        else:
            assert sorted(deck) == sorted(s.lists[0])  # Duel Master K copies the player's deck
        assert s.terrain == fm.pack.duelists[duelist].terrain
        rng = random.Random(duelist)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        if s.result["winners"] == [0]:
            assert s.result["starchips"] >= 1 and "drop" in s.result


def test_drop_pools_sum_to_2048(fm):
    for (duelist, pool), items in fm.pack.pools.items():
        assert sum(w for _, w in items) == 2048, (duelist, pool)


def test_missing_or_bad_dataset_gives_a_clear_error(tmp_path, data_dir):
    with pytest.raises(ContentError, match="does not exist"):
        import_ygofm(tmp_path / "nowhere", "x", dest_root=tmp_path)
    src = tmp_path / "src"
    src.mkdir()
    (src / "cardinfo.json").write_text("[{\"cardId\": 1, \"cardName\": \"X\", \"type\": \"Wizard\"}]")
    with pytest.raises(ContentError, match="unknown card type 'Wizard'"):
        import_ygofm(src, "x", dest_root=tmp_path / "out")
    (src / "cardinfo.json").write_text("{not json")
    with pytest.raises(ContentError, match="not valid JSON"):
        import_ygofm(src, "x", dest_root=tmp_path / "out")


def test_unknown_pack_names_the_importer(tmp_path, monkeypatch):
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path))
    with pytest.raises(ValueError, match="coliseo content import forbidden"):
        coliseo.load_game("forbidden", pack="fm")


def test_fm_classic_plays_every_duelist_of_the_full_pack(fm):
    from coliseo.agents.base import make_agent, play_game
    for duelist in sorted(fm.pack.duelists):
        game = coliseo.load_game("forbidden", pack="fm", mode="campaign", opponent=duelist)
        s = game.new_state(duelist)
        play_game(s, [make_agent("random", game, seed=duelist), make_agent("fm-classic", game, seed=duelist)],
                  random.Random(duelist))
        assert s.is_over
