"""Records, replay, verification, the seed commitment and undo (docs/engine.md, "Records, replay, undo")."""

import json
import random

import pytest

from coliseo import IllegalAction, RecordError, list_games, load_game
from coliseo.core.match import (
    Command,
    Match,
    read_record,
    replay,
    save_record,
    scheme_1_commitment,
    seed_commitment,
    verify,
)

# The starter presets with the Kings on d1 and d8 (R9), for tests that move them.
KINGS_ON_D = {"players": [{"preset": "starter_dawn", "placement": {"d1": "K", "c1": 0, "e1": 1, "b1": 2}},
                          {"preset": "starter_dusk", "placement": {"d8": "K", "c8": 0, "e8": 1, "b8": 2}}]}


def finished_match(seed=5):
    game = load_game("capsule")
    match = Match(game, seed)
    rng = random.Random(seed)
    while not match.state.is_over:
        match.play(rng.choice(match.state.legal_actions()))
    return match


def test_a_finished_record_reveals_the_seed_and_verifies():
    match = finished_match()
    record = match.record()
    assert record["format"] == "coliseo-record/1" and record["seed"] == 5
    assert record["seed_commitment"] == seed_commitment(5, record["salt"], options=record["options"], setup=None)
    assert record["commitment_scheme"] == 2
    assert verify(record).state == match.state


def test_an_unfinished_record_keeps_the_seed_sealed():
    match = Match(load_game("capsule"), 77)
    match.play_text("end")
    record = match.record()
    assert record["seed"] is None and record["salt"] is None
    assert 77 not in record.values() and record["setup"] is None
    with pytest.raises(RecordError, match="sealed"):
        replay(record)


def test_an_unfinished_record_seals_the_setup_that_names_hidden_teams():
    setup = {"players": [{"king": "dawn_king", "team": ["prism_archer"]},
                         {"king": "dusk_king", "team": ["hollow_mask"]}]}
    match = Match(load_game("capsule"), 12, setup)
    assert "hollow_mask" not in json.dumps(match.record())
    match.play_text("end")
    match.play_text("end")
    assert match.state.is_over and verify(match.record()).state == match.state
    forged = match.record()
    forged["setup"]["players"][1]["team"] = ["grave_rat"]
    with pytest.raises(RecordError, match="tampered"):
        verify(forged)


def test_the_commitment_is_fixed_from_the_start():
    match = Match(load_game("capsule"), 9)
    before = match.record()["seed_commitment"]
    match.play_text("end")
    assert match.record()["seed_commitment"] == before


def test_a_changed_seed_is_caught_by_the_commitment():
    record = finished_match().record()
    record["seed"] += 1
    with pytest.raises(RecordError, match="commitment"):
        verify(record)


def test_the_commitment_covers_the_options_and_the_setup_and_verify_names_the_part_changed():
    game = load_game("capsule", mode="advanced")
    setup = game.setup_for_sides(["adv_storm", "adv_stone"])
    match = Match(game, 4, setup)
    assert match.commitment == match.record()["seed_commitment"]
    assert match.commitment != Match(load_game("capsule", mode="advanced", max_turns=9), 4, setup,
                                     salt=match.salt).commitment
    assert match.commitment != Match(game, 4, game.setup_for_sides(["adv_stone", "adv_storm"]),
                                     salt=match.salt).commitment
    match.play(Command("resign", 0))
    record = match.record()
    assert verify(record).result == record["result"]
    for part, change in [("options", {"max_turns": record["options"]["max_turns"] + 1}),
                         ("setup", {"setup": game.setup_for_sides(["adv_stone", "adv_storm"])}),
                         ("seed", {"seed": 5})]:
        changed = {**record, **change} if part != "options" else {**record, "options": {**record["options"], **change}}
        with pytest.raises(RecordError, match=f"does not match the record's {part}: the record was tampered"):
            verify(changed)
    with pytest.raises(RecordError, match="seed, options and setup \\(or its salt\\)"):
        verify({**record, "salt": "0" * 32})
    with pytest.raises(RecordError, match="parts do not make its seed commitment"):
        verify({**record, "commitment_parts": {**record["commitment_parts"], "options": "0" * 64}})


def test_verify_checks_the_commitment_the_player_was_shown():
    record = finished_match().record()
    assert verify(record, record["seed_commitment"].upper()).result == record["result"]
    with pytest.raises(RecordError, match="not the commitment you were shown"):
        verify(record, ("1" if record["seed_commitment"][0] == "0" else "0") + record["seed_commitment"][1:])


def test_a_record_of_scheme_1_verifies_with_its_own_formula_and_still_seals_the_setup():
    """Records written before `commitment_scheme` committed the seed, salt and setup (not the options)."""
    record = finished_match().record()
    old = {k: v for k, v in record.items() if k not in ("commitment_scheme", "commitment_parts")}
    old["seed_commitment"] = scheme_1_commitment(record["seed"], record["salt"], record["setup"])
    assert verify(old).result == record["result"]
    with pytest.raises(RecordError, match="seed and setup do not match the seed commitment \\(scheme 1\\)"):
        verify({**old, "seed": record["seed"] + 1})
    with pytest.raises(RecordError, match="'commitment_scheme' must be 1 or 2"):
        verify({**old, "commitment_scheme": 3})
    with pytest.raises(RecordError, match="'commitment_parts' must hold"):
        verify({**record, "commitment_parts": None})


def test_a_changed_result_is_caught_by_the_replay():
    record = finished_match().record()
    record["result"] = {"winners": [1] if record["result"]["winners"] == [0] else [0], "reason": "king_destroyed",
                        "scores": [0, 0]}
    with pytest.raises(RecordError, match="replay ends"):
        verify(record)


def test_an_illegal_action_in_a_record_is_named():
    record = finished_match().record()
    record["actions"][0] = "a1xh8"
    with pytest.raises(RecordError, match="action 1"):
        replay(record)


@pytest.mark.parametrize("bad", [[], "text", {"format": "other"}, {"format": "coliseo-record/1"}])
def test_malformed_records_are_refused(bad):
    with pytest.raises(RecordError):
        replay(bad)


def test_records_save_and_load(tmp_path):
    match = finished_match()
    path = tmp_path / "game.json"
    save_record(match.record(), path)
    assert read_record(path) == match.record()
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(RecordError, match="not a JSON record"):
        read_record(tmp_path / "broken.json")
    with pytest.raises(RecordError, match="no such record"):
        read_record(tmp_path / "missing.json")


def test_undo_takes_back_your_own_move_in_your_turn():
    match = Match(load_game("capsule"), 1, KINGS_ON_D)
    before = match.state.to_json()
    match.play_text("d1-d2")
    assert match.can_undo(0)
    match.undo(0)
    assert match.state.to_json() == before and match.steps == []


def test_undo_never_passes_a_reveal():
    match = Match(load_game("capsule"), 1, KINGS_ON_D)
    match.play_text("S c1")                       # the summon reveals the capsule's monster
    assert not match.can_undo(0)
    with pytest.raises(IllegalAction, match="nothing to undo"):
        match.undo(0)


def test_undo_is_only_for_the_player_whose_turn_it_is():
    match = Match(load_game("capsule"), 1, KINGS_ON_D)
    match.play_text("d1-d2")
    assert not match.can_undo(1)
    match.play_text("end")
    assert not match.can_undo(0) and not match.can_undo(1)      # the turn is over


def test_undo_never_passes_a_random_event():
    """Any action that draws on the state's RNG is a barrier, in whichever game rolls or shuffles."""
    for game_id in list_games():
        game = load_game(game_id)
        match = Match(game, 11)
        rng = random.Random(0)
        for _ in range(300):
            if match.state.is_over:
                break
            before = match.state.rng.state
            match.play(rng.choice(match.state.legal_actions()))
            if match.state.rng.state != before:
                assert match.steps[-1].barrier
                assert not match.can_undo(match.steps[-1].player)


def test_scouting_is_a_reveal_that_cannot_be_undone():
    from games.capsule.helpers import piece, position

    s = position([piece("d1", 0, "dawn_king"), piece("d4", 1, "dusk_king"),
                  piece("d3", 0, "prism_archer", kind="capsule"), piece("h8", 1, "volt_mite")], active=1)
    assert "scout" in s.game.revealing_events
    assert any(e["type"] == "scout" for e in s.apply(s.game.parse_action(s, "d4!scout@d3")))


def test_table_commands_are_steps_that_undo_never_crosses_and_verify_checks():
    game = load_game("capsule")
    match = Match(game, 3, KINGS_ON_D)
    match.play_text("d1-d2")
    match.play_text("!offer-draw 0")
    assert match.draw_offer == 0 and not match.can_undo(0), "a command is a barrier for undo"
    with pytest.raises(IllegalAction, match="already stands"):
        match.play(Command("offer-draw", 0))
    with pytest.raises(IllegalAction, match="not a command"):
        match.play_text("!surrender 0")
    with pytest.raises(IllegalAction, match="write the player"):
        match.play_text("!resign")
    match.play_text("!accept-draw 1")
    assert match.is_over and match.current_player is None and match.result["reason"] == "draw_agreed"
    with pytest.raises(IllegalAction, match="over"):
        match.play_text("end")
    record = match.record()
    assert record["actions"] == ["d1-d2", "!offer-draw 0", "!accept-draw 1"] and record["seed"] == 3
    assert verify(record).result == record["result"]
    record["actions"] = record["actions"][:-1]
    with pytest.raises(RecordError, match="the replay ends with None"):
        verify(record)
