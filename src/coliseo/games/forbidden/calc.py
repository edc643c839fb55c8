"""Player tools over a pack: the fusion calculator and the drop table (issue: `fusions`, `drops`)."""

from __future__ import annotations

from itertools import permutations

from coliseo.core.errors import SetupError

from .content import EQUIP, KINDS, MONSTER, Pack


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
