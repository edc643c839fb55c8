"""Records, replay and undo for Fantastiqa through the core Match."""

import random

import pytest

from coliseo import load_game
from coliseo.core.errors import IllegalAction
from coliseo.core.match import Match


def test_a_record_replays_from_its_notation():
    game = load_game("fantastiqa", players=3, max_turns=25)
    match = Match(game, seed=77)
    rng = random.Random(3)
    while not match.state.is_over:
        match.play(rng.choice(match.state.legal_actions()))
    record = match.record()
    again = game.new_state(record["seed"])
    for text in record["actions"]:
        again.apply(game.parse_action(again, text))
    assert again == match.state and again.result == record["result"]


def test_undo_takes_back_a_commit_but_not_a_draw():
    game = load_game("fantastiqa", players=2)
    match = Match(game, seed=5)
    while match.state.phase == "draft":
        match.play(match.state.legal_actions()[0])
    p = match.state.current_player
    before = match.state.to_json()
    commit = next((a for a in match.state.legal_actions() if a[0] == "commit"), None)
    discard = next(a for a in match.state.legal_actions() if a[0] == "discard")
    match.play(commit or discard)
    assert match.can_undo(p)
    match.undo(p)
    assert match.state.to_json() == before
    match.play(("end",))                              # draws cards and reveals creatures: a barrier
    assert not match.can_undo(p)
    with pytest.raises(IllegalAction):
        match.undo(p)
