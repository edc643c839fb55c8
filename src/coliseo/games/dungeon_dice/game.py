"""Dungeon Dice Monsters (JDMC): the Game — options, setup, positions, notation, event text, rendering."""

from __future__ import annotations

from collections import Counter

from coliseo.core.errors import SetupError
from coliseo.core.game import Game
from coliseo.core.i18n import player_name
from coliseo.core.options import Option
from coliseo.core.rng import Rng

from . import view
from .board import NETS, SHAPES, geometry
from .content import CREST_NAMES, CRESTS, crest_amount, load_content
from .state import BATTLE, DEFEND, END, PASS, PHASES, SPEND2, DDMState

DICE_DECK_SIZE = 15
DEFAULT_DICE = ["common_magic"] * 4 + ["common_trap"] * 4 + ["part_summon"] * 2 + [
    "part_move", "part_attack", "part_magic", "part_trap", "zash"]
DECK_MIN, DECK_MAX = 10, 60


def _check_packs(value):
    if not all(isinstance(p, str) for p in value):
        return "packs must be a list of file paths"
    return None


OPTIONS = [
    Option("board", "jdmc", "jdmc: 14x20, Masters g1/h20; classic: 13x19, Masters g1/g19", choices=("jdmc", "classic")),
    Option("hearts", 5, "starting and maximum hearts", minimum=1, maximum=9),
    Option("crest_amounts", "printed", "printed: a pair gains the printed amount; one: every amount counts 1",
           choices=("printed", "one")),
    Option("triple_bonus", "reroll", "reroll: a triple on the first roll rolls the same dice again; none",
           choices=("reroll", "none")),
    Option("spend2_lock", "type", "crest types spent in Spend 1 locked in Spend 2: type, magic (only Magic), none",
           choices=("type", "magic", "none")),
    Option("ac_move_limited", False, "the Master shares the one moving piece per turn with the monsters"),
    Option("crest_cap", 0, "0: no cap; n: every crest counter is cut to n after each gain", minimum=0),
    Option("max_turns", 200, "total turns (both players) before the turn-limit result", minimum=1),
    Option("first_player", "random", "random, 1 or 2", choices=("random", "1", "2")),
    Option("packs", [], "extra content packs (TOML files)", kind=list, check=_check_packs),
]

T = {  # event text templates
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

REASON_WORDS = {
    "hearts": {"en": "a Master lost all its hearts", "es": "un Amo del Calabozo perdió todos sus corazones"},
    "turn_limit": {"en": "turn limit", "es": "límite de turnos"},
}

WORDS = {
    "master": {"en": "the Master", "es": "el Amo del Calabozo"},
    "spend1": {"en": "Spend 1", "es": "Gasto 1"}, "battle": {"en": "Battle", "es": "Batalla"},
    "spend2": {"en": "Spend 2", "es": "Gasto 2"},
    "wins": {"en": "{p} wins", "es": "gana {p}"}, "draw": {"en": "a draw", "es": "empate"},
    "nothing": {"en": "nothing", "es": "nada"},
    "gains": {"en": ["gains {c}", "gains nothing"], "es": ["gana {c}", "no gana nada"]},
    "net": {"en": "the {n} net at {sq}", "es": "el despliegue {n} en {sq}"},
    "attack_mode": {"en": "attack mode", "es": "modo ataque"},
    "defense_mode": {"en": "defense mode", "es": "modo defensa"},
    "hearts_left": {"en": ["{n} heart left", "{n} hearts left"], "es": ["le queda {n}", "le quedan {n}"]},
    "dimension": {"en": "by dimension", "es": "por dimensión"}, "special": {"en": "special", "es": "especial"},
    "effect": {"en": "by its effect", "es": "por su efecto"}, "zash": {"en": "by Zash", "es": "por Zash"},
    "revive": {"en": "revived", "es": "revivido"},
}


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


class DungeonDice(Game):
    id = "dungeon_dice"
    names = {"en": "Dungeon Dice Monsters", "es": "Juego de Dados de Monstruos del Calabozo"}
    min_players = 2
    max_players = 2
    options_schema = OPTIONS
    view = view
    event_text = T
    refusals = REFUSALS
    revealing_events = frozenset({"declare", "summon", "spell", "trap"})

    def __init__(self, **options):
        super().__init__(**options)
        self.content = load_content(self.options["packs"])
        self.geo = geometry(self.options["board"])
        self.card_ids = list(self.content.cards)
        self.card_index = {c: i for i, c in enumerate(self.card_ids)}
        n, nc = self.geo.n, len(self.card_ids)
        # Fixed action space: consecutive blocks.
        sizes = [("fixed", 5), ("summon", nc), ("ssummon", nc), ("esummon", nc), ("set", nc), ("trap", nc),
                 ("zash4", nc), ("zash5", 1), ("zash1", n), ("zash2", n), ("zash3", n),
                 ("dim", len(self.geo.placements)), ("move", n * n), ("attack", n * 12),
                 ("spell", nc * (1 + n + 2 * nc)), ("effect", n * 13)]
        self.blocks, total = {}, 0
        for name, size in sizes:
            self.blocks[name] = total
            total += size
        self._num_actions = total

    # --- setup ----------------------------------------------------------------------------------
    def default_dice(self) -> list[str]:
        dice = self.content.dice
        if all(d in dice for d in DEFAULT_DICE):
            return list(DEFAULT_DICE)
        return [d for d, die in dice.items() for _ in range(die.copies)][:DICE_DECK_SIZE]

    def default_deck(self) -> list[str]:
        return list(self.card_ids) if len(self.card_ids) <= DECK_MAX else self.card_ids[:DECK_MAX]

    def check_setup(self, setup) -> tuple[list, list]:
        """Each player's dice deck and card deck; SetupError names the player and the broken rule."""
        if setup is None:
            setup = [None, None]
        if not isinstance(setup, (list, tuple)) or len(setup) != 2:
            raise SetupError("the setup must be a list of two entries (one per player), each null or "
                             "{'dice': [15 die ids], 'deck': [10-60 card ids]}")
        dice_decks, decks = [], []
        for p, entry in enumerate(setup):
            who = f"player {p + 1}"
            entry = entry or {}
            if not isinstance(entry, dict):
                raise SetupError(f"{who}: the setup entry must be an object with 'dice' and/or 'deck'")
            unknown = sorted(set(entry) - {"dice", "deck"})
            if unknown:
                raise SetupError(f"{who}: unknown setup field(s) {', '.join(unknown)}; allowed: dice, deck")
            dice = entry.get("dice", self.default_dice())
            if not isinstance(dice, list) or not all(isinstance(d, str) for d in dice):
                raise SetupError(f"{who}: the dice deck must be a list of die ids")
            if len(dice) != DICE_DECK_SIZE:
                raise SetupError(f"{who}: the dice deck must hold exactly {DICE_DECK_SIZE} dice, got {len(dice)}")
            for d, k in sorted(Counter(dice).items()):
                if d not in self.content.dice:
                    raise SetupError(f"{who}: unknown die {d!r}; the dice are: {', '.join(self.content.dice)}")
                if k > self.content.dice[d].copies:
                    raise SetupError(f"{who}: {k} copies of die {d!r}, but the dice set has only "
                                     f"{self.content.dice[d].copies}")
            deck = entry.get("deck", self.default_deck())
            if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
                raise SetupError(f"{who}: the card deck must be a list of card ids")
            if not DECK_MIN <= len(deck) <= DECK_MAX:
                raise SetupError(f"{who}: the card deck must hold {DECK_MIN}-{DECK_MAX} cards, got {len(deck)}")
            for c, k in sorted(Counter(deck).items()):
                if c not in self.content.cards:
                    raise SetupError(f"{who}: unknown card {c!r}")
                if k > self.content.cards[c].limit:
                    raise SetupError(f"{who}: {k} copies of {c!r}, but its limit is {self.content.cards[c].limit}")
            dice_decks.append(tuple(dice))
            decks.append(sorted(deck))
        return dice_decks, decks

    def new_state(self, seed: int, setup=None) -> DDMState:
        dice_decks, decks = self.check_setup(setup)
        s = DDMState.__new__(DDMState)
        s.game, s.rng, s._legal = self, Rng(seed), None
        geo = self.geo
        s.path = [1 << geo.masters[0], 1 << geo.masters[1]]
        s.holes = []
        s.pieces = {geo.masters[p]: [-1 - p, None, p, p, [], 0, False, False, False] for p in (0, 1)}
        s.ac = list(geo.masters)
        s.pool = [[0] * 8, [0] * 8]
        s.hearts = [self.options["hearts"]] * 2
        s.dice = tuple(dice_decks)
        s.drawn, s.rolls = (), ()
        s.library = decks
        s.setzone, s.grave = [[], []], [[], []]
        s.deck_size = (len(decks[0]), len(decks[1]))
        first = self.options["first_player"]
        s.active = s.rng.randrange(2) if first == "random" else int(first) - 1
        s.phase, s.ret_phase, s.placing, s.window = "spend1", None, None, None
        s.spent1, s.summoned, s.mover = 0, False, None
        s.placed, s.counts = [False, False], [[0, 0], [0, 0]]
        s.next_uid, s._turn, s._result = 0, 1, None
        s.start_turn()
        return s

    # --- notation -------------------------------------------------------------------------------
    def format_action(self, a) -> str:
        kind, names = a[0], self.geo.names
        if kind in ("battle", "spend2", "end", "defend", "pass"):
            return kind
        if kind in ("summon", "ssummon", "esummon", "set", "trap"):
            return f"{kind} {a[1]}"
        if kind == "dim":
            return "dim " + self.geo.placement_text(a[1])
        if kind in ("move", "attack"):
            return f"{kind} {names[a[1]]} {names[a[2]]}"
        if kind == "spell":
            t = a[2]
            return f"spell {a[1]}" + ("" if t is None else " " + (names[t] if isinstance(t, int) else t))
        if kind == "effect":
            return f"effect {names[a[1]]}" + ("" if a[2] is None else " " + names[a[2]])
        if kind == "zash":
            n, arg = a[1], a[2]
            if n == 5:
                return "zash5"
            return f"zash{n} " + (arg if n == 4 else names[arg])
        raise ValueError(f"not a dungeon_dice action: {a!r}")

    def _parse_action_text(self, state, text: str):
        tokens = text.strip().split()
        if not tokens:
            return None
        kind = tokens[0].lower()
        args = tokens[1:]
        if kind.isdigit() and not args and state.phase == "placing":
            # the placing step's candidates are numbered in the terminal picture: "12" picks the 12th
            dims = state.legal_actions()
            k = int(kind)
            return dims[k - 1] if 1 <= k <= len(dims) else None
        sq = self.geo.index.get
        cards = self.content.cards
        if kind in ("battle", "spend2", "end", "defend", "pass") and not args:
            return {"battle": BATTLE, "spend2": SPEND2, "end": END, "defend": DEFEND, "pass": PASS}[kind]
        if kind in ("summon", "ssummon", "esummon", "set", "trap") and len(args) == 1:
            c = args[0].lower()
            return (kind, c) if c in cards else None
        if kind == "dim" and len(args) == 1:
            net, _, where = args[0].partition("@")
            if len(net) != 2 or net[0].upper() not in NETS or net[1] not in "01234567":
                return None
            anchor = sq(where.lower())
            if anchor is None:
                return None
            pid = self.geo.placement_of(net[0].upper(), int(net[1]), anchor)
            return None if pid is None else ("dim", pid)
        if kind in ("move", "attack") and len(args) == 2:
            x, y = sq(args[0].lower()), sq(args[1].lower())
            return None if x is None or y is None else (kind, x, y)
        if kind == "spell" and len(args) in (1, 2):
            c = args[0].lower()
            if c not in cards:
                return None
            if len(args) == 1:
                return ("spell", c, None)
            t = args[1].lower()
            if t.startswith("gy"):
                owner, _, cid = t[2:].partition(":")
                if owner in ("1", "2") and cid in cards:
                    return ("spell", c, f"gy{owner}:{cid}")
                return None
            t2 = sq(t)
            return None if t2 is None else ("spell", c, t2)
        if kind == "effect" and len(args) in (1, 2):
            x = sq(args[0].lower())
            t = sq(args[1].lower()) if len(args) == 2 else None
            if x is None or (len(args) == 2 and t is None):
                return None
            return ("effect", x, t)
        if kind.startswith("zash") and kind[4:] in ("1", "2", "3", "4", "5"):
            n = int(kind[4:])
            if n == 5:
                return ("zash", 5, None) if not args else None
            if len(args) != 1:
                return None
            if n == 4:
                c = args[0].lower()
                return ("zash", 4, c) if c in cards else None
            q = sq(args[0].lower())
            return None if q is None else ("zash", n, q)
        return None

    @property
    def num_distinct_actions(self) -> int:
        return self._num_actions

    def action_index(self, a) -> int:
        kind, b, n, ci = a[0], self.blocks, self.geo.n, self.card_index
        if kind in ("battle", "spend2", "end", "defend", "pass"):
            return ("battle", "spend2", "end", "defend", "pass").index(kind)
        if kind in ("summon", "ssummon", "esummon", "set", "trap"):
            return b[kind] + ci[a[1]]
        if kind == "dim":
            return b["dim"] + a[1]
        if kind == "move":
            return b["move"] + a[1] * n + a[2]
        if kind == "attack":
            x, y, w = a[1], a[2], self.geo.w
            dx, dy = y % w - x % w, y // w - x // w
            d = 0 if dy > 0 else 1 if dx > 0 else 2 if dy < 0 else 3
            return b["attack"] + x * 12 + d * 3 + abs(dx + dy) - 1
        if kind == "spell":
            t = a[2]
            if t is None:
                k = 0
            elif isinstance(t, int):
                k = 1 + t
            else:
                k = 1 + n + (int(t[2]) - 1) * len(ci) + ci[t.split(":", 1)[1]]
            return b["spell"] + ci[a[1]] * (1 + n + 2 * len(ci)) + k
        if kind == "effect":
            x, t, w = a[1], a[2], self.geo.w
            if t is None:
                return b["effect"] + x * 13
            dx, dy = t % w - x % w, t // w - x // w
            d = 0 if dy > 0 else 1 if dx > 0 else 2 if dy < 0 else 3
            return b["effect"] + x * 13 + 1 + d * 3 + abs(dx + dy) - 1
        if kind == "zash":
            if a[1] == 5:
                return b["zash5"]
            if a[1] == 4:
                return b["zash4"] + ci[a[2]]
            return b[f"zash{a[1]}"] + a[2]
        raise ValueError(f"not a dungeon_dice action: {a!r}")

    # --- text -----------------------------------------------------------------------------------
    def card_name(self, cid: str, lang: str) -> str:
        card = self.content.cards.get(cid)
        return card.names.get(lang, card.names["en"]) if card else str(cid)

    def render(self, event: dict, lang: str = "en") -> str:
        if event["type"] == "zash":              # each Zash power reads as its own sentence
            event = {**event, "type": f"zash{event['n']}"}
        return super().render(event, lang)

    def render_value(self, key, value, lang):
        if key == "reason" and value in REASON_WORDS:
            return REASON_WORDS[value][lang]
        if key == "player":
            return player_name(value, lang)
        if key in ("card", "piece", "target"):
            if value == "master":
                return WORDS["master"][lang]
            if isinstance(value, str) and value.startswith("gy") and ":" in value:
                return f"{self.card_name(value.split(':', 1)[1], lang)} ({value.split(':')[0]})"
            if value in self.content.cards:
                return self.card_name(value, lang)
            return str(value)
        if key == "dice":
            return ", ".join(self.content.dice[d].names.get(lang, d) if d in self.content.dice else d for d in value)
        if key == "crests":
            return crests_text(value, lang)
        if key == "gain":
            return WORDS["gains"][lang][value in ("-", "")].format(c=crests_text(value, lang))
        if key == "faces":
            return faces_text(value, lang)
        if key == "cost":
            return crest_amount(value, "M", lang)
        if key == "net":
            shape, _, square = value.partition("@")
            return WORDS["net"][lang].format(n=shape[0], sq=square)
        if key == "mode":
            return WORDS[f"{value}_mode"][lang]
        if key == "hearts":
            return WORDS["hearts_left"][lang][value != 1].format(n=value)
        if key in ("phase", "how"):
            return WORDS.get(value, {}).get(lang, str(value))
        if key == "winners":
            if not value:
                return WORDS["draw"][lang]
            return WORDS["wins"][lang].format(p=player_name(value[0], lang))
        return str(value)

    def card_rows(self, lang: str = "en") -> list[dict]:
        """The loaded content as flat rows for `coliseo cards dungeon_dice` (dice first, then cards)."""
        rows = []
        for die in self.content.dice.values():
            faces = " ".join(CRESTS[c] + (str(n) if die.cls == "common" else "") for c, n in die.faces)
            rows.append({"id": die.id, "name": die.names.get(lang, die.names["en"]), "kind": f"die ({die.cls})",
                         "faces": faces, "copies": die.copies})
        for card in self.content.cards.values():
            row = {"id": card.id, "name": card.names.get(lang, card.names["en"]), "kind": card.type,
                   "limit": card.limit}
            if card.type == "monster":
                row.update(level=card.level, atk=card.atk, defense=card.defense)
                if card.kind:
                    params = " ".join(f"{k}={v}" for k, v in sorted(card.params.items()))
                    row["effect"] = f"{card.kind} {params} (once per {card.once})".replace("  ", " ")
                if card.condition:
                    row["self_summon"] = card.condition
            else:
                row["effect"] = (card.kind + " " + " ".join(f"{k}={v}" for k, v in sorted(card.params.items()))).strip()
            row["text"] = ability_text(card, lang)
            rows.append(row)
        return rows

    def render_text(self, observation: dict, lang: str = "en", legal: list | None = None) -> str:
        from .text import render_text
        return render_text(self, observation, lang, legal)


__all__ = ["DungeonDice", "PHASES", "SHAPES", "CRESTS"]
