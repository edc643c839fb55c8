"""Capsule Monsters in words: event narration (en/es) and the terminal picture of an observation."""

from __future__ import annotations

from coliseo.core.i18n import player_name

from .state import ABILITY, ATTACK, END, MOVE, PLACE, PLACE_REST, RECOVER, SUMMON

EVENT_TEXT = {
    "place": {"en": ["{player} places {piece} on {sq}", "{player} places a piece"],
              "es": ["{player} coloca a {piece} en {sq}", "{player} coloca una pieza"]},
    "turn_start": {"en": "Turn {turn}: {player} has {ap} AP", "es": "Turno {turn}: {player} tiene {ap} PA"},
    "summon": {"en": "{player} summons {card} on {sq}", "es": "{player} invoca a {card} en {sq}"},
    "move": {"en": "{piece} moves {from}–{to}", "es": "{piece} se mueve {from}–{to}"},
    "attack": {
        "en": ["{piece} on {from} attacks {target} on {to} for {amount}",
               "{piece} on {from} attacks the capsule on {to} for {amount}"],
        "es": ["{piece} en {from} ataca a {target} en {to} por {amount}",
               "{piece} en {from} ataca la cápsula en {to} por {amount}"]},
    "destroyed": {"en": "{card} on {sq} is destroyed", "es": "{card} en {sq} es destruido"},
    "king_damage": {"en": "{player}'s King takes {amount} (total {total})",
                    "es": "El Rey de {player} recibe {amount} (total {total})"},
    "king_destroyed": {"en": "{player}'s King is destroyed", "es": "El Rey de {player} es destruido"},
    "stunned": {"en": "{card} on {sq} is stunned", "es": "{card} en {sq} queda aturdido"},
    "recover": {"en": "{player} recovers {card} on {sq}", "es": "{player} recupera a {card} en {sq}"},
    "heal": {"en": "{piece} on {from} heals {target} on {to} by {amount}",
             "es": "{piece} en {from} cura a {target} en {to} {amount}"},
    "scout": {"en": ["{piece} on {from} scouts the capsule on {to}: it holds {card}",
                     "{piece} on {from} scouts the capsule on {to}"],
              "es": ["{piece} en {from} explora la cápsula en {to}: contiene a {card}",
                     "{piece} en {from} explora la cápsula en {to}"]},
    "rouse": {"en": "{piece} on {from} rouses {target} on {to}",
              "es": "{piece} en {from} despierta a {target} en {to}"},
    "turn_end": {"en": ["{player}'s turn ends: {reason}", "{player} ends the turn"],
                 "es": ["El turno de {player} termina: {reason}", "{player} termina el turno"]},
    "game_over": {"en": "Game over ({reason}): {winner}; scores {scores}",
                  "es": "Fin de la partida ({reason}): {winner}; puntos {scores}"},
}

# Why the game ended, besides the shared `turn_limit` (core/reasons.py).
OWN_REASONS = {
    "king_destroyed": {"en": "King destroyed", "es": "Rey destruido"},
    "all_monsters_destroyed": {"en": "all monsters destroyed", "es": "todos los monstruos destruidos"},
    "double_pass": {"en": "two empty turns", "es": "dos turnos vacíos"},
    "both_lost": {"en": "both lost", "es": "ambos pierden"},
}
# Why a turn ended by itself (R14).
TURN_END_REASONS = {"no_actions": {"en": "nothing left to do", "es": "no le queda nada por hacer"}}

# Spanish: luz, oscuridad, electricidad, tierra.
FACTION_MARK = {"en": {"light": "L", "dark": "D", "electric": "E", "earth": "T"},
                "es": {"light": "L", "dark": "O", "electric": "E", "earth": "T"}}
WORDS = {
    "turn": {"en": "Turn", "es": "Turno"},
    "to_move": {"en": "to play", "es": "juega"},
    "ap": {"en": "AP", "es": "PA"},
    "you": {"en": "you are", "es": "eres"},
    "spectator": {"en": "spectator", "es": "espectador"},
    "legend": {"en": "K King · ? capsule (faction L/D/E/T) · letters: summoned monster · * stunned · "
                     "lowercase: Player 2",
               "es": "R Rey · ? cápsula (facción L luz/O oscuridad/E electricidad/T tierra) · letras: monstruo "
                     "invocado · * aturdido · minúsculas: Jugador 2"},
    "destroyed": {"en": "destroyed", "es": "destruidos"},
    "legal": {"en": "Legal actions", "es": "Acciones legales"},
    "over": {"en": "Game over", "es": "Partida terminada"},
    "placing": {"en": "Placement (secret): {player} places", "es": "Colocación (secreta): coloca {player}"},
    "to_place": {"en": "To place on your zone ({zone}), as «piece@square», or «random» for the rest",
                 "es": "Por colocar en tu zona ({zone}), como «pieza@casilla», o «random» para el resto"},
}


def _local_name(card, lang: str) -> str:
    return card.names.get(lang, card.names["en"])


CELL = 4     # a square's width in the picture: a mark of up to three characters, then its damage or stun


def _initials(game, card_id: str, lang: str) -> str:
    words = _local_name(game.content.card(card_id), lang).split()
    return (words[0][0] + (words[1][0] if len(words) > 1 else words[0][1])).upper()


def _label(game, piece: dict, lang: str) -> str:
    """A square's four characters: the King with its faction mark, a capsule (its monster's initials when the
    viewer knows it, else its faction mark), or a monster's initials; then its damage (up to 99) or * if stunned."""
    marks = FACTION_MARK[lang]
    if piece["kind"] == "king":
        text = ("R" if lang == "es" else "K") + marks[piece["faction"]]
    elif piece["kind"] == "capsule":
        known = piece.get("card")
        text = "?" + (_initials(game, known, lang) if known else marks[piece["faction"]])
    else:
        text = _initials(game, piece["card"], lang)
    if piece["owner"] == 1:
        text = text.lower()
    status = "*" if piece.get("stunned") else str(piece["damage"] or "")
    return (text + status).ljust(CELL)[:CELL]


def render_text(game, obs: dict, lang: str, legal: list | None) -> str:
    width, height = obs["width"], obs["height"]
    at = {p["sq"]: p for p in obs["pieces"]}
    lines = []
    files = "".join(f" {chr(97 + f)}".ljust(CELL + 1) for f in range(width))
    lines.append("    " + files)
    for r in range(height, 0, -1):
        row = []
        for f in range(width):
            sq = f"{chr(97 + f)}{r}"
            row.append(_label(game, at[sq], lang) if sq in at else " ·".ljust(CELL))
        lines.append(f"{r:>2}  " + " ".join(row))
    lines.append("    " + files)
    lines.append(WORDS["legend"][lang])
    lines.append("")
    for p in (0, 1):
        king = next((x for x in obs["pieces"] if x["owner"] == p and x["kind"] == "king"), None)
        status = "—"
        if king:
            card = game.content.card(king["card"])
            mp = card.monster_points[obs["mode"] == "advanced"]
            status = f"{card.name(lang)} {mp - king['damage']}/{mp}"
        gone = ", ".join(game.card_name(c, lang) for c in obs["destroyed"][p]) or "—"
        lines.append(f"{player_name(p, lang)}: {status}; {WORDS['destroyed'][lang]}: {gone}")
    viewer = WORDS["you"][lang] + " " + player_name(obs["viewer"], lang) if obs["viewer"] is not None \
        else WORDS["spectator"][lang]
    if obs.get("placing"):
        lines.append(f"{WORDS['placing'][lang].format(player=player_name(obs['current_player'], lang))} · ({viewer})")
        if obs["tray"]:
            zone = obs["zones"][obs["viewer"]]
            lines.append(WORDS["to_place"][lang].format(zone=f"{zone[0]}–{zone[-1]}" if len(zone) > 4
                                                        else ", ".join(zone)) + ":")
            lines.append("  " + " · ".join(f"{t['piece']} {_local_name(game.content.card(t['card']), lang)}"
                                           for t in obs["tray"]))
    elif obs["result"]:
        winners = obs["result"]["winners"]
        outcome = player_name(winners[0] if winners else None, lang)
        lines.append(f"{WORDS['over'][lang]}: {outcome} ({game.render_value('reason', obs['result']['reason'], lang)})")
    else:
        lines.append(f"{WORDS['turn'][lang]} {obs['turn']} · {player_name(obs['current_player'], lang)} "
                     f"{WORDS['to_move'][lang]} · {obs['ap']} {WORDS['ap'][lang]} · ({viewer})")
    if legal:
        lines.append(f"{WORDS['legal'][lang]}: " + ", ".join(game.format_action(a) for a in legal))
    return "\n".join(lines)


# What the player to move may do, by action kind, for prompts.
ACTION_WORDS = {
    SUMMON: ("summon a monster", "invocar un monstruo"),
    MOVE: ("move", "mover"),
    ATTACK: ("attack", "atacar"),
    ABILITY: ("use an ability", "usar una habilidad"),
    RECOVER: ("recover a stunned monster", "recuperar un monstruo aturdido"),
    END: ("end the turn", "terminar el turno"),
    PLACE: ("place the King or a capsule on the start zone", "colocar el Rey o una cápsula en la zona de salida"),
    PLACE_REST: ("place the rest at random", "colocar el resto al azar"),
}

# Why an action is refused (State.why_illegal), in both languages; the shared reasons are in core.i18n.
REFUSALS = {
    "no_end": ("the turn cannot end now", "el turno no puede terminar ahora"),
    "off_board": ("that square is not on the board", "esa casilla no está en el tablero"),
    "no_piece": ("there is no piece on {where}", "no hay ninguna pieza en {where}"),
    "not_yours": ("the piece on {where} is not yours", "la pieza de {where} no es tuya"),
    "no_capsule": ("there is no capsule on {where}", "no hay ninguna cápsula en {where}"),
    "summon_ap": ("summoning costs {cost} AP and you have {ap}", "invocar cuesta {cost} PA y tienes {ap}"),
    "capsule_acts": ("the capsule on {where} must be summoned before it can act",
                     "la cápsula de {where} debe invocarse antes de actuar"),
    "not_stunned": ("the monster on {where} is not stunned", "el monstruo de {where} no está aturdido"),
    "recover_ap": ("recovering costs {cost} AP and you have {ap}", "recuperar cuesta {cost} PA y tienes {ap}"),
    "stunned": ("the monster on {where} is stunned: pay its summon cost (R {where}) to recover it first",
                "el monstruo de {where} está aturdido: paga su coste de invocación (R {where}) para recuperarlo"),
    "moved": ("the piece on {where} has already moved this turn", "la pieza de {where} ya se ha movido este turno"),
    "move_ap": ("moving costs {cost} AP and you have {ap}", "mover cuesta {cost} PA y tienes {ap}"),
    "bad_move": ("the piece on {where} cannot move there (its move is {range} {pattern})",
                 "la pieza de {where} no puede moverse ahí (su movimiento es {range} {pattern})"),
    "king_attack": ("Kings never attack", "los Reyes nunca atacan"),
    "attacked": ("the monster on {where} has already attacked this turn",
                 "el monstruo de {where} ya ha atacado este turno"),
    "attack_ap": ("attacking costs {cost} AP and you have {ap}", "atacar cuesta {cost} PA y tienes {ap}"),
    "no_target": ("no enemy piece that the monster on {where} can attack stands there",
                  "ahí no hay ninguna pieza enemiga a la que el monstruo de {where} pueda atacar"),
    "no_ability": ("the piece on {where} has no activated ability {ability}",
                   "la pieza de {where} no tiene la habilidad activable {ability}"),
    "used": ("{ability} was already used by the piece on {where} this turn",
             "la pieza de {where} ya usó {ability} este turno"),
    "ability_ap": ("{ability} costs {cost} AP and you have {ap}", "{ability} cuesta {cost} PA y tienes {ap}"),
    "bad_target": ("that is not a valid target for {ability}", "ese no es un objetivo válido para {ability}"),
    "placing": ("first place your King and capsules (piece@square, or random)",
                "primero coloca tu Rey y tus cápsulas (pieza@casilla, o random)"),
    "placed": ("that piece is not among the ones you still have to place",
               "esa pieza no está entre las que te quedan por colocar"),
    "not_zone": ("place pieces only on free squares of your start zone",
                 "coloca las piezas solo en casillas libres de tu zona de salida"),
    "not_placing": ("the placement is over", "la colocación ha terminado"),
}


# Each legal action in words for the table's buttons and action list (Game.action_texts), in both languages.
ACTION_TEXT = {
    END: {"en": "End turn", "es": "Terminar turno"},
    PLACE_REST: {"en": "Random placement", "es": "Colocación al azar"},
    PLACE: {"en": "Place {card} on {sq}", "es": "Colocar a {card} en {sq}"},
    SUMMON: {"en": "Summon {card} on {sq}", "es": "Invocar a {card} en {sq}"},
    RECOVER: {"en": "Recover {card} on {sq} ({cost} AP)", "es": "Recuperar a {card} en {sq} ({cost} PA)"},
    MOVE: {"en": "{card}: move {from} → {to}", "es": "{card}: mover {from} → {to}"},
    ATTACK: {"en": "{card} on {from} attacks {target} on {to}", "es": "{card} en {from} ataca a {target} en {to}"},
    ABILITY: {"en": "{card} on {from}: {ability} → {to}", "es": "{card} en {from}: {ability} → {to}"},
}
THE_CAPSULE = {"en": "the capsule", "es": "la cápsula"}


def action_texts(game, obs: dict, actions: list[tuple], lang: str) -> list[str]:
    """`actions` in words, naming only the cards `obs` (the observation of the seat to move) shows."""
    name = game.board.name
    pieces = {p["sq"]: p for p in obs["pieces"]}
    tray = {p["piece"]: p for p in obs["tray"]}

    def card(piece: dict | None) -> str:
        if piece is None:
            return ""
        if piece.get("card"):
            return _local_name(game.content.card(piece["card"]), lang)
        return THE_CAPSULE[lang] if piece["kind"] == "capsule" else piece["kind"]

    def words(action: tuple) -> str:
        kind = action[0]
        text = ACTION_TEXT[kind][lang]
        if kind == PLACE:
            return text.format(card=card(tray.get(action[1] or "K")), sq=name(action[2]))
        if kind in (SUMMON, RECOVER):
            piece = pieces.get(name(action[1]))
            cost = game.content.card(piece["card"]).cost if piece and piece.get("card") else "?"
            return text.format(card=card(piece), sq=name(action[1]), cost=cost)
        if kind in (MOVE, ATTACK, ABILITY):
            source, target = name(action[1]), name(action[-1])
            return text.format(card=card(pieces.get(source)), target=card(pieces.get(target)), ability=action[2],
                               **{"from": source, "to": target})
        return text

    return [words(a) for a in actions]
