"""Dungeon Dice pace: greedy against greedy. Prints JSON: mean turns per game, share of turns that gain
no crest, share of games that reach the turn limit (and how games end).

    python bench/ddm_pace.py [games] [seed] [option=value ...] [vs=random]

With `vs=random` the second agent is random (seats alternate) and the greedy agent's wins are counted.
"""

import json
import random
import sys
import time

from coliseo import load_game
from coliseo.agents import Seat, make_agent


def main(games: int = 20, seed: int = 1, vs: str = "greedy", **options) -> dict:
    game = load_game("dungeon_dice", **options)
    turns, dry_turns, all_turns, limit_games, hearts_games, draws = [], 0, 0, 0, 0, 0
    heart_losses, summons, greedy_wins = 0, 0, 0
    t0 = time.perf_counter()
    for i in range(games):
        seat = i % 2 if vs != "greedy" else 0             # the greedy agent's seat when the other is not greedy
        agents = [make_agent("greedy", game, seed * 1000 + 2 * i), make_agent(vs, game, seed * 1000 + 2 * i + 1)]
        if seat == 1:
            agents.reverse()
        rng = random.Random(seed * 7919 + i)
        state = game.new_state(seed * 100_000 + i)
        gained = None
        # the first turn's roll happened inside new_state: count it from the state's pool
        first_gain = sum(state.pool[state.active]) > 0
        all_turns += 1
        dry_turns += not first_gain
        while not state.is_over:
            player = state.current_player
            events = state.apply(agents[player].act(Seat(state, player, rng)))
            for e in events:
                if e["type"] == "turn":
                    all_turns += 1
                    gained = False
                elif e["type"] == "roll" and e["gain"] != "-":
                    gained = True
                elif e["type"] == "heart":
                    heart_losses += 1
                elif e["type"] == "summon":
                    summons += 1
            if any(e["type"] == "turn" for e in events):
                dry_turns += not gained
        turns.append(state.turn)
        reason = state.result["reason"]
        limit_games += reason == "turn_limit"
        hearts_games += reason == "all_hearts_lost"
        draws += not state.result["winners"]
        greedy_wins += state.result["winners"] == [seat]
    return {
        "game": "dungeon_dice", "agents": f"greedy vs {vs}", "games": games, "options": options,
        **({"greedy_wins": greedy_wins} if vs != "greedy" else {}),
        "mean_turns_per_game": round(sum(turns) / games, 1),
        "share_turns_gaining_no_crest": round(dry_turns / all_turns, 3),
        "share_games_reaching_turn_limit": round(limit_games / games, 3),
        "share_games_won_on_hearts": round(hearts_games / games, 3),
        "draws": draws,
        "hearts_lost_per_game": round(heart_losses / games, 2),
        "monsters_put_on_board_per_game": round(summons / games, 1),
        "seconds": round(time.perf_counter() - t0, 1),
    }


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    s = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    opts = {}
    for arg in sys.argv[3:]:
        k, _, v = arg.partition("=")
        opts[k] = int(v) if v.isdigit() else v
    print(json.dumps(main(n, s, **opts), indent=2))
