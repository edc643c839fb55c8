"""Fantastiqa in words: names (en/es), event templates (en/es), event values and the terminal view of an observation.

The bundled pack names most cards in English; the names below translate those names into Spanish and
give a name to every card or quest whose pack name is only its id (beasts, quests, two creatures),
so no log line or board label ever shows a code. User packs keep their own names.
"""

from __future__ import annotations

from coliseo.core.i18n import joined, player_name
from coliseo.core.reasons import reason_words

from .board import POSITIONS
from .content import REGION_NAMES, SYMBOLS

# --- names a player reads: cards, quests, statues, powers --------------------------------------
STATUE_NAMES = {
    "en": {"AT": "the Artifact Tower", "BB": "the Beast Bazaar", "QC": "the Quest Chest"},
    "es": {"AT": "la Torre de Artefactos", "BB": "el Bazar de Bestias", "QC": "el Cofre de Misiones"},
}
POWER_NAMES = {
    "en": {"GEMS": "gain gems", "DRAW": "draw cards", "FLY": "fly", "CARPET": "gain carpets",
           "REARRANGE": "gain rearranges", "SPY": "see more at a statue", "KEY": "use a statue",
           "DRAGON": "send dragons", "GIFT": "give itself away", "RELEASE": "release cards",
           "TELEPORT": "teleport", "WILD": "wild"},
    "es": {"GEMS": "ganar gemas", "DRAW": "robar cartas", "FLY": "volar", "CARPET": "ganar alfombras",
           "REARRANGE": "ganar reorganizaciones", "SPY": "ver más en una estatua", "KEY": "usar una estatua",
           "DRAGON": "enviar dragones", "GIFT": "regalarse", "RELEASE": "liberar cartas",
           "TELEPORT": "teletransportarse", "WILD": "comodín"},
}

_SPANISH = {
    "Butter Knife": "Cuchillo de mantequilla", "Birthday Candle": "Vela de cumpleaños", "Watering Can": "Regadera",
    "Old Broom": "Escoba vieja", "Grumpy Cat": "Gato gruñón", "Butterfly Net": "Cazamariposas",
    "Colander": "Colador", "Rolling Pin": "Rodillo", "Knitting Needle": "Aguja de punto", "Dog": "Perro",
    "Peaceful Dragon": "Dragón pacífico", "Mischievous Crow": "Cuervo travieso",
    "Patched Umbrella": "Paraguas remendado", "Piggy Bank": "Hucha de cerdito", "Mood Ring": "Anillo del humor",
    "Spare Key": "Llave de repuesto", "Nail Scissors": "Tijeras de uñas", "Toy Spyglass": "Catalejo de juguete",
    "Brass Spyglass": "Catalejo de latón", "Umbrella of Gales": "Paraguas de vendavales",
    "Winged Galoshes": "Galochas aladas", "Bottomless Satchel": "Morral sin fondo",
    "Mirror of Echoes": "Espejo de ecos", "Jar of Fireflies": "Tarro de luciérnagas",
    "Treasure Map": "Mapa del tesoro", "Chameleon Charm": "Amuleto camaleón", "Prism of Hues": "Prisma de matices",
    "Skeleton Key": "Llave maestra", "Golden Key": "Llave dorada", "Hourglass": "Reloj de arena",
    "Kite of Winds": "Cometa de los vientos", "Carpet Beater": "Sacudidor de alfombras",
    "Silver Scissors": "Tijeras de plata", "Hedge Shears": "Tijeras de podar",
    "Whistle of Elsewhere": "Silbato de otra parte", "Cloud Compass": "Brújula de nubes",
    "Dragon Bell": "Campana del dragón", "Enchanted Ladle": "Cucharón encantado", "Thunder Jar": "Tarro de truenos",
    "Lantern of Seeking": "Farol de búsqueda",
}
# Creature families by the symbol they give (rules §6.3), with the Spanish gender for the tier word.
_FAMILIES = dict(zip(SYMBOLS, (("Brigand", "Bandolero", "m"), ("Salamander", "Salamandra", "f"),
                               ("Undine", "Ondina", "f"), ("Broom-Hag", "Bruja-Escoba", "f"),
                               ("Wolfling", "Lobezno", "m"), ("Weaver", "Tejedor", "m"), ("Ram", "Carnero", "m"),
                               ("Ogre", "Ogro", "m"), ("Sprite", "Duende", "m")), strict=True))
_TIERS = {"Young": ("{} joven", "{} joven"), "Sly": ("{} astuto", "{} astuta"), "Great": ("Gran {}", "Gran {}"),
          "Wise": ("{} sabio", "{} sabia"), "Elder": ("{} mayor", "{} mayor"),
          "Ancient": ("{} ancestral", "{} ancestral"), "Wandering": ("{} errante", "{} errante")}
_BEASTS = dict(zip(SYMBOLS, (("Griffin", "Grifo"), ("Phoenix", "Fénix"), ("Kelpie", "Kelpie"),
                             ("Storm Hare", "Liebre de tormenta"), ("Manticore", "Mantícora"),
                             ("Giant Spider", "Araña gigante"), ("Unicorn", "Unicornio"), ("Troll", "Trol"),
                             ("Moon Owl", "Búho lunar")), strict=True))
_REGION_OF = {"FOR": "del Bosque", "FLD": "de los Campos", "HGH": "de las Tierras Altas", "HIL": "de las Colinas",
              "WET": "de los Humedales", "FRZ": "del Páramo Helado"}
_QUEST_TITLES = {"en": ("Errand", "Rescue", "Riddle", "Hunt", "Trial", "Legend"),
                 "es": ("Recado", "Rescate", "Acertijo", "Cacería", "Prueba", "Leyenda")}
_STARTING_TITLES = {"en": ("Path", "Trail", "Track"), "es": ("Senda", "Vereda", "Camino")}


def _spanish_creature(english: str) -> str | None:
    tier, _, family = english.partition(" ")
    for en, es, gender in _FAMILIES.values():
        if family == en and tier in _TIERS:
            return _TIERS[tier][gender == "f"].format(es)
    return None


def _nth(items: list, item, words: tuple) -> str:
    k = items.index(item)
    return words[k] if k < len(words) else f"{words[-1]} {k + 1}"


def display_names(content, lang: str) -> dict[str, str]:
    """Every card and quest id → the name a player reads in `lang`."""
    lang = "es" if lang == "es" else "en"
    names: dict[str, str] = {}
    beasts: dict[int, list] = {}
    quests: dict[tuple, list] = {}
    for c in content.cards.values():
        if c.kind == "beast":
            beasts.setdefault(c.sym, []).append(c.id)
    for q in content.quests.values():
        quests.setdefault((q.region, q.star), []).append(q.id)
    for c in content.cards.values():
        name = c.name
        if name == c.id and c.kind == "beast" and c.sym >= 0:
            en, es = _BEASTS[SYMBOLS[c.sym]]
            royal = beasts[c.sym].index(c.id) % 2 == 1
            name = (f"{es} real" if royal else es) if lang == "es" else (f"Royal {en}" if royal else en)
        elif name == c.id and c.kind == "creature" and c.sym >= 0:
            en, es, gender = _FAMILIES[SYMBOLS[c.sym]]
            name = _TIERS["Wandering"][gender == "f"].format(es) if lang == "es" else f"Wandering {en}"
        elif lang == "es":
            name = _SPANISH.get(name) or _spanish_creature(name) or name
        names[c.id] = name
    for q in content.quests.values():
        name = q.name
        if name == q.id:
            group = quests[(q.region, q.star)]
            title = _nth(group, q.id, (_STARTING_TITLES if q.star else _QUEST_TITLES)[lang])
            region = REGION_NAMES[q.region]
            name = f"{title} {_REGION_OF[q.region]}" if lang == "es" else f"{region['en']} {title}"
        names[q.id] = name
    return names


# --- events, refusals and the terminal view -------------------------------------------------------------
# R35: what broke a tie of the top score at the end by the Creature deck or the turn limit.
TIE_WORDS = {
    "gems": {"en": "Tied at {score} points: the most gems wins ({counts}).",
             "es": "Empate a {score} puntos: gana quien tiene más gemas ({counts})."},
    "quests": {"en": "Tied at {score} points and on gems: the most completed quests wins ({counts}).",
               "es": "Empate a {score} puntos y en gemas: gana quien completó más misiones ({counts})."},
    "again_quests": {"en": "Tied again on gems: the most completed quests wins ({counts}).",
                     "es": "Nuevo empate en gemas: gana quien completó más misiones ({counts})."},
    "all": {"en": "Tied at {score} points, on gems and on completed quests: the win is shared.",
            "es": "Empate a {score} puntos, en gemas y en misiones completadas: la victoria se comparte."},
    "shared": {"en": "Those still tied, on gems and on completed quests, share the win.",
               "es": "Quienes siguen empatados, en gemas y en misiones completadas, comparten la victoria."},
}

EVENT_TEXT = {
    "draft_quest": {"en": "{player} takes the starting quest {quest}.",
                    "es": "{player} toma la misión inicial {quest}."},
    "draft_artifact": {"en": "{player} takes the starting artifact {card}.",
                       "es": "{player} toma el artefacto inicial {card}."},
    "draft_start": {"en": "{player} starts in {region}.", "es": "{player} empieza en {region}."},
    "turn_start": {"en": "Turn {turn}: {player} plays.", "es": "Turno {turn}: juega {player}."},
    "creature_revealed": {"en": ["{card} appears on path {space} with {gems}.", "{card} appears on path {space}."],
                          "es": ["{card} aparece en el camino {space} con {gems}.",
                                 "{card} aparece en el camino {space}."]},
    "crow_set_aside": {"en": "A {card} is set aside during the first fill.",
                       "es": "Un {card} se aparta durante el primer reparto."},
    "crow_shuffled": {"en": "The Crow is shuffled into the top {count} of the creature deck.",
                      "es": "El Cuervo se baraja con las {count} de arriba del mazo de criaturas."},
    "crow": {"en": ["{card}: the richest ({players}) lose {amount}.", "{card}: nobody has 5 gems or more to lose."],
             "es": ["{card}: los más ricos ({players}) pierden {amount}.",
                    "{card}: nadie tiene 5 gemas o más que perder."]},
    "quest_revealed": {"en": "{quest} is now an open quest.", "es": "{quest} pasa a ser una misión abierta."},
    "cards_drawn": {"en": ["{player} draws {cards}.", "{player} draws {count}."],
                    "es": ["{player} roba {cards}.", "{player} roba {count}."]},
    "reshuffle": {"en": "{player} shuffles the discard pile into a new draw pile ({count}).",
                  "es": "{player} baraja su descarte como nuevo mazo ({count})."},
    "subdue": {"en": "{player} subdues {card} on path {space} with {cards} and moves to {region}.",
               "es": "{player} somete a {card} en el camino {space} con {cards} y va a {region}."},
    "recruit": {"en": ["{player} recruits {cards}, gaining {gems}.", "{player} recruits {cards}."],
                "es": ["{player} recluta a {cards}; gana {gems}.", "{player} recluta a {cards}."]},
    "statue_draw": {"en": "{player} visits {statue} and reveals {cards}.",
                    "es": "{player} visita {statue} y revela {cards}."},
    "buy": {"en": ["{player} buys {card} for {cost}.", "{player} takes {card} for free."],
            "es": ["{player} compra {card} por {cost}.", "{player} se lleva {card} gratis."]},
    "keep": {"en": "{player} keeps the quest {quest}.", "es": "{player} se queda la misión {quest}."},
    "statue_done": {"en": ["{player} leaves the statue; {cards} go back under the deck.",
                           "{player} leaves the statue."],
                    "es": ["{player} deja la estatua; {cards} vuelven bajo el mazo.", "{player} deja la estatua."]},
    "release": {"en": ["{player} releases {card} for {paid}.", "{player} releases {card}."],
                "es": ["{player} libera {card} por {paid}.", "{player} libera {card}."]},
    "release_done": {"en": "{player} stops releasing.", "es": "{player} deja de liberar."},
    "teleport": {"en": ["{player} teleports to {region} for {paid}.", "{player} teleports to {region}."],
                 "es": ["{player} se teletransporta a {region} por {paid}.", "{player} se teletransporta a {region}."]},
    "complete": {"en": ["{player} completes {quest} with {cards}: {points}{bonus}, and gains {reward}.",
                        "{player} completes {quest} with {cards}: {points}{bonus}."],
                 "es": ["{player} completa {quest} con {cards}: {points}{bonus}, y gana {reward}.",
                        "{player} completa {quest} con {cards}: {points}{bonus}."]},
    "commits_returned": {"en": "{player} takes back {cards} from {quest}.",
                         "es": "{player} recupera {cards} de {quest}."},
    "carpet": {"en": "{player} flies a carpet across path {space} to {region}.",
               "es": "{player} vuela en alfombra por el camino {space} hasta {region}."},
    "fly": {"en": "{player} flies across path {space} to {region}.",
            "es": "{player} vuela por el camino {space} hasta {region}."},
    "rearrange": {"en": "{player} rearranges: discard and draw pile shuffled ({count}).",
                  "es": "{player} reorganiza: descarte y mazo barajados ({count})."},
    "rearrange_hand": {"en": "{player} rearranges, discarding {cards}.",
                       "es": "{player} reorganiza y descarta {cards}."},
    "discard": {"en": "{player} discards {card}.", "es": "{player} descarta {card}."},
    "commit": {"en": "{player} commits {card} to {quest}.", "es": "{player} compromete {card} en {quest}."},
    "withdraw": {"en": "{player} withdraws {card}.", "es": "{player} retira {card}."},
    "power": {"en": "{player} plays {card} to {effect}.", "es": "{player} juega {card} para {effect}."},
    "gift": {"en": "{player} gives {card} to {to}.", "es": "{player} regala {card} a {to}."},
    "dragon": {"en": "{player} sends {card} to {to}.", "es": "{player} envía {card} a {to}."},
    "end_turn": {"en": "{player} ends the turn.", "es": "{player} termina el turno."},
    "game_over": {"en": ["Game over ({reason}). Winner: {winner}. Scores: {scores}.",
                         "Game over ({reason}). Winners: {winners}. Scores: {scores}."],
                  "es": ["Fin de la partida ({reason}). Gana {winner}. Puntos: {scores}.",
                         "Fin de la partida ({reason}). Ganan {winners}. Puntos: {scores}."]},
}
# Event fields rendered as a counted noun ("1 gem", "2 gems"): field → (en singular, en plural, es singular, es plural)
COUNTED = {"gems": ("gem", "gems", "gema", "gemas"), "amount": ("gem", "gems", "gema", "gemas"),
           "paid": ("gem", "gems", "gema", "gemas"), "cost": ("gem", "gems", "gema", "gemas"),
           "count": ("card", "cards", "carta", "cartas"), "points": ("point", "points", "punto", "puntos")}
REWARD_UNITS = {"gems": COUNTED["gems"], "carpets": ("carpet", "carpets", "alfombra", "alfombras"),
                "rearranges": ("rearrange", "rearranges", "reorganización", "reorganizaciones")}


def counted(n: int, key: str, lang: str, units: dict = COUNTED) -> str:
    sing, plural, sing_es, plural_es = units[key]
    if lang == "es":
        return f"{n} {sing_es if n == 1 else plural_es}"
    return f"{n} {sing if n == 1 else plural}"


def listed(names: list[str], lang: str) -> str:
    """A, B and C (A, B y C)."""
    return joined(names, "and", lang)


def worded(event: dict) -> dict:
    """The event with the fields its words need: zero amounts dropped (their template variant has no such
    field), a single winner apart from several, a quest's rewards gathered in one field."""
    e = dict(event)
    kind = e["type"]
    if kind in ("creature_revealed", "recruit") and not e.get("gems"):
        e.pop("gems", None)
    if kind == "crow" and not e.get("players"):
        e.pop("players", None)
    if kind in ("release", "teleport") and not e.get("paid"):
        e.pop("paid", None)
    if kind == "buy" and not e.get("cost"):
        e.pop("cost", None)
    if kind == "statue_done" and not e.get("cards"):
        e.pop("cards", None)
    if kind == "game_over" and len(e.get("winners", ())) == 1:
        e["winner"] = e.pop("winners")[0]
    if kind == "complete":
        reward = {k: e.pop(k, 0) for k in REWARD_UNITS}
        if any(reward.values()):
            e["reward"] = reward
    return e


# What the player to move may do, by action kind, for prompts: the turn actions, then the free actions (R23–R28) in
# one phrase ("done" reads by the phase it ends).
FREE_ACTIONS = ("take free actions", "hacer acciones libres")
ACTION_WORDS = {
    "quest": ("take one of the starting quests", "tomar una de las misiones iniciales"),
    "artifact": ("take one of the starting artifacts", "tomar uno de los artefactos iniciales"),
    "start": ("choose a free region to start in", "elegir una región libre para empezar"),
    "keep": ("keep one of the revealed quests", "quedarte una de las misiones reveladas"),
    "buy": ("buy one of the revealed cards", "comprar una de las cartas reveladas"),
    "sub": ("subdue a creature", "someter a una criatura"),
    "draw": ("visit the statue", "visitar la estatua"),
    "complete": ("complete a quest", "completar una misión"),
    "teleport": ("teleport", "teletransportarte"),
    "release": ("release a card", "liberar una carta"),
    **dict.fromkeys(("power", "carpet", "rearrange", "commit", "withdraw", "discard"), FREE_ACTIONS),
    "stop": ("end the adventure and recruit", "terminar la aventura y reclutar"),
    "done_statue": ("leave the statue", "dejar la estatua"),
    "done_release": ("stop releasing", "dejar de liberar"),
    "end": ("end the turn", "terminar el turno"),
}

# Why an action is refused (FantastiqaState.why_illegal), in both languages; the shared reasons are in core.i18n.
REFUSALS = {
    "taken_start": ("another Adventurer already starts on that Region",
                    "otro Aventurero ya empieza en esa Región"),
    "draft_pool": ("that {kind} is not in the draft pool",
                   "esa opción '{kind}' no está entre las de la elección inicial"),
    "draft_asks": ("the draft asks for a {step} choice now", "la elección inicial pide ahora una opción '{step}'"),
    "cost": ("{card} costs {cost} gems and you have {gems}", "{card} cuesta {cost} gemas y tienes {gems}"),
    "keep_one": ("keep at least one quest from the Quest Chest first",
                 "quédate antes al menos una misión del Cofre de Misiones"),
    "three_quests": ("you already hold 3 quests", "ya tienes 3 misiones"),
    "not_in_row": ("that card is not in the statue's row (or not sold here)",
                   "esa carta no está en la fila de la estatua (o no se vende aquí)"),
    "at_statue": ("at a statue only buy/keep/done are allowed until you are done",
                  "en una estatua solo se permiten buy/keep/done hasta que termines"),
    "releasing": ("while releasing only release and done are allowed",
                  "mientras liberas solo se permiten release y done"),
    "not_adjacent": ("space {space} does not touch your Region (no diagonal moves)",
                     "el camino {space} no toca tu Región (no hay movimientos en diagonal)"),
    "no_going_back": ("an adventure travels in one continuous line: no going back",
                      "una aventura sigue una línea continua: no se vuelve atrás"),
    "adventure_action": ("you can only go adventuring as your turn action",
                         "solo puedes ir de aventura como acción de tu turno"),
    "no_creature": ("there is no Creature on space {space}", "no hay ninguna Criatura en el camino {space}"),
    "subdued": ("that Creature is already subdued this adventure", "esa Criatura ya está sometida en esta aventura"),
    "pay_from_hand": ("you can only pay with cards in your hand", "solo puedes pagar con cartas de tu mano"),
    "pay_exactly": ("those cards do not pay the Creature's vulnerability exactly (no card may be spare)",
                    "esas cartas no pagan exactamente la vulnerabilidad de la Criatura (no puede sobrar ninguna)"),
    "not_adventuring": ("you are not adventuring", "no estás de aventura"),
    "stop_first": ("finish your adventure with stop before ending the turn",
                   "termina tu aventura con stop antes de acabar el turno"),
    "action_used": ("you have already used your turn action (or are adventuring)",
                    "ya has usado la acción de tu turno (o estás de aventura)"),
    "teleport": ("teleporting costs 2 gems and needs a Region with the same statue",
                 "teletransportarse cuesta 2 gemas y necesita una Región con la misma estatua"),
    "release": ("releasing costs 1 gem and a card from your hand or discard pile",
                "liberar cuesta 1 gema y una carta de tu mano o de tu descarte"),
    "complete": ("the quest must be yours or open, you must stand on its Region, and the cards must meet it exactly",
                 "la misión debe ser tuya o abierta, debes estar en su Región y las cartas deben cumplirla "
                 "exactamente"),
    "statue_draw": ("the statue's deck is empty, or you already hold 3 quests",
                    "el mazo de la estatua está vacío, o ya tienes 3 misiones"),
    "no_statue": ("you are not visiting a statue", "no estás visitando una estatua"),
    "no_carpet": ("you have no Flying Carpet", "no tienes ninguna Alfombra Voladora"),
    "not_in_hand": ("that card is not in your hand", "esa carta no está en tu mano"),
    "no_power": ("that card has no power to play", "esa carta no tiene ningún poder que jugar"),
    "power_in_adventure": ("that power cannot be used during an adventure",
                           "ese poder no se puede usar durante una aventura"),
    "power_condition": ("that power's condition is not met (or its arguments are wrong)",
                        "no se cumple la condición de ese poder (o sus argumentos son incorrectos)"),
    "commit": ("a card can only be committed to a symbol the quest still needs, and your token serves one open quest",
               "una carta solo se compromete con un símbolo que la misión aún necesita, y tu ficha sirve a una "
               "misión abierta"),
    "not_committed": ("that card is not committed to a quest", "esa carta no está comprometida con una misión"),
    "rearrange": ("you need a Rearrange token and a card to rearrange",
                  "necesitas una ficha de reorganización y una carta para reorganizar"),
}

# Why the game ended, besides the shared `deck_out` and `turn_limit` (core/reasons.py); `goal` before the one
# vocabulary.
OWN_REASONS = {"goal_reached": {"en": "Quest Goal reached", "es": "objetivo alcanzado"}}
OLD_REASONS = {"goal": "goal_reached"}
PHASE_NAMES = {
    "en": {"draft": "draft", "main": "main (turn action available)", "adventure": "adventure",
           "statue": "statue visit", "release": "releasing", "after": "after the turn action", "over": "over"},
    "es": {"draft": "elección inicial", "main": "principal (acción de turno disponible)", "adventure": "aventura",
           "statue": "visita a la estatua", "release": "liberando", "after": "tras la acción de turno",
           "over": "terminada"},
}
WORDS = {
    "en": {"turn": "Turn", "phase": "phase", "goal": "Quest Goal", "you": "you", "hand": "Your hand",
           "draw": "draw pile", "discard": "discard", "gems": "gems", "carpets": "carpets",
           "rearranges": "rearranges", "score": "score", "quests": "quests", "open": "Open quests",
           "spaces": "Paths", "regions": "Regions", "legal": "Legal actions", "completed": "completed",
           "token": "token on", "row": "Statue row", "deck": "Creature deck", "play": "play",
           "bonus": "+1 tokens", "hand_n": "hand", "route": "route", "empty": "(empty)", "none": "-"},
    "es": {"turn": "Turno", "phase": "fase", "goal": "Objetivo", "you": "tú", "hand": "Tu mano",
           "draw": "mazo", "discard": "descarte", "gems": "gemas", "carpets": "alfombras",
           "rearranges": "reorganizaciones", "score": "puntos", "quests": "misiones",
           "open": "Misiones abiertas", "spaces": "Caminos", "regions": "Regiones",
           "legal": "Acciones legales", "completed": "completadas", "token": "ficha en",
           "row": "Fila de la estatua", "deck": "Mazo de criaturas", "play": "juego",
           "bonus": "fichas +1", "hand_n": "mano", "route": "ruta", "empty": "(vacío)", "none": "-"},
}


def render_value(game, key: str, value, lang: str) -> str:
    if key in ("player", "to", "winner"):
        return player_name(value, lang)
    if key in ("players", "winners"):
        return ", ".join(player_name(p, lang) for p in value) or WORDS[lang]["none"]
    if key == "region":
        return REGION_NAMES[value][lang] if value in REGION_NAMES else str(value)
    if key == "statue":
        return STATUE_NAMES["es" if lang == "es" else "en"].get(value, str(value))
    if key == "effect":
        return POWER_NAMES["es" if lang == "es" else "en"].get(value, str(value).lower())
    if key == "reason":
        return reason_words(game, value, lang)
    if key in ("card", "quest"):
        return game.card_name(value, lang)
    if key == "cards":
        return listed([game.card_name(c, lang) for c in value], lang) or WORDS[lang]["none"]
    if key in COUNTED and isinstance(value, int):
        return counted(value, key, lang)
    if key == "bonus":
        return "" if not value else " y la ficha +1" if lang == "es" else " and the +1 token"
    if key == "reward":
        return ", ".join(counted(n, k, lang, REWARD_UNITS) for k, n in value.items() if n)
    if key == "scores":
        return ", ".join(f"{player_name(p, lang)} {v}" for p, v in enumerate(value))
    return str(value)


def _card(game, cid) -> str:
    c = game.content.cards.get(cid)
    if c is None:
        q = game.content.quests.get(cid)
        if q is None:
            return str(cid)
        req = " ".join(f"{_sym(s)}{k}" for s, k in q.req.items())
        return f"{cid} ({q.region} {req}, {q.points}pt)"
    bits = []
    if c.symbols:
        bits.append("".join(c.symbols))
    if c.ability:
        bits.append(c.ability + (str(c.n) if c.ability not in ("FLY", "KEY", "DRAGON", "GIFT", "TELEPORT") else ""))
    return f"{cid} ({' '.join(bits)})" if bits else cid


def _sym(i):
    from .content import SYMBOLS

    return SYMBOLS[i]


def render_observation(game, obs: dict, lang: str = "en", legal: list | None = None) -> str:
    w = WORDS.get(lang, WORDS["en"])
    cards = game.content.cards
    phase = PHASE_NAMES.get(lang, PHASE_NAMES["en"]).get(obs["phase"], obs["phase"])
    out = [f"{game.name(lang)} — {w['turn']} {obs['turn']}, {w['phase']} {phase}, "
           f"{w['goal']} {obs['goal']}"]
    if obs["result"]:
        r = obs["result"]
        out.append(render_value(game, "reason", r["reason"], lang) + ": "
                   + render_value(game, "winners", r["winners"], lang) + " — " + " / ".join(map(str, r["scores"])))
    elif obs["current"] is not None:
        out.append(f"> {player_name(obs['current'], lang)}")
    here = {}
    for person in obs["people"]:
        if person["position"]:
            here.setdefault(person["position"], []).append(f"P{person['player'] + 1}")
    out.append(f"{w['regions']}:")
    for cell in obs["layout"]:
        who = ",".join(here.get(cell["pos"], []))
        out.append(f"  {cell['pos']} {REGION_NAMES[cell['region']][lang]:<14} {cell['statue']}  {who}")
    out.append(f"{w['spaces']}:")
    from .board import SPACE_ENDS

    for sp in obs["spaces"]:
        a, b = SPACE_ENDS[sp["space"]]
        cid = sp["creature"]
        if cid is None:
            desc = w["empty"]
        else:
            c = cards[cid]
            vuln = " ".join(_sym(x) for x in c.vuln)
            desc = f"{c.name}: {_card(game, cid)}, vuln {vuln}"
            if sp["gems"]:
                desc += f" +{sp['gems']} {w['gems']}"
            if sp["pending"]:
                desc += " (pending: " + " ".join(sp["paid"]) + ")"
        out.append(f"  {sp['space']} {POSITIONS[a]}-{POSITIONS[b]}: {desc}")
    if obs["route"]:
        out.append(f"{w['route']}: {' '.join(obs['route'])}")
    out.append(f"{w['open']}:")
    for slot in obs["open_quests"]:
        q = slot["quest"]
        out.append(f"  O{slot['slot']}: " + (w["empty"] if q is None else _card(game, q)
                                               + (" +1" if slot["bonus"] else "")))
    size = sum(len(b["cards"]) for b in obs["creature_deck"])
    out.append(f"{w['deck']}: {size}; AT {obs['decks']['AT']['size']}, BB {obs['decks']['BB']['size']}, "
               f"QC {obs['decks']['QC']['size']}")
    if obs["row"]:
        out.append(f"{w['row']} ({obs['row_kind']}): " + " ".join(
            _card(game, c) + (f" ({cards[c].cost})" if c in cards else "") for c in obs["row"]))
    if obs["draft"]:
        d = obs["draft"]
        out.append("Draft: " + d["step"] + " — " + " ".join(_card(game, q) for q in d["quests"])
                   + " | " + " ".join(_card(game, a) for a in d["artifacts"]))
    for person in obs["people"]:
        me = person["player"] == obs["viewer"]
        name = player_name(person["player"], lang) + (f" ({w['you']})" if me else "")
        out.append(f"{name} @ {person['position'] or '-'}: {w['score']} {person['score']}, "
                   f"{w['gems']} {person['gems']}, {w['carpets']} {person['carpets']}, "
                   f"{w['rearranges']} {person['rearranges']}, {w['bonus']} {person['bonus']}, "
                   f"{w['hand_n']} {person['hand_size']}, {w['draw']} {person['draw_size']}, "
                   f"{w['discard']} {len(person['discard'])}")
        for q in person["quests"]:
            out.append(f"    {w['quests']}: {_card(game, q['quest'])} " + " ".join(q["committed"]))
        if person["token"]:
            out.append(f"    {w['token']} {person['token']['quest']}: " + " ".join(person["token"]["committed"]))
        if person["completed"]:
            out.append(f"    {w['completed']}: " + " ".join(person["completed"]))
        if person["play"]:
            out.append(f"    {w['play']}: " + " ".join(person["play"]))
        if person["discard"]:
            out.append(f"    {w['discard']} (top last): " + " ".join(person["discard"][-8:]))
        if me:
            out.append(f"  {w['hand']}: " + (" ".join(_card(game, c) for c in person["hand"]) or w["empty"]))
    if legal:
        out.append(f"{w['legal']}: " + ", ".join(game.format_action(a) for a in legal))
    return "\n".join(out)


# Each legal action in words for the table's buttons and action list (Game.action_texts), in both languages.
ACTION_TEXT = {
    "en": {
        "end": "End turn", "stop": "End adventure and recruit", "done": "Done", "done_release": "Stop releasing",
        "done_statue": "Leave the statue", "quest": "Take the starting quest {q}",
        "artifact": "Take the starting artifact {c}", "start": "Start in {r}",
        "sub": "Subdue {c} on path {s} with {cards}", "carpet": "Fly a carpet across path {s}",
        "rearrange": "Rearrange", "discard": "Discard {c}", "withdraw": "Withdraw {c}", "commit": "Commit {c} to {q}",
        "buy": "Buy {c}", "keep": "Keep {q}", "release": "Release {c}", "teleport": "Teleport to {r}",
        "draw": "Visit {st}: draw cards", "complete": "Complete {q}", "with": "with {cards}",
        "power": "Play {c} for its power", "fly": "Play {c}: fly across path {s}", "gift": "Play {c}: give it to {p}",
        "key_draw": "Play {c}: draw at the statue", "key_release": "Play {c}: release at the statue",
        "key_teleport": "Play {c}: teleport to {r}",
    },
    "es": {
        "end": "Terminar turno", "stop": "Terminar la aventura y reclutar", "done": "Hecho",
        "done_release": "Dejar de liberar", "done_statue": "Dejar la estatua", "quest": "Tomar la misión inicial {q}",
        "artifact": "Tomar el artefacto inicial {c}", "start": "Empezar en {r}",
        "sub": "Someter a {c} en el camino {s} con {cards}", "carpet": "Volar en alfombra por el camino {s}",
        "rearrange": "Reorganizar", "discard": "Descartar {c}", "withdraw": "Retirar {c}",
        "commit": "Comprometer {c} en {q}", "buy": "Comprar {c}", "keep": "Quedarse {q}", "release": "Liberar {c}",
        "teleport": "Teletransportarse a {r}", "draw": "Visitar {st}: robar cartas", "complete": "Completar {q}",
        "with": "con {cards}", "power": "Jugar {c} por su poder", "fly": "Jugar {c}: volar por el camino {s}",
        "gift": "Jugar {c}: regalarla a {p}", "key_draw": "Jugar {c}: robar en la estatua",
        "key_release": "Jugar {c}: liberar en la estatua", "key_teleport": "Jugar {c}: teletransportarse a {r}",
    },
}
STATUE_TITLES = {"en": {"AT": "Artifact Tower", "BB": "Beast Bazaar", "QC": "Quest Chest"},
                 "es": {"AT": "Torre de Artefactos", "BB": "Bazar de Bestias", "QC": "Cofre de Misiones"}}


def action_texts(game, obs: dict, notations: list[str], lang: str) -> list[str]:
    """Each action (in notation: the engine's own words for it) in words, naming only what `obs` (the observation
    of the seat to move) shows."""
    lang = "es" if lang == "es" else "en"
    say = ACTION_TEXT[lang]
    regions = {cell["pos"]: cell for cell in obs["layout"]}
    creatures = {s["space"]: s["creature"] for s in obs["spaces"]}
    here = next((p for p in obs["people"] if p["player"] == obs["current"]), None)
    statue = regions.get(here["position"], {}).get("statue") if here else None

    def card(cid: str) -> str:
        return game.card_name(cid, lang)

    def region(pos: str) -> str:
        cell = regions.get(pos)
        return REGION_NAMES[cell["region"]][lang] if cell and cell["region"] in REGION_NAMES else pos

    def power(args: list[str]) -> str:
        c = card(args[0])
        if len(args) == 1:
            return say["power"].format(c=c)
        how = args[1]
        if how == "teleport":
            return say["key_teleport"].format(c=c, r=region(args[2]))
        if how.isdigit():
            return say["fly"].format(c=c, s=how)
        if how.startswith("P") and how[1:].isdigit():
            return say["gift"].format(c=c, p=player_name(int(how[1:]) - 1, lang))
        if how in ("draw", "release"):
            return say[f"key_{how}"].format(c=c)
        return say["key_teleport"].format(c=c, r=region(how))

    def words(text: str) -> str:
        kind, *args = text.split(" ")
        if kind == "done":
            return say.get(f"done_{obs['phase']}", say["done"])
        if kind in ("quest", "keep", "complete"):
            said = say[kind].format(q=card(args[0]))
            return f"{said} {say['with'].format(cards=listed([card(a) for a in args[1:]], lang))}" if args[1:] \
                else said
        if kind in ("artifact", "discard", "withdraw", "buy", "release"):
            return say[kind].format(c=card(args[0]))
        if kind in ("start", "teleport"):
            return say[kind].format(r=region(args[0]))
        if kind == "sub":
            creature = creatures.get(int(args[0]))
            return say["sub"].format(c=card(creature) if creature else "?", s=args[0],
                                     cards=listed([card(a) for a in args[1:]], lang))
        if kind == "carpet":
            return say["carpet"].format(s=args[0])
        if kind == "commit":
            return say["commit"].format(c=card(args[0]), q=card(args[1]))
        if kind == "draw":
            return say["draw"].format(st=STATUE_TITLES[lang].get(statue, ""))
        if kind == "power":
            return power(args)
        return say.get(kind, text)

    return [words(text) for text in notations]
