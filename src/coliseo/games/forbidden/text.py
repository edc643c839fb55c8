"""The duel in words, Spanish and English: log values (zones, counts, reasons) and what a card does."""

from __future__ import annotations

from .content import EQUIP, MONSTER, RITUAL, TRAP, TYPE_NAMES, Card, Pack

TYPE_NAMES_ES = ("Dragón", "Lanzador de Conjuros", "Zombi", "Guerrero", "Guerrero-Bestia", "Bestia", "Bestia Alada",
                 "Demonio", "Hada", "Insecto", "Dinosaurio", "Reptil", "Pez", "Serpiente Marina", "Máquina", "Trueno",
                 "Aqua", "Piro", "Roca", "Planta")
TERRAIN_ES = {"Normal": "Normal", "Forest": "Bosque", "Wasteland": "Páramo", "Mountain": "Montaña",
              "Sogen": "Pradera (Sogen)", "Umi": "Mar (Umi)", "Yami": "Oscuridad (Yami)"}
REASONS = {"en": {"lp": "the opponent's LP reached 0", "deckout": "the opponent had to draw from an empty deck",
                  "exodia": "all five pieces of Exodia"},
           "es": {"lp": "los LP del rival llegaron a 0", "deckout": "el rival tuvo que robar de un mazo vacío",
                  "exodia": "las cinco piezas de Exodia"}}


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
