"""AI moves computed in other processes: a local pool, and a real (local) Ray cluster."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor

from coliseo.core.match import Match
from coliseo.core.registry import load_game
from coliseo.web.thinking import Job, PoolThinker, RayThinker


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
    thinker = RayThinker("local")
    try:
        match, texts = played("capsule", 2)
        assert_legal(match, run(thinker.think(job_for(match, texts))))
    finally:
        thinker.close()
