"""`coliseo forbidden ...`: the fusion calculator and the drop table; the YGOFM data import."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from coliseo.core.errors import ColiseoError
from coliseo.games.forbidden.calc import card_id, drop_table, fusion_chains
from coliseo.games.forbidden.content import find_pack, load_pack
from coliseo.games.forbidden.importer import import_ygofm as _import

from .output import console, table
from .output import fail as _fail

app = typer.Typer(help="Forbidden duel tools: fusion calculator and drop table.", no_args_is_help=True)


def _ids(pack, text: str) -> list[int]:
    return [card_id(pack, part) for part in text.split(",") if part.strip()]


def import_ygofm(src_dir: str | Path, pack_name: str = "fm") -> Path:
    """Import the public YGOFM data folder as the user pack `pack_name`; returns the pack's folder."""
    return _import(src_dir, pack_name)


@app.command()
def fusions(hand: str = typer.Option(..., "--hand", help="hand cards: ids or names, comma-separated (1-5)"),
            field: str = typer.Option("", "--field", help="your field monsters, comma-separated"),
            pack: str = typer.Option("starter", "--pack", help="content pack (e.g. fm after importing it)"),
            json_out: bool = typer.Option(False, "--json", help="print JSON for scripts")) -> None:
    """Every fusion chain the hand (and field) allows, best result ATK first, with the pick order."""
    try:
        p = load_pack(pack)
        chains = fusion_chains(p, _ids(p, hand), _ids(p, field))
    except ColiseoError as e:
        _fail(str(e))
    if json_out:
        print(json.dumps(chains, ensure_ascii=False))
        return
    grid = table("result", "ATK/DEF", "pick order", "onto", "steps")
    for c in chains:
        stats = f"{c['atk']}/{c['def']}" if c["atk"] is not None else c["kind"]
        steps = "; ".join(f"{s['materials'][0]}+{s['materials'][1]}={s['result']}" if s["step"] == "fusion"
                          else f"equip {s['equip']} on {s['monster']}" for s in c["steps"])
        grid.add_row(f"{c['name']} #{c['result']}", stats, "+".join(map(str, c["order"])),
                      str(c["onto"] or ""), steps)
    console.print(grid)
    console.print(f"{len(chains)} chains")


def default_drop_pack() -> str:
    """The full imported pack when there is one, else the bundled starter pack."""
    try:
        find_pack("fm")
    except ColiseoError:
        return "starter"
    return "fm"


@app.command()
def drops(card: str = typer.Argument(..., help="card id or name"),
          pack: str | None = typer.Option(None, "--pack", help="content pack (default: the full one, fm, once "
                                          "imported; else the starter pack)"),
          json_out: bool = typer.Option(False, "--json", help="print JSON for scripts")) -> None:
    """Who drops CARD, from which rank pool, with what probability."""
    try:
        p = load_pack(pack or default_drop_pack())
        cid = card_id(p, card)
    except ColiseoError as e:
        _fail(str(e))
    rows = drop_table(p, cid)
    if json_out:
        print(json.dumps({"card": cid, "name": p.cards[cid].name, "drops": rows}, ensure_ascii=False))
        return
    grid = table("duelist", "pool", "weight", "probability")
    for r in rows:
        grid.add_row(f"{r['duelist']} {r['name']}", r["pool"], f"{r['weight']}/{r['total']}",
                      f"{100 * r['probability']:.2f}%")
    console.print(f"{p.cards[cid].name} #{cid}")
    console.print(grid)
    if not rows:
        hint = "" if pack else f" in the {p.root.name} pack (the full drop tables come with " \
            "coliseo content import forbidden --ygofm DIR)"
        console.print(f"no duelist drops this card{hint}", highlight=False)
