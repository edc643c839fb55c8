// Words of the pages in Spanish and English; the choice is remembered in this browser.
const WORDS = {
  en: {
    lobby: "Lobby", newGame: "New game", game: "Game", seats: "Seats", seat: "Seat", human: "Person",
    ai: "AI", create: "Create and play", recent: "Recent games", play: "Play", spectate: "Spectate", join: "Join",
    replay: "Replay", options: "Options", idle: "Hand an idle seat to the AI after", never: "never",
    yourTurn: "Your turn", youMay: "You may {what}", waiting: "Waiting for {p}", waitingAway: "Waiting for {p}, who is away",
    waitingJoin: "Waiting for {p} to join", waitingJoinLink: "Waiting for {p} to join: send a friend the join link", over: "Game over", winners: "Winner: {w}", draw: "Draw",
    turn: "Turn {n}", undo: "Undo", cancel: "Cancel", choose: "Choose", log: "Events", actions: "Your actions",
    links: "Links", joinLink: "Join link (for a friend)", spectateLink: "Spectate link", seatLink: "Play your seat on another device", badSeatLink: "This seat link does not open a seat of this game: you are watching.", seatLinkHelp: "Open this link there to go on playing as Player {n}. Keep it to yourself: whoever opens it plays your seat.", download: "Download the record",
    settingUp: "Setting up the table…", reconnecting: "Connection lost — reconnecting…", offline: "Disconnected — your controls come back when the table is up to date again.", spectator: "You are watching", spectatorView: "Spectator", you: "you", player: "Player {n}",
    nothingWith: "Nothing to do with {t} now: pick something highlighted on the board.",
    notNext: "{t} is not a legal next step: pick a highlighted target, or Cancel.",
    notYourTurn: "Not your turn: {p} is playing.", selected: "Chosen: {s}", noActions: "Nothing to do: wait for your turn.",
    view: "View", first: "First", prev: "Back", next: "Forward", last: "Last", step: "Step {n} of {m}",
    sealed: "The record is published when the game is over.", board: "Board", lang: "Language", handed: "handed to the AI",
    pick: "Pick the next part of your action:",
    resign: "Resign…", resignSure: "Resign this game?", resignYes: "Yes, resign", resignNo: "No, play on",
    offerDraw: "Offer a draw", drawOffered: "Draw offered — waiting for the answer.", drawOffer: "{p} offers a draw:",
    acceptDraw: "Accept the draw", declineDraw: "Decline", resignedSeat: "resigned; the AI plays on",
    away: "away", atTable: "{p} has the table open", awayLong: "{p} does not have the table open now",
    listGame: "List it in the lobby (anyone may join)", watchInvite: "Watching needs the invite link too",
    created: "Created", progress: "Progress", openSeat: "open seat", moves: "{n} moves played", notStarted: "Not started",
    allSteps: "Every step", setupTurn: "Setup", yourGames: "Your games", noGames: "No listed games yet. Create one with “List it in the lobby” ticked, and others can join it here.",
    list: "List this game in the lobby", unlist: "Take this game off the lobby list",
    phase: "phase", hand: "hand", deck: "deck", terrain: "terrain", pending: "pending", oppHand: "opponent's hand",
    openQuests: "open quests", quests: "quests", goal: "goal", route: "route", gems: "gems", score: "score",
    carpets: "carpets", path: "path", statue: "statue", empty: "empty", roll: "roll", dice: "dice",
    placing: "placing", mode: "mode", commitment: "Seed commitment",
    allActions: "All actions", inspector: "Details", inspectHint: "Point at or focus a piece, card or square to see its details here.",
    playerAi: "Player {n} (AI)", thinking: "{p} is thinking…",
    youWin: "You win!", youLose: "You lose", wins: "{p} wins", youShare: "You share the win with {p}",
    share: "{p} share the win", noWinner: "No winner", and: " and ", rematch: "Rematch", acceptRematch: "Join the rematch",
    watchRematch: "Watch the rematch", close: "Close", scores: "Scores", soundOn: "Sound on", soundOff: "Sound off",
    because: "Why: {r}", howToPlay: "How to play", back: "Back to the lobby", games: "The games",
    commitmentHelp: "SHA-256 of the game's secret seed with its options and setup, published now; the record reveals them at the end, so anyone can check that no shuffle, roll or team was changed (coliseo verify --commitment)",
  },
  es: {
    lobby: "Salón", newGame: "Nueva partida", game: "Juego", seats: "Asientos", seat: "Asiento", human: "Persona",
    ai: "IA", create: "Crear y jugar", recent: "Partidas recientes", play: "Jugar", spectate: "Mirar", join: "Unirse",
    replay: "Repetición", options: "Opciones", idle: "Pasar a la IA un asiento inactivo tras", never: "nunca",
    yourTurn: "Tu turno", youMay: "Puedes {what}", waiting: "Esperando a {p}", waitingAway: "Esperando a {p}, que está ausente",
    waitingJoin: "Esperando a que {p} se una",
    waitingJoinLink: "Esperando a que {p} se una: envía a un amigo el enlace para unirse", over: "Fin de la partida", winners: "Gana: {w}", draw: "Empate",
    turn: "Turno {n}", undo: "Deshacer", cancel: "Cancelar", choose: "Elegir", log: "Sucesos", actions: "Tus acciones",
    links: "Enlaces", joinLink: "Enlace para unirse (un amigo)", spectateLink: "Enlace para mirar", seatLink: "Jugar tu asiento en otro dispositivo", badSeatLink: "Este enlace de asiento no abre ningún asiento de esta partida: estás mirando.", seatLinkHelp: "Abre este enlace allí para seguir jugando como Jugador {n}. No lo compartas: quien lo abra juega tu asiento.",
    download: "Descargar el registro", settingUp: "Preparando la mesa…",
    reconnecting: "Conexión perdida — reconectando…",
    offline: "Desconectado — tus controles vuelven cuando la mesa esté al día.", spectator: "Estás mirando", spectatorView: "Espectador",
    you: "tú", player: "Jugador {n}", nothingWith: "Nada que hacer ahora con {t}: elige algo resaltado en el tablero.",
    notNext: "{t} no es un paso legal ahora: elige un objetivo resaltado, o Cancelar.",
    notYourTurn: "No es tu turno: es el turno de {p}.", selected: "Elegido: {s}",
    noActions: "Nada que hacer: espera tu turno.", view: "Vista", first: "Inicio", prev: "Atrás", next: "Adelante",
    last: "Final", step: "Paso {n} de {m}", sealed: "El registro se publica al terminar la partida.",
    board: "Tablero", lang: "Idioma", handed: "pasado a la IA", pick: "Elige la siguiente parte de tu acción:",
    resign: "Rendirse…", resignSure: "¿Rendirte en esta partida?", resignYes: "Sí, me rindo", resignNo: "No, sigo jugando",
    offerDraw: "Ofrecer empate", drawOffered: "Empate ofrecido — esperando la respuesta.", drawOffer: "{p} ofrece un empate:",
    acceptDraw: "Aceptar el empate", declineDraw: "Rechazar", resignedSeat: "se rindió; la IA sigue",
    away: "ausente", atTable: "{p} tiene la mesa abierta", awayLong: "{p} no tiene la mesa abierta ahora",
    listGame: "Mostrarla en el salón (cualquiera puede unirse)", watchInvite: "Para mirar también hace falta la invitación",
    created: "Creada", progress: "Marcha", openSeat: "asiento libre", moves: "{n} jugadas", notStarted: "Sin empezar",
    allSteps: "Todos los pasos", setupTurn: "Preparación", yourGames: "Tus partidas", noGames: "Aún no hay partidas en la lista. Crea una con «Mostrarla en el salón» marcado y otros podrán unirse aquí.",
    list: "Mostrar esta partida en el salón", unlist: "Quitar esta partida del salón",
    phase: "fase", hand: "mano", deck: "mazo", terrain: "terreno", pending: "pendiente", oppHand: "mano del rival",
    openQuests: "misiones abiertas", quests: "misiones", goal: "meta", route: "ruta", gems: "gemas",
    score: "puntos", carpets: "alfombras", path: "camino", statue: "estatua", empty: "vacío", roll: "tirada",
    dice: "dados", placing: "colocando", mode: "modo", commitment: "Compromiso de la semilla",
    allActions: "Todas las acciones", inspector: "Detalles", inspectHint: "Señala o enfoca una pieza, carta o casilla para ver aquí sus detalles.",
    playerAi: "Jugador {n} (IA)", thinking: "{p} está pensando…",
    youWin: "¡Has ganado!", youLose: "Has perdido", wins: "Gana {p}", youShare: "Compartes la victoria con {p}",
    share: "{p} comparten la victoria", noWinner: "Sin ganador", and: " y ", rematch: "Revancha", acceptRematch: "Unirse a la revancha",
    watchRematch: "Mirar la revancha", close: "Cerrar", scores: "Puntuación", soundOn: "Sonido activado",
    soundOff: "Sonido desactivado", because: "Motivo: {r}", howToPlay: "Cómo se juega", back: "Volver al salón",
    games: "Los juegos",
    commitmentHelp: "SHA-256 de la semilla secreta de la partida con sus opciones y su preparación, publicado ya; el registro los revela al final para que cualquiera compruebe que ninguna mezcla, tirada ni equipo cambió (coliseo verify --commitment)",
  },
};

// What each agent is, for a player choosing an opponent (docs/ai.md: `mcts` is the strongest, `greedy` one ply).
const AGENTS = {
  en: { mcts: "strong", greedy: "quick", random: "random", "fm-classic": "classic CPU" },
  es: { mcts: "fuerte", greedy: "rápida", random: "al azar", "fm-classic": "CPU clásica" },
};

/** An agent in a word: "strong"; an agent with settings (mcts:iterations=800) is its name. */
export function agentWord(agent) { return (AGENTS[lang()] || AGENTS.en)[agent] || agent; }

/** An agent in words, with its name: "strong (mcts)". */
export function agentName(agent) { return agentWord(agent) === agent ? agent : `${agentWord(agent)} (${agent})`; }

/** Who plays a seat, in words: a person, or the AI and its agent ("AI: strong (mcts)"). */
export function agentWords(agent) { return agent === "human" ? t("human") : `${t("ai")}: ${agentName(agent)}`; }

export function lang() {
  const saved = localStorage.getItem("coliseo.lang");
  if (saved === "en" || saved === "es") return saved;
  return (navigator.language || "en").startsWith("es") ? "es" : "en";
}

export function setLang(value) { localStorage.setItem("coliseo.lang", value); }

export function t(key, vars = {}) {
  const text = (WORDS[lang()] || WORDS.en)[key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ""));
}

/** A language picker in the header that reloads the page in the chosen language. */
export function langPicker(onChange) {
  const select = document.createElement("select");
  select.id = "lang";
  select.setAttribute("aria-label", t("lang"));
  for (const [value, label] of [["en", "English"], ["es", "Español"]]) {
    select.append(new Option(label, value, false, value === lang()));
  }
  select.onchange = () => { setLang(select.value); onChange(select.value); };
  return select;
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node[k] = v;
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  node.append(...children.flat().filter((c) => c !== null && c !== undefined));
  return node;
}

/** Where this browser keeps its seat token for a game (never in a URL). */
export function seatKey(id) { return `coliseo.seat.${id}`; }
