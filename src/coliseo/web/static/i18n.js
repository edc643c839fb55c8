// Words of the pages in Spanish and English; the choice is remembered in this browser.
const WORDS = {
  en: {
    lobby: "Lobby", newGame: "New game", game: "Game", seats: "Seats", seat: "Seat", human: "Person",
    ai: "AI", create: "Create and play", recent: "Recent games", play: "Play", spectate: "Spectate", join: "Join",
    replay: "Replay", options: "Options", idle: "Hand an idle seat to the AI after", never: "never",
    yourTurn: "Your turn", waiting: "Waiting for {p}", over: "Game over", winners: "Winner: {w}", draw: "Draw",
    turn: "Turn {n}", undo: "Undo", cancel: "Cancel", choose: "Choose", log: "Events", actions: "Your actions",
    links: "Links", joinLink: "Join link (for a friend)", spectateLink: "Spectate link", download: "Download the record",
    reconnecting: "Connection lost — reconnecting…", offline: "Disconnected — your controls come back when the table is up to date again.", spectator: "You are watching", you: "you", player: "Player {n}",
    notLegal: "{t} is not a legal choice now", selected: "Chosen: {s}", noActions: "Nothing to do: wait for your turn.",
    view: "View", first: "First", prev: "Back", next: "Forward", last: "Last", step: "Step {n} of {m}", free: "free",
    sealed: "The record is published when the game is over.", board: "Board", lang: "Language", handed: "handed to the AI",
    pick: "Pick the next part of your action:",
    phase: "phase", hand: "hand", deck: "deck", terrain: "terrain", pending: "pending", oppHand: "opponent's hand",
    openQuests: "open quests", quests: "quests", goal: "goal", route: "route", gems: "gems", score: "score",
    carpets: "carpets", path: "path", statue: "statue", empty: "empty", roll: "roll", dice: "dice",
    placing: "placing", mode: "mode", commitment: "Seed commitment",
    commitmentHelp: "SHA-256 of the game's secret seed, published now; the record reveals the seed at the end so anyone can check that no shuffle or roll was changed",
  },
  es: {
    lobby: "Salón", newGame: "Nueva partida", game: "Juego", seats: "Asientos", seat: "Asiento", human: "Persona",
    ai: "IA", create: "Crear y jugar", recent: "Partidas recientes", play: "Jugar", spectate: "Mirar", join: "Unirse",
    replay: "Repetición", options: "Opciones", idle: "Pasar a la IA un asiento inactivo tras", never: "nunca",
    yourTurn: "Tu turno", waiting: "Esperando a {p}", over: "Fin de la partida", winners: "Gana: {w}", draw: "Empate",
    turn: "Turno {n}", undo: "Deshacer", cancel: "Cancelar", choose: "Elegir", log: "Sucesos", actions: "Tus acciones",
    links: "Enlaces", joinLink: "Enlace para unirse (un amigo)", spectateLink: "Enlace para mirar",
    download: "Descargar el registro", reconnecting: "Conexión perdida — reconectando…",
    offline: "Desconectado — tus controles vuelven cuando la mesa esté al día.", spectator: "Estás mirando",
    you: "tú", player: "Jugador {n}", notLegal: "{t} no es una elección legal ahora", selected: "Elegido: {s}",
    noActions: "Nada que hacer: espera tu turno.", view: "Vista", first: "Inicio", prev: "Atrás", next: "Adelante",
    last: "Final", step: "Paso {n} de {m}", free: "libre", sealed: "El registro se publica al terminar la partida.",
    board: "Tablero", lang: "Idioma", handed: "pasado a la IA", pick: "Elige la siguiente parte de tu acción:",
    phase: "fase", hand: "mano", deck: "mazo", terrain: "terreno", pending: "pendiente", oppHand: "mano del rival",
    openQuests: "misiones abiertas", quests: "misiones", goal: "meta", route: "ruta", gems: "gemas",
    score: "puntos", carpets: "alfombras", path: "camino", statue: "estatua", empty: "vacío", roll: "tirada",
    dice: "dados", placing: "colocando", mode: "modo", commitment: "Compromiso de la semilla",
    commitmentHelp: "SHA-256 de la semilla secreta de la partida, publicado ya; el registro revela la semilla al final para que cualquiera compruebe que ninguna mezcla ni tirada cambió",
  },
};

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
