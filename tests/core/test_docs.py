"""The project holds its own rules: every rule number the code and tests cite is in docs/rules/<game>.md,
and nothing in the repository points at files outside it."""

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("capsule", "dungeon_dice", "fantastiqa", "forbidden")
CITE = re.compile(r"(?<![\w-])([RD]\d+)(?![\w])")


def cited(game: str) -> set[str]:
    files = [*(ROOT / "src/coliseo/games" / game).rglob("*.py"), *(ROOT / "tests/games" / game).rglob("*.py")]
    return {m for f in files if f.exists() for m in CITE.findall(f.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_and_decision_the_code_cites_is_in_the_games_rules_page(game):
    page = (ROOT / "docs/rules" / f"{game}.md").read_text(encoding="utf-8")
    defined = set(re.findall(r"\*\*([RD]\d+)\b|\| ([RD]\d+) \||^- \*\*([RD]\d+)", page, re.M))
    defined = {x for group in defined for x in group if x}
    missing = sorted(cited(game) - defined, key=lambda x: (x[0], int(x[1:])))
    assert not missing, f"cited but not defined in docs/rules/{game}.md: {missing}"


def test_no_file_points_outside_the_repository():
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    outside = re.compile(r"\.\./shared|/work/|shared/(rules|data|seeds)")
    hits = [f"{name}:{n}" for name in files if not name.startswith(".ci/") and (ROOT / name).is_file()
            for n, line in enumerate((ROOT / name).read_text(encoding="utf-8", errors="replace").splitlines(), 1)
            if outside.search(line) and "test_docs.py" not in name]
    assert not hits, hits
