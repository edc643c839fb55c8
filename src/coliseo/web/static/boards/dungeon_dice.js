// Dungeon Dice Monsters: the dungeon (paths, holes, monsters and Dungeon Masters) with zoom and pan, the turn's
// phases, the rolled dice, both crest pools, your cards, set traps and both graveyards. Every action is built here:
// a card then what to do with it, a monster then where it goes or whom it attacks, a net ghost placed on the dungeon.
import { el } from "/static/i18n.js";
import { PLAYER_COLORS, loadCards, spot, svg, title } from "/static/boards/svg.js";

const SIZES = { jdmc: [14, 20], classic: [13, 19] };
// The 11 cube nets as (x, y) offsets (the same table as the game's board.py, rule R17).
export const NETS = {
  T: [[-1, 1], [0, 1], [1, 1], [0, 0], [0, -1], [0, -2]], Y: [[-1, 1], [0, 1], [0, 0], [1, 0], [0, -1], [0, -2]],
  Z: [[-1, 1], [0, 1], [0, 0], [0, -1], [0, -2], [1, -2]], V: [[-1, 1], [0, 1], [0, 0], [0, -1], [1, -1], [0, -2]],
  X: [[0, 1], [-1, 0], [0, 0], [1, 0], [0, -1], [0, -2]], N: [[0, 1], [-1, 0], [0, 0], [0, -1], [1, -1], [0, -2]],
  M: [[-1, 1], [0, 1], [0, 0], [0, -1], [1, -1], [1, -2]], E: [[-1, 1], [-1, 0], [0, 0], [0, -1], [1, -1], [1, -2]],
  P: [[-1, 1], [-1, 0], [0, 0], [1, 0], [0, -1], [0, -2]], R: [[-1, 1], [-1, 0], [0, 0], [0, -1], [1, -1], [0, -2]],
  L: [[0, 2], [0, 1], [0, 0], [1, 0], [1, -1], [1, -2]],
};
const CREST_ORDER = ["S", "M", "A", "D", "G", "T", "E", "Z"];
const CREST_COLORS = { S: "#b8860b", M: "#2f7d3a", A: "#b23a2e", D: "#2563a8", G: "#7a4bb0", T: "#8a4b1f", E: "#1d7f86",
  Z: "#222" };
// Each crest has its own glyph (20×20), so colour is never the only difference.
const CREST_GLYPHS = {
  S: "M10 2.5 12.2 7.7 17.8 8 13.5 11.6 14.9 17.1 10 14.1 5.1 17.1 6.5 11.6 2.2 8 7.8 7.7Z",
  M: "M3.5 8H10.5V4L17 10 10.5 16V12H3.5Z",
  A: "M15.5 2.5 17.5 4.5 8.5 13.5 6.5 11.5ZM4 11 9 16 8 17 3 12ZM5 14.6 6 15.6 3.5 18 2.5 17Z",
  D: "M10 2.5 16.5 5V10C16.5 14 13.5 16.8 10 18 6.5 16.8 3.5 14 3.5 10V5Z",
  G: "M10 2 11.9 8.1 18 10 11.9 11.9 10 18 8.1 11.9 2 10 8.1 8.1Z",
  T: "M2.5 17 5.5 5 8.5 17ZM7.5 17 10.5 3 13.5 17ZM11.5 17 14.5 6 17.5 17Z",
  E: "M12 2 4.5 11.2H9.5L8 18 15.5 8.8H10.5Z",
  Z: "M5 4.5H15V6.8L8.4 14.2H15V16.5H5V14.2L11.6 6.8H5Z",
};
const PHASES = ["roll", "spend1", "battle", "spend2"];
const VERBS = ["summon", "ssummon", "esummon", "set", "spell", "effect"];
const ZASH = ["zash1", "zash2", "zash3", "zash4", "zash5"];
const SQUARE = /^[a-z]\d{1,2}$/;

const WORDS = {
  en: {
    phaseList: "Phases of the turn", phases: { roll: "Roll", spend1: "Spend 1", battle: "Battle", spend2: "Spend 2" },
    crest: { S: "Summon", M: "Movement", A: "Attack", D: "Defense", G: "Magic", T: "Trap", E: "Effect", Z: "Zash" },
    player: "Player {n}", you: "you", hearts: "{n} of {m} hearts", deck: "deck {n}", setCount: "set {n}",
    locked: "locked in Spend 2", cap: "at most {n}", roll: "{p} rolled", reroll: "triple: rolled again",
    yourCards: "Your cards", monsters: "Monsters", spells: "Spells", traps: "Traps", setTraps: "Your set traps",
    oppSet: "Face-down cards of {p}", graveyard: "Graveyard of {p}", empty: "empty", setOn: "set on turn {n}",
    placing: "Dimension {c}: point at the dungeon to see the die unfold, R rotates, F flips, click to place.",
    placingTouch: "Dimension {c}: tap a square to see the die unfold there, tap it again to place; Rotate and Flip turn it.",
    placingTheirs: "{p} is dimensioning {c}.",
    window: "{a} attacks {t}: {p} may answer.", nets: "Nets", rotate: "Rotate (R)", flip: "Flip (F)",
    noPlace: "no legal place in this orientation", zoomIn: "Zoom in", zoomOut: "Zoom out", fit: "Fit the dungeon",
    summon: "Summon (dimension a die)", ssummon: "Special summon (2× Summon crests)",
    esummon: "Summon with Effect crests", set: "Set face-down", spell: "Activate", effect: "Use its effect",
    zash1: "1 Zash: new path square", zash2: "2 Zash: remove a path square", zash3: "3 Zash: black hole",
    zash4: "4 Zash: bring back a monster", zash5: "5 Zash: a heart back",
    master: "Dungeon Master of {p}", level: "Level {n}", equips: "Equipped: {e}", attacked: "has attacked",
    moved: "has moved", effectUsed: "effect used", owner: "owned by {p}", path: "path of {p}", hole: "black hole",
    emptySq: "empty square", die: "Die", faces: "Faces", dice: "{p}'s dice", library: "in your deck",
    kind: { monster: "Monster", spell: "Spell", trap: "Trap" }, net: "{l} net", pieceAt: "{c} ({s})", lv: "Lv {n}",
    rolledFace: "rolled {f}", noRoll: "no dice rolled yet",
  },
  es: {
    phaseList: "Fases del turno", phases: { roll: "Tirada", spend1: "Gasto 1", battle: "Batalla", spend2: "Gasto 2" },
    crest: { S: "Convocación", M: "Movimiento", A: "Ataque", D: "Defensa", G: "Magia", T: "Trampa", E: "Efecto",
      Z: "Zash" },
    player: "Jugador {n}", you: "tú", hearts: "{n} de {m} corazones", deck: "mazo {n}", setCount: "boca abajo {n}",
    locked: "bloqueada en Gasto 2", cap: "como mucho {n}", roll: "Tirada de {p}", reroll: "trío: tira otra vez",
    yourCards: "Tus cartas", monsters: "Monstruos", spells: "Magias", traps: "Trampas", setTraps: "Tus trampas colocadas",
    oppSet: "Cartas boca abajo de {p}", graveyard: "Cementerio de {p}", empty: "vacío", setOn: "colocada en el turno {n}",
    placing: "Dimensiona {c}: señala el calabozo para ver el dado desplegado; R gira, F voltea, clic para colocar.",
    placingTouch: "Dimensiona {c}: toca una casilla para ver el dado desplegado, tócala otra vez para colocarlo; Girar y Voltear lo cambian.",
    placingTheirs: "{p} dimensiona {c}.",
    window: "{a} ataca a {t}: {p} puede responder.", nets: "Despliegues", rotate: "Girar (R)", flip: "Voltear (F)",
    noPlace: "ningún sitio legal en esta orientación", zoomIn: "Acercar", zoomOut: "Alejar", fit: "Ver todo el calabozo",
    summon: "Convocar (dimensionar un dado)", ssummon: "Convocación especial (2× crestas de Convocación)",
    esummon: "Convocar con crestas de Efecto", set: "Colocar boca abajo", spell: "Activar", effect: "Usar su efecto",
    zash1: "1 Zash: casilla de camino nueva", zash2: "2 Zash: quitar una casilla de camino", zash3: "3 Zash: agujero negro",
    zash4: "4 Zash: traer de vuelta un monstruo", zash5: "5 Zash: recuperar un corazón",
    master: "Amo del Calabozo de {p}", level: "Nivel {n}", equips: "Equipado: {e}", attacked: "ya atacó",
    moved: "ya se movió", effectUsed: "efecto usado", owner: "de {p}", path: "camino de {p}", hole: "agujero negro",
    emptySq: "casilla vacía", die: "Dado", faces: "Caras", dice: "Dados de {p}", library: "en tu mazo",
    kind: { monster: "Monstruo", spell: "Magia", trap: "Trampa" }, net: "despliegue {l}", pieceAt: "{c} ({s})", lv: "Nv {n}",
    rolledFace: "sacó {f}", noRoll: "aún no hay dados tirados",
  },
};
let cards = {}, lang = "en";
const say = (key, vars = {}) => {
  const text = key.split(".").reduce((o, k) => (o ? o[k] : undefined), WORDS[lang]) ?? key;
  return String(text).replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ""));
};

export async function prepare(language) {
  lang = language === "es" ? "es" : "en";
  cards = await loadCards("dungeon_dice", lang);
}

// --- squares and nets ------------------------------------------------------------------------------------------
const xyOf = (name) => [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];
const nameOf = (x, y) => `${String.fromCharCode(97 + x)}${y + 1}`;

/** The offsets of a net in orientation o = r + 4m (mirror if m, then r clockwise quarter turns), as in board.py. */
export function orient(letter, o) {
  return NETS[letter].map(([x0, y0]) => {
    let [x, y] = [o >= 4 ? -x0 : x0, y0];
    for (let i = 0; i < o % 4; i++) [x, y] = [y, -x];
    return [x, y];
  });
}

// A set of cells as a key independent of where it lies, and its lowest cell (smallest rank, then file).
function shapeKey(cells) {
  const low = cells.reduce((m, c) => (c[1] < m[1] || (c[1] === m[1] && c[0] < m[0]) ? c : m));
  const key = cells.map(([x, y]) => [x - low[0], y - low[1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]).join(" ");
  return { key, low };
}

/** The canonical orientation (the smallest o giving the same shape) of a net letter in orientation o. */
export function canonical(letter, o) {
  const { key } = shapeKey(orient(letter, o));
  for (let k = 0; k < 8; k++) if (shapeKey(orient(letter, k)).key === key) return `${letter}${k}`;
  return `${letter}${o}`;
}

/** The orientation after R (a clockwise quarter turn) or F (a mirror), in canonical form. */
export function turned(shape, key) {
  const letter = shape[0], o = Number(shape.slice(1));
  const next = key === "F" ? (o + 4) % 8 : ((o % 4) + 1) % 4 + (o >= 4 ? 4 : 0);
  return canonical(letter, next);
}

/** The squares a net (a shape such as `T0`) covers from an anchor square; [] if it leaves the board. */
export function netSquares(shape, anchor, size = SIZES.jdmc) {
  const [ax, ay] = xyOf(anchor);
  const cells = orient(shape[0], Number(shape[1])).map(([x, y]) => [ax + x, ay + y]);
  if (cells.some(([x, y]) => x < 0 || y < 0 || x >= size[0] || y >= size[1])) return [];
  return cells.map(([x, y]) => nameOf(x, y));
}

const cardName = (id) => (cards[id] ? cards[id].name : id);
const who = (p) => say("player", { n: p + 1 });

function pieceAt(payload, square) {
  return ((payload && payload.observation.pieces) || []).find((p) => p.square === square);
}

function squareWords(payload, square) {
  const piece = pieceAt(payload, square);
  if (!piece) return square;
  const name = piece.master ? say("master", { p: who(piece.player) }) : cardName(piece.card);
  return say("pieceAt", { c: name, s: square });
}

/** A board step in words, for the "chosen" line and the ARIA labels. */
export function label(target, payload) {
  const [head, rest] = target.split(/:(.*)/s);
  if (head === "card" || head === "trap") return cardName(rest);
  if (/^gy\d$/.test(head)) return `${cardName(rest)} (${say("graveyard", { p: who(Number(head[2]) - 1) })})`;
  if (head === "net") return say("net", { l: rest[0] });
  if (VERBS.includes(target) || ZASH.includes(target)) return say(target);
  if (SQUARE.test(target)) return squareWords(payload, target);
  return target;
}

// --- the dimensioning orientation --------------------------------------------------------------------------------
// The orientation you last placed a net in is kept while you play; a placing step starts with it when it fits.
let preferred = "T0";

// The legal placements by orientation, from the engine's board steps (net:T0, anchor): {"T0": Map(anchor -> action)}.
function placementsOf(payload) {
  const byShape = {};
  (payload.steps || []).forEach(([first, anchor], n) => {
    if (first && first.startsWith("net:")) (byShape[first.slice(4)] ||= new Map()).set(anchor, payload.legal[n]);
  });
  return byShape;
}

// The orientation to start a placing step with: the preferred one, else its letter turned, else the first that fits.
function startingShape(byShape) {
  if (byShape[preferred]) return preferred;
  for (let o = 0; o < 8; o++) if (byShape[canonical(preferred[0], o)]) return canonical(preferred[0], o);
  return Object.keys(byShape)[0];
}

/** R turns and F flips the net being placed (the next orientation that fits somewhere). */
export function keydown(event, ui) {
  const key = event.key.toUpperCase();
  if ((key !== "R" && key !== "F") || event.ctrlKey || event.metaKey || event.altKey) return false;
  const current = (ui.selection || [])[0];
  if (!current || !current.startsWith("net:")) return false;
  const next = nextFitting(current.slice(4), key);
  if (next) { preferred = next; ui.onTarget(`net:${next}`); }
  return true;
}

// The next orientation after R or F that fits somewhere (R tries the other quarter turns, F the turns of the mirror).
function nextFitting(shape, key) {
  let s = turned(shape, key);
  for (let i = 0; i < 8; i++) {
    if (s !== shape && lastPlacements[s]) return s;
    s = i === 3 ? turned(turned(s, "R"), "F") : turned(s, "R");
  }
  return null;
}
let lastPlacements = {};

// --- drawing -----------------------------------------------------------------------------------------------------
const view = { box: null, size: null };      // the zoomed part of the dungeon, kept between redraws
let ghostAt = null;                          // the square under the pointer while a net is being placed
const reduced = () => window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

export function draw(container, payload, given) {
  const ui = { ...given, targets: given.targets || new Set(), selection: given.selection || [] };
  const obs = payload.observation;
  const size = SIZES[(obs.options || {}).board] || SIZES.jdmc;
  const me = payload.you;
  const byShape = placementsOf(payload);
  lastPlacements = byShape;
  const placingShape = (ui.selection[0] || "").startsWith("net:") ? ui.selection[0].slice(4) : null;
  if (Object.keys(byShape).length && !placingShape && ui.onTarget) {
    // One click places a net: the orientation is chosen for you (R/F or the palette change it).
    const start = startingShape(byShape);
    queueMicrotask(() => ui.onTarget(`net:${start}`));
  }
  if (placingShape) preferred = placingShape;
  // The frame lights the anchors of the chosen orientation (none while it waits for the server).
  const anchors = placingShape ? new Set([...(byShape[placingShape] || new Map()).keys()].filter((a) => ui.targets.has(a))) : null;
  const dungeon = drawDungeon(payload, ui, size, anchors, placingShape);
  const hud = el("div", { class: "ddm-hud" },
    phaseStepper(obs), statusLine(payload), playersPanel(payload, ui), diceRow(payload, ui),
    byShape && Object.keys(byShape).length ? netPalette(byShape, placingShape, ui) : null,
    verbRow(ui), zashRow(ui), setPanel(payload, ui), handPanel(payload, ui), gravePanel(payload, ui));
  container.replaceChildren(el("div", { class: "ddm", "data-you": String(me) }, dungeon, hud));
  animate(container, payload, ui.previous);
}

// The placing step happens inside a Spend phase that the observation does not name: the last one seen here.
let lastSpend = "spend1";

function phaseStepper(obs) {
  if (obs.phase === "spend1" || obs.phase === "spend2") lastSpend = obs.phase;
  const now = obs.phase === "window" ? "battle" : obs.phase === "placing" ? lastSpend : obs.phase;
  return el("ol", { class: "ddm-phases", "aria-label": say("phaseList") },
    PHASES.map((p) => el("li", { class: p === now ? "now" : "", "aria-current": p === now ? "step" : null },
      say(`phases.${p}`))));
}

function statusLine(payload) {
  const obs = payload.observation;
  if (obs.placing && obs.phase === "placing") {
    const mine = payload.you === obs.active && payload.legal.length;
    const coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    return el("p", { class: "ddm-status" }, mine ? say(coarse ? "placingTouch" : "placing", { c: cardName(obs.placing) })
      : say("placingTheirs", { p: who(obs.active), c: cardName(obs.placing) }));
  }
  if (obs.window) {
    return el("p", { class: "ddm-status" }, say("window", { a: squareWords(payload, obs.window.attacker),
      t: squareWords(payload, obs.window.target), p: who(1 - obs.active) }));
  }
  return null;
}

/** A crest as an icon (its own glyph on its colour), with its name for screen readers and a tooltip. */
export function crestIcon(letter, extra = {}) {
  return svg("svg", { class: "crest", viewBox: "0 0 20 20", role: "img", "aria-label": say(`crest.${letter}`), ...extra },
    title(say(`crest.${letter}`)),
    svg("circle", { cx: 10, cy: 10, r: 9.5, fill: CREST_COLORS[letter] }),
    svg("path", { d: CREST_GLYPHS[letter], fill: "#fff" }));
}

function playersPanel(payload, ui) {
  const obs = payload.observation;
  const cap = (obs.options || {}).crest_cap || 0;
  const maxHearts = (obs.options || {}).hearts || 5;
  const order = payload.you === 1 ? [0, 1] : [1, 0];        // your own row nearest your side of the dungeon
  return el("div", { class: "ddm-players" }, order.map((p) => {
    const pool = obs.pool[p] || {};
    const hearts = obs.hearts[p];
    const locks = p === obs.active ? new Set(obs.locks || []) : new Set();
    return el("div", { class: `ddm-player${obs.current_player === p ? " turn" : ""}`, "data-seat": p },
      el("div", { class: "ddm-who" }, el("span", { class: "swatch", "aria-hidden": "true" }, String(p + 1)),
        el("b", {}, who(p)), payload.you === p ? ` (${say("you")})` : "",
        el("span", { class: `ddm-hearts${ui.marks && ui.marks.has(`hearts${p + 1}`) ? " recent" : ""}`, role: "img", title: say("hearts", { n: hearts, m: maxHearts }),
          "aria-label": say("hearts", { n: hearts, m: maxHearts }) },
        Array.from({ length: maxHearts }, (_, i) => el("span", { class: i < hearts ? "on" : "off", "aria-hidden": "true" },
          i < hearts ? "♥" : "♡"))),
        el("small", {}, `${say("deck", { n: obs.library_sizes[p] })} · ${say("setCount", { n: obs.set_zones[p].length })}`)),
      el("div", { class: "ddm-pool" }, CREST_ORDER.map((c) => {
        const n = pool[c] || 0;
        const words = `${say(`crest.${c}`)}: ${n}${cap ? ` (${say("cap", { n: cap })})` : ""}${locks.has(c) ? ` — ${say("locked")}` : ""}`;
        return el("span", { class: `ddm-crest${n ? "" : " zero"}${locks.has(c) ? " locked" : ""}`, "data-crest": c,
          "data-count": n, title: words, role: "img", "aria-label": words },
        crestIcon(c, { "aria-hidden": "true" }), el("b", {}, String(n)), cap ? el("small", {}, `/${cap}`) : null);
      })));
  }));
}

function diceRow(payload, ui) {
  const obs = payload.observation;
  if (!obs.drawn || !obs.drawn.length) return el("p", { class: "ddm-dice muted" }, say("noRoll"));
  const rolls = obs.rolls || [];
  return el("div", { class: "ddm-dice", role: "group", "aria-label": say("roll", { p: who(obs.active) }) },
    el("small", {}, say("roll", { p: who(obs.active) })),
    rolls.map((faces, r) => el("div", { class: "ddm-roll", "data-roll": r },
      r ? el("small", {}, say("reroll")) : null,
      faces.map((face, i) => dieFace(obs.drawn[i], face, `die:${i}`, ui)))));
}

function dieFace(dieId, face, id, ui) {
  const die = cards[dieId];
  const words = `${die ? die.name : dieId}: ${say("rolledFace", { f: faceWords(face) })}`;
  const node = el("span", { class: "ddm-die", tabindex: "0", role: "img", "data-die": dieId, "data-face": face,
    "aria-label": words, title: words }, crestIcon(face[0], { "aria-hidden": "true" }),
  face.length > 1 ? el("b", {}, face.slice(1)) : null);
  if (ui.inspect) { node.onpointerenter = () => ui.inspect(id); node.onfocus = () => ui.inspect(id); }
  return node;
}

const faceWords = (face) => `${say(`crest.${face[0]}`)}${face.length > 1 ? ` ${face.slice(1)}` : ""}`;

// An HTML thing that is a step of an action: the same data-target/target/keyboard convention as spot().
function chip(id, ui, attrs, ...children) {
  const legal = ui.targets.has(id);
  const classes = [attrs.class || "", "chip", legal ? "target" : "", ui.selection.includes(id) ? "selected" : "",
    ui.marks && ui.marks.has(id) ? "recent" : ""].filter(Boolean).join(" ");
  // A span may not carry a name of its own (ARIA): what it shows is its name.
  const own = legal ? attrs : { ...attrs, "aria-label": null };
  const node = el(legal ? "button" : "span", { ...own, class: classes, "data-target": id, type: legal ? "button" : null },
    ...children);
  if (legal && ui.onTarget) node.onclick = () => ui.onTarget(id);
  if (ui.inspect) { node.onpointerenter = () => ui.inspect(id); node.onfocus = () => ui.inspect(id); }
  if (!legal) node.tabIndex = 0;
  return node;
}

function netPalette(byShape, current, ui) {
  const letters = Object.keys(NETS).filter((l) => Object.keys(byShape).some((s) => s[0] === l));
  const choose = (shape) => () => { preferred = shape; ui.onTarget(`net:${shape}`); };
  const turnBy = (key) => () => {
    const next = current && nextFitting(current, key);
    if (next) choose(next)();
  };
  return el("div", { class: "ddm-nets", role: "group", "aria-label": say("nets") },
    el("div", { class: "ddm-palette" }, letters.map((l) => {
      const shape = current && current[0] === l ? current : startingShapeFor(l, byShape);
      // Another net starts the choice over from it (the frame allows that), so each fitting net is clickable.
      const open = byShape[shape] && ui.targets.size > 0 ? { ...ui, targets: new Set([...ui.targets, `net:${shape}`]) } : ui;
      return chip(`net:${shape}`, open, { class: "ddm-net", "aria-label": say("net", { l }), title: say("net", { l }) },
        netIcon(shape), el("small", {}, l));
    })),
    el("button", { type: "button", class: "ddm-turn", onclick: turnBy("R"), title: say("rotate") }, "⟳ ", say("rotate")),
    el("button", { type: "button", class: "ddm-turn", onclick: turnBy("F"), title: say("flip") }, "⇋ ", say("flip")));
}

function startingShapeFor(letter, byShape) {
  const o = Number(preferred.slice(1));
  const wanted = canonical(letter, o);
  if (byShape[wanted]) return wanted;
  for (let k = 0; k < 8; k++) if (byShape[canonical(letter, k)]) return canonical(letter, k);
  return wanted;
}

function netIcon(shape) {
  const cells = orient(shape[0], Number(shape[1]));
  const xs = cells.map((c) => c[0]), ys = cells.map((c) => -c[1]);
  const x0 = Math.min(...xs), y0 = Math.min(...ys);
  return svg("svg", { class: "net-icon", viewBox: "-0.1 -0.1 4.2 4.2", "aria-hidden": "true" },
    cells.map(([x, y]) => svg("rect", { x: x - x0, y: -y - y0, width: 0.9, height: 0.9, rx: 0.1,
      class: x === 0 && y === 0 ? "origin" : "" })));
}

function verbRow(ui) {
  const verbs = VERBS.filter((v) => ui.targets.has(v));
  if (!verbs.length) return null;
  return el("div", { class: "ddm-verbs" }, verbs.map((v) => chip(v, ui, { class: "ddm-verb" }, say(v))));
}

function zashRow(ui) {
  const zash = ZASH.filter((z) => ui.targets.has(z) || ui.selection.includes(z));
  if (!zash.length) return null;
  return el("div", { class: "ddm-zash" }, zash.map((z) => chip(z, ui, { class: "ddm-verb" },
    crestIcon("Z", { "aria-hidden": "true" }), say(z))));
}

function cardChip(id, cardId, ui, extra = "", count = 1) {
  const card = cards[cardId] || { name: cardId, kind: "" };
  const stats = card.kind === "monster" ? `${say("lv", { n: card.level })} · ${card.atk}/${card.defense}` : say(`kind.${card.kind}`);
  return chip(id, ui, { class: `ddm-card kind-${card.kind}`, "aria-label": `${card.name}, ${stats}${extra ? `, ${extra}` : ""}` },
    el("span", { class: "name" }, card.name), el("small", {}, stats, extra ? ` · ${extra}` : ""),
    count > 1 ? el("span", { class: "count" }, `×${count}`) : null);
}

function handPanel(payload, ui) {
  const obs = payload.observation;
  if (!obs.library || payload.you === null) return null;
  const counts = new Map();
  for (const c of obs.library) counts.set(c, (counts.get(c) || 0) + 1);
  const groups = { monster: [], spell: [], trap: [] };
  for (const [c, n] of counts) (groups[(cards[c] || {}).kind] || groups.monster).push([c, n]);
  groups.monster.sort((a, b) => (cards[a[0]]?.level ?? 0) - (cards[b[0]]?.level ?? 0));
  const titles = { monster: "monsters", spell: "spells", trap: "traps" };
  return el("details", { class: "ddm-hand", open: true },
    el("summary", {}, say("yourCards"), ` (${obs.library.length})`),
    Object.entries(groups).filter(([, list]) => list.length).map(([kind, list]) => el("div", { class: "ddm-group" },
      el("b", {}, say(titles[kind])), list.map(([c, n]) => cardChip(`card:${c}`, c, ui, "", n)))));
}

function setPanel(payload, ui) {
  const obs = payload.observation;
  const parts = [];
  if (payload.you !== null && obs.set_cards && obs.set_cards.length) {
    parts.push(el("div", { class: "ddm-group" }, el("b", {}, say("setTraps")),
      obs.set_cards.map(([c, turn]) => cardChip(`trap:${c}`, c, ui, say("setOn", { n: turn })))));
  }
  obs.set_zones.forEach((turns, p) => {
    if (p === payload.you || !turns.length) return;
    // `set2`: Player 2 set cards face-down in the turn marked, the newest of theirs.
    const fresh = ui.marks && ui.marks.has(`set${p + 1}`) ? Math.max(...turns) : null;
    parts.push(el("div", { class: "ddm-group" }, el("b", {}, say("oppSet", { p: who(p) })),
      turns.map((turn) => el("span", { class: `ddm-card back${turn === fresh ? " recent" : ""}`, title: say("setOn", { n: turn }) },
        say("setOn", { n: turn })))));
  });
  return parts.length ? el("div", { class: "ddm-set" }, parts) : null;
}

function gravePanel(payload, ui) {
  const obs = payload.observation;
  return el("div", { class: "ddm-graves" }, obs.graveyards.map((list, p) => el("div", { class: "ddm-group" },
    el("b", {}, say("graveyard", { p: who(p) })),
    list.length ? [...new Set(list)].map((c) => cardChip(`gy${p + 1}:${c}`, c, ui, "", list.filter((x) => x === c).length))
      : el("small", { class: "muted" }, say("empty")))));
}

// --- the dungeon ---------------------------------------------------------------------------------------------------
function drawDungeon(payload, ui, [w, h], anchors, shape) {
  const obs = payload.observation, me = payload.you;
  const flip = payload.you === 1;                  // each player sees their own home rank at the bottom
  const at = (name) => { const [x, y] = xyOf(name); return flip ? [w - 1 - x, y] : [x, h - 1 - y]; };
  const owner = new Map();
  (obs.path || []).forEach((squares, p) => squares.forEach((sq) => owner.set(sq, p)));
  const holes = new Set(obs.holes || []);
  const pieces = new Map((obs.pieces || []).map((p) => [p.square, p]));
  const masters = new Set((obs.pieces || []).filter((p) => p.master).map((p) => p.square));
  // While a net is placed, the legal anchors are the dungeon's targets (and nothing else on the dungeon is).
  const targets = anchors || ui.targets;
  const cellUi = { ...ui, targets };
  const previewed = [...(ui.previewed || [])], net = previewed.find((s) => s.startsWith("net:"));
  const preview = new Set(net ? netSquares(net.slice(4), previewed.find((s) => s !== net), [w, h]) : []);
  if (!view.box || view.size !== `${w}x${h}`) fit([w, h]);
  const board = svg("svg", { class: "ddm-dungeon", viewBox: view.box.join(" "), role: "group",
    "aria-label": `${w}×${h}`, "data-flip": String(flip) });
  const cells = svg("g", { class: "cells" }), tokens = svg("g", { class: "tokens" });
  // Player 2's path is hatched as well as tinted, so the owner never shows by colour alone.
  board.append(svg("defs", {}, svg("pattern", { id: "ddm-hatch", width: 0.5, height: 0.5, patternUnits: "userSpaceOnUse" },
    svg("rect", { width: 0.5, height: 0.5, fill: "#f2d0ca" }), svg("path", { d: "M0 .5 L.5 0", stroke: "#d9958b", "stroke-width": 0.04 }))));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const name = nameOf(x, y);
      const [px, py] = at(name);
      const piece = pieces.get(name);
      const kind = holes.has(name) ? "hole" : owner.has(name) ? `path p${owner.get(name)}` : "empty";
      const cell = `cell ${kind}${preview.has(name) ? " preview" : ""}`;
      if (!piece && !targets.has(name) && !ui.selection.includes(name) && !(ui.marks && ui.marks.has(name))) {
        // Most squares are neither pieces nor choices: one plain rectangle each keeps the redraw fast.
        cells.append(svg("rect", { class: cell, x: px, y: py, width: 1, height: 1, "data-square": name }));
        if (holes.has(name)) cells.append(svg("circle", { class: "hole-mark", cx: px + 0.5, cy: py + 0.5, r: 0.36 }));
        continue;
      }
      const words = squareText(payload, name, piece, owner, holes);
      cells.append(spot(name, cellUi, { transform: `translate(${px} ${py})`, "aria-label": words, "data-square": name },
        svg("rect", { class: cell, width: 1, height: 1 }),
        masters.has(name) ? svg("rect", { class: "master-square", x: 0.06, y: 0.06, width: 0.88, height: 0.88 }) : null,
        holes.has(name) ? svg("circle", { class: "hole-mark", cx: 0.5, cy: 0.5, r: 0.36 }) : null, title(words)));
      if (piece) tokens.append(pieceToken(piece, px, py));
    }
  }
  const labels = svg("g", { class: "coords", "aria-hidden": "true" });
  for (let x = 0; x < w; x++) labels.append(svg("text", { x: (flip ? w - 1 - x : x) + 0.5, y: h + 0.38 }, String.fromCharCode(97 + x)));
  for (let y = 0; y < h; y++) labels.append(svg("text", { x: -0.3, y: (flip ? y : h - 1 - y) + 0.6 }, String(y + 1)));
  // Pieces cover their squares, so a piece you may choose gets an outline and one you may target a ring.
  const rings = svg("g", { class: "rings", "aria-hidden": "true" });
  for (const [square, piece] of pieces) {
    const [px, py] = at(square);
    const chosen = ui.selection.includes(square), legal = targets.has(square);
    const last = ui.marks && ui.marks.has(square);
    if (!chosen && !legal && !last) continue;
    const kind = chosen ? "chosen" : !legal ? "last" : piece.player === me ? "choose" : "aim";
    rings.append(kind === "aim"
      ? svg("circle", { class: `ring ${kind}`, cx: px + 0.5, cy: py + 0.5, r: 0.47 })
      : svg("rect", { class: `ring ${kind}`, x: px + 0.02, y: py + 0.02, width: 0.96, height: 0.96, rx: 0.12 }));
  }
  const ghost = svg("g", { class: "ghost", "aria-hidden": "true" });
  board.append(cells, tokens, rings, labels, ghost);
  if (anchors) wireGhost(board, ghost, shape, anchors, at, [w, h]);
  wireZoom(board, [w, h]);
  const field = el("div", { class: "ddm-field" }, board,
    el("div", { class: "ddm-zoom" },
      el("button", { type: "button", title: say("zoomIn"), "aria-label": say("zoomIn"), onclick: () => zoomBy(board, 0.7) }, "+"),
      el("button", { type: "button", title: say("zoomOut"), "aria-label": say("zoomOut"), onclick: () => zoomBy(board, 1 / 0.7) }, "−"),
      el("button", { type: "button", title: say("fit"), "aria-label": say("fit"), onclick: () => { fit([w, h]); board.setAttribute("viewBox", view.box.join(" ")); } }, "⤢")));
  return field;
}

function squareText(payload, name, piece, owner, holes) {
  const parts = [name];
  if (holes.has(name)) parts.push(say("hole"));
  else if (owner.has(name)) parts.push(say("path", { p: who(owner.get(name)) }));
  else parts.push(say("emptySq"));
  if (piece) parts.push(pieceWords(piece));
  return parts.join(" — ");
}

function pieceWords(piece) {
  if (piece.master) return say("master", { p: who(piece.player) });
  return `${cardName(piece.card)} (${who(piece.player)}), ${say("lv", { n: piece.level })}, ATK ${piece.atk}, DEF ${piece.def}`;
}

// A short name for a token: the initials of a long name, the name itself when it is short.
function shortName(name) {
  if (name.length <= 7) return name;
  const words = name.split(/\s+/).filter((w) => !/^(of|the|de|del|la|las|los|el)$/i.test(w));
  return words.length > 1 ? words.slice(0, 2).map((w) => w.slice(0, 3)).join(" ") : name.slice(0, 7);
}

function pieceToken(piece, px, py) {
  const color = PLAYER_COLORS[piece.player];
  const g = svg("g", { class: `piece p${piece.player}${piece.master ? " master" : ""}`, transform: `translate(${px} ${py})`,
    "data-piece": piece.master ? `master${piece.player}` : `${piece.card}@${piece.square}`, "data-square": piece.square,
    "aria-hidden": "true" });
  if (piece.master) {
    g.append(svg("path", { d: "M.15 .8 L.2 .32 L.36 .5 L.5 .22 L.64 .5 L.8 .32 L.85 .8 Z", fill: color, stroke: "#fff",
      "stroke-width": 0.04 }));
    return g;
  }
  const done = piece.attacked || piece.moved;
  const short = shortName(cardName(piece.card));
  // Player 1's tokens are square, player 2's round-cornered: the shape tells them apart as well as the colour.
  g.append(svg("rect", { class: "token", x: 0.06, y: 0.06, width: 0.88, height: 0.88, rx: piece.player ? 0.3 : 0.06,
    fill: "#fff", stroke: color, "stroke-width": 0.07, opacity: done ? 0.85 : 1 }),
  svg("text", { class: "tname", x: 0.5, y: 0.34, ...(short.length > 5 ? { textLength: 0.8, lengthAdjust: "spacingAndGlyphs" } : {}) },
    short),
  svg("text", { class: `tstat atk${piece.atk !== piece.printed_atk ? " changed" : ""}`, x: 0.5, y: 0.62 }, String(piece.atk)),
  svg("text", { class: `tstat def${piece.def !== piece.printed_def ? " changed" : ""}`, x: 0.5, y: 0.86 }, String(piece.def)),
  svg("text", { class: "tlevel", x: 0.9, y: 0.22, fill: color }, `${piece.level}`));
  return g;
}

// --- the net ghost under the pointer -------------------------------------------------------------------------------
function wireGhost(board, ghost, shape, anchors, at, size) {
  const show = (anchor) => {
    ghostAt = anchor;
    ghost.replaceChildren();
    if (!anchor || !shape) return;
    const squares = netSquares(shape, anchor, size);
    const legal = anchors.has(anchor);
    const cells = squares.length ? squares : [];
    for (const sq of cells) {
      const [px, py] = at(sq);
      ghost.append(svg("rect", { class: `ghost-cell ${legal ? "legal" : "illegal"}`, "data-square": sq, x: px + 0.04, y: py + 0.04,
        width: 0.92, height: 0.92 }));
    }
    ghost.dataset.anchor = anchor;
    ghost.dataset.legal = String(legal);
  };
  const squareOf = (e) => { const g = e.target.closest && e.target.closest("[data-square]"); return g ? g.dataset.square : null; };
  board.addEventListener("pointermove", (e) => {
    const sq = squareOf(e);
    if (e.pointerType !== "touch" && sq !== ghostAt) show(sq);
  });
  board.addEventListener("pointerleave", (e) => { if (e.pointerType !== "touch") show(null); });
  // A finger cannot point without touching: the first tap shows the ghost there, a second tap places it.
  let touch = false;
  board.addEventListener("pointerdown", (e) => { touch = e.pointerType === "touch"; }, true);
  board.addEventListener("click", (e) => {
    const sq = squareOf(e);
    if (touch && sq && sq !== ghostAt) { e.stopPropagation(); show(sq); }
  }, true);
  board.addEventListener("focusin", (e) => { if (!touch) show(squareOf(e)); });
  if (ghostAt) show(ghostAt);
}

// --- zoom and pan -------------------------------------------------------------------------------------------------
function fit([w, h]) {
  view.size = `${w}x${h}`;
  view.box = [-0.7, -0.1, w + 0.8, h + 0.6];
}

function zoomBy(board, factor, cx, cy) {
  const [x, y, bw, bh] = view.box;
  const [w, h] = view.size.split("x").map(Number);
  const nw = Math.min(w + 0.8, Math.max(4, bw * factor)), nh = nw * (bh / bw);
  const fx = cx === undefined ? 0.5 : (cx - x) / bw, fy = cy === undefined ? 0.5 : (cy - y) / bh;
  view.box = clampBox([x + (bw - nw) * fx, y + (bh - nh) * fy, nw, nh], w, h);
  board.setAttribute("viewBox", view.box.join(" "));
}

function clampBox([x, y, bw, bh], w, h) {
  const minX = -0.7, minY = -0.1, maxX = w + 0.1, maxY = h + 0.5;
  return [Math.min(Math.max(x, minX), Math.max(minX, maxX - bw)), Math.min(Math.max(y, minY), Math.max(minY, maxY - bh)), bw, bh];
}

function svgPoint(board, e) {
  const r = board.getBoundingClientRect(), [x, y, bw, bh] = view.box;
  const scale = Math.max(bw / r.width, bh / r.height);         // preserveAspectRatio: meet
  const ox = (r.width - bw / scale) / 2, oy = (r.height - bh / scale) / 2;
  return [x + (e.clientX - r.left - ox) * scale, y + (e.clientY - r.top - oy) * scale, scale];
}

function wireZoom(board, [w, h]) {
  board.addEventListener("wheel", (e) => {
    e.preventDefault();
    const [px, py] = svgPoint(board, e);
    zoomBy(board, e.deltaY > 0 ? 1.15 : 1 / 1.15, px, py);
  }, { passive: false });
  const pointers = new Map();
  let pan = null, pinch = null;
  board.addEventListener("pointerdown", (e) => {
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = { d: Math.hypot(a[0] - b[0], a[1] - b[1]) };
      pan = null;
    } else if (!e.target.closest(".target")) pan = { x: e.clientX, y: e.clientY, moved: false };
  });
  board.addEventListener("pointermove", (e) => {
    if (!pointers.has(e.pointerId)) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pinch && pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const d = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (d > 0 && pinch.d > 0) zoomBy(board, pinch.d / d);
      pinch.d = d;
    } else if (pan) {
      const dx = e.clientX - pan.x, dy = e.clientY - pan.y;
      if (!pan.moved && Math.hypot(dx, dy) < 6) return;
      pan.moved = true;
      const [, , , scale] = [0, 0, 0, svgPoint(board, e)[2]];
      const [x, y, bw, bh] = view.box;
      view.box = clampBox([x - dx * scale, y - dy * scale, bw, bh], w, h);
      board.setAttribute("viewBox", view.box.join(" "));
      pan.x = e.clientX; pan.y = e.clientY;
    }
  });
  const end = (e) => { pointers.delete(e.pointerId); if (pointers.size < 2) pinch = null; if (!pointers.size) pan = null; };
  board.addEventListener("pointerup", end);
  board.addEventListener("pointercancel", end);
}

// --- motion: what changed since the picture before (under 300 ms, none when reduced motion is asked) ------------
function animate(container, payload, previous) {
  if (!previous || previous.game !== payload.game || reduced()) return;
  const before = previous.observation, now = payload.observation;
  const board = container.querySelector(".ddm-dungeon");
  const [w, h] = SIZES[(now.options || {}).board] || SIZES.jdmc;
  const flip = payload.you === 1;
  const at = (name) => { const [x, y] = xyOf(name); return flip ? [w - 1 - x, y] : [x, h - 1 - y]; };
  const keyOf = (p) => (p.master ? `m${p.player}` : `${p.player}:${p.card}`);
  const gone = new Map();
  const stayed = new Set(now.pieces.map((p) => `${keyOf(p)}@${p.square}`));
  for (const p of before.pieces) if (!stayed.has(`${keyOf(p)}@${p.square}`)) gone.set(p.square, p);
  for (const p of now.pieces) {
    if (before.pieces.some((q) => q.square === p.square && keyOf(q) === keyOf(p))) continue;
    const node = board.querySelector(`.piece[data-square="${p.square}"]`);
    const from = [...gone.values()].find((q) => keyOf(q) === keyOf(p));
    if (node && from) {
      gone.delete(from.square);
      const [x0, y0] = at(from.square), [x1, y1] = at(p.square);
      node.animate([{ transform: `translate(${x0}px, ${y0}px)` }, { transform: `translate(${x1}px, ${y1}px)` }],
        { duration: 240, easing: "ease-out" });
    } else if (node) node.classList.add("arrive");
  }
  for (const p of gone.values()) {
    const [px, py] = at(p.square);
    const ghost = pieceToken(p, px, py);
    ghost.classList.add("vanish");
    board.querySelector(".tokens").append(ghost);
    ghost.addEventListener("animationend", () => ghost.remove());
  }
  const wasPath = new Set((before.path || []).flat());
  for (const sq of (now.path || []).flat()) {
    if (!wasPath.has(sq)) board.querySelector(`[data-square="${sq}"] .cell`)?.classList.add("fresh");
  }
  if (JSON.stringify(before.rolls) !== JSON.stringify(now.rolls) || before.turn !== now.turn) {
    container.querySelectorAll(".ddm-die").forEach((d) => d.classList.add("rolling"));
  }
  now.hearts.forEach((n, p) => {
    if (n < before.hearts[p]) container.querySelector(`.ddm-player[data-seat="${p}"] .ddm-hearts`)?.classList.add("hurt");
  });
  now.pool.forEach((pool, p) => Object.entries(pool).forEach(([c, n]) => {
    if (n !== (before.pool[p] || {})[c]) {
      container.querySelector(`.ddm-player[data-seat="${p}"] [data-crest="${c}"]`)?.classList.add("changed");
    }
  }));
}

// --- the inspector ------------------------------------------------------------------------------------------------
/** Full details of a square's piece, a card, a die or a graveyard card, from the observation and public content. */
export function inspect(id, payload) {
  const obs = payload.observation;
  if (id.startsWith("die:")) {
    const dieId = obs.drawn[Number(id.slice(4))];
    return dieId ? dieDetails(dieId, (obs.rolls[obs.rolls.length - 1] || [])[Number(id.slice(4))]) : null;
  }
  const [head, rest] = id.split(/:(.*)/s);
  if (head === "card" || head === "trap" || /^gy\d$/.test(head)) return cardDetails(rest);
  if (SQUARE.test(id)) {
    const piece = pieceAt(payload, id);
    if (piece && !piece.master) return cardDetails(piece.card, piece);
    const node = el("div", { class: "ddm-inspect" });
    const owner = (obs.path || []).findIndex((list) => list.includes(id));
    node.append(el("h3", {}, piece ? say("master", { p: who(piece.player) }) : id),
      el("p", {}, [id, (obs.holes || []).includes(id) ? say("hole") : owner >= 0 ? say("path", { p: who(owner) }) : say("emptySq")].join(" — ")));
    if (piece) node.append(el("p", { class: "ddm-hearts" }, say("hearts", { n: obs.hearts[piece.player], m: (obs.options || {}).hearts || 5 })));
    return node;
  }
  return null;
}

function cardDetails(cardId, piece = null) {
  const card = cards[cardId];
  if (!card) return null;
  const node = el("div", { class: `ddm-inspect kind-${card.kind}` }, el("h3", {}, card.name),
    el("p", { class: "muted" }, say(`kind.${card.kind}`), card.kind === "monster" ? ` · ${say("level", { n: card.level })}` : ""));
  if (card.kind === "monster") {
    const atk = piece ? piece.atk : card.atk, def = piece ? piece.def : card.defense;
    node.append(el("p", { class: "ddm-stats" },
      el("span", { class: "atk" }, `ATK ${atk}`, piece && atk !== card.atk ? el("small", {}, ` (${card.atk})`) : null),
      el("span", { class: "def" }, `DEF ${def}`, piece && def !== card.defense ? el("small", {}, ` (${card.defense})`) : null)));
  }
  if (card.text) node.append(el("p", {}, card.text));
  if (piece) {
    const notes = [who(piece.player), piece.owner !== piece.player ? say("owner", { p: who(piece.owner) }) : null,
      piece.attacked ? say("attacked") : null, piece.moved ? say("moved") : null, piece.effect_used ? say("effectUsed") : null];
    node.append(el("p", { class: "muted" }, notes.filter(Boolean).join(" · ")));
    if (piece.equips.length) node.append(el("p", {}, say("equips", { e: piece.equips.map(([c]) => cardName(c)).join(", ") })));
  }
  return node;
}

function dieDetails(dieId, rolled) {
  const die = cards[dieId];
  if (!die) return null;
  const faces = String(die.faces || "").split(" ").filter(Boolean);
  return el("div", { class: "ddm-inspect" }, el("h3", {}, die.name),
    rolled ? el("p", {}, say("rolledFace", { f: faceWords(rolled) })) : null,
    el("p", { class: "muted" }, say("faces")),
    el("div", { class: "ddm-faces" }, faces.map((f) => el("span", { class: "ddm-die", role: "img", title: faceWords(f), "aria-label": faceWords(f) },
      crestIcon(f[0], { "aria-hidden": "true" }), f.length > 1 ? el("b", {}, f.slice(1)) : null))));
}
