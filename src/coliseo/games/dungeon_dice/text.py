"""The terminal picture of one Dungeon Dice observation (only what that observation holds)."""

from __future__ import annotations

from .content import CRESTS

L = {
    "en": {"turn": "Turn {t} · {p} to act · {phase}", "hearts": "Hearts", "crests": "Crests", "you": "you",
           "dice": "Dice drawn", "rolled": "rolled", "legend": "Pieces", "master": "Master",
           "gy": "Graveyard", "lib": "deck {n} cards", "set": "set cards (turn)", "your_deck": "Your deck",
           "your_set": "Your set traps", "placing": "Placing {c}: choose a net by its notation or its number "
                      "(# = the six new squares)",
           "window": "Attack {a} → {t}: the defender may answer", "locks": "Locked in Spend 2",
           "legal": "Legal actions", "over": "Game over", "draw": "a draw", "wins": "{p} wins",
           "key": "key: - path of P1  = path of P2  O black hole  [1]/[2] Masters  A.. P1 monsters  "
                  "a.. P2 monsters",
           "phase": {"spend1": "Spend 1", "battle": "Battle", "spend2": "Spend 2", "placing": "Spend (placing)",
                     "window": "Response window", "over": "over"}},
    "es": {"turn": "Turno {t} · juega {p} · {phase}", "hearts": "Corazones", "crests": "Crestas", "you": "tú",
           "dice": "Dados sacados", "rolled": "tirada", "legend": "Piezas", "master": "Amo del Calabozo",
           "gy": "Cementerio", "lib": "mazo {n} cartas", "set": "cartas colocadas (turno)", "your_deck": "Tu mazo",
           "your_set": "Tus trampas colocadas",
           "placing": "Colocando {c}: elige un despliegue por su notación o su número (# = las seis casillas)",
           "window": "Ataque {a} → {t}: el defensor puede responder", "locks": "Bloqueadas en Gasto 2",
           "legal": "Acciones legales", "over": "Fin de la partida", "draw": "empate", "wins": "gana {p}",
           "key": "clave: - camino J1  = camino J2  O agujero negro  [1]/[2] Amos  A.. monstruos J1  "
                  "a.. monstruos J2",
           "phase": {"spend1": "Gasto 1", "battle": "Batalla", "spend2": "Gasto 2", "placing": "Gasto (despliegue)",
                     "window": "Ventana de respuesta", "over": "terminada"}},
}


def _who(p, lang):
    return ("Player {n}" if lang == "en" else "Jugador {n}").format(n=p + 1)


def _sq(name, w):
    return ord(name[0]) - 97 + (int(name[1:]) - 1) * w


def _cells(game, obs):
    """Cell text (3 chars) for every square, plus the monster labels."""
    geo = game.geo
    cells = [" . "] * geo.n
    for p, mark in ((0, " - "), (1, " = ")):
        for name in obs["path"][p]:
            cells[_sq(name, geo.w)] = mark
    for name in obs["holes"]:
        cells[_sq(name, geo.w)] = " O "
    labels, counters = [], [0, 0]
    for piece in obs["pieces"]:
        i = _sq(piece["square"], geo.w)
        if piece["master"]:
            cells[i] = f"[{piece['player'] + 1}]"
            continue
        k = counters[piece["player"]]
        counters[piece["player"]] += 1
        letter = chr((65 if piece["player"] == 0 else 97) + k % 26)
        cells[i] = f" {letter} "
        labels.append((letter, piece))
    return cells, labels


def _grid(game, cells, x0=0, x1=None, y0=0, y1=None, flip=False):
    geo = game.geo
    x1 = geo.w - 1 if x1 is None else x1
    y1 = geo.h - 1 if y1 is None else y1
    head = "    " + "".join(f" {chr(97 + x)} " for x in range(x0, x1 + 1))
    rows = [head]
    ranks = range(y1, y0 - 1, -1) if not flip else range(y0, y1 + 1)
    for y in ranks:
        rows.append(f"{y + 1:>3} " + "".join(cells[y * geo.w + x] for x in range(x0, x1 + 1)))
    return rows


def render_text(game, obs: dict, lang: str = "en", legal: list | None = None) -> str:
    t = L.get(lang, L["en"])
    viewer = obs.get("player")
    out = []
    if obs["result"] is not None:
        winners = obs["result"]["winners"]
        out.append(f"{t['over']}: " + (t["wins"].format(p=_who(winners[0], lang)) if winners else t["draw"])
                   + f" ({obs['result']['reason']})")
    else:
        out.append(t["turn"].format(t=obs["turn"], p=_who(obs["current_player"], lang),
                                    phase=t["phase"].get(obs["phase"], obs["phase"])))
    for p in (0, 1):
        you = f" ({t['you']})" if viewer == p else ""
        pool = " ".join(f"{c}{obs['pool'][p][c]}" for c in CRESTS)
        hearts = "♥" * obs["hearts"][p] + "·" * max(0, obs["options"]["hearts"] - obs["hearts"][p])
        out.append(f"{_who(p, lang)}{you}: {t['hearts']} {hearts}"
                   f"  {t['crests']} {pool}  {t['lib'].format(n=obs['library_sizes'][p])}"
                   f"  {t['set']}: {obs['set_zones'][p] or '-'}")
    if obs["drawn"]:
        dice = game.content.dice
        names = ", ".join(dice[d].names.get(lang, d) if d in dice else d for d in obs["drawn"])
        rolled = " / ".join(" ".join(r) for r in obs["rolls"])
        out.append(f"{t['dice']} ({_who(obs['active'], lang)}): {names}; {t['rolled']}: {rolled}")
    if obs["locks"]:
        out.append(f"{t['locks']}: {' '.join(obs['locks'])}")
    if obs["window"]:
        out.append(t["window"].format(a=obs["window"]["attacker"], t=obs["window"]["target"]))
    cells, labels = _cells(game, obs)
    out.append("")
    out.extend(_grid(game, cells))
    out.append(t["key"])
    if labels:
        out.append(f"{t['legend']}:")
        for letter, piece in labels:
            name = game.card_name(piece["card"], lang)
            flags = "".join(f for f, on in ((" attacked", piece["attacked"]), (" moved", piece["moved"]),
                                            (" effect-used", piece["effect_used"])) if on)
            equips = ", ".join(game.card_name(c, lang) for c, _ in piece["equips"])
            out.append(f"  {letter} {piece['square']:>4} {name} Lv{piece['level']} ATK {piece['atk']} DEF "
                       f"{piece['def']}" + (f" (+ {equips})" if equips else "") + flags)
    for p in (0, 1):
        if obs["graveyards"][p]:
            gy = ", ".join(game.card_name(c, lang) for c in obs["graveyards"][p])
            out.append(f"{t['gy']} {_who(p, lang)}: {gy}")
    if viewer is not None and "library" in obs:
        out.append(f"{t['your_deck']}: " + _library(game, obs["library"], lang))
        if obs["set_cards"]:
            traps = ", ".join(f"{game.card_name(c, lang)} ({n})" for c, n in obs["set_cards"])
            out.append(f"{t['your_set']}: {traps}")
    if legal:
        dims = [a for a in legal if a[0] == "dim"]
        if dims:
            out.append("")
            out.append(t["placing"].format(c=game.card_name(obs["placing"], lang)))
            out.extend(_placements(game, cells, dims))
        else:
            out.append(f"{t['legal']}: " + ", ".join(game.format_action(a) for a in legal))
    return "\n".join(out)


def _library(game, library, lang) -> str:
    """The own library grouped: monsters by level (with Lv), then spells, then traps; copies as ×n."""
    cards = game.content.cards
    counts = {}
    for c in library:
        counts[c] = counts.get(c, 0) + 1
    order = {"monster": 0, "spell": 1, "trap": 2}
    items = sorted(counts, key=lambda c: (order[cards[c].type], cards[c].level, c))
    parts = []
    for c in items:
        card = cards[c]
        kind = {"spell": {"en": "spell", "es": "magia"}, "trap": {"en": "trap", "es": "trampa"}}.get(card.type, {})
        text = game.card_name(c, lang) + (f" Lv{card.level}" if card.type == "monster" else
                                           f" ({kind.get(lang, card.type)})")
        parts.append(text + (f" ×{counts[c]}" if counts[c] > 1 else ""))
    return ", ".join(parts)


def _placements(game, cells, dims, line_width: int = 76) -> list[str]:
    """Each candidate net drawn on a small window of the board around it, labelled with its number and
    notation: `#` the six new squares, `-`/`=` paths, `1`/`2` Masters, letters monsters."""
    geo = game.geo
    win_w, win_h = min(6, geo.w), min(7, geo.h)
    width = max(3 + win_w, 9)
    per_row = max(1, (line_width + 2) // (width + 2))
    lines = []
    for start in range(0, len(dims), per_row):
        block = []
        for k in range(start, min(start + per_row, len(dims))):
            squares = geo.placements[dims[k][1]][2]
            mine = set(squares)
            xs = [q % geo.w for q in squares]
            ys = [q // geo.w for q in squares]
            x0 = min(max(0, min(xs) - (win_w - (max(xs) - min(xs) + 1)) // 2), geo.w - win_w)
            y0 = min(max(0, min(ys) - (win_h - (max(ys) - min(ys) + 1)) // 2), geo.h - win_h)
            rows = [f"{k + 1}.{game.format_action(dims[k])[4:]}".ljust(width),
                    ("   " + "".join(chr(97 + x) for x in range(x0, x0 + win_w))).ljust(width)]
            for y in range(y0 + win_h - 1, y0 - 1, -1):
                row = f"{y + 1:>2} "
                for x in range(x0, x0 + win_w):
                    q = y * geo.w + x
                    cell = cells[q].strip().strip("[]")
                    row += "#" if q in mine else cell[:1] or "."
                rows.append(row.ljust(width))
            block.append(rows)
        for i in range(len(block[0])):
            lines.append("  ".join(b[i] for b in block).rstrip())
        lines.append("")
    return lines
