"""The duel in words, Spanish and English: event text, log values (zones, counts, reasons), why an action is
refused, what a card does; and the terminal picture of one observation."""

from __future__ import annotations

from coliseo.core.i18n import player_name

from .content import EQUIP, KINDS, MONSTER, RITUAL, STAR_NAMES, TRAP, TYPE_NAMES, TYPES, Card, Pack

EVENT_TEXT = {
    "play": {"en": "{player} plays {cards} {dest}", "es": "{player} juega {cards} {dest}"},
    "play_hidden": {"en": ["{player} plays {card} face-down {dest}", "{player} plays a face-down card {dest}"],
                    "es": ["{player} juega {card} boca abajo {dest}", "{player} juega una carta boca abajo {dest}"]},
    "fusion": {"en": "{player} fuses {materials} into {result}", "es": "{player} fusiona {materials} en {result}"},
    "equip": {"en": "{player} equips {equip} to {monster}", "es": "{player} equipa {equip} a {monster}"},
    "fail": {"en": ["{player}: {discarded} neither fuses with nor equips {kept}, and is discarded",
                    "{player}: {discarded} is discarded: no zone is free for it"],
             "es": ["{player}: {discarded} no se fusiona con {kept} ni lo equipa, y se descarta",
                    "{player}: {discarded} se descarta: no le queda ninguna zona libre"]},
    "summon": {"en": "{player} puts {card} in {zone}", "es": "{player} pone {card} en {zone}"},
    "summon_hidden": {"en": ["{player} puts {card} face-down in {zone}", "{player} puts a face-down monster in {zone}"],
                      "es": ["{player} pone {card} boca abajo en {zone}",
                             "{player} pone un monstruo boca abajo en {zone}"]},
    "place": {"en": ["{player} places the card in {zone} in {position} position with its {star} guardian star",
                     "{player} places the card in {zone} in {position} position"],
              "es": ["{player} coloca la carta de {zone} en posición de {position} con su {star} estrella guardiana",
                     "{player} coloca la carta de {zone} en posición de {position}"]},
    "set": {"en": "{player} sets {card} in {zone}", "es": "{player} coloca {card} en {zone}"},
    "set_hidden": {"en": "{player} sets a card in {zone}", "es": "{player} coloca una carta en {zone}"},
    "activate": {"en": "{player} activates {card}", "es": "{player} activa {card}"},
    "terrain": {"en": "The terrain becomes {terrain}", "es": "El terreno pasa a ser {terrain}"},
    "heal": {"en": "{player} gains {amount} LP ({lp})", "es": "{player} gana {amount} LP ({lp})"},
    "damage": {"en": "{player} loses {amount} LP ({lp} left)", "es": "{player} pierde {amount} LP (quedan {lp})"},
    "destroy": {"en": "{player}'s {card} in {zone} is destroyed", "es": "{card} de {player} en {zone} es destruida"},
    "flip": {"en": "{player}'s {card} in {zone} turns face-up",
             "es": "{card} de {player} en {zone} se pone boca arriba"},
    "position": {"en": "{player} switches {zone} to {position} position",
                 "es": "{player} cambia {zone} a posición de {position}"},
    "attack": {"en": "{player} attacks from {attacker} {target}", "es": "{player} ataca desde {attacker} {target}"},
    "trap": {"en": "{player}'s trap {card} springs", "es": "Salta la trampa {card} de {player}"},
    "battle": {"en": ["{player}'s {attacker} ({attack}) battles {target} ({defence})",
                      "{player}'s {attacker} attacks directly for {attack}"],
               "es": ["{attacker} ({attack}) de {player} combate contra {target} ({defence})",
                      "{attacker} de {player} ataca directamente por {attack}"]},
    "pin": {"en": "{player} cannot attack for {turns}", "es": "{player} no puede atacar durante {turns}"},
    "curse": {"en": "{player}'s monsters lose {amount} ATK and DEF",
              "es": "Los monstruos de {player} pierden {amount} de ATK y DEF"},
    "curse_lifted": {"en": "The curses on {player}'s monsters are lifted",
                     "es": "Se anulan las maldiciones de los monstruos de {player}"},
    "ritual_failed": {"en": "{player}'s ritual {card} fails: the tributes are not on the field",
                      "es": "El ritual {card} de {player} falla: los tributos no están en el campo"},
    "tribute": {"en": "{player} offers {card} from {zone}", "es": "{player} ofrece {card} desde {zone}"},
    "end_turn": {"en": "{player} ends the turn", "es": "{player} termina el turno"},
    "draw": {"en": ["{player} draws {cards}", "{player} draws {count}"],
             "es": ["{player} roba {cards}", "{player} roba {count}"]},
    "deck_out": {"en": "{player} must draw from an empty deck", "es": "{player} debe robar de un mazo vacío"},
    "exodia": {"en": "{player} holds all five pieces of Exodia!", "es": "¡{player} reúne las cinco piezas de Exodia!"},
    "game_over": {"en": "{winner} wins: {reason}. Duel rank {letter} ({score} points)",
                  "es": "{winner} gana: {reason}. Rango de duelo {letter} ({score} puntos)"},
}

TYPE_NAMES_ES = ("Dragón", "Lanzador de Conjuros", "Zombi", "Guerrero", "Guerrero-Bestia", "Bestia", "Bestia Alada",
                 "Demonio", "Hada", "Insecto", "Dinosaurio", "Reptil", "Pez", "Serpiente Marina", "Máquina", "Trueno",
                 "Aqua", "Piro", "Roca", "Planta")
TERRAIN_ES = {"Normal": "Normal", "Forest": "Bosque", "Wasteland": "Páramo", "Mountain": "Montaña",
              "Sogen": "Pradera (Sogen)", "Umi": "Mar (Umi)", "Yami": "Oscuridad (Yami)"}
# Why the duel ended, besides the shared `deck_out` (core/reasons.py).
OWN_REASONS = {"life_points_zero": {"en": "the opponent's LP reached 0", "es": "los LP del rival llegaron a 0"},
               "exodia_assembled": {"en": "all five pieces of Exodia", "es": "las cinco piezas de Exodia"}}


# What the player to move may do, by action kind, for prompts.
ACTION_WORDS = {
    "play": ("play a card or a chain of cards from your hand", "jugar una carta o una cadena de cartas de tu mano"),
    "place": ("place the card: attack or defence, and its guardian star",
              "colocar la carta: ataque o defensa, y su estrella guardiana"),
    "attack": ("attack", "atacar"),
    "pos": ("change a monster's position", "cambiar la posición de un monstruo"),
    "act": ("activate a set card", "activar una carta colocada"),
    "end": ("end the turn", "terminar el turno"),
}

# Why an action is refused (DuelState.why_illegal, and a play naming no card), in both languages; the shared
# reasons are in core.i18n.
REFUSALS = {
    "play_first": ("this turn's card has not been played yet: play one card or one combination first",
                   "aún no se ha jugado la carta de este turno: juega antes una carta o una combinación"),
    "place_first": ("the new monster must be placed first (place a1, a2, d1 or d2)",
                    "antes hay que colocar el monstruo nuevo (place a1, a2, d1 o d2)"),
    "one_play": ("only one play per turn; now attack, change positions, activate set cards or end the turn",
                 "solo una jugada por turno; ahora ataca, cambia posiciones, activa cartas colocadas o termina el "
                 "turno"),
    "hand_size": ("your hand has only {n} cards", "tu mano solo tiene {n} cartas"),
    "face_down": ("only a single monster played to an empty monster zone may be face-down",
                  "solo un único monstruo jugado en una zona de monstruo vacía puede ir boca abajo"),
    "no_fit": ("that combination does not end in a card that fits that zone",
               "esa combinación no termina en una carta que quepa en esa zona"),
    "pinned": ("your monsters cannot attack: Swords of Revealing Light",
               "tus monstruos no pueden atacar: Swords of Revealing Light"),
    "first_turn": ("the first player cannot attack on the duel's first turn (option first_turn_attack off)",
                   "el primer jugador no puede atacar en el primer turno del duelo (opción first_turn_attack "
                   "desactivada)"),
    "direct": ("a direct attack needs the opponent to have no monster",
               "un ataque directo requiere que el rival no tenga ningún monstruo"),
    "attack": ("that monster cannot attack that target (it needs to be yours, in attack position, not used yet)",
               "ese monstruo no puede atacar a ese objetivo (debe ser tuyo, estar en posición de ataque y no haber "
               "actuado aún)"),
    "position": ("that monster cannot change position (empty zone, it attacked or it already changed this turn)",
                 "ese monstruo no puede cambiar de posición (zona vacía, ya atacó o ya cambió este turno)"),
    "activate": ("there is no set card of yours there that can be activated that way",
                 "ahí no hay ninguna carta colocada tuya que se pueda activar así"),
    # A play whose text names no card (Game.parse_action): hand positions 1..hand size, zones m1..m5 and s1..s5.
    "hand_position": ("play takes hand positions 1..{size}, not {n}",
                      "play toma posiciones de la mano 1..{size}, no {n}"),
    "card_in_hand": ("; card #{n} is hand {position}", "; la carta #{n} es la mano {position}"),
    "position_twice": ("each hand position can be played once", "cada posición de la mano se juega una vez"),
    "zone": ("the place is act, m1..m5 (monsters) or s1..s5 (spells and traps), not {zone}",
             "el destino es act, m1..m5 (monstruos) o s1..s5 (magias y trampas), no {zone}"),
}


def lang_of(lang: str) -> str:
    return lang if lang == "es" else "en"


def zone(code: str, lang: str) -> str:
    """m3 → monster zone 3, s2 → spell zone 2 (with the Spanish article: la zona de monstruo 3)."""
    if len(code) == 2 and code[0] in "ms" and code[1].isdigit():
        row = {("m", "en"): "monster zone", ("s", "en"): "spell zone",
               ("m", "es"): "la zona de monstruo", ("s", "es"): "la zona de magia"}[code[0], lang_of(lang)]
        return f"{row} {code[1]}"
    return code


def destination(code: str, lang: str) -> str:
    """Where a play goes, as the end of a sentence: `to monster zone 3`, `to activate it`."""
    if code == "act":
        return "para activarla" if lang_of(lang) == "es" else "to activate it"
    return f"en {zone(code, lang)}" if lang_of(lang) == "es" else f"to {zone(code, lang)}"


def count(n: int, singular: str, plural: str) -> str:
    return f"{n} {singular if n == 1 else plural}"


def terrain_name(pack: Pack, code: int, lang: str) -> str:
    name = pack.terrain_names[code] if 0 <= code < len(pack.terrain_names) else str(code)
    return TERRAIN_ES.get(name, name) if lang_of(lang) == "es" else name


def type_name(code: int, lang: str) -> str:
    return (TYPE_NAMES_ES if lang_of(lang) == "es" else TYPE_NAMES)[code]


def card_text(pack: Pack, card: Card, lang: str) -> str:
    """What a card does, in words: its own text when the pack has one, else one made from its rule data."""
    if card.extra.get("text"):
        return card.extra["text"]
    if card.kind == MONSTER:
        return ""
    es = lang_of(lang) == "es"
    g, v = card.group, card.value
    if card.kind == EQUIP:
        fits = pack.equips.get(card.id, ())
        who = ("cualquier monstruo" if es else "any monster") if fits is None else (
            count(len(fits), "monstruo", "monstruos") if es else count(len(fits), "monster", "monsters"))
        return (f"Equipo: +{v} ATK y DEF a {who} de la tabla de equipos." if es
                else f"Equip: +{v} ATK and DEF to {who} of the equip table.")
    if card.kind == TRAP:
        return {
            "attack": (f"Destruye al monstruo atacante si su ATK es {v} o menos." if es
                       else f"Destroys an attacking monster whose ATK is {v} or less."),
            "reflect_burn": ("Devuelve al rival el daño de su magia de quemar." if es
                             else "Turns the opponent's burn magic back on them."),
            "reverse_heal": ("La curación del rival le hace perder esos LP." if es
                             else "The opponent's healing makes them lose those LP instead."),
            "reverse_power": ("Los equipos del rival restan en vez de sumar." if es
                              else "The opponent's equips lower their monster instead of raising it."),
            "decoy": ("Detiene un ataque y protege tu fila de magia de Harpie's Feather Duster." if es
                      else "Stops an attack and shields your spell row from Harpie's Feather Duster."),
        }.get(card.trigger, "")
    if card.kind == RITUAL and card.id in pack.rituals:
        *materials, result = pack.rituals[card.id]
        names = [pack.cards[m].name for m in materials]
        return (f"Ritual: ofrece {names[0]}, {names[1]} y {names[2]} de tu campo para invocar "
                f"{pack.cards[result].name}." if es else
                f"Ritual: offer {names[0]}, {names[1]} and {names[2]} from your field to summon "
                f"{pack.cards[result].name}.")
    def kind(t: int) -> str:
        return type_name(t, lang) if 0 <= t < len(TYPE_NAMES) else str(t)

    texts = {
        1: (f"El terreno pasa a ser {terrain_name(pack, v, lang)}." if es
            else f"The terrain becomes {terrain_name(pack, v, lang)}."),
        2: f"Ganas {v} LP." if es else f"You gain {v} LP.",
        3: f"El rival pierde {v} LP." if es else f"The opponent loses {v} LP.",
        4: (("Destruye todos los monstruos del campo." if es else "Destroys every monster on the field.") if v == -1
            else (f"Destruye los monstruos {kind(v)} del rival." if es
                  else f"Destroys the opponent's {kind(v)} monsters.")),
        5: ((f"Destruye los monstruos {kind(v)} del rival." if es else f"Destroys the opponent's {kind(v)} monsters.")
            if v < 100 else (f"Destruye los monstruos del rival con ATK {v} o más." if es
                             else f"Destroys the opponent's monsters with ATK {v} or more.")),
        6: ("Los monstruos del rival en defensa pasan a ataque." if es
            else "The opponent's defence-position monsters switch to attack position."),
        7: "Destruye todos los monstruos del rival." if es else "Destroys all the opponent's monsters.",
        8: ("Pone boca arriba los monstruos boca abajo del rival." if es
            else "Turns the opponent's face-down monsters face-up."),
        9: (f"Los monstruos del rival pierden {v} ATK y DEF." if es
            else f"The opponent's monsters lose {v} ATK and DEF."),
        10: (f"Pone boca arriba los monstruos del rival, que no puede atacar durante {v} turnos." if es
             else f"Turns the opponent's monsters face-up; the opponent cannot attack for {v} turns."),
        11: "Anula las maldiciones de tus monstruos." if es else "Lifts the curses on your monsters.",
        13: ("Destruye todas las cartas de la fila de magia del rival." if es
             else "Destroys every card in the opponent's spell row."),
    }
    return texts.get(g, "")


# --- the terminal picture ---------------------------------------------------------------------------
def card_line(game, card_id: int) -> str:
    c = game.pack.cards[card_id]
    if c.kind == MONSTER:
        return (f"{c.name} #{c.id} {TYPES[c.type]} {c.atk}/{c.defense} "
                f"{STAR_NAMES[c.star1]}/{STAR_NAMES[c.star2]}")
    return f"{c.name} #{c.id} ({KINDS[c.kind]})"


def render_text(game, observation: dict, lang: str = "en", legal: list | None = None) -> str:
    obs = observation
    lines = [f"Turn {obs['turn']} - phase {obs['phase']} - terrain {game.pack.terrain_names[obs['terrain']]}"]
    if obs["player"] is not None:
        lines[0] += f" - {player_name(obs['player'], lang)} to act"
    for side in (1, 0) if obs["viewer"] != 1 else (0, 1):
        sd = obs["sides"][side]
        lines.append(f"{player_name(side, lang)}: LP {sd['lp']}/{sd['max_lp']}  deck {sd['deck_size']}  "
                     f"hand {sd['hand_size']}  removed {len(sd['removed'])}"
                     + (f"  pinned {sd['pinned']}" if sd["pinned"] else ""))
        for z, m in enumerate(sd["monsters"]):
            if m is not None:
                name = game.card_name(m["id"]) if m["id"] is not None else "face-down monster"
                stats = f" {m['atk']}/{m['def']}" if "atk" in m else ""
                if m.get("star") and m["id"] is not None:
                    card = game.pack.cards[m["id"]]
                    stats += f" star {STAR_NAMES[card.star1 if m['star'] == 1 else card.star2]}"
                lines.append(f"  m{z + 1} {name}{stats} {m['position']}"
                             + ("" if m["face_up"] else " (face-down)") + (" used" if m["used"] else ""))
        for z, sp in enumerate(sd["spells"]):
            if sp is not None:
                lines.append(f"  s{z + 1} " + (game.card_name(sp["id"]) if sp["id"] is not None else "set card"))
        if sd["hand"] is not None:
            for i, c in enumerate(sd["hand"]):
                lines.append(f"  hand {i + 1}: {card_line(game, c)}")
    if obs["result"]:
        r = obs["result"]
        why = game.render_value("reason", r["reason"], lang)
        lines.append(f"{player_name(r['winners'][0], lang)} wins ({why}), rank {r['rank']['letter']} "
                     f"({r['rank']['score']})" + (f", {r['starchips']} starchips" if "starchips" in r else "")
                     + (f", drop: {game.card_name(r['drop'])}" if r.get("drop") else ""))
    if legal and legal[0][0] == "play" and obs["viewer"] is not None:
        lines.extend(_play_hints(game, obs, legal))
    elif legal and legal[0][0] == "place" and obs.get("pending") and obs["viewer"] == obs["player"]:
        lines.append(_place_hint(game, obs))
        lines.append("Legal: " + ", ".join(game.format_action(a) for a in legal))
    elif legal:
        shown = [game.format_action(a) for a in legal[:40]]
        more = f" ... (+{len(legal) - 40})" if len(legal) > 40 else ""
        lines.append("Legal: " + ", ".join(shown) + more)
    return "\n".join(lines)


def _place_hint(game, obs: dict) -> str:
    """The place step names the monster and what each choice means: a or d, with guardian star 1 or 2."""
    zone = obs["pending"]
    monster = obs["sides"][obs["player"]]["monsters"][int(zone[1:]) - 1]
    card = game.pack.cards[monster["id"]]
    return (f"Place {game.card_name(card.id)} ({zone}): a = attack, d = defence; "
            f"1 = star {STAR_NAMES[card.star1]}, 2 = star {STAR_NAMES[card.star2]}")


def _play_hints(game, obs: dict, legal: list) -> list[str]:
    """The main phase has hundreds of plays: show the single-card ones and the best chains of the hand."""
    from .calc import fusion_chains

    side = obs["sides"][obs["viewer"]]
    singles = [game.format_action(a) for a in legal if len(a[1]) == 1]
    lines = [f"Legal: {len(legal)} plays, e.g. " + ", ".join(singles[:12]) + (" ..." if len(singles) > 12 else "")]
    hand = side["hand"] or []
    if hand:
        best, seen = [], set()
        for c in fusion_chains(game.pack, hand):
            key = (c["result"], c["atk"], tuple(sorted(c["cards"])))
            if c["onto"] is None and key not in seen and len(best) < 3:
                seen.add(key)
                best.append(c)
        for c in best:
            stats = f" {c['atk']}/{c['def']}" if c["atk"] is not None else ""
            lines.append(f"  chain {'+'.join(map(str, c['order']))} -> {c['name']}{stats}")
    return lines


# Each legal action in words for the table's buttons and action list (Game.action_texts), in both languages.
ACTION_TEXT = {
    "play": {"en": "Play {cards} {where}", "es": "Jugar {cards} {where}"},
    "activate_it": {"en": "activate it", "es": "para activarla"},
    "to": {"en": "to {zone}", "es": "en {zone}"},
    "face_down": {"en": "{play} (Face down)", "es": "{play} (Boca abajo)"},
    "hand_card": {"en": "hand card {n}", "es": "carta {n} de la mano"},
    "m": {"en": "monster zone {n}", "es": "zona de monstruo {n}"},
    "s": {"en": "spell zone {n}", "es": "zona de magia {n}"},
    "yours": {"en": "your {zone}", "es": "tu {zone}"},
    "theirs": {"en": "opponent's {zone}", "es": "{zone} del rival"},
    "place": {"en": "{position}, guardian star {star}", "es": "{position}, estrella guardiana {star}"},
    "a": {"en": "Attack", "es": "Ataque"},
    "d": {"en": "Defence", "es": "Defensa"},
    "attack": {"en": "{card} attacks {target}", "es": "{card} ataca a {target}"},
    "direct": {"en": "{card} attacks directly", "es": "{card} ataca directamente"},
    "pos": {"en": "{card}: change position", "es": "{card}: cambiar posición"},
    "act": {"en": "Activate {card}", "es": "Activar {card}"},
    "equip": {"en": "Equip {card} to {target}", "es": "Equipar {card} a {target}"},
    "end": {"en": "End turn", "es": "Terminar turno"},
}
STAR_SYMBOLS = ("☉", "☽", "♀", "☿", "♂", "♃", "♄", "♅", "♇", "♆")
STAR_NAMES_ES = ("Sol", "Luna", "Venus", "Mercurio", "Marte", "Júpiter", "Saturno", "Urano", "Plutón", "Neptuno")


def action_texts(game, obs: dict, actions: list[tuple], lang: str) -> list[str]:
    """`actions` in words, naming only the cards `obs` (the observation of the seat to move) shows."""
    me = obs["player"]
    if me is None:
        return []       # the duel is over
    own, theirs = obs["sides"][me], obs["sides"][1 - me]
    hand = own["hand"] or []
    say = {key: words[lang] for key, words in ACTION_TEXT.items()}

    def name(card_id) -> str:
        card = game.pack.cards.get(card_id) if card_id is not None else None
        return card.name if card else "?"

    def zone(kind: str, n: int) -> str:
        return say[kind].format(n=n)

    def field(side: dict, mine: bool, n: int) -> str:
        """A monster zone of either side, with its card when it shows: "Dark Elf (your monster zone 2)"."""
        rec = side["monsters"][n - 1]
        where = say["yours" if mine else "theirs"].format(zone=zone("m", n))
        return f"{name(rec['id'])} ({where})" if rec and rec.get("id") is not None else where

    def play(cards: tuple, dest: int, face_down: bool) -> str:
        chain = " + ".join(name(hand[n - 1]) if n <= len(hand) and hand[n - 1] in game.pack.cards
                           else say["hand_card"].format(n=n) for n in cards)
        where = say["activate_it"] if dest == 0 else say["to"].format(
            zone=zone("m", dest) if dest <= 5 else zone("s", dest - 5))
        text = say["play"].format(cards=chain, where=where)
        return say["face_down"].format(play=text) if face_down else text

    def place(position: str, star: int) -> str:
        pending = own["monsters"][int(obs["pending"][1:]) - 1] if obs.get("pending") else None
        card = game.pack.cards.get(pending["id"]) if pending else None
        if card is not None:
            index = card.star1 if star == 1 else card.star2
            star = f"{STAR_SYMBOLS[index]} {(STAR_NAMES_ES if lang == 'es' else STAR_NAMES)[index]}"
        return say["place"].format(position=say[position], star=star)

    def words(a: tuple) -> str:
        tag = a[0]
        if tag == "play":
            return play(a[1], a[2], a[3])
        if tag == "place":
            return place(a[1], a[2])
        if tag == "attack":
            card = field(own, True, a[1])
            return say["attack"].format(card=card, target=field(theirs, False, a[2])) if a[2] \
                else say["direct"].format(card=card)
        if tag == "pos":
            return say["pos"].format(card=field(own, True, a[1]))
        if tag == "act":
            spell = own["spells"][a[1] - 1]
            card = name(spell and spell.get("id"))
            return say["equip"].format(card=card, target=field(own, True, a[2])) if len(a) == 3 \
                else say["act"].format(card=card)
        return say["end"]

    return [words(a) for a in actions]
