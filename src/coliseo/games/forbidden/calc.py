"""Player tools over a pack: the fusion calculator and the drop table (issue: `fusions`, `drops`)."""

from __future__ import annotations

from itertools import permutations

from coliseo.core.errors import SetupError

from .content import EQUIP, KINDS, MONSTER, STAR_NAMES, TYPES, Pack


def card_id(pack: Pack, text: str | int) -> int:
    """A card of the pack by id or exact (case-insensitive) name."""
    if isinstance(text, int) or str(text).strip().isdigit():
        cid = int(text)
        if cid in pack.cards:
            return cid
        raise SetupError(f"no card {cid} in the pack {pack.id!r}")
    found = pack.by_name.get(str(text).strip().lower())
    if found is None:
        close = [c.name for c in pack.cards.values() if str(text).strip().lower() in c.name.lower()][:8]
        raise SetupError(f"no card named {text!r} in the pack {pack.id!r}" +
                         (f"; did you mean: {', '.join(close)}" if close else ""))
    return found


def chain_steps(pack: Pack, ids: list[int], start: tuple[int, int] | None = None) -> tuple[int, int, list[dict]]:
    """Fold a chain as the engine does (R12): (survivor, mod, steps). `start` = a field card (id, mod)."""
    a, mod = start if start else (ids[0], 0)
    steps = []
    for b in (ids if start else ids[1:]):
        r = pack.fuse(a, b)
        ka, kb = pack.kind_of[a], pack.kind_of[b]
        if r:
            steps.append({"step": "fusion", "materials": [a, b], "result": r})
            a, mod = r, 0
        elif ka == MONSTER and kb == EQUIP and pack.fits(b, a):
            steps.append({"step": "equip", "equip": b, "monster": a})
            mod += pack.cards[b].value
        elif ka == EQUIP and kb == MONSTER and pack.fits(a, b):
            steps.append({"step": "equip", "equip": a, "monster": b})
            a, mod = b, pack.cards[a].value
        elif ka == MONSTER and kb != MONSTER:
            steps.append({"step": "fail", "kept": a, "discarded": b})
        else:
            steps.append({"step": "fail", "kept": b, "discarded": a})
            a, mod = b, 0
    return a, mod, steps


def fusion_chains(pack: Pack, hand: list[int], field: list[int] = ()) -> list[dict]:
    """Every chain of the hand (2..5 cards) and onto each field card (1..5 hand cards) with a fusion or an
    equip step and no failure, best result ATK first; `order` is the pick order (hand positions 1..n)."""
    if not 1 <= len(hand) <= 5:
        raise SetupError(f"a hand holds 1 to 5 cards, got {len(hand)}")
    found = []
    starts = [(None, 2)] + [((f, 0), 1) for f in field]
    for start, shortest in starts:
        for n in range(shortest, len(hand) + 1):
            for order in permutations(range(1, len(hand) + 1), n):
                ids = [hand[h - 1] for h in order]
                result, mod, steps = chain_steps(pack, ids, start)
                if not steps or any(s["step"] == "fail" for s in steps):
                    continue
                card = pack.cards[result]
                found.append({"onto": start[0] if start else None, "order": list(order), "cards": ids,
                              "result": result, "name": card.name, "kind": KINDS[card.kind],
                              "atk": card.atk + mod if card.kind == MONSTER else None,
                              "def": card.defense + mod if card.kind == MONSTER else None, "steps": steps})
    found.sort(key=lambda c: (-(c["atk"] if c["atk"] is not None else -1), len(c["cards"]), c["onto"] or 0,
                              c["order"]))
    return found


def drop_table(pack: Pack, card: int) -> list[dict]:
    """Who drops `card`: duelist, rank pool and probability (weight / pool total), most likely first."""
    rows = []
    for (duelist, pool), items in pack.pools.items():
        if pool == "deck":
            continue
        total = sum(w for _, w in items)
        weight = dict(items).get(card, 0)
        if weight > 0 and total > 0:
            rows.append({"duelist": duelist, "name": pack.duelists[duelist].name, "pool": pool, "weight": weight,
                         "total": total, "probability": weight / total})
    rows.sort(key=lambda r: (-r["probability"], r["duelist"], r["pool"]))
    return rows


def board_hints(pack: Pack, observation: dict) -> dict | None:
    """What the board of the seat to move needs to predict its plays and battles, built only from that
    seat's observation and the pack: every fold step between its own cards that is a fusion (`F`, result
    id) or an equip (`E`, bonus) — any other step is a failure —, which star beats which, the star bonus
    and the current terrain's bonus by monster type."""
    viewer = observation.get("viewer")
    if viewer is None:
        return None
    side = observation["sides"][viewer]
    hand = side["hand"] or []
    own = [r["id"] for r in side["monsters"] + side["spells"] if r and r.get("id") is not None]
    added = [s["id"] for s in side["spells"] if s and s.get("id") is not None]
    steps: dict[str, list] = {}
    seen: set[int] = set()
    todo = list(dict.fromkeys(hand + own))
    while todo:
        a = todo.pop()
        if a in seen:
            continue
        seen.add(a)
        for b in dict.fromkeys(hand + added):
            r = pack.fuse(a, b)
            ka, kb = pack.kind_of[a], pack.kind_of[b]
            if r:
                steps[f"{a}+{b}"] = ["F", r]
                todo.append(r)
            elif ka == MONSTER and kb == EQUIP and pack.fits(b, a):
                steps[f"{a}+{b}"] = ["E", pack.cards[b].value]
            elif ka == EQUIP and kb == MONSTER and pack.fits(a, b):
                steps[f"{a}+{b}"] = ["E", pack.cards[a].value]
    terrain = observation["terrain"]
    bonus = {TYPES[t]: v for t, v in enumerate(pack.terrain_table[terrain]) if v} if 0 <= terrain < len(
        pack.terrain_table) else {}
    return {"steps": steps, "beats": {STAR_NAMES[s]: STAR_NAMES[b] for s, b in enumerate(pack.beats) if b >= 0},
            "star_bonus": pack.star_bonus, "terrain_bonus": bonus}
