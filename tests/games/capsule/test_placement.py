"""R9: each player places the King and every capsule in secret, by hand or at random from the seed (issue 49)."""

import json
import random

import pytest
from contract import check_illegal_untouched, check_leak, check_round_trips
from games.capsule.helpers import GAME, act, legal_texts

from coliseo import SetupError, load_game
from coliseo.core.events import view_events
from coliseo.core.match import Match, verify
from coliseo.games.capsule.state import CARD, KIND, KING, PLACE, SQ

BOTH = GAME.setup_for_people(None, {0, 1})


def placing_states(setup=BOTH, seeds=range(6)):
    """Every position of random placements, from the first to the one after turn 1 starts."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new_state(seed, setup)
        while state.turn == 0:
            yield state
            state = state.clone()
            state.apply(rng.choice(state.legal_actions()))
        yield state


def secret_words(state, player):
    """The player's monster ids and names, which the other player may not read before a summon or a reveal."""
    cards = [p[CARD] for p in [*state.own[player], *(x for _, x in state.tray[player])] if p[KIND] != KING]
    return {c.id for c in cards} | {c.name("en") for c in cards}


def test_a_person_places_the_king_and_each_capsule_then_turn_one_starts():
    state = GAME.new_state(5, GAME.setup_for_people(None, {0}))
    assert (state.turn, state.current_player) == (0, 0)
    assert {"K@a1", "1@h1", "3@d1", "random"} <= legal_texts(state) and "end" not in legal_texts(state)
    act(state, "K@d1")
    assert "K@e1" not in legal_texts(state) and "1@d1" not in legal_texts(state)
    act(state, "1 @ C1")
    act(state, "2@e1")
    events = act(state, "3@b1")
    assert [e["type"] for e in events] == ["place", "turn_start"] and state.turn == 1 and state.current_player == 0
    own = {p[SQ]: p for p in state.own[0]}
    assert own[GAME.board.parse("d1")][KIND] == KING
    assert [own[GAME.board.parse(sq)][CARD].id for sq in ("c1", "e1", "b1")] == \
        list(GAME.content.teams["starter_dawn"].monsters)


def test_random_places_the_rest_and_the_second_player_places_after_the_first():
    state = GAME.new_state(7, BOTH)
    act(state, "K@a1")
    act(state, "random")
    assert (state.turn, state.current_player) == (0, 1) and len(state.own[0]) == 4
    assert state.observation(1)["to_place"] == [0, 4]
    act(state, "random")
    assert state.turn == 1 and state.current_player == state.first_turn_player == 0


def test_placement_refusals_say_why_and_change_nothing():
    state = GAME.new_state(3, BOTH)
    assert "place your King" in check_illegal_untouched(GAME, state, (0,))
    assert "free squares of your start zone" in check_illegal_untouched(GAME, state, (PLACE, 0, GAME.board.parse("d8")))
    act(state, "K@d1")
    assert "not among the ones you still have" in check_illegal_untouched(GAME, state, (PLACE, 0, 1))
    with pytest.raises(Exception, match="K@d2.*is not legal|not legal"):
        GAME.parse_action(state, "K@d2")


def test_every_placement_step_keeps_the_contract():
    """The leak property and the round trips at each step of the placement (the contract samples few of them)."""
    rng = random.Random(4)
    for state in placing_states():
        check_round_trips(GAME, state)
        check_leak(state, rng)


def test_while_placing_nobody_sees_the_other_players_pieces_not_even_their_squares():
    for state in placing_states():
        if state.turn:
            continue
        for viewer in (0, 1, None):
            obs = state.observation(viewer)
            assert all(p["owner"] == viewer for p in obs["pieces"])
            assert [t["card"] for t in obs["tray"]] == \
                ([p[CARD].id for _, p in state.tray[viewer]] if viewer is not None else [])
            hidden = set().union(*(secret_words(state, q) for q in (0, 1) if q != viewer))
            if viewer is not None:
                hidden -= secret_words(state, viewer)
            assert not any(word in json.dumps(obs) for word in hidden)


def test_after_placing_the_opponent_sees_capsules_and_factions_but_not_which_monster():
    for state in placing_states(seeds=range(10)):
        if state.turn == 0:
            continue
        for viewer, other in ((0, 1), (1, 0), (None, 0), (None, 1)):
            pieces = state.observation(viewer)["pieces"]
            capsules = [p for p in pieces if p["owner"] == other and p["kind"] == "capsule"]
            assert len(capsules) == 3
            assert all("faction" in p and "card" not in p for p in capsules)


def test_placement_events_tell_only_the_placer_which_piece_went_where():
    state = GAME.new_state(2, BOTH)
    events = act(state, "2@f1") + act(state, "random")
    mine, theirs, public = (view_events(events, v) for v in (0, 1, None))
    assert {e["type"] for e in events} == {"place"} and len(events) == 4
    assert all("piece" in e and "sq" in e for e in mine)
    words = secret_words(state, 0) | {GAME.board.name(p[SQ]) for p in state.own[0]} | {"dawn_king"}
    for seen in (theirs, public):
        assert all(set(e) == {"type", "player"} for e in seen)
        assert not any(w in json.dumps(seen) for w in words)
        assert all(GAME.render(e, "en") == "Player 1 places a piece" for e in seen)


def test_determinize_while_placing_moves_the_hidden_pieces():
    state = GAME.new_state(1, {"players": [{"preset": "starter_dawn"}, {"preset": "starter_dusk",
                                                                         "placement": "choose"}]})
    rng = random.Random(0)
    layouts = {tuple(sorted(p[SQ] for p in state.determinize(1, rng).own[0])) for _ in range(20)}
    assert len(layouts) > 5
    assert {tuple(sorted(p[SQ] for p in state.determinize(0, rng).own[0])) for _ in range(5)} == \
        {tuple(sorted(p[SQ] for p in state.own[0]))}


def test_a_record_with_placements_replays_to_the_same_position():
    game = load_game("capsule", first_player="random")
    match = Match(game, 11, game.setup_for_people(None, {0, 1}))
    for text in ("K@h1", "2@a1", "random", "3@e8", "random"):
        match.play_text(text)
    rng = random.Random(11)
    while not match.is_over:
        match.play(rng.choice(match.state.legal_actions()))
    record = json.loads(json.dumps(match.record()))
    assert record["actions"][:2] == ["K@h1", "2@a1"]
    assert verify(record).state == match.state


def test_notation_and_action_indexes_of_the_placement():
    state = GAME.new_state(1, BOTH)
    indexes = {GAME.action_index(a) for a in state.legal_actions()}
    assert len(indexes) == len(state.legal_actions()) and max(indexes) == GAME.num_distinct_actions - 1
    assert GAME.format_action(GAME.parse_action(state, " k @ D1 ")) == "K@d1"


def test_people_choose_only_where_the_setup_places_nothing():
    setup = {"players": [{"preset": "starter_dawn", "placement": {"a1": "K", "b1": 0, "c1": 1, "d1": 2}},
                         {"preset": "starter_dusk"}]}
    assert GAME.setup_for_people(setup, {0, 1})["players"] == [setup["players"][0],
                                                               {"preset": "starter_dusk", "placement": "choose"}]
    assert GAME.setup_for_people(None, set()) is None
    with pytest.raises(SetupError, match="unknown team preset"):
        GAME.setup_for_people({"players": [{"preset": "nope"}, {"preset": "starter_dusk"}]}, {0})
