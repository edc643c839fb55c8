"""No board module reads notation (docs/web.md, "The board contract"): the engine gives each legal action its board
steps, its words and its kind; a board only draws what it is given."""

import re
from pathlib import Path

import pytest

BOARDS = sorted((Path(__file__).parents[2] / "src/coliseo/web/static/boards").glob("*.js"))
# What reading notation looked like: a function that put an action's text in words or took it apart, a pattern of it.
READS_NOTATION = re.compile(r"function (describe|control|parse)\(|const (ACTION|PLACE) = /")


@pytest.mark.parametrize("path", BOARDS, ids=lambda p: p.name)
def test_a_board_module_does_not_read_notation(path):
    found = [m.group() for m in READS_NOTATION.finditer(path.read_text())]
    assert found == [], f"{path.name} reads notation: {found}"


def test_the_boards_were_found():
    assert {p.stem for p in BOARDS} >= {"capsule", "forbidden", "fantastiqa", "dungeon_dice"}
