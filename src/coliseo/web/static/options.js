import { t } from "/static/i18n.js";

// The lobby's words for each game's options: [label, help] by language, keyed "game.option" (or just "option").
// English help falls back to the engine's own text (the catalog's `help`).
export const OPTION_WORDS = {
  en: {
    "capsule.mode": ["Rules", null], width: ["Board width", null], height: ["Board height", null],
    o_pattern: ["“O” attack pattern", null],
    faction_advantage: ["Faction advantage", null], capsule_hp: ["Capsule hit points", null],
    capsule_damage_carries: ["Capsule damage carries over", null],
    stun_blocks_abilities: ["Stun blocks abilities", null], all_monsters_rule: ["Losing every monster loses", null],
    enforce_team_rules: ["Check team rules", null], auto_end_turn: ["End the turn automatically", null],
    double_pass_ends: ["Two empty turns end the game", null], max_turns: ["Turn limit", null],
    first_player: ["Who starts", null], first_turn_ap_penalty: ["First turn AP penalty", null],
    second_player_ap_bonus: ["Second player's first turn AP bonus", null],
    random_placement: ["Random placement", null],
    board: ["Board", null], hearts: ["Hearts", null], crest_amounts: ["Crest amounts", null],
    triple_bonus: ["Triple bonus", null], spend2_lock: ["Spend 2 lock", null],
    ac_move_limited: ["Master shares the move", null], crest_cap: ["Crest cap", null],
    players: ["Players", null], goal_length: ["Game length", null], goal: ["Quest Goal", null],
    layout: ["Map layout", null], starting_gems: ["Starting gems", null], route_rule: ["No going back means", null],
    quest_penalty: ["Quest penalty", null], goal_check: ["Goal counts", null],
    rearrange_effect: ["Rearrange token", null], simplified: ["Simplified game", null],
    "forbidden.mode": ["Duel kind", null], opponent: ["CPU duelist", null], start_lp: ["Starting Life Points", null],
    terrain: ["Starting terrain", null], exodia: ["Exodia wins", null],
    fake_trap_stops_attacks: ["Fake Trap stops attacks", null], lp_win_bonus: ["LP win rank bonus", null],
    open_decklists: ["Open deck lists", null],
    first_turn_attack: ["Attacks on the first turn", null], second_player_summon: ["Second player's Summon crests", null],
    start_player_hand: ["Start player's first hand", null],
  },
  es: {
    "capsule.mode": ["Reglas", "básicas o avanzadas (los segundos números del Rey; equipos avanzados)"],
    width: ["Ancho del tablero", "columnas del tablero"], height: ["Alto del tablero", "filas del tablero"],
    o_pattern: ["Patrón de ataque «O»", "anillo: las 16 casillas a distancia 2; estrella: solo las 8 en línea recta"],
    faction_advantage: ["Ventaja de facción", "+1 de daño cuando la facción atacante vence a la del objetivo"],
    capsule_hp: ["Puntos de vida de la cápsula", "daño que destruye una cápsula"],
    capsule_damage_carries: ["El daño de la cápsula se conserva", "el daño de la cápsula pasa al monstruo invocado"],
    stun_blocks_abilities: ["El aturdimiento bloquea habilidades", "los monstruos aturdidos no usan habilidades activadas"],
    all_monsters_rule: ["Perder todos los monstruos pierde", "quien pierde todos sus monstruos pierde la partida"],
    enforce_team_rules: ["Comprobar reglas de equipo", "comprueba el coste del equipo y las facciones de nivel 2"],
    auto_end_turn: ["Terminar el turno solo", "termina el turno cuando solo queda «terminar»"],
    double_pass_ends: ["Dos turnos vacíos terminan", "dos turnos vacíos seguidos terminan la partida"],
    max_turns: ["Límite de turnos", "la partida termina tras este número de turnos (0 = sin límite)"],
    first_player: ["Quién empieza", "el jugador que mueve primero, o al azar"],
    first_turn_ap_penalty: ["Penalización del primer turno", "quien juega el turno 1 recibe estos PA de menos en él"],
    second_player_ap_bonus: ["PA extra del segundo jugador", "quien juega el turno 2 recibe estos PA de más en él"],
    random_placement: ["Colocación al azar", "las colocaciones omitidas son al azar y no en el orden por defecto"],
    board: ["Tablero", "jdmc: 14×20, Amos en g1/h20; clásico: 13×19, Amos en g1/g19"],
    hearts: ["Corazones", "corazones iniciales y máximos"],
    crest_amounts: ["Cantidad de crestas", "impresa: una pareja gana lo impreso; uno: cada cantidad cuenta 1"],
    triple_bonus: ["Bonificación de trío", "relanzar: un trío en la primera tirada vuelve a lanzar los mismos dados; ninguna"],
    spend2_lock: ["Bloqueo del Gasto 2", "tipos de cresta gastados en el Gasto 1 que quedan bloqueados en el Gasto 2"],
    ac_move_limited: ["El Amo comparte el movimiento", "el Amo comparte con los monstruos la única pieza que se mueve por turno"],
    crest_cap: ["Tope de crestas", "0: sin tope; n: cada contador de crestas se corta a n tras cada ganancia"],
    players: ["Jugadores", "número de jugadores (2–4)"],
    goal_length: ["Duración", "objetivo de misiones según el número de jugadores"],
    goal: ["Objetivo de misiones", "un objetivo explícito (0 = según la duración)"],
    layout: ["Mapa", "regiones y estatuas al azar, o fijas según la preparación"],
    starting_gems: ["Gemas iniciales", "gemas con que empieza cada jugador"],
    route_rule: ["«No volver atrás» significa", "qué prohíbe «no volver atrás» en una aventura"],
    quest_penalty: ["Penalización de misiones", "las misiones privadas retenidas restan sus puntos"],
    goal_check: ["El objetivo cuenta", "el objetivo se comprueba con la puntuación neta o bruta"],
    rearrange_effect: ["Ficha de reordenar", "qué hace una ficha de reordenar"],
    simplified: ["Partida simplificada", "sin cartas de evento, sin penalización de misiones, objetivo 7"],
    "fantastiqa.max_turns": ["Límite de turnos", "la partida termina tras este número de turnos"],
    "forbidden.mode": ["Tipo de duelo", "duelo (sin premios), duelo libre o campaña (el asiento 2 es un duelista CPU)"],
    opponent: ["Duelista CPU", "número del duelista CPU en duelo libre o campaña"],
    start_lp: ["Puntos de Vida iniciales", "LP iniciales y máximos"],
    "forbidden.first_player": ["Quién empieza", "quién mueve primero: 0, 1 o al azar (en modos CPU: 0)"],
    terrain: ["Terreno inicial", "terreno inicial (0 normal … 6 Yami)"],
    exodia: ["Exodia gana", "reunir las cinco piezas de Exodia gana"],
    fake_trap_stops_attacks: ["La Trampa Falsa detiene ataques", "una Trampa Falsa colocada detiene un ataque que ninguna trampa detuvo"],
    lp_win_bonus: ["Bonificación de rango por LP", "ajuste del rango del duelo al ganar por LP"],
    open_decklists: ["Listas de mazo abiertas", "las dos listas de 40 cartas son públicas"],
    first_turn_attack: ["Ataques en el primer turno", "desactivado: el primer jugador no puede atacar en el primer turno del duelo (variante contra la ventaja de empezar)"],
    second_player_summon: ["Crestas de Convocación del segundo jugador", "crestas de Convocación con que empieza el segundo jugador (variante contra la ventaja de empezar)"],
    start_player_hand: ["Primera mano del jugador inicial", "cartas que roba el Jugador 1 para su primera mano (variante contra la ventaja de empezar; las demás manos son de 5)"],
  },
};

// Choice values in words; a value not listed shows as itself.
export const CHOICE_WORDS = {
  en: { basic: "basic", advanced: "advanced", ring: "ring", star: "star", p1: "Player 1", random: "random",
    jdmc: "JDMC (14×20)", classic: "classic (13×19)", printed: "printed", one: "one each", reroll: "roll again",
    none: "none", type: "crest type", magic: "Magic only", short: "short", standard: "standard", long: "long",
    fixed: "fixed", no_revisit: "no region twice", no_repeat_path: "no path twice", net: "net", gross: "gross",
    reshuffle: "reshuffle", new_hand: "new hand", duel: "duel", free_duel: "free duel", campaign: "campaign" },
  es: { basic: "básicas", advanced: "avanzadas", ring: "anillo", star: "estrella", p1: "Jugador 1", random: "al azar",
    jdmc: "JDMC (14×20)", classic: "clásico (13×19)", printed: "impresa", one: "uno cada uno", reroll: "relanzar",
    none: "ninguno", type: "tipo de cresta", magic: "solo Magia", short: "corta", standard: "normal", long: "larga",
    fixed: "fijo", no_revisit: "ninguna región dos veces", no_repeat_path: "ningún camino dos veces", net: "neta",
    gross: "bruta", reshuffle: "barajar", new_hand: "mano nueva", duel: "duelo", free_duel: "duelo libre",
    campaign: "campaña" },
};

// Options whose values are seats by number: the number Player 1 has ("0" in Forbidden, "1" in Dungeon Dice).
const FIRST_SEAT = { "forbidden.first_player": 0, "dungeon_dice.first_player": 1 };

// Options that matter only when another option has one of some values: "game.option" → [that option, [values]].
export const OPTION_WHEN = { "forbidden.opponent": ["mode", ["free_duel", "campaign"]] };

export const DESCRIPTIONS = {
  en: {
    capsule: "Kings and monsters hidden in capsules on a chess-like board: open them, move, attack, bring down the enemy King.",
    dungeon_dice: "Roll dice, unfold them into paths across the dungeon, summon monsters and strike the enemy Master's hearts.",
    fantastiqa: "Travel a land of regions by carpet, subdue its creatures with your cards and complete quests for gems.",
    forbidden: "A card duel: fuse monsters from your hand, choose guardian stars and terrain, bring the rival's Life Points to zero.",
  },
  es: {
    capsule: "Reyes y monstruos ocultos en cápsulas sobre un tablero como de ajedrez: ábrelas, mueve, ataca y derriba al Rey rival.",
    dungeon_dice: "Lanza dados, despliégalos en caminos por el calabozo, invoca monstruos y quita corazones al Amo rival.",
    fantastiqa: "Recorre una tierra de regiones en alfombra, somete a sus criaturas con tus cartas y cumple misiones por gemas.",
    forbidden: "Un duelo de cartas: fusiona monstruos de tu mano, elige estrellas guardianas y terreno, deja al rival sin Puntos de Vida.",
  },
};

export function optionWords(lang, game, option) {
  const table = OPTION_WORDS[lang] || OPTION_WORDS.en;
  const [label, help] = table[`${game}.${option.name}`] || table[option.name] || [option.name, null];
  return { label, help: help || option.help };
}

/** The values offered for one option, each with its words: [[value, words]]. The catalog names content codes
 * (`value_words`, e.g. Forbidden's terrains); seats by number read as players. */
export function optionChoices(lang, game, option) {
  if (option.value_words) return option.value_words;
  const first = FIRST_SEAT[`${game}.${option.name}`];
  const words = (c) => (first !== undefined && /^\d+$/.test(c) ? t("player", { n: Number(c) - first + 1 })
    : (CHOICE_WORDS[lang] || CHOICE_WORDS.en)[c] ?? String(c));
  return option.choices.map((c) => [c, words(c)]);
}
