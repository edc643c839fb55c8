"""Names a player reads, in English and Spanish: cards, quests, symbols, statues, powers.

The bundled pack names most cards in English; this module translates those names into Spanish and
gives a name to every card or quest whose pack name is only its id (beasts, quests, two creatures),
so no log line or board label ever shows a code. User packs keep their own names.
"""

from __future__ import annotations

from .content import REGION_NAMES, SYMBOLS

SYMBOL_NAMES = {
    "en": dict(zip(SYMBOLS, ("Sword", "Fire", "Water", "Broom", "Fang", "Net", "Helm", "Club", "Wand"), strict=True)),
    "es": dict(zip(SYMBOLS, ("Espada", "Fuego", "Agua", "Escoba", "Colmillo", "Red", "Yelmo", "Garrote", "Varita"),
                   strict=True)),
}
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
