"""Import of the public YGOFM game-data JSON (sg4e/YGOFM-gamedata) into a user content pack.

The format and what the engine adds to it: docs/rules/forbidden.md §6.3.

The dataset is never shipped: the pack is written into the user's data folder
(`$COLISEO_HOME` or `~/.local/share/coliseo`, then `packs/forbidden/<name>/`).
"""

from __future__ import annotations

import csv
import json
import os
import shutil
from pathlib import Path

from coliseo.core.errors import ContentError

from .content import BUNDLED, STAR_NAMES, STARS, TYPE_NAMES, TYPES, Pack, user_packs_dir

DATA_ENV = "COLISEO_YGOFM_DATA"
FILES = ("cardinfo.json", "fusions.json", "equipinfo.json", "ritualinfo.json", "droppool.json", "duelistinfo.json")

# R23 / R24: behaviour group and value of the non-monsters, by id (the engine's extras to the dataset).
MAGIC_EFFECTS = {
    330: (1, 1), 331: (1, 2), 332: (1, 3), 333: (1, 4), 334: (1, 5), 335: (1, 6),
    338: (2, 200), 339: (2, 500), 340: (2, 1000), 341: (2, 2000), 342: (2, 5000),
    343: (3, 50), 344: (3, 100), 345: (3, 200), 346: (3, 500), 347: (3, 1000),
    336: (4, -1), 329: (4, 0),
    653: (5, 3), 656: (5, 2), 660: (5, 14), 662: (5, 9), 663: (5, 18), 664: (5, 12), 661: (5, 1500),
    320: (6, 0), 337: (7, 0), 350: (8, 0), 349: (9, 500), 669: (9, 1000), 348: (10, 3), 655: (11, 0), 672: (13, 0),
}
TRAPS = {681: ("attack", 500), 682: ("attack", 1000), 683: ("attack", 1500), 684: ("attack", 2000),
         685: ("attack", 3000), 686: ("attack", 25500), 687: ("reflect_burn", 0), 688: ("reverse_heal", 0),
         689: ("reverse_power", 0), 690: ("decoy", 0)}
BIG_EQUIPS = {657: 1000}
POOL_NAMES = {"Deck": "deck", "SAPow": "sa_pow", "BCD": "bcd", "SATec": "sa_tec"}
TERRAINS = {33: 6, 34: 6, 37: 6, 38: 6, 21: 5, 23: 1, 25: 3, 27: 2, 29: 4}
HOME_FIELD = {21: 334, 23: 330, 25: 332, 27: 331, 29: 333, 34: 335}
SEES_FACEDOWN = {8, 15, 35, 36, 37, 38}
# §9: fm-classic rows `L,D,K,Q,H,B ahead weak` per duelist.
FM_CLASSIC = """1 20,10,1,1,25,50 df 2 30,20,1,2,25,25 bg 3 10,5,2,1,25,75 aa 4 20,10,2,2,25,50 cj
5 30,20,3,1,25,75 ai 6 10,5,1,3,25,25 bd 7 20,10,3,3,50,50 ae 8 20,10,2,2,75,50 eg 9 10,5,3,2,25,75 aa
10 10,5,2,3,25,50 bf 11 20,10,3,3,75,25 cg 12 20,10,2,2,50,50 ad 13 30,20,2,2,50,25 fg 14 20,10,3,3,75,25 ce
15 20,10,3,3,75,0 fj 16 20,10,3,3,75,25 eh 17 20,10,3,3,75,50 ab 18 10,5,1,1,25,75 df 19 10,5,1,2,25,75 bg
20 30,20,2,1,25,25 aa 21 10,5,2,2,50,50 ed 22 20,10,2,3,50,25 bg 23 10,5,2,2,50,50 ce 24 20,10,3,3,50,25 fg
25 10,5,3,2,50,50 ai 26 20,10,3,3,50,25 ch 27 10,5,2,2,50,50 cf 28 20,10,2,3,50,25 bg 29 10,5,3,2,50,50 ad
30 20,10,3,3,50,25 dg 31 20,10,3,3,75,75 ai 32 10,5,1,2,50,25 bg 33 10,5,2,2,50,50 cj 34 30,20,2,1,50,75 aa
35 20,10,2,2,75,0 ee 36 20,10,2,2,75,0 fg 37 20,10,2,2,50,0 cj 38 10,5,2,2,75,0 ab 39 20,10,3,3,50,25 eg"""


def fm_classic_rows() -> dict[int, tuple]:
    words = FM_CLASSIC.split()
    rows = {}
    for i in range(0, len(words), 3):
        numbers = tuple(int(x) for x in words[i + 1].split(","))
        rows[int(words[i])] = numbers + (words[i + 2][0], words[i + 2][1])
    return rows


def default_data_dir() -> Path | None:
    """The folder named by $COLISEO_YGOFM_DATA, or None when it is not set."""
    env = os.environ.get(DATA_ENV)
    return Path(env) if env else None


def _read(src: Path, name: str):
    path = src / name
    try:
        with path.open(encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        raise ContentError(f"{path}: missing; the YGOFM data folder needs {', '.join(FILES)} "
                           f"(point {DATA_ENV} or --ygofm at it)") from None
    except json.JSONDecodeError as e:
        raise ContentError(f"{path}: not valid JSON: {e}") from None
    if not isinstance(data, list):
        raise ContentError(f"{path}: expected a JSON list of records")
    return data


def _field(where: str, record: dict, name: str, kinds=(int,), none: bool = False):
    value = record.get(name) if isinstance(record, dict) else None
    if value is None and none:
        return None
    if not isinstance(value, kinds) or isinstance(value, bool):
        raise ContentError(f"{where}: field {name!r} must be {' or '.join(k.__name__ for k in kinds)}, got {value!r}")
    return value


def import_ygofm(src_dir: str | Path | None = None, pack_name: str = "fm", dest_root: str | Path | None = None) -> Path:
    """Read the YGOFM JSON files in `src_dir` and write the content pack `pack_name`; returns its folder."""
    src = Path(src_dir) if src_dir else default_data_dir()
    if src is None:
        raise ContentError(f"no YGOFM data folder given: pass it or set {DATA_ENV}")
    if not src.is_dir():
        raise ContentError(f"YGOFM data folder {src} does not exist (set {DATA_ENV} or pass the folder)")
    out = Path(dest_root) / pack_name if dest_root else user_packs_dir() / pack_name
    tmp = out.with_name(out.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)

    cards = []
    for i, rec in enumerate(_read(src, "cardinfo.json")):
        where = f"{src / 'cardinfo.json'}[{i}]"
        cid = _field(where, rec, "cardId")
        kind_name = _field(where, rec, "type", (str,))
        row = {"id": cid, "name": _field(where, rec, "cardName", (str,)), "type": "", "atk": "", "def": "",
               "star1": "", "star2": "", "tags": "", "group": "", "value": "", "trigger": "",
               "level": rec.get("level") if rec.get("level") is not None else "",
               "attribute": rec.get("attribute") or "", "password": rec.get("password") or "",
               "cost": "" if rec.get("starchipCost") in (None, 999999) else rec["starchipCost"],
               "text": " ".join(str(rec.get("description") or "").split())}
        if kind_name in ("Magic", "Ritual", "Equip", "Trap"):
            row["kind"] = kind_name.lower()
            if kind_name == "Magic":
                row["group"], row["value"] = MAGIC_EFFECTS.get(cid, (0, 0))
            elif kind_name == "Ritual":
                row["group"], row["value"] = 12, 0
            elif kind_name == "Equip":
                row["group"], row["value"] = 0, BIG_EQUIPS.get(cid, 500)
            else:
                row["group"] = 0
                row["trigger"], row["value"] = TRAPS.get(cid, ("attack", 1))
        else:
            if kind_name not in TYPE_NAMES:
                raise ContentError(f"{where}: field 'type': unknown card type {kind_name!r}")
            row["kind"] = "monster"
            row["type"] = TYPES[TYPE_NAMES.index(kind_name)]
            row["atk"] = _field(where, rec, "attack")
            row["def"] = _field(where, rec, "defense")
            for n in (1, 2):
                star = _field(where, rec, f"guardianStar{n}", (str,))
                if star not in STAR_NAMES:
                    raise ContentError(f"{where}: field 'guardianStar{n}': unknown star {star!r}")
                row[f"star{n}"] = STARS[STAR_NAMES.index(star)]
        cards.append(row)
    cards.sort(key=lambda r: r["id"])
    columns = ["id", "name", "kind", "type", "atk", "def", "star1", "star2", "tags", "group", "value", "trigger",
               "level", "attribute", "password", "cost", "text"]
    _write(tmp / "cards.csv", columns, cards)

    fusions = [{"material1": _field(f"fusions.json[{i}]", r, "material1"),
                "material2": _field(f"fusions.json[{i}]", r, "material2"),
                "result": _field(f"fusions.json[{i}]", r, "result")}
               for i, r in enumerate(_read(src, "fusions.json"))]
    _write(tmp / "fusions.csv", ["material1", "material2", "result"], fusions)
    _write(tmp / "fusion_families.csv", ["kind1", "kind2", "results"], [])
    equips = [{"equip": _field(f"equipinfo.json[{i}]", r, "equipId"), "monster": _field(f"equipinfo.json[{i}]", r,
                                                                                           "cardId")}
              for i, r in enumerate(_read(src, "equipinfo.json"))]
    _write(tmp / "equips.csv", ["equip", "monster"], equips)
    rituals = []
    for i, r in enumerate(_read(src, "ritualinfo.json")):
        w = f"ritualinfo.json[{i}]"
        rituals.append({"ritual": _field(w, r, "ritualCardId"), "material1": _field(w, r, "material1"),
                        "material2": _field(w, r, "material2"), "material3": _field(w, r, "material3"),
                        "result": _field(w, r, "result")})
    _write(tmp / "rituals.csv", ["ritual", "material1", "material2", "material3", "result"], rituals)

    classic = fm_classic_rows()
    duelists = []
    for i, r in enumerate(_read(src, "duelistinfo.json")):
        w = f"duelistinfo.json[{i}]"
        did = _field(w, r, "duelistId")
        row = classic.get(did, classic[7])
        duelists.append({"id": did, "name": _field(w, r, "duelist", (str,)), "hand_window": _field(w, r, "handSize"),
                         "terrain": TERRAINS.get(did, 0), "deck": "copy_player" if did == 39 else "",
                         "lp_threshold": row[0], "low_deck": row[1], "combo_depth": row[2], "power_depth": row[3],
                         "duster_pct": row[4], "blind_pct": row[5], "split_ahead": row[6], "split_weak": row[7],
                         "sees_facedown": int(did in SEES_FACEDOWN), "home_field": HOME_FIELD.get(did, "")})
    duelists.sort(key=lambda r: r["id"])
    _write(tmp / "duelists.csv", ["id", "name", "hand_window", "terrain", "deck", "lp_threshold", "low_deck",
                                  "combo_depth", "power_depth", "duster_pct", "blind_pct", "split_ahead",
                                  "split_weak", "sees_facedown", "home_field"], duelists)
    pools = []
    for i, r in enumerate(_read(src, "droppool.json")):
        w = f"droppool.json[{i}]"
        kind = _field(w, r, "poolType", (str,))
        if kind not in POOL_NAMES:
            raise ContentError(f"{w}: field 'poolType' must be one of {', '.join(POOL_NAMES)}, got {kind!r}")
        pools.append({"duelist": _field(w, r, "duelist"), "pool": POOL_NAMES[kind], "card": _field(w, r, "cardId"),
                      "weight": _field(w, r, "cardProbability")})
    pools.sort(key=lambda r: (r["duelist"], r["pool"], r["card"]))
    _write(tmp / "pools.csv", ["duelist", "pool", "card", "weight"], pools)

    starter = (BUNDLED / "starter" / "pack.toml").read_text(encoding="utf-8")
    decks = starter[starter.index("[decks]"):]
    (tmp / "pack.toml").write_text(
        f'# Imported from the public YGOFM game data ({src.name}); not for redistribution with Coliseo.\n'
        f'id = "{pack_name}"\nname = "Forbidden Memories (imported)"\nversion = "1"\n'
        f'licence = "see the source dataset"\nexodia = [17, 18, 19, 20, 21]\n\n{decks}', encoding="utf-8")
    shutil.copyfile(BUNDLED / "starter" / "rules.toml", tmp / "rules.toml")
    Pack(tmp)  # validate before replacing an earlier import
    if out.exists():
        shutil.rmtree(out)
    tmp.rename(out)
    return out


def _write(path: Path, columns: list[str], rows: list[dict]) -> None:
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
