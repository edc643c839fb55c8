"""The web board's hints (calc.board_hints): enough to fold every chain of the seat's own cards exactly as the engine
does (the board's fusion preview), and made only from that seat's observation."""

import random
from itertools import permutations

import coliseo
from coliseo.games.forbidden.calc import board_hints, chain_steps
from coliseo.games.forbidden.content import MONSTER

GAME = coliseo.load_game("forbidden")
PACK = GAME.pack


def fold_with_hints(ids, start, hints):
    """The board's fold (boards/forbidden.js `fold`): a listed step fuses or equips, any other step fails."""
    a, mod = start if start else (ids[0], 0)
    for b in ids if start else ids[1:]:
        step = hints["steps"].get(f"{a}+{b}")
        monster_a = PACK.cards[a].kind == MONSTER
        if step and step[0] == "F":
            a, mod = step[1], 0
        elif step and monster_a:
            mod += step[1]
        elif step:
            a, mod = b, step[1]
        elif not (monster_a and PACK.cards[b].kind != MONSTER):
            a, mod = b, 0
    return a, mod


def positions(n_games=25):
    for seed in range(n_games):
        rng = random.Random(seed)
        s = GAME.new_state(seed)
        while not s.is_over:
            yield s
            s.apply(rng.choice(s.legal_actions()))


def test_the_hints_fold_every_chain_of_the_hand_and_onto_the_field_like_the_engine():
    checked = 0
    for s in positions():
        if s.phase != "main":
            continue
        seat = s.current_player
        obs = s.observation(seat)
        hints = board_hints(PACK, obs)
        hand = obs["sides"][seat]["hand"]
        field = [(m["id"], m["mod"]) for m in obs["sides"][seat]["monsters"] if m]
        for n in range(2, min(3, len(hand)) + 1):
            for order in permutations(hand, n):
                result, mod, _ = chain_steps(PACK, list(order))
                assert fold_with_hints(list(order), None, hints) == (result, mod)
                checked += 1
        for start in field:
            for card in hand:
                result, mod, _ = chain_steps(PACK, [card], start)
                assert fold_with_hints([card], start, hints) == (result, mod)
    assert checked > 1000


def test_the_hints_come_from_the_observation_alone():
    """Two worlds the seat cannot tell apart (determinized) give it the same hints; spectators get none."""
    for i, s in enumerate(positions(8)):
        if i % 7:
            continue
        seat = s.current_player
        other = s.determinize(seat, random.Random(i))
        assert board_hints(PACK, s.observation(seat)) == board_hints(PACK, other.observation(seat))
        assert board_hints(PACK, s.observation(None)) is None


def test_card_rows_carry_level_and_attribute_when_the_pack_has_them(tmp_path):
    """The board draws level stars and the attribute from the content rows; the starter pack has neither."""
    import shutil

    pack = tmp_path / "leveled"
    shutil.copytree(PACK.root, pack)
    lines = (pack / "cards.csv").read_text(encoding="utf-8").splitlines()
    lines[0] += ",level,attribute"
    lines = [lines[0]] + [line + (",8,Light" if line.startswith("1,") else ",,") for line in lines[1:]]
    (pack / "cards.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = {r["id"]: r for r in coliseo.load_game("forbidden", pack=str(pack)).card_rows()}
    assert rows[1]["level"] == "8" and rows[1]["attribute"] == "Light"
    assert "level" not in rows[2] and "level" not in GAME.card_rows()[0]
