"""Import of the public YGOFM dataset into a user pack (docs/rules/forbidden.md §6.3).

The importer always runs on a small data set in the same JSON format that the tests write from the
bundled starter pack. The public data set itself is not in the repository: the tests on the full data
read it from COLISEO_YGOFM_DATA and are skipped, naming the variable, when it is unset (CI sets it, so
there they always run). Packs are written into a temporary COLISEO_HOME, never into the repository.
"""

import json
import random
from collections import Counter

import pytest
from contract import check_round_trips
from games.forbidden.helpers import Invariants, write_small_ygofm, ygofm_data

import coliseo
from coliseo.core.errors import ContentError
from coliseo.games.forbidden.content import load_pack
from coliseo.games.forbidden.importer import DATA_ENV, import_ygofm
from coliseo.games.forbidden.state import PLAY, SEQ_INDEX


@pytest.fixture(scope="module")
def data_dir():
    return ygofm_data()


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
    assert reasons["life_points_zero"] + reasons["deck_out"] + reasons["exodia_assembled"] == 200


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


def test_missing_or_bad_dataset_gives_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.delenv(DATA_ENV, raising=False)
    with pytest.raises(ContentError, match=DATA_ENV):
        import_ygofm(None, "x", dest_root=tmp_path)
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


def test_the_small_data_set_imports_into_a_pack_equal_to_the_starter_tables(tmp_path, monkeypatch):
    write_small_ygofm(tmp_path / "small")
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path / "home"))
    folder = import_ygofm(tmp_path / "small", "small")
    assert folder == tmp_path / "home" / "packs" / "forbidden" / "small"
    starter, small = load_pack("starter"), coliseo.load_game("forbidden", pack="small").pack
    assert len(small.cards) == len(starter.cards) == 164
    for cid, card in starter.cards.items():
        got = small.cards[cid]
        assert (got.name, got.kind, got.atk, got.defense) == (card.name, card.kind, card.atk, card.defense)
        if card.kind == 0:
            assert (got.type, got.star1, got.star2) == (card.type, card.star1, card.star2)
    assert "Blue-eyes White Dragon text\n" in (folder / "cards.csv").read_text()  # whitespace folded
    assert small.cards[657].value == 1000 and small.cards[686].value == 25500
    fusions = json.loads((tmp_path / "small" / "fusions.json").read_text())
    for row in fusions:
        assert small.fuse(row["material1"], row["material2"]) == row["result"]
    assert small.pools == starter.pools and small.duelists[1].name == "Sparring Partner"


def test_duels_on_the_small_imported_pack_end_without_error(tmp_path, monkeypatch):
    write_small_ygofm(tmp_path / "small")
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path / "home"))
    import_ygofm(tmp_path / "small", "small")
    game = coliseo.load_game("forbidden", pack="small")
    inv = Invariants()
    for i in range(5):
        rng = random.Random(i)
        s = game.new_state(i)
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
            inv(s)
        check_round_trips(game, s)


def test_a_reimport_with_a_bad_file_keeps_the_earlier_pack(tmp_path, monkeypatch):
    write_small_ygofm(tmp_path / "small")
    monkeypatch.setenv("COLISEO_HOME", str(tmp_path / "home"))
    folder = import_ygofm(tmp_path / "small", "small")
    (tmp_path / "small" / "droppool.json").write_text('[{"duelist": 1, "poolType": "Shop", "cardId": 2}]')
    with pytest.raises(ContentError, match="poolType"):
        import_ygofm(tmp_path / "small", "small")
    assert len(load_pack("small").cards) == 164 and (folder / "cards.csv").is_file()
