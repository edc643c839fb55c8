"""Dungeon Dice in words, English and Spanish: event text, crests, card abilities, why an action is refused; and
the terminal picture of one observation (only what that observation holds)."""

from __future__ import annotations

from coliseo.core.reasons import reason_words

from .content import CREST_NAMES, CRESTS

EVENT_TEXT = {
    "turn": {"en": "Turn {turn}: {player}.", "es": "Turno {turn}: {player}."},
    "draw": {"en": "{player} draws {dice}.", "es": "{player} saca {dice}."},
    "roll": {"en": "{player} rolls {faces}: {gain}.", "es": "{player} tira {faces}: {gain}."},
    "declare": {"en": "{player} declares a summon of {card}.", "es": "{player} declara la convocación de {card}."},
    "dimension": {"en": "{player} dimensions a die into {net}.", "es": "{player} dimensiona un dado en {net}."},
    "summon": {"en": "{player} summons {card} on {square} ({how}).",
               "es": "{player} convoca a {card} en {square} ({how})."},
    "move": {"en": "{player} moves {piece} {from} → {to} ({cost}).",
             "es": "{player} mueve {piece} {from} → {to} ({cost})."},
    "destroyed": {"en": "{card} ({player}) is destroyed on {square}.",
                  "es": "{card} ({player}) es destruido en {square}."},
    "spell": {"en": ["{player} activates {card} on {target}.", "{player} activates {card}."],
              "es": ["{player} activa {card} sobre {target}.", "{player} activa {card}."]},
    "gain": {"en": "{player} gains {crests}.", "es": "{player} gana {crests}."},
    "set": {"en": ["{player} sets {card} face-down.", "{player} sets a card face-down."],
            "es": ["{player} coloca {card} boca abajo.", "{player} coloca una carta boca abajo."]},
    "effect": {"en": ["{player} uses the effect of {card} ({square}) on {target}.",
                      "{player} uses the effect of {card} ({square})."],
               "es": ["{player} usa el efecto de {card} ({square}) sobre {target}.",
                      "{player} usa el efecto de {card} ({square})."]},
    # zash events read by their number (see DungeonDice.render)
    "zash1": {"en": "{player} spends 1 Zash crest: a new path square on {square}.",
              "es": "{player} gasta 1 cresta de Zash: una casilla de camino nueva en {square}."},
    "zash2": {"en": "{player} spends 2 Zash crests: the path square {square} is removed.",
              "es": "{player} gasta 2 crestas de Zash: quita la casilla de camino {square}."},
    "zash3": {"en": "{player} spends 3 Zash crests: a black hole on {square}.",
              "es": "{player} gasta 3 crestas de Zash: un agujero negro en {square}."},
    "zash4": {"en": "{player} spends 4 Zash crests to bring back {card}.",
              "es": "{player} gasta 4 crestas de Zash para traer de vuelta a {card}."},
    "zash5": {"en": "{player} spends 5 Zash crests: a heart back.",
              "es": "{player} gasta 5 crestas de Zash: recupera un corazón."},
    "phase": {"en": "{player} goes to {phase}.", "es": "{player} pasa a {phase}."},
    "attack": {"en": "{player}: {card} ({square}) attacks {target} ({target_square}).",
               "es": "{player}: {card} ({square}) ataca a {target} ({target_square})."},
    "window": {"en": "{player} may answer the attack.", "es": "{player} puede responder al ataque."},
    "battle": {"en": "Battle ({mode}): {atk} against {value}.",
               "es": "Batalla ({mode}): {atk} contra {value}."},
    "heart": {"en": "{player} loses a heart ({hearts}).", "es": "{player} pierde un corazón ({hearts})."},
    "trap": {"en": "{player} springs {card}.", "es": "{player} activa la trampa {card}."},
    "attack_ends": {"en": "The attack ends.", "es": "El ataque termina."},
    "defend": {"en": "{player} defends (1 Defense crest).", "es": "{player} defiende (1 cresta de Defensa)."},
    "pass": {"en": "{player} does not respond.", "es": "{player} no responde."},
    "end": {"en": "{player} ends turn {turn}.", "es": "{player} termina el turno {turn}."},
    "game_over": {"en": "Game over ({reason}): {winners}.", "es": "Fin de la partida ({reason}): {winners}."},
}

# R36: what broke a tie of hearts at the turn limit.
TIE_WORDS = {
    "monsters": {"en": "Hearts tied at {h} each: the most monsters put on the board wins ({p1} {a}, {p2} {b}).",
                 "es": "Empate a {h} corazones: gana quien puso más monstruos en el tablero ({p1} {a}, {p2} {b})."},
    "levels": {"en": "Hearts tied at {h} each, and {n} monsters put on the board each: the larger total level of "
                     "those monsters wins ({p1} {a}, {p2} {b}).",
               "es": "Empate a {h} corazones y a {n} monstruos puestos en el tablero: gana el mayor nivel total de "
                     "esos monstruos ({p1} {a}, {p2} {b})."},
    "all": {"en": "Hearts ({h} each), monsters put on the board ({n} each) and their total level ({a} each) all "
                  "tied: a draw.",
            "es": "Empate en corazones ({h} cada uno), en monstruos puestos en el tablero ({n} cada uno) y en su "
                  "nivel total ({a} cada uno): empate."},
}

# Why the game ended, besides the shared `turn_limit` (core/reasons.py); `hearts` before the one vocabulary.
OWN_REASONS = {
    "all_hearts_lost": {"en": "a Master lost all its hearts", "es": "un Amo del Calabozo perdió todos sus corazones"},
}
OLD_REASONS = {"hearts": "all_hearts_lost"}

WORDS = {
    "master": {"en": "the Master", "es": "el Amo del Calabozo"},
    "spend1": {"en": "Spend 1", "es": "Gasto 1"}, "battle": {"en": "Battle", "es": "Batalla"},
    "spend2": {"en": "Spend 2", "es": "Gasto 2"},
    "wins": {"en": "{p} wins", "es": "gana {p}"}, "draw": {"en": "a draw", "es": "empate"},
    "nothing": {"en": "nothing", "es": "nada"},
    # R9: crests come only from a pair (or triple) of one crest, and from Zash faces.
    "gains": {"en": ["gains {c}", "gains nothing (no two dice show the same crest)"],
              "es": ["gana {c}", "no gana nada (no hay dos dados con la misma cresta)"]},
    "net": {"en": "the {n} net at {sq}", "es": "el despliegue {n} en {sq}"},
    "attack_mode": {"en": "attack mode", "es": "modo ataque"},
    "defense_mode": {"en": "defense mode", "es": "modo defensa"},
    "hearts_left": {"en": ["{n} heart left", "{n} hearts left"], "es": ["le queda {n}", "le quedan {n}"]},
    "dimension": {"en": "by dimension", "es": "por dimensión"}, "special": {"en": "special", "es": "especial"},
    "effect": {"en": "by its effect", "es": "por su efecto"}, "zash": {"en": "by Zash", "es": "por Zash"},
    "revive": {"en": "revived", "es": "revivido"},
}


def crest_amount(n: int, crest: str, lang: str) -> str:
    """`4 Movement crests`, `1 Zash crest`; `4 crestas de Movimiento`, `1 cresta de Zash`."""
    name = CREST_NAMES[lang][crest]
    if lang == "es":
        return f"{n} {'cresta' if n == 1 else 'crestas'} de {name}"
    return f"{n} {name} {'crest' if n == 1 else 'crests'}"


def crests_text(value: str, lang: str) -> str:
    """The engine's gain text (`4 M`, `3 S, 1 Z`, `-`) in words."""
    if value in ("-", ""):
        return WORDS["nothing"][lang]
    parts = []
    for part in value.split(", "):
        n, crest = part.split()
        parts.append(crest_amount(int(n), crest, lang))
    return ", ".join(parts)


def faces_text(value: str, lang: str) -> str:
    """Rolled faces (`M4 Z S`) as crest names with their printed amounts: `Movement 4, Zash, Summon`."""
    return ", ".join(f"{CREST_NAMES[lang][f[0]]} {f[1:]}".strip() for f in value.split())


ABILITY = {  # a card's behaviour in words (R34)
    "crests": {"en": "Gain {amount}.", "es": "Gana {amount}."},
    "boost_self": {"en": "This monster gains {atk} ATK until the end of the turn.",
                   "es": "Este monstruo gana {atk} de ATK hasta el final del turno."},
    "destroy_in_range": {"en": "Destroy an enemy monster{limit} within its attack range.",
                         "es": "Destruye un monstruo enemigo{limit} a su alcance de ataque."},
    "destroy": {"en": "Destroy an enemy monster{limit}.", "es": "Destruye un monstruo enemigo{limit}."},
    "weaken": {"en": "An enemy monster loses {atk} ATK until the end of the turn.",
               "es": "Un monstruo enemigo pierde {atk} de ATK hasta el final del turno."},
    "equip": {"en": "Equip to your monster: ATK +{atk}, DEF +{def}.",
              "es": "Equipa a tu monstruo: ATK +{atk}, DEF +{def}."},
    "revive": {"en": "Bring back a monster from {where} graveyard.",
               "es": "Trae de vuelta un monstruo {where}."},
    "negate_attack": {"en": "Stop an enemy attack{end}.", "es": "Detiene un ataque enemigo{end}."},
    "destroy_attacker": {"en": "Destroy the attacking monster.", "es": "Destruye al monstruo atacante."},
    "weaken_attacker": {"en": "The attacker loses {atk} ATK until the end of the turn.",
                        "es": "El atacante pierde {atk} de ATK hasta el final del turno."},
    "limit": {"en": " with {n} ATK or less", "es": " con {n} de ATK o menos"},
    "end": {"en": " and end the attacker's Battle phase", "es": " y termina la fase de Batalla del atacante"},
    "where": {"en": {"own": "your", "any": "either"},
              "es": {"own": "de tu cementerio", "any": "de cualquier cementerio"}},
    "once_game": {"en": " Once per game.", "es": " Una vez por partida."},
    "opp_more_monsters": {"en": "May be summoned with Effect crests while the opponent controls more monsters.",
                          "es": "Puede convocarse con crestas de Efecto si el rival controla más monstruos."},
    "no_own_monsters": {"en": "May be summoned with Effect crests while you control no monsters.",
                        "es": "Puede convocarse con crestas de Efecto si no controlas monstruos."},
}


def ability_text(card, lang: str) -> str:
    """What a card does, in words; empty for a monster without an effect."""
    words = []
    if card.kind:
        p = card.params
        max_atk = p.get("max_atk")
        words.append(ABILITY[card.kind][lang].format(
            amount=crest_amount(p["amount"], p["crest"], lang) if "amount" in p else "",
            atk=p.get("atk", 0), where=ABILITY["where"][lang][p.get("from", "own")],
            limit=ABILITY["limit"][lang].format(n=max_atk) if max_atk is not None else "",
            end=ABILITY["end"][lang] if p.get("end_battle") else "", **{"def": p.get("def", 0)}))
        if card.type == "monster" and card.once == "game":
            words.append(ABILITY["once_game"][lang].strip())
    if card.condition:
        words.append(ABILITY[card.condition][lang])
    return " ".join(words)


# What the player to move may do, by action kind, for prompts (a special summon counts as a summon).
ACTION_WORDS = {
    "summon": ("summon a monster", "convocar un monstruo"),
    "dim": ("unfold the die onto the dungeon", "desplegar el dado en el calabozo"),
    "move": ("move a monster", "mover un monstruo"),
    "attack": ("attack", "atacar"),
    "spell": ("cast a spell", "activar una magia"),
    "set": ("set a trap face-down", "colocar una trampa boca abajo"),
    "effect": ("use a monster's effect", "usar el efecto de un monstruo"),
    "zash": ("spend Zash crests", "gastar crestas Zash"),
    "trap": ("spring a trap", "activar una trampa"),
    "defend": ("defend (1 Defense crest)", "defender (1 cresta de Defensa)"),
    "pass": ("let the attack through", "no responder"),
    "battle": ("go to battle", "pasar a la batalla"),
    "spend2": ("end the battle to spend crests", "terminar la batalla para gastar crestas"),
    "end": ("end the turn", "terminar el turno"),
}

# Why an action is refused (DDMState.why_illegal), in both languages; the shared reasons are in core.i18n.
REFUSALS = {
    "bad_net": ("that net placement is not legal: all six squares must be on the board and empty, and touch your "
                "path (your first net: beside your Master and on your home rank)",
                "ese despliegue no es legal: las seis casillas deben estar en el tablero y vacías, y tocar tu camino "
                "(tu primer despliegue: junto a tu Amo del Calabozo y en tu fila inicial)"),
    "place_first": ("choose where to dimension {card} first (a 'dim' placement)",
                    "elige antes dónde dimensionar {card} (una colocación 'dim')"),
    "no_trap": ("you have no such trap set on an earlier turn, or no Trap crest",
                "no tienes esa trampa colocada en un turno anterior, o no tienes cresta de Trampa"),
    "defend": ("defend needs a Defense crest and a monster as the target",
               "defend necesita una cresta de Defensa y un monstruo como objetivo"),
    "answer": ("the defender must answer the attack: trap, defend or pass",
               "el defensor debe responder al ataque: trap, defend o pass"),
    "no_attack": ("there is no attack to answer", "no hay ningún ataque que responder"),
    "attack_phase": ("attacks are only made in the Battle phase", "solo se ataca en la fase de Batalla"),
    "attack_crest": ("you need an Attack crest", "necesitas una cresta de Ataque"),
    "attack_target": ("that monster cannot attack that square (already attacked, out of range, or not an enemy)",
                      "ese monstruo no puede atacar esa casilla (ya atacó, está fuera de alcance o no es un enemigo)"),
    "battle_only": ("in the Battle phase you may attack, go to Spend 2 or end the turn",
                    "en la fase de Batalla puedes atacar, pasar a Gasto 2 o terminar el turno"),
    "battle_after": ("the Battle phase comes after Spend 1 only", "la fase de Batalla solo llega después de Gasto 1"),
    "spend2_after": ("Spend 2 follows the Battle phase", "Gasto 2 sigue a la fase de Batalla"),
    "declare_first": ("declare a summon first", "declara antes una convocación"),
    "locked": ("{crest} crests spent in Spend 1 are locked in Spend 2",
               "las crestas de {crest} gastadas en Gasto 1 quedan bloqueadas en Gasto 2"),
    "not_in_deck": ("that monster is not in your deck", "ese monstruo no está en tu mazo"),
    "esummon": ("that monster cannot summon itself now (condition or Effect crests)",
                "ese monstruo no puede convocarse solo ahora (condición o crestas de Efecto)"),
    "summoned": ("you already made a crest summon this turn", "ya hiciste una convocación con crestas este turno"),
    "summon_crests": ("summoning it needs {crests}", "convocarlo necesita {crests}"),
    "no_place": ("there is no legal place to dimension a die", "no hay ningún lugar legal donde dimensionar un dado"),
    "ssummon_crests": ("a special summon needs {crests}", "una convocación especial necesita {crests}"),
    "ssummon_only": ("a special summon is only allowed when no die can be dimensioned",
                     "una convocación especial solo se permite cuando ningún dado puede dimensionarse"),
    "move_crests": ("you need Movement crests", "necesitas crestas de Movimiento"),
    "no_piece": ("you have no piece on {square}", "no tienes ninguna pieza en {square}"),
    "moved": ("another monster already moved this turn", "otro monstruo ya se movió este turno"),
    "unreachable": ("that square cannot be reached with your Movement crests",
                    "esa casilla no se alcanza con tus crestas de Movimiento"),
    "magic_crest": ("you need a Magic crest", "necesitas una cresta de Magia"),
    "spell_not_in_deck": ("that spell is not in your deck", "ese hechizo no está en tu mazo"),
    "spell_target": ("that is not a legal target for the spell", "ese no es un objetivo legal para el hechizo"),
    "set_trap": ("only traps from your deck can be set", "solo se pueden colocar trampas de tu mazo"),
    "effect": ("that monster has no effect it can use now (used, Effect crests, or target)",
               "ese monstruo no tiene ningún efecto que pueda usar ahora (ya usado, crestas de Efecto u objetivo)"),
    "zash": ("not enough Zash crests, or not a legal square or card for that Zash",
             "no hay crestas de Zash suficientes, o no es una casilla o carta legal para ese Zash"),
}


# --- the terminal picture -------------------------------------------------------------------
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
                   + f" ({reason_words(game, obs['result']['reason'], lang)})")
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


# Each legal action in words for the table's buttons and action list (Game.action_texts), in both languages.
ACTION_TEXT = {
    "en": {
        "battle": "Go to Battle", "spend2": "End the Battle", "end": "End turn", "defend": "Defend (1 Defense crest)",
        "pass": "Do not respond",
        "summon": "Summon (dimension a die)", "ssummon": "Special summon (2× Summon crests)",
        "esummon": "Summon with Effect crests", "set": "Set face-down", "spell": "Activate", "effect": "Use its effect",
        "zash1": "1 Zash: new path square", "zash2": "2 Zash: remove a path square", "zash3": "3 Zash: black hole",
        "zash4": "4 Zash: bring back a monster", "zash5": "5 Zash: a heart back",
        "dim": "Unfold the die as the {net} net at {square}", "verb": "{verb}: {card}", "on": "{words} on {target}",
        "at": "{words} at {square}", "trap": "Spring {card}", "move": "Move {piece} from {a} to {b}",
        "attack": "{piece} attacks {target}", "piece": "{card} ({square})", "master": "Dungeon Master of {player}",
        "graveyard": "{card} (Graveyard of {player})", "player": "Player {n}",
    },
    "es": {
        "battle": "Ir a la Batalla", "spend2": "Terminar la Batalla", "end": "Terminar el turno",
        "defend": "Defender (1 cresta de Defensa)", "pass": "No responder",
        "summon": "Convocar (dimensionar un dado)", "ssummon": "Convocación especial (2× crestas de Convocación)",
        "esummon": "Convocar con crestas de Efecto", "set": "Colocar boca abajo", "spell": "Activar",
        "effect": "Usar su efecto",
        "zash1": "1 Zash: casilla de camino nueva", "zash2": "2 Zash: quitar una casilla de camino",
        "zash3": "3 Zash: agujero negro", "zash4": "4 Zash: traer de vuelta un monstruo",
        "zash5": "5 Zash: recuperar un corazón",
        "dim": "Desplegar el dado como {net} en {square}", "verb": "{verb}: {card}", "on": "{words} sobre {target}",
        "at": "{words} en {square}", "trap": "Activar la trampa {card}", "move": "Mover {piece} de {a} a {b}",
        "attack": "{piece} ataca a {target}", "piece": "{card} ({square})", "master": "Amo del Calabozo de {player}",
        "graveyard": "{card} (Cementerio de {player})", "player": "Jugador {n}",
    },
}


def action_texts(game, obs: dict, notations: list[str], lang: str) -> list[str]:
    """Each action (in notation: the engine's own words for it) in words, naming only the pieces `obs` (the
    observation of the seat to move) shows."""
    say = ACTION_TEXT[lang]
    pieces = {p["square"]: p for p in obs["pieces"]}

    def player(p: int) -> str:
        return say["player"].format(n=p + 1)

    def square(name: str) -> str:
        piece = pieces.get(name)
        if piece is None:
            return name
        card = say["master"].format(player=player(piece["player"])) if piece["master"] \
            else game.card_name(piece["card"], lang)
        return say["piece"].format(card=card, square=name)

    def target(name: str) -> str:
        """A square, or a card in a graveyard (`gy2:C`)."""
        if name.startswith("gy"):
            seat, card = name.split(":", 1)
            return say["graveyard"].format(card=game.card_name(card, lang), player=player(int(seat[2:]) - 1))
        return square(name)

    def words(text: str) -> str:
        kind, *args = text.split(" ")
        if kind in say and not args and kind not in ("summon", "ssummon", "esummon", "set", "spell", "effect"):
            return say[kind]
        if kind == "dim":
            net, anchor = args[0].split("@")
            return say["dim"].format(net=net[0], square=anchor)
        if kind in ("summon", "ssummon", "esummon", "set", "zash4"):
            return say["verb"].format(verb=say[kind], card=game.card_name(args[0], lang))
        if kind == "trap":
            return say["trap"].format(card=game.card_name(args[0], lang))
        if kind in ("spell", "effect"):
            named = game.card_name(args[0], lang) if kind == "spell" else square(args[0])
            said = say["verb"].format(verb=say[kind], card=named)
            return say["on"].format(words=said, target=target(args[1])) if len(args) > 1 else said
        if kind == "move":
            return say["move"].format(piece=square(args[0]), a=args[0], b=args[1])
        if kind == "attack":
            return say["attack"].format(piece=square(args[0]), target=square(args[1]))
        return say["at"].format(words=say[kind], square=args[0])     # zash1-3 on a square

    return [words(text) for text in notations]
