"""Checks every game must pass, shared by the game test suites (see docs/engine.md).

`play_random_games` plays seeded random games to the end and, after every action, runs the
game's own invariants, and at sampled steps the contract's round trips and the leak property.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from coliseo.core.errors import ColiseoError, IllegalAction, InvalidNotation


def check_round_trips(game, state) -> None:
    """Position and notation round trips, and the action mask agrees with the legal actions."""
    doc = state.to_json()
    json.dumps(doc)                                   # JSON-safe
    again = game.state_from_json(json.loads(json.dumps(doc)))
    assert again == state, "state_from_json(to_json(s)) differs from s"
    assert again.legal_actions() == state.legal_actions()
    for action in state.legal_actions():
        text = game.format_action(action)
        assert game.parse_action(state, text) == action, f"notation round trip fails for {text!r}"
    check_board_steps(game, state)
    mask = state.legal_action_mask()
    assert sum(mask) == len(state.legal_actions()), "two legal actions share an action index"
    for action in state.legal_actions():
        assert mask[game.action_index(action)] == 1
    check_clone_independent(state)


def check_board_steps(game, state) -> None:
    """Each legal action has its board steps (docs/web.md, "The board contract"): a list of target ids, [] for a
    turn control, and no two actions are built by the same clicks."""
    legal = state.legal_actions()
    steps = game.board_steps(state, legal)
    assert len(steps) == len(legal), "board_steps gives one list per legal action"
    built_by: dict[tuple, str] = {}
    for action, clicks in zip(legal, steps, strict=True):
        assert isinstance(clicks, list) and all(isinstance(c, str) and c for c in clicks), clicks
        if clicks:
            text = game.format_action(action)
            assert built_by.setdefault(tuple(clicks), text) == text, \
                f"{text!r} and {built_by[tuple(clicks)]!r} are built by the same board steps {clicks}"


def check_clone_independent(state) -> None:
    """An action applied to a clone leaves the original as it was: its position, legal actions and views."""
    legal = state.legal_actions()
    if not legal:
        return
    viewers = [*state.players, None]
    before = (state.to_json(), list(legal), [state.observation(v) for v in viewers])
    state.clone().apply(legal[len(legal) // 2])
    after = (state.to_json(), state.legal_actions(), [state.observation(v) for v in viewers])
    assert after == before, "applying an action to a clone changed the original"


def check_leak(state, rng: random.Random) -> None:
    """The leak property: a player cannot tell a determinization from the real state. And every player's
    determinization is a position like any other: what a fresh load of it lists and shows, it lists and shows
    (the real state's legal list is derived first, as at a search's root)."""
    game = state.game
    state.legal_actions()
    for player in state.players:
        seen = state.observation(player)
        world = state.determinize(player, rng)
        assert world.observation(player) == seen, f"determinize({player}) changes player {player}'s observation"
        fresh = game.state_from_json(json.loads(json.dumps(world.to_json())))
        assert world.legal_actions() == fresh.legal_actions(), \
            f"determinize({player}) lists other actions than a fresh load of its position"
        for viewer in [*state.players, None]:
            assert world.observation(viewer) == fresh.observation(viewer), \
                f"determinize({player}) shows viewer {viewer} otherwise than a fresh load of its position"
        if player == state.current_player:
            assert world.legal_actions() == state.legal_actions(), \
                "the mover's legal actions depend on what they cannot see"
        json.dumps(seen)


def play_random_games(game, games: int, seed: int, invariants=None, sample_every: int = 11,
                      setup_for=None) -> list[list]:
    """Random games to the end; returns each game's actions (for determinism checks)."""
    histories = []
    for i in range(games):
        rng = random.Random(seed * 100_003 + i)
        setup = setup_for(i) if setup_for else None
        state = game.new_state(seed + i, setup)
        actions = []
        step = 0
        while not state.is_over:
            legal = state.legal_actions()
            assert legal, "a game in progress must have a legal action"
            if step % sample_every == 0:
                check_round_trips(game, state)
                check_leak(state, rng)
            action = rng.choice(legal)
            state.apply(action)
            actions.append(action)
            if invariants:
                invariants(state)
            step += 1
            assert step < 100_000, "a random game did not end"
        assert state.current_player is None and state.legal_actions() == []
        check_round_trips(game, state)
        histories.append(actions)
    return histories


def replay(game, seed: int, actions: list, setup=None):
    state = game.new_state(seed, setup)
    for action in actions:
        state.apply(action)
    return state


def check_illegal_untouched(game, state, action) -> str:
    """An illegal action raises a readable IllegalAction and leaves the state as it was."""
    before = state.to_json()
    with pytest.raises(IllegalAction) as caught:
        state.apply(action)
    assert state.to_json() == before
    assert str(caught.value)
    return str(caught.value)


def check_bad_notation(game, state, text: str) -> str:
    before = state.to_json()
    with pytest.raises(InvalidNotation) as caught:
        game.parse_action(state, text)
    assert state.to_json() == before
    assert "Legal now" in str(caught.value) or "legal now" in str(caught.value)
    return str(caught.value)


def golden_playthrough(game, seed: int, agent_seed: int, setup=None, max_steps: int = 400) -> str:
    """One seeded random game: every player's observation (and spectator's) at every step, as text."""
    rng = random.Random(agent_seed)
    state = game.new_state(seed, setup)
    lines = [f"game {game.id} options {json.dumps(game.options, sort_keys=True)} seed {seed}"]
    viewers = [*state.players, None]
    for step in range(max_steps + 1):
        lines.append(f"== step {step}")
        for viewer in viewers:
            view = json.dumps(state.observation(viewer), sort_keys=True, separators=(",", ":"))
            lines.append(f"view {viewer}: {view}")
        if state.is_over:
            break
        action = rng.choice(state.legal_actions())
        lines.append(f"action: {game.format_action(action)}")
        for event in state.apply(action):
            lines.append(f"event: {json.dumps(event, sort_keys=True)}")
    return "\n".join(lines) + "\n"


def compare_golden(path: Path, text: str) -> None:
    """The golden file must match; COLISEO_REGEN_GOLDEN=1 rewrites it (review the diff!)."""
    if os.environ.get("COLISEO_REGEN_GOLDEN") == "1" or not path.exists():
        if os.environ.get("CI") and not path.exists():
            pytest.fail(f"golden file {path} is missing")
        path.write_text(text, encoding="utf-8")
    expected = path.read_text(encoding="utf-8")
    if expected != text:
        for n, (a, b) in enumerate(zip(expected.splitlines(), text.splitlines()), 1):
            if a != b:
                pytest.fail(f"golden playthrough differs from {path.name} at line {n}:\n- {a[:300]}\n+ {b[:300]}")
        pytest.fail(f"golden playthrough differs from {path.name} in length")


__all__ = [
    "ColiseoError", "check_board_steps", "check_round_trips", "check_clone_independent", "check_leak",
    "play_random_games", "replay", "check_illegal_untouched", "check_bad_notation", "golden_playthrough",
    "compare_golden"]
