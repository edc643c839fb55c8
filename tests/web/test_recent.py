"""The marks of the opponent's last turn (web/recent.py, each game's `board_marks`): whose steps a reader sees marked,
what each game names, and marks made only of what that reader may read, in every game."""

from __future__ import annotations

import random

import pytest

import coliseo
from coliseo.core.events import private, view_event
from coliseo.core.match import Match, Step
from coliseo.web.recent import last_turn, recent_marks

CAPSULE = coliseo.load_game("capsule")


def step(player: int, *events: dict) -> Step:
    return Step(action=None, player=player, turn=0, barrier=False, events=list(events))


def move(player: int, start: str, goal: str) -> dict:
    return {"type": "move", "player": player, "piece": "clay_brute", "from": start, "to": goal}


def attack(player: int, start: str, goal: str) -> dict:
    return {"type": "attack", "player": player, "piece": "clay_brute", "from": start, "to": goal, "amount": 2}


OPPONENTS_TURN = [step(0, move(0, "a1", "a2")), step(1, move(1, "h8", "h7")), step(1, attack(1, "h7", "h6")),
                  step(1, {"type": "turn_end", "player": 1}, {"type": "turn_start", "player": 0, "turn": 3, "ap": 6})]


def test_a_player_sees_marked_everything_the_other_did_since_their_own_last_action():
    assert recent_marks(CAPSULE, OPPONENTS_TURN, 0) == ["h8", "h7", "h6"]
    assert recent_marks(CAPSULE, OPPONENTS_TURN, 1) == []          # the mover: nothing answered yet by the other


def test_the_marks_stay_until_the_reader_acts():
    answered = [*OPPONENTS_TURN, step(0, move(0, "a2", "a3"))]
    assert recent_marks(CAPSULE, answered, 0) == []
    assert recent_marks(CAPSULE, answered, 1) == ["a2", "a3"]


def test_a_spectator_sees_the_turn_of_the_player_who_moved_last():
    assert last_turn(OPPONENTS_TURN, None) == OPPONENTS_TURN[1:]
    assert recent_marks(CAPSULE, OPPONENTS_TURN, None) == ["h8", "h7", "h6"]
    assert recent_marks(CAPSULE, [*OPPONENTS_TURN, step(0, move(0, "a2", "a3"))], None) == ["a2", "a3"]
    assert recent_marks(CAPSULE, [], None) == [] and recent_marks(CAPSULE, [], 0) == []


def test_a_player_who_has_not_acted_yet_sees_every_step_so_far():
    assert recent_marks(CAPSULE, OPPONENTS_TURN[1:], 0) == ["h8", "h7", "h6"]


def test_a_square_touched_twice_is_named_once_where_it_was_touched_last():
    steps = [step(1, move(1, "h8", "h7")), step(1, move(1, "g8", "g7")), step(1, attack(1, "h7", "h6"))]
    assert recent_marks(CAPSULE, steps, 0) == ["h8", "g8", "g7", "h7", "h6"]


def test_a_king_hurt_by_the_loss_of_its_monster_is_marked_by_its_owner():
    lost = step(1, attack(1, "c5", "c4"),
                {"type": "destroyed", "player": 0, "sq": "c4", "card": "prism_archer", "was_capsule": False},
                {"type": "king_damage", "player": 0, "amount": 4, "total": 4})
    assert recent_marks(CAPSULE, [lost], 0) == ["c5", "c4", "king1"]


def test_a_piece_placed_in_secret_marks_nothing_for_the_other_readers():
    placed = step(1, {"type": "place", "player": 1, "private": private([1], piece="dusk_king", sq="d8")})
    assert CAPSULE.board_marks(view_event(placed.events[0], 1), 1) == ["d8"]      # the placer's own view names it
    assert recent_marks(CAPSULE, [placed], 0) == [] and recent_marks(CAPSULE, [placed], None) == []


def test_a_face_down_summon_marks_its_zone_from_each_side_and_never_the_card():
    game = coliseo.load_game("forbidden")
    turn = [step(1, {"type": "summon_hidden", "player": 1, "zone": "m2", "private": private([1], card=542)}),
            step(1, {"type": "attack", "player": 1, "attacker": "m2", "target": "direct"},
                 {"type": "damage", "player": 0, "amount": 900, "lp": 7100})]
    assert recent_marks(game, turn, 0) == ["op-m2", "my-lp"]
    assert recent_marks(game, turn, None) == ["op-m2", "my-lp"]     # a spectator's board is Player 1's side
    assert recent_marks(game, [*turn, step(0, {"type": "heal", "player": 0, "amount": 500, "lp": 7600})], 1) == \
        ["op-lp"]
    destroyed = step(0, {"type": "destroy", "player": 1, "zone": "m2", "card": 542})
    assert recent_marks(game, [destroyed], 1) == ["my-m2", "my-grave"]


def test_a_fusion_marks_its_zone_and_the_pile_its_materials_went_to():
    game = coliseo.load_game("forbidden")
    fused = step(1, {"type": "play", "player": 1, "dest": "m3", "count": 2, "cards": [251, 410]},
                 {"type": "fusion", "player": 1, "materials": [251, 410], "result": 542},
                 {"type": "summon", "player": 1, "zone": "m3", "card": 542})
    assert recent_marks(game, [fused], 0) == ["op-grave", "op-m3"]
    assert recent_marks(game, [fused], None) == ["op-grave", "op-m3"]


def test_a_card_set_face_down_in_the_dungeon_is_marked_as_set_never_named():
    game = coliseo.load_game("dungeon_dice")
    turn = [step(1, {"type": "set", "player": 1, "private": private([1], card="binding_roots")}),
            step(1, {"type": "attack", "player": 1, "card": "cave_rat", "square": "g10", "target": "master",
                     "target_square": "g9"}, {"type": "heart", "player": 0, "hearts": 2}),
            step(1, {"type": "destroyed", "player": 0, "card": "pebble_golem", "square": "f4"})]
    assert recent_marks(game, turn, 0) == ["set2", "g10", "g9", "hearts1", "f4", "gy1:pebble_golem"]


def test_a_subdued_creature_marks_its_path_and_the_region_reached():
    game = coliseo.load_game("fantastiqa")
    turn = [step(1, {"type": "subdue", "player": 1, "space": 2, "card": "c02", "cards": ["p2SW"], "pos": 1,
                     "region": "FRZ"}, {"type": "creature_revealed", "space": 2, "card": "c05", "gems": 1}),
            step(1, {"type": "power", "player": 1, "card": "dog2", "effect": "GEMS"}),
            step(1, {"type": "cards_drawn", "player": 1, "count": 2, "private": private([1], cards=["p2FI"])})]
    assert recent_marks(game, turn, 0) == ["TR", "sp2", "P2"]


def with_secrets_changed(steps: list[Step], reader: int | None) -> list[Step]:
    """The steps with every private field the reader may not read given another value."""
    def changed(event: dict) -> dict:
        secret = event.get("private")
        if secret is None or reader in secret["to"]:
            return event
        return {**event, "private": {**secret, "fields": {k: "other" for k in secret["fields"]}}}
    return [Step(s.action, s.player, s.turn, s.barrier, [changed(e) for e in s.events]) for s in steps]


@pytest.mark.parametrize("game_id", coliseo.list_games())
def test_the_marks_never_depend_on_what_the_reader_may_not_read(game_id):
    """Random playouts (Capsule's placed by hand, in secret): every reader's marks after every step are the same
    whatever the others' secrets were."""
    game = coliseo.load_game(game_id)
    for seed in range(3):
        match = Match(game, seed, game.setup_for_people(None, {0, 1}))
        rng = random.Random(seed)
        while not match.is_over and len(match.steps) < 150:
            match.play(rng.choice(match.state.legal_actions()))
            for reader in (None, *match.state.players):
                assert recent_marks(game, match.steps, reader) == \
                    recent_marks(game, with_secrets_changed(match.steps, reader), reader)
