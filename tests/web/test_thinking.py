"""AI moves computed in other processes: a local pool, and a real (local) Ray cluster."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from coliseo.core.match import Match
from coliseo.core.registry import load_game
from coliseo.web.thinking import Job, PoolThinker


def played(game_id: str, plies: int, seed: int = 11) -> tuple[Match, list[str]]:
    game = load_game(game_id)
    match, texts, rng = Match(game, seed, None), [], random.Random(seed)
    for _ in range(plies):
        action = rng.choice(match.state.legal_actions())
        texts.append(game.format_action(action))
        match.play(action)
    return match, texts


def job_for(match: Match, texts: list[str], key: str = "g") -> Job:
    return Job(key=key, game=match.game.id, options=dict(match.game.options), seed=match.seed, setup=None,
               salt=match.salt, created=match.created, actions=tuple(texts), player=match.state.current_player,
               agent="greedy", agent_seed=5)


def run(coroutine):
    """The coroutine's result, on an event loop of its own (a browser test may hold this thread's loop)."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def assert_legal(match: Match, text: str) -> None:
    legal = [match.game.format_action(a) for a in match.state.legal_actions()]
    assert text in legal, f"{text!r} is not one of {legal}"


def test_the_pool_answers_legal_moves_as_the_game_goes_on_and_after_an_undo():
    thinker = PoolThinker(1)
    try:
        for plies in (3, 6, 5):              # 5 after 6 (an undo): the cached game is replayed from the start
            match, texts = played("dungeon_dice", plies)
            assert_legal(match, run(thinker.think(job_for(match, texts))))
    finally:
        thinker.close()


def test_a_ray_cluster_answers_legal_moves():
    """In a process of its own: Ray keeps per-process state that other tests' Ray sessions leave behind."""
    script = ("from coliseo.web.thinking import RayThinker\n"
              "from test_thinking import assert_legal, job_for, played, run\n"
              "thinker = RayThinker('local')\n"
              "try:\n"
              "    match, texts = played('capsule', 2)\n"
              "    assert_legal(match, run(thinker.think(job_for(match, texts))))\n"
              "finally:\n"
              "    thinker.close()\n")
    path = os.pathsep.join(filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": path})
    assert done.returncode == 0, done.stderr[-3000:]


def test_the_web_seat_moves_as_the_lab_agent_at_the_same_seat_seed_and_position():
    """The web makes an agent for each move (`think`), the lab one for a whole game (sim's agent spec, asked move
    after move); each move is searched afresh, so at the same seat, seed and position both choose the same move.
    Capsule's `mcts` plays at `scale=game`, whose statistics once ran on across a game's moves."""
    from coliseo.agents import Seat
    from coliseo.sim.spec import build_agent
    from coliseo.web.thinking import think

    game = load_game("capsule")
    lab, opponent = build_agent("mcts", game, seed=5), build_agent("greedy", game, seed=6)
    match, texts, chance = Match(game, 11, None), [], random.Random(11)
    compared = 0
    while not match.is_over and compared < 6:
        player = match.state.current_player
        if player == 0 and len(match.state.legal_actions()) > 1:
            action = lab.act(Seat(match.state, 0, random.Random(5)))     # the seat as the web builds it
            job = Job(key="lab", game="capsule", options=dict(game.options), seed=11, setup=None, salt=match.salt,
                      created=match.created, actions=tuple(texts), player=0, agent="mcts", agent_seed=5)
            assert think(job) == game.format_action(action), f"the web and the lab differ at ply {len(texts)}"
            compared += 1
        else:
            action = opponent.act(Seat(match.state, player, chance))
        texts.append(game.format_action(action))
        match.play(action)
    assert compared == 6
