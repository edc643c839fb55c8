"""The opponent's last turn on every board (issue 50), in Chromium against a real server: after an AI's turn of
several actions, every board thing those actions name carries the class `recent`, until the person acts; what a
hidden action touched is marked without being named. COLISEO_SCREENSHOTS=folder keeps a picture of each."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import pytest
from web.board_play import click_by_board, over, wait_my_turn_or_end
from web.test_access import take_seat
from web.test_browser import stored_match
from web.test_live import Socket

from coliseo.core.events import view_events
from coliseo.games.forbidden.state import ID

ME, AI = 0, 1
SQUARE = re.compile(r"^[a-z]\d{1,2}$")


def capsule_ids(text: str) -> list[str]:
    """`c3-c4`, `c3xc4`, `S b2`, `R b2`, `c3!heal@c4`: the squares named."""
    return re.findall(r"[a-z]\d+", text)


def dungeon_dice_ids(text: str) -> list[str]:
    """`move e6 b7`, `attack g10 f10`, `dim P2@e2`, `effect g15`, `zash1 g2`, `spell C f1`: the squares named."""
    words = text.replace("@", " ").split()
    return [w for w in words[1:] if SQUARE.match(w)] if words[0] in (
        "move", "attack", "dim", "effect", "zash1", "zash2", "zash3", "spell") else []


def fantastiqa_ids(text: str) -> list[str]:
    """`sub 2 …` and `carpet 3`: the path; `start BL`, `teleport MR`: the region; `commit C Q`: the quest."""
    kind, *args = text.split()
    return {"sub": [f"sp{args[0]}"] if args else [], "carpet": [f"sp{args[0]}"] if args else [],
            "start": args[:1], "teleport": args[:1], "commit": args[1:2]}.get(kind, [])


def forbidden_ids(text: str) -> list[str]:
    """The AI is Player 2: its zones are `op-`, the person's `my-` (a direct attack hurts `my-lp`)."""
    kind, *args = text.split()
    if kind == "play" and args[1] != "act":
        return [f"op-{args[1]}"]
    if kind == "attack":
        return ["op-" + args[0], "my-lp" if args[1] == "direct" else "my-" + args[1]]
    if kind in ("pos", "act"):
        return [f"op-{zone}" for zone in args]
    return []


GAMES = {   # game: (options, AI agent, the board ids an action's notation names)
    "capsule": ({}, "greedy", capsule_ids),
    "dungeon_dice": ({}, "greedy", dungeon_dice_ids),
    "fantastiqa": ({}, "random", fantastiqa_ids),
    "forbidden": ({}, "random", forbidden_ids),
}


def open_table(page, server, game: str) -> dict:
    options, agent, _ = GAMES[game]
    made = server.post("/api/games", {"game": game, "options": options,
                                      "seats": [{"kind": "human"}, {"kind": "ai", "agent": agent}]})
    take_seat(page, server, made)
    page.wait_for_selector("body[data-ply]")
    return made


def opponent_turn(match) -> list:
    """The AI's steps since the person's last one."""
    start = len(match.steps)
    while start and match.steps[start - 1].player != ME:
        start -= 1
    return match.steps[start:]


def busy_opponent_turn(page, server, game: str, game_id: str, rng: random.Random):
    """Board clicks until the person is to move after an AI turn of two or more actions that name board things;
    returns the stored match and those actions, or None if the game ends first."""
    name_ids = GAMES[game][2]
    for _ in range(3000):
        wait_my_turn_or_end(page)
        if over(page):
            return None
        match = stored_match(server, game_id)
        assert page.get_attribute("body", "data-ply") == str(len(match.steps))
        named = [a for a in map(match.game.format_action, (s.action for s in opponent_turn(match))) if name_ids(a)]
        if len(named) >= 2:
            return match, named
        click_by_board(page, rng, board_bias=0.9)
    pytest.fail("no AI turn of several board actions in 3000 clicks")


def recent_ids(page) -> set[str]:
    return set(page.locator("#board .recent").evaluate_all(
        "nodes => nodes.map((n) => n.dataset.target || n.dataset.inspect || n.className)"))


def hidden_strings(match) -> set[str]:
    """What the AI's last turn told only the AI: the private fields the person may not read."""
    hidden = set()
    for step in opponent_turn(match):
        for event, seen in zip(step.events, view_events(step.events, ME)):
            for key, value in event.get("private", {}).get("fields", {}).items():
                if key not in seen:
                    hidden |= {str(v) for v in (value if isinstance(value, list) else [value])}
    return hidden


def shot(page, name: str) -> None:
    if folder := os.environ.get("COLISEO_SCREENSHOTS"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / name))


def check_marks(page, server, made: dict, game: str, match, named: list[str]) -> list[str]:
    """Every id the AI's actions name is `recent` on the board and in the state's marks, which name nothing the AI's
    turn kept from the person; returns the marks."""
    expected = {i for a in named for i in GAMES[game][2](a)}
    on_board = {i for i in expected if page.locator(f'#board [data-target="{i}"], #board [data-inspect="{i}"]').count()}
    assert on_board, (named, expected)
    lit = recent_ids(page)
    assert on_board <= lit, f"the AI played {named}; not marked: {sorted(on_board - lit)}"
    reader = Socket(server, made["id"], made["token"])
    marks = reader.state["marks"]
    reader.close()
    assert on_board <= set(marks)
    secrets = hidden_strings(match)
    assert not {token for m in marks for token in re.split(r"[-:@]", m)} & secrets, (marks, secrets)
    shot(page, f"recent-{game}.png")
    return marks


def check_the_marks_go_when_the_person_acts(page, server, made: dict, ply: int, rng: random.Random) -> None:
    while int(page.get_attribute("body", "data-ply")) == ply:      # the person's next action, by clicks
        click_by_board(page, rng, board_bias=0.9)
    after = stored_match(server, made["id"])
    if after.steps[-1].player == ME and page.get_attribute("body", "data-ply") == str(len(after.steps)):
        assert page.locator("#board .recent").count() == 0, "the marks stay only until the person acts"


@pytest.mark.parametrize("game", list(GAMES))
def test_the_opponents_whole_turn_stays_marked_until_the_person_acts(page, server, page_errors, game):
    rng = random.Random(50)
    for _ in range(3):                   # the server draws the seed: a game may end before such a turn comes
        made = open_table(page, server, game)
        if found := busy_opponent_turn(page, server, game, made["id"], rng):
            break
    else:
        pytest.fail(f"three games of {game} ended before the AI played a turn of several board actions")
    match, named = found
    check_marks(page, server, made, game, match, named)
    check_the_marks_go_when_the_person_acts(page, server, made, len(match.steps), rng)
    assert not page_errors, page_errors


def act(socket: Socket, text: str) -> None:
    socket.send({"type": "act", "action": text, "ply": socket.state["ply"], "undos": socket.state["undos"]})
    assert socket.answer()["type"] == "ack"


def test_a_monster_played_face_down_is_marked_on_its_zone_and_never_named(page, server, page_errors):
    """Forbidden, Player 2 a person who moves first: a monster played face down and placed in defence marks its
    zone on Player 1's board, and neither the marks nor the zone say which card it is."""
    made = server.post("/api/games", {"game": "forbidden", "options": {"first_player": "1"},
                                      "seats": [{"kind": "human"}, {"kind": "human"}]})
    second = server.post(f"/api/games/{made['id']}/join", {"invite": made["invite"]})
    take_seat(page, server, made)
    opponent = Socket(server, made["id"], second["token"])
    play = next(a for a in opponent.my_turn()["legal"] if re.fullmatch(r"play \d m\d fd", a))
    act(opponent, play)
    while place := next((a for a in opponent.state["legal"] if a.startswith("place d")), None):
        act(opponent, place)
    act(opponent, "end")
    opponent.close()
    wait_my_turn_or_end(page)
    zone = f"op-{play.split()[2]}"
    match = stored_match(server, made["id"])
    card = match.state.monsters[AI][int(zone[-1]) - 1][ID]
    element = page.locator(f'#board [data-target="{zone}"]')
    assert "recent" in element.get_attribute("class") and element.get_attribute("data-facedown") == "true"
    assert match.game.card_name(card) not in element.evaluate("n => n.textContent + n.getAttribute('aria-label')")
    reader = Socket(server, made["id"], made["token"])
    assert reader.state["marks"] == [zone]
    reader.close()
    shot(page, "recent-forbidden-face-down.png")
    assert not page_errors, page_errors
