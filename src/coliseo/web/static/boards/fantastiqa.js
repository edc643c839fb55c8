// Fantastiqa: six regions joined by seven paths, a creature on each path; every adventurer's panel, the open
// quests, the statue row or the draft, your quests and your hand. Every action is built by clicks here
// (docs/web.md, "The board contract"); only End turn, End adventure and Done stay words.
import { el, t } from "/static/i18n.js";
import { PLAYER_COLORS, loadCards, spot, svg, title } from "/static/boards/svg.js";

const SYMBOLS = ["SW", "FI", "WA", "BR", "FA", "NE", "HE", "CL", "WN"];
const PLACE = { TL: [0, 0], TR: [1, 0], ML: [0, 1], MR: [1, 1], BL: [0, 2], BR: [1, 2] };
const SPACE_ENDS = { 1: ["TL", "TR"], 2: ["TR", "MR"], 3: ["MR", "BR"], 4: ["BR", "BL"], 5: ["BL", "ML"], 6: ["ML", "TL"], 7: ["ML", "MR"] };
const TOKEN_SHAPES = ["circle", "square", "diamond", "triangle"];
// Map geometry, in SVG units: regions in 2 columns × 3 rows, creature cards in the gaps between them.
const REGION_W = 34, REGION_H = 27, GAP_X = 30, GAP_Y = 19, CARD_W = 27, CARD_H = 17;
const MAP_W = 2 * REGION_W + GAP_X + 2, MAP_H = 3 * REGION_H + 2 * GAP_Y + 2;

const WORDS = {
  en: {
    symbols: { SW: "Sword", FI: "Fire", WA: "Water", BR: "Broom", FA: "Fang", NE: "Net", HE: "Helm", CL: "Club", WN: "Wand" },
    regions: { FOR: "Forest", FLD: "Fields", HGH: "Highlands", HIL: "Hills", WET: "Wetlands", FRZ: "Frozen Wastes" },
    statues: { AT: "Artifact Tower", BB: "Beast Bazaar", QC: "Quest Chest" },
    kinds: { adventurer: "Adventurer card", dog: "Dog", dragon: "Peaceful Dragon", creature: "Creature", event: "Event",
      beast: "Beast", artifact: "Artifact", quest: "Quest" },
    abilities: { GEMS: "Gain {n} gem(s)", DRAW: "Draw {n} card(s)", FLY: "Fly across a path", CARPET: "Gain {n} carpet(s)",
      REARRANGE: "Gain {n} rearrange(s)", SPY: "+{n} card(s) at a statue", KEY: "Use a statue option for free",
      DRAGON: "Send Peaceful Dragons to opponents here", GIFT: "Give this card to an opponent here",
      RELEASE: "Release up to {n} card(s) for free", TELEPORT: "Teleport to another region", WILD: "Counts as {n} wild symbol(s) when subduing" },
    rewards: { GEMS: "gem", CARPET: "carpet", REARRANGE: "rearrange" },
    phases: { draft: "choosing a start", main: "turn action available", adventure: "adventuring", statue: "at the statue",
      release: "releasing ({n} more at most)", after: "turn action used" },
    path: "Path", weak: "Weak to", empty: "empty", gems: "gems", gem: "gem", score: "score", goal: "goal",
    scoreHelp: "score / Quest Goal: the points of completed quests and +1 tokens, minus those of quests still held (where the game counts them)", hand: "Your hand", handN: "hand",
    deck: "deck", discardN: "discard", carpets: "carpets", rearranges: "rearranges", bonus: "+1 tokens", you: "you",
    openQuests: "Open quests", yourQuests: "Your quests", quests: "quests", completed: "completed",
    gives: "Gives", cost: "Cost", points: "points", point: "point", reward: "Reward", region: "Region", requires: "Needs",
    legend: "Symbols", side: "Adventurers, quests and your hand", play: "Play", playHint: "Play a card for its power", discard: "Discard",
    release: "Release", releaseHint: "Release a card for good", carpet: "Carpet", rearrange: "Rearrange",
    rearrangeHint: "Shuffle your discard pile into your draw pile", statueHint: "Visit the statue: draw cards",
    draftQuests: "Starting quests — take one", draftArtifacts: "Starting artifacts — take one", draftStart: "Choose a free region to start",
    row: "Revealed at the statue", pending: "subdued, pending", paid: "paid with", committed: "committed", token: "token of",
    here: "Here", turn: "to play", adventure: "Adventure", route: "route", slot: "Open quest",
    cards: "cards", player: "Player {n}", cardsWord: "card(s)",
  },
  es: {
    symbols: { SW: "Espada", FI: "Fuego", WA: "Agua", BR: "Escoba", FA: "Colmillo", NE: "Red", HE: "Yelmo", CL: "Garrote", WN: "Varita" },
    regions: { FOR: "Bosque", FLD: "Campos", HGH: "Tierras Altas", HIL: "Colinas", WET: "Humedales", FRZ: "Páramo Helado" },
    statues: { AT: "Torre de Artefactos", BB: "Bazar de Bestias", QC: "Cofre de Misiones" },
    kinds: { adventurer: "Carta de aventurero", dog: "Perro", dragon: "Dragón pacífico", creature: "Criatura", event: "Evento",
      beast: "Bestia", artifact: "Artefacto", quest: "Misión" },
    abilities: { GEMS: "Gana {n} gema(s)", DRAW: "Roba {n} carta(s)", FLY: "Vuela por un camino", CARPET: "Gana {n} alfombra(s)",
      REARRANGE: "Gana {n} reorganización(es)", SPY: "+{n} carta(s) en una estatua", KEY: "Usa una opción de estatua gratis",
      DRAGON: "Envía Dragones pacíficos a los rivales de tu región", GIFT: "Regala esta carta a un rival de tu región",
      RELEASE: "Libera hasta {n} carta(s) gratis", TELEPORT: "Teletranspórtate a otra región", WILD: "Cuenta como {n} símbolo(s) comodín al someter" },
    rewards: { GEMS: "gema", CARPET: "alfombra", REARRANGE: "reorganización" },
    phases: { draft: "eligiendo inicio", main: "acción de turno disponible", adventure: "de aventura", statue: "en la estatua",
      release: "liberando (como mucho {n} más)", after: "acción de turno usada" },
    path: "Camino", weak: "Débil a", empty: "vacío", gems: "gemas", gem: "gema", score: "puntos", goal: "meta",
    scoreHelp: "puntos / meta de misiones: los puntos de las misiones completadas y las fichas +1, menos los de las misiones aún por completar (si la partida los cuenta)", hand: "Tu mano", handN: "mano",
    deck: "mazo", discardN: "descarte", carpets: "alfombras", rearranges: "reorganizaciones", bonus: "fichas +1", you: "tú",
    openQuests: "Misiones abiertas", yourQuests: "Tus misiones", quests: "misiones", completed: "completadas",
    gives: "Da", cost: "Coste", points: "puntos", point: "punto", reward: "Recompensa", region: "Región", requires: "Necesita",
    legend: "Símbolos", side: "Aventureros, misiones y tu mano", play: "Jugar", playHint: "Juega una carta por su poder", discard: "Descarte",
    release: "Liberar", releaseHint: "Libera una carta para siempre", carpet: "Alfombra", rearrange: "Reorganizar",
    rearrangeHint: "Baraja tu descarte con tu mazo", statueHint: "Visita la estatua: roba cartas",
    draftQuests: "Misiones iniciales: toma una", draftArtifacts: "Artefactos iniciales: toma uno", draftStart: "Elige una región libre para empezar",
    row: "Revelado en la estatua", pending: "sometida, pendiente", paid: "pagada con", committed: "comprometidas", token: "ficha de",
    here: "Aquí", turn: "juega", adventure: "Aventura", route: "ruta", slot: "Misión abierta",
    cards: "cartas", player: "Jugador {n}", cardsWord: "carta(s)",
  },
};
let cards = {};
let W = WORDS.en;
let language = "en";

export async function prepare(lang) {
  language = lang === "es" ? "es" : "en";
  W = WORDS[language];
  cards = await loadCards("fantastiqa", lang);
}

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (_, k) => values[k]);
// "Gain {n} gem(s)" with n = 1 → "Gain 1 gem", n = 2 → "Gain 2 gems" (and "reorganización(es)" in Spanish).
const counted = (text, n) => fill(text, { n }).replace(/(\w+)\((e?s)\)/g, (_, w, s) => (n === 1 ? w : w + s));
const name = (id) => (cards[id] ? cards[id].name : id);
const symbolsOf = (id) => (cards[id] && cards[id].symbols ? cards[id].symbols.split(" ").filter(Boolean) : []);
const vulnOf = (id) => (cards[id] && cards[id].vuln ? cards[id].vuln.split(" ").filter(Boolean) : []);
const requirement = (id) => (cards[id] && cards[id].req ? cards[id].req.split(" ").map((r) => [r.slice(0, 2), Number(r.slice(2))]) : []);
const playerWord = (p) => fill(W.player, { n: p + 1 });
const list = (names) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} ${language === "es" ? "y" : "and"} ${names.at(-1)}`);

function abilityText(id) {
  const a = cards[id] && cards[id].ability;
  if (!a) return "";
  const [type, n] = a.split(" ");
  return counted(W.abilities[type] || type, Number(n || 1));
}

function regionName(pos, obs) {
  const cell = obs && (obs.layout || []).find((c) => c.pos === pos);
  return cell ? W.regions[cell.region] || cell.region : pos;
}

export function label(target, payload) {
  const obs = payload && payload.observation;
  if (/^sp\d$/.test(target)) {
    const s = obs && obs.spaces.find((x) => x.space === Number(target.slice(2)));
    return `${W.path} ${target.slice(2)}${s && s.creature ? `: ${name(s.creature)}` : ""}`;
  }
  if (PLACE[target]) return regionName(target, obs);
  if (/^P\d$/.test(target)) return playerWord(Number(target.slice(1)) - 1);
  const zones = { statue: W.statueHint, play: W.play, discard: W.discard, release: W.release, carpet: W.carpet, rearrange: W.rearrange };
  return zones[target] || name(target);
}

// --- small pieces ---------------------------------------------------------------------------
// Symbol glyphs drawn in a 10×10 box: colour AND shape tell them apart.
const GLYPHS = {
  SW: ["#7b8794", "M5 1 L6 6 L5 7 L4 6 Z M2.5 6.5 H7.5 V7.3 H2.5 Z M4.5 7.3 H5.5 V9 H4.5 Z"],
  FI: ["#d9542b", "M5 1 C7 3.5 8 5 7.5 7 C7 8.6 6 9.2 5 9.2 C3.6 9.2 2.5 8.2 2.5 6.6 C2.5 5.2 3.6 4.4 4 3.2 C4.6 4.4 5.4 4.8 5.6 5.6 C6.2 4.4 5.8 2.6 5 1 Z"],
  WA: ["#2d7fc1", "M5 1 C6.5 3.8 7.8 5.2 7.8 6.6 A2.8 2.8 0 0 1 2.2 6.6 C2.2 5.2 3.5 3.8 5 1 Z"],
  BR: ["#9a6b2f", "M6.8 1 L7.6 1.4 L5.6 5.6 L4.8 5.2 Z M4.2 4.8 L6.4 5.9 L5 9.2 L1.8 7.6 Z"],
  FA: ["#8c5fb0", "M2 2 H8 L5 9 Z"],
  NE: ["#3c9a8c", "M2 2 H8 V8 H2 Z M2 4 H8 M2 6 H8 M4 2 V8 M6 2 V8"],
  HE: ["#b58a1b", "M2 7.5 V5 A3 3 0 0 1 8 5 V7.5 H6.2 V5.6 H3.8 V7.5 Z"],
  CL: ["#6d4c3d", "M3.2 9 L4.6 3.2 A1.9 1.9 0 1 1 7.4 3.6 L4.6 9.2 Z"],
  WN: ["#c2407a", "M2 8.6 L6 4.6 L6.8 5.4 L2.8 9.4 Z M7.2 1 L7.7 2.5 L9.2 2.6 L8 3.5 L8.4 5 L7.2 4.1 L6 5 L6.4 3.5 L5.2 2.6 L6.7 2.5 Z"],
};

/** A symbol as an icon: an SVG group for the map (x, y, size in map units) … */
function glyph(sym, x, y, size) {
  const [color, d] = GLYPHS[sym] || ["#999", ""];
  const stroked = sym === "NE";
  return svg("g", { transform: `translate(${x} ${y}) scale(${size / 10})`, class: "fq-glyph" },
    svg("circle", { cx: 5, cy: 5, r: 5, fill: color }),
    svg("path", { d, fill: stroked ? "none" : "#fff", stroke: stroked ? "#fff" : "none", "stroke-width": stroked ? 0.9 : 0 }),
    title(W.symbols[sym] || sym));
}

/** … or a small inline SVG for the HTML parts (cards, quests, legend). */
function icon(sym) {
  const box = svg("svg", { viewBox: "0 0 10 10", class: "fq-icon", role: "img", "aria-label": W.symbols[sym] || sym });
  box.append(glyph(sym, 0, 0, 10));
  return box;
}

function tokenShape(player, size) {
  const color = PLAYER_COLORS[player];
  const shape = TOKEN_SHAPES[player % 4];
  const h = size / 2;
  const attrs = { fill: color, stroke: "#fff", "stroke-width": size * 0.08 };
  if (shape === "circle") return svg("circle", { cx: 0, cy: 0, r: h, ...attrs });
  if (shape === "square") return svg("rect", { x: -h * 0.9, y: -h * 0.9, width: h * 1.8, height: h * 1.8, rx: size * 0.1, ...attrs });
  if (shape === "diamond") return svg("path", { d: `M0 ${-h * 1.1} L${h * 1.1} 0 L0 ${h * 1.1} L${-h * 1.1} 0 Z`, ...attrs });
  return svg("path", { d: `M0 ${-h * 1.1} L${h * 1.1} ${h * 0.8} L${-h * 1.1} ${h * 0.8} Z`, ...attrs });
}

function swatch(player) {
  const box = svg("svg", { viewBox: "-6 -6 12 12", class: "fq-swatch", "aria-hidden": "true" });
  box.append(tokenShape(player, 10), svg("text", { x: 0, y: 2, "font-size": 5.5, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, String(player + 1)));
  return box;
}

/** svg.js's spot() with this board's own class names kept beside its state classes. */
function mapSpot(id, ui, cls, attrs, ...children) {
  const g = spot(id, ui, attrs, ...children);
  g.classList.add(cls);
  return g;
}

/** A clickable HTML thing (a card, a zone, a token): the same rules as svg.js's spot(). */
function hspot(id, ui, tag, attrs, ...children) {
  const classes = [attrs.class || ""];
  const isTarget = ui.targets && ui.targets.has(id);
  if (isTarget) classes.push("target");
  if ((ui.selection && ui.selection.includes(id)) || (ui.previewed && ui.previewed.has(id))) classes.push("selected");
  if (ui.marks && ui.marks.has(id)) classes.push("recent");
  const node = el(tag, { ...attrs, class: classes.join(" ").trim(), "data-target": id }, ...children);
  if (isTarget) { node.setAttribute("tabindex", "0"); node.setAttribute("role", "button"); }
  if (ui.onTarget) {
    // A committed card sits inside its quest card: the innermost thing clicked is the one chosen.
    node.addEventListener("click", (e) => { e.stopPropagation(); ui.onTarget(id); });
    node.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); ui.onTarget(id); } });
  }
  if (ui.inspect) {
    node.addEventListener("pointerenter", () => ui.inspect(id));
    node.addEventListener("focus", (e) => { e.stopPropagation(); ui.inspect(id); });
  }
  return node;
}

const longest = (text) => Math.max(...text.split(/[ -]/).map((w) => w.length));

function cardFace(id, extra = []) {
  const c = cards[id] || {};
  const kind = c.kind || "card";
  const syms = symbolsOf(id);
  const bottom = [];
  if (c.kind === "quest") {
    bottom.push(el("span", { class: "fq-req" }, requirement(id).map(([s, n]) => el("span", { class: "fq-need" }, icon(s), n > 1 ? `×${n}` : ""))));
    bottom.push(el("span", { class: "fq-points" }, `★${c.points}`));
  } else if (c.cost !== null && c.cost !== undefined && c.cost !== "" && (c.kind === "beast" || c.kind === "artifact") && !c.star) {
    bottom.push(el("span", { class: "fq-cost" }, `◆${c.cost}`));
  }
  return el("span", { class: `fq-face kind-${kind}` },
    el("span", { class: "fq-syms" }, syms.map(icon)),
    el("span", { class: `fq-name${longest(name(id)) > 12 ? " longer" : longest(name(id)) > 9 ? " long" : ""}` }, name(id)),
    c.kind === "quest" ? el("span", { class: "fq-ability" }, W.regions[c.region] || c.region)
      : c.ability ? el("span", { class: "fq-ability" }, abilityText(id)) : null,
    bottom.length ? el("span", { class: "fq-bottom" }, bottom) : null,
    ...extra);
}

function card(id, ui, extra = [], cls = "") {
  const c = cards[id] || {};
  return hspot(id, ui, "div", { class: `fq-card kind-${c.kind || "card"} ${cls}`.trim(), "aria-label": cardWords(id) }, cardFace(id, extra));
}

function cardWords(id) {
  const c = cards[id];
  if (!c) return id;
  const parts = [name(id)];
  if (c.kind === "quest") {
    parts.push(`${W.regions[c.region] || c.region}`, `${W.requires} ${requirement(id).map(([s, n]) => `${W.symbols[s]} ${n}`).join(", ")}`,
      `${c.points} ${c.points === 1 ? W.point : W.points}`);
  } else {
    const syms = symbolsOf(id);
    if (syms.length) parts.push(syms.map((s) => W.symbols[s]).join(" + "));
    if (c.ability) parts.push(abilityText(id));
    if (vulnOf(id).length) parts.push(`${W.weak} ${vulnOf(id).map((s) => W.symbols[s]).join(" + ")}`);
  }
  return parts.join(" — ");
}

// --- the map ----------------------------------------------------------------------------------
function regionBox(pos) {
  const [c, r] = PLACE[pos];
  return [1 + c * (REGION_W + GAP_X), 1 + r * (REGION_H + GAP_Y)];
}
function regionCenter(pos) { const [x, y] = regionBox(pos); return [x + REGION_W / 2, y + REGION_H / 2]; }

function terrainDefs() {
  const pattern = (id, size, ...children) => svg("pattern", { id, width: size, height: size, patternUnits: "userSpaceOnUse" }, ...children);
  return svg("defs", {},
    pattern("fq-FOR", 8, svg("rect", { width: 8, height: 8, fill: "#a9d39e" }), svg("path", { d: "M2 6 L4 1.5 L6 6 Z", fill: "#7fb574" })),
    pattern("fq-FLD", 6, svg("rect", { width: 6, height: 6, fill: "#efe39a" }), svg("path", { d: "M0 5 H6", stroke: "#d9c86a", "stroke-width": 0.6 })),
    pattern("fq-HGH", 10, svg("rect", { width: 10, height: 10, fill: "#c3bfd3" }), svg("path", { d: "M1 8 L4 3 L6 6 L7.5 4 L9.5 8", fill: "none", stroke: "#9c96b4", "stroke-width": 0.6 })),
    pattern("fq-HIL", 10, svg("rect", { width: 10, height: 10, fill: "#d8bd8e" }), svg("path", { d: "M0 8 Q2.5 4 5 8 Q7.5 4 10 8", fill: "none", stroke: "#b99660", "stroke-width": 0.6 })),
    pattern("fq-WET", 8, svg("rect", { width: 8, height: 8, fill: "#99cdd1" }), svg("path", { d: "M0 4 Q2 2.6 4 4 T8 4", fill: "none", stroke: "#6aaab0", "stroke-width": 0.6 })),
    pattern("fq-FRZ", 8, svg("rect", { width: 8, height: 8, fill: "#e4eff8" }), svg("path", { d: "M4 2 V6 M2.3 3 L5.7 5 M2.3 5 L5.7 3", stroke: "#b9d0e4", "stroke-width": 0.45 })));
}

const STATUE_GLYPH = {
  AT: "M-2.2 3 V-1.5 L-1.6 -3 H1.6 L2.2 -1.5 V3 Z M-0.7 3 V1 H0.7 V3 Z",
  BB: "M-3 3 V-0.5 L0 -3 L3 -0.5 V3 Z M-1.2 3 V0.6 H1.2 V3 Z",
  QC: "M-3 -0.4 Q0 -3.4 3 -0.4 V3 H-3 Z M-3 0.4 H3 M-0.5 0.2 H0.5 V1.4 H-0.5 Z",
};

function drawMap(obs, ui, previous) {
  const map = svg("svg", { viewBox: `0 0 ${MAP_W} ${MAP_H}`, class: "fq-map", role: "group", "aria-label": "Fantastiqa" }, terrainDefs());
  const crossed = new Set(obs.crossed || []);
  for (const [space, [a, b]] of Object.entries(SPACE_ENDS)) {
    const [x1, y1] = regionCenter(a), [x2, y2] = regionCenter(b);
    map.append(svg("line", { x1, y1, x2, y2, class: `fq-path${crossed.has(Number(space)) ? " crossed" : ""}` }));
  }
  const people = obs.people || [];
  const current = obs.current;
  for (const cell of obs.layout || []) {
    const [x, y] = regionBox(cell.pos);
    const here = people.filter((p) => p.position === cell.pos);
    const regionWord = W.regions[cell.region] || cell.region;
    const statueWord = W.statues[cell.statue] || cell.statue;
    const who = here.map((p) => playerWord(p.player)).join(", ");
    const onRoute = (obs.route || []).includes(cell.pos);
    // The statue: a target of its own on the current player's region (visiting it draws cards), else part of the region.
    const mine = current !== null && here.some((p) => p.player === current);
    const statue = svg("g", { transform: `translate(${x + 5.5} ${y + 13})` },
      svg("circle", { r: 4, class: "fq-statue-disc" }), svg("path", { d: STATUE_GLYPH[cell.statue], class: "fq-statue-glyph" }),
      svg("text", { x: 5.2, y: 1, "font-size": fitFont(statueWord, REGION_W - 12, 2.6), class: "fq-statue-name" }, statueWord));
    map.append(mapSpot(cell.pos, ui, "fq-region", { transform: `translate(${x} ${y})`, "aria-label": `${regionWord} — ${statueWord}${who ? ` — ${who}` : ""}` },
      svg("rect", { class: `fq-terrain${onRoute ? " on-route" : ""}`, width: REGION_W, height: REGION_H, rx: 2.5, fill: `url(#fq-${cell.region})` }),
      svg("rect", { x: 1.5, y: 1.4, width: REGION_W - 3, height: 6.4, rx: 1.2, class: "fq-region-label" }),
      svg("text", { x: REGION_W / 2, y: 6, "font-size": regionWord.length > 12 ? 3.6 : 4.2, "text-anchor": "middle", class: "fq-region-name" }, regionWord),
      mine ? null : svg("g", { transform: `translate(${-x} ${-y})` }, statue),
      title(`${regionWord} — ${statueWord}`)));
    if (mine) map.append(mapSpot("statue", ui, "fq-statue", { "aria-label": `${W.statueHint} (${statueWord})` }, statue, title(statueWord)));
    here.forEach((p, i) => {
      const token = svg("g", { class: `fq-adventurer${p.player === current ? " now" : ""}`, transform: `translate(${x + REGION_W - 5 - i * 6.8} ${y + 22.2})` },
        tokenShape(p.player, 5.6),
        svg("text", { x: 0, y: 1.2, "font-size": 3.2, "text-anchor": "middle", fill: "#fff", "font-weight": 700 }, String(p.player + 1)),
        title(playerWord(p.player)));
      map.append(token);
      animateMove(token, p, previous, x + REGION_W - 5 - i * 6.8, y + 22.2);
    });
  }
  for (const s of obs.spaces || []) map.append(creatureCard(s, obs, ui, previous));
  return map;
}

/** Where a creature card sits: centred in the gap its path crosses. */
function spaceSpot(space) {
  const [a, b] = SPACE_ENDS[space].map(regionCenter);
  return [(a[0] + b[0]) / 2 - CARD_W / 2, (a[1] + b[1]) / 2 - CARD_H / 2];
}

/** The largest font size (up to `max`) at which `text` fits `width` map units (bold text, about 0.6 em a letter). */
function fitFont(text, width, max) { return Math.min(max, width / (text.length * 0.6)).toFixed(2); }

/** A name on two lines when it is long: split at the space nearest the middle. */
function twoLines(text, max) {
  if (text.length <= max) return [text];
  const spaces = [...text.matchAll(/[ -]/g)].map((m) => m.index);
  if (!spaces.length) return [text];
  const cut = spaces.reduce((best, i) => (Math.abs(i - text.length / 2) < Math.abs(best - text.length / 2) ? i : best));
  return [text.slice(0, cut + (text[cut] === "-" ? 1 : 0)), text.slice(cut + 1)];
}

function creatureCard(s, obs, ui, previous) {
  const [x, y] = spaceSpot(s.space);
  const id = `sp${s.space}`;
  const creature = s.creature;
  const words = creature ? `${W.path} ${s.space}: ${cardWords(creature)}${s.gems ? ` — ${s.gems} ${s.gems === 1 ? W.gem : W.gems}` : ""}${s.pending ? ` — ${W.pending}` : ""}`
    : `${W.path} ${s.space}: ${W.empty}`;
  const parts = [svg("rect", { class: `cell fq-creature${s.pending ? " pending" : ""}${creature ? "" : " empty"}`, width: CARD_W, height: CARD_H, rx: 1.6 }),
    svg("text", { x: 1.6, y: 3.4, "font-size": 2.5, class: "fq-path-no" }, String(s.space))];
  if (creature) {
    const lines = twoLines(name(creature), 12);
    lines.forEach((line, i) => parts.push(svg("text", { x: CARD_W / 2, y: (lines.length === 1 ? 6.4 : 4.6) + i * 3.6, "font-size": fitFont(line, CARD_W - 9, 3.2), "text-anchor": "middle", class: "fq-creature-name" }, line)));
    const vuln = vulnOf(creature);
    // Three weaknesses and the gems leave no room for the words: the icons alone (the inspector names them).
    const room = vuln.length < 3;
    if (room) parts.push(svg("text", { x: 1.4, y: CARD_H - 2.4, "font-size": 2.3, class: "fq-weak" }, W.weak));
    const at = room ? 2.4 + W.weak.length * 1.45 : 1.4;
    vuln.forEach((sym, i) => parts.push(glyph(sym, at + i * 5.2, CARD_H - 6.2, 4.8)));
    const gives = symbolsOf(creature);
    gives.forEach((sym, i) => parts.push(svg("g", { opacity: 0.9 }, glyph(sym, CARD_W - 4.2 - i * 3.6, 0.8, 3.2))));
    if (s.gems) {
      parts.push(svg("g", { transform: `translate(${CARD_W - 3.4} ${CARD_H - 3.6})`, class: "fq-gems" },
        svg("path", { d: "M0 -2.4 L2.2 -0.6 L0 2.4 L-2.2 -0.6 Z", class: "fq-gem" }),
        svg("text", { x: -3, y: 1.2, "font-size": 3, "text-anchor": "end", class: "fq-gem-count" }, String(s.gems))));
    }
    if (s.pending) parts.push(svg("text", { x: CARD_W / 2, y: CARD_H + 2.6, "font-size": 2.4, "text-anchor": "middle", class: "fq-pending" }, `${W.paid} ${list(s.paid.map(name))}`));
    const before = previous && previous.observation && previous.observation.spaces.find((o) => o.space === s.space);
    if (before && before.creature !== creature) parts[0].classList.add("fresh");
  } else {
    parts.push(svg("text", { x: CARD_W / 2, y: CARD_H / 2 + 1, "font-size": 3, "text-anchor": "middle", class: "fq-empty" }, W.empty));
  }
  parts.push(title(words));
  return mapSpot(id, ui, "fq-space", { transform: `translate(${x} ${y})`, "aria-label": words }, ...parts);
}

// Tokens slide from where they stood before (under 300 ms; none with reduced motion).
function animateMove(node, person, previous, x, y) {
  if (!previous || !previous.observation || matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const before = (previous.observation.people || []).find((p) => p.player === person.player);
  if (!before || !before.position || before.position === person.position) return;
  const [bx, by] = regionBox(before.position), [nx, ny] = regionBox(person.position);
  const dx = bx - nx, dy = by - ny;
  if (node.animate) node.animate([{ transform: `translate(${x + dx}px, ${y + dy}px)` }, { transform: `translate(${x}px, ${y}px)` }], { duration: 260, easing: "ease-out" });
}

// --- the panels -------------------------------------------------------------------------------
function adventurerPanel(p, obs, ui, previous, viewer) {
  const before = previous && previous.observation && (previous.observation.people || []).find((q) => q.player === p.player);
  const changed = (key) => (before && before[key] !== p[key] ? " changed" : "");
  const stat = (key, label, value, cls = "", help = label) => el("span", { class: `fq-stat ${cls}${changed(key)}`.trim(), title: help },
    el("b", {}, String(value)), ` ${label}`);
  const you = p.player === viewer;
  const head = el("div", { class: "fq-who" }, swatch(p.player), el("b", {}, playerWord(p.player)), you ? ` (${W.you})` : "",
    p.player === obs.current && !obs.result ? el("span", { class: "fq-now" }, W.turn) : null,
    p.player === obs.current && !obs.result && W.phases[obs.phase] ? el("span", { class: "fq-phase" }, fill(W.phases[obs.phase], { n: obs.release_left })) : null,
    p.position ? el("span", { class: "fq-where" }, regionName(p.position, obs)) : null);
  const stats = el("div", { class: "fq-stats" },
    stat("score", W.score, `${p.score}/${obs.goal}`, "score", W.scoreHelp), stat("gems", p.gems === 1 ? W.gem : W.gems, p.gems, "gems"),
    stat("hand_size", W.handN, p.hand_size), stat("draw_size", W.deck, p.draw_size),
    el("span", { class: "fq-stat", title: W.discardN }, el("b", {}, String(p.discard.length)), ` ${W.discardN}`),
    stat("carpets", W.carpets, p.carpets), stat("rearranges", W.rearranges, p.rearranges),
    p.bonus ? stat("bonus", W.bonus, p.bonus) : null,
    p.completed.length ? el("span", { class: "fq-stat" }, el("b", {}, String(p.completed.length)), ` ${W.completed}`) : null);
  const quests = you ? null : (p.quests.length || p.token) ? el("div", { class: "fq-their-quests" },
    p.quests.map((q) => el("span", { class: "fq-chip", title: cardWords(q.quest), onpointerenter: () => ui.inspect && ui.inspect(q.quest) },
      name(q.quest), q.committed.length ? ` (${q.committed.length})` : "")),
    p.token ? el("span", { class: "fq-chip", title: cardWords(p.token.quest) }, `◉ ${name(p.token.quest)} (${p.token.committed.length})`) : null) : null;
  const play = p.play.length ? el("div", { class: "fq-their-play" }, p.play.map((c) => el("span", { class: "fq-chip", title: cardWords(c) }, name(c)))) : null;
  return hspot(`P${p.player + 1}`, ui, "section", { class: `fq-panel${p.player === obs.current && !obs.result ? " current" : ""}`,
    "data-player": p.player, "aria-label": playerWord(p.player) }, head, stats, quests, play);
}

function questCard(qid, ui, obs, { committed = [], tokens = [], bonus = false } = {}) {
  const extra = [];
  if (bonus) extra.push(el("span", { class: "fq-bonus", title: W.bonus }, "+1"));
  for (const tk of tokens) {
    extra.push(el("span", { class: "fq-token-line" }, swatch(tk.player), ` ${tk.committed.map(name).join(", ")}`));
  }
  const rewards = (cards[qid] && cards[qid].reward ? cards[qid].reward.split(" ") : []);
  const words = [];
  for (let i = 0; i + 1 < rewards.length; i += 2) {
    const n = Number(rewards[i + 1]);
    words.push(`+${n} ${W.rewards[rewards[i]] || rewards[i]}${n === 1 ? "" : language === "es" && rewards[i] === "REARRANGE" ? "es" : "s"}`);
  }
  if (words.length) extra.unshift(el("span", { class: "fq-reward" }, `${W.reward}: ${words.join(", ")}`));
  // Committed cards are clickable (withdraw) on their own, so they sit under the quest card, not inside it.
  const under = committed.length ? el("div", { class: "fq-committed" }, committed.map((c) =>
    hspot(c, ui, "span", { class: "fq-chip fq-committed-card", "aria-label": cardWords(c) }, symbolsOf(c).map(icon), ` ${name(c)}`))) : null;
  return el("div", { class: "fq-quest" }, card(qid, ui, extra, "quest"), under);
}

function zone(id, ui, label, hint, ...children) {
  return hspot(id, ui, "div", { class: "fq-zone", "aria-label": label, title: hint || label }, el("span", { class: "fq-zone-name" }, label), ...children);
}

export function draw(container, payload, ui) {
  const obs = payload.observation;
  const viewer = payload.you;
  const previous = ui.previous && ui.previous.observation && ui.previous.observation.game === "fantastiqa" ? ui.previous : null;
  const people = obs.people || [];
  const me = people.find((p) => p.player === viewer);
  const side = [];
  side.push(el("div", { class: `fq-panels${people.length > 2 ? " many" : ""}` }, people.map((p) => adventurerPanel(p, obs, ui, previous, viewer))));

  if (obs.draft) {
    const step = obs.draft.step;
    side.push(el("div", { class: "fq-box" }, el("h3", {}, step === "start" ? W.draftStart : step === "quest" ? W.draftQuests : W.draftArtifacts),
      step === "start" ? null
        : el("div", { class: "fq-row" }, (step === "artifact" ? obs.draft.artifacts : obs.draft.quests).map((c) => (step === "artifact" ? card(c, ui) : questCard(c, ui, obs))))));
  }
  if ((obs.row || []).length) {
    side.push(el("div", { class: "fq-box" }, el("h3", {}, `${W.row}: ${W.statues[obs.row_kind] || obs.row_kind || ""}`),
      el("div", { class: "fq-row" }, obs.row.map((c) => (cards[c] && cards[c].kind === "quest" ? questCard(c, ui, obs) : card(c, ui))))));
  }
  // The open quests and yours share a row while they fit (the table fits a 1280×800 window with four adventurers).
  const quests = [];
  const open = (obs.open_quests || []).filter((q) => q.quest);
  if (open.length) {
    quests.push(el("div", { class: "fq-box" }, el("h3", {}, W.openQuests), el("div", { class: "fq-row" }, open.map((q) => {
      const tokens = people.filter((p) => p.token && p.token.quest === q.quest);
      const mine = tokens.find((p) => p.player === viewer);
      return questCard(q.quest, ui, obs, { bonus: q.bonus, committed: mine ? mine.token.committed : [],
        tokens: tokens.filter((p) => p.player !== viewer).map((p) => ({ player: p.player, committed: p.token.committed })) });
    }))));
  }
  if (me && me.quests.length) {
    quests.push(el("div", { class: "fq-box" }, el("h3", {}, W.yourQuests),
      el("div", { class: "fq-row" }, me.quests.map((q) => questCard(q.quest, ui, obs, { committed: q.committed })))));
  }
  if (quests.length) side.push(el("div", { class: "fq-quests" }, quests));

  if (me) side.push(handArea(me, obs, ui, previous));
  // The column beside the map may scroll (past the window's height): it is reachable by keyboard itself, for the
  // moments nothing inside it can be chosen.
  const column = el("div", { class: "fq-side", tabindex: "0", role: "region", "aria-label": W.side }, side);
  const root = el("div", { class: `fq${people.length > 2 ? " many" : ""}` }, el("div", { class: "fq-map-box" }, drawMap(obs, ui, previous), routeLine(obs), legend(ui)),
    column);
  // The column beside the map scrolls when it outgrows the window: a redraw keeps where it was scrolled to.
  const scrolled = container.querySelector(".fq-side")?.scrollTop || 0;
  container.replaceChildren(root);
  column.scrollTop = scrolled;
}

function routeLine(obs) {
  if (!(obs.route || []).length) return null;
  return el("p", { class: "fq-route" }, `${W.adventure} — ${W.route}: ${obs.route.map((pos) => regionName(pos, obs)).join(" → ")}`);
}

function handArea(me, obs, ui, previous) {
  const before = previous && previous.observation && (previous.observation.people || []).find((q) => q.player === me.player);
  const had = new Set(before && before.hand ? before.hand : []);
  // Cards that belong to some way of completing the choice begun (a payment, a quest) are outlined too.
  const later = new Set((ui.selection || []).length ? (ui.candidateSteps || []).flatMap((steps) => steps.slice(ui.selection.length + 1)) : []);
  const hand = el("div", { class: "fq-hand" }, (me.hand || []).map((c) =>
    card(c, ui, [], `${before && !had.has(c) ? "fresh" : ""}${later.has(c) && !(ui.targets && ui.targets.has(c)) ? " later" : ""}`)));
  const discardTargets = me.discard.filter((c) => ui.targets && ui.targets.has(c));
  const top = me.discard.length ? me.discard[me.discard.length - 1] : null;
  const zones = el("div", { class: "fq-zones" },
    zone("play", ui, W.play, W.playHint, me.play.map((c) => el("span", { class: "fq-chip" }, name(c)))),
    zone("discard", ui, `${W.discard} (${me.discard.length})`, "", top && !discardTargets.length ? el("span", { class: "fq-chip" }, name(top)) : null),
    ui.targets && ui.targets.has("release") ? zone("release", ui, W.release, W.releaseHint) : null,
    zone("carpet", ui, `${W.carpet} ×${me.carpets}`, W.carpet),
    zone("rearrange", ui, `${W.rearrange} ×${me.rearranges}`, W.rearrangeHint));
  const rows = [el("h3", {}, W.hand), hand, zones];
  // Cards in the discard pile are only drawn one by one when one of them can be released.
  if (discardTargets.length) rows.push(el("div", { class: "fq-box" }, el("h3", {}, W.discard), el("div", { class: "fq-row" }, me.discard.map((c) => card(c, ui, [], "mini")))));
  return el("div", { class: "fq-hand-area" }, rows);
}

function legend(ui) {
  return el("section", { class: "fq-legend", "aria-label": W.legend },
    el("h3", {}, W.legend),
    el("ul", {}, SYMBOLS.map((s) => el("li", { onpointerenter: () => ui.inspect && ui.inspect(`sym-${s}`) }, icon(s), ` ${W.symbols[s]} `, el("span", { class: "fq-code" }, s)))));
}

// --- the inspector --------------------------------------------------------------------------
export function inspect(id, payload) {
  const obs = payload && payload.observation;
  if (!obs) return null;
  if (id.startsWith("sym-")) {
    const s = id.slice(4);
    return el("div", { class: "fq-inspect" }, el("p", {}, icon(s), el("b", {}, ` ${W.symbols[s] || s}`), ` (${s})`));
  }
  if (/^sp\d$/.test(id)) {
    const s = obs.spaces.find((x) => x.space === Number(id.slice(2)));
    if (!s || !s.creature) return el("div", { class: "fq-inspect" }, el("p", {}, `${W.path} ${id.slice(2)}: ${W.empty}`));
    const node = inspectCard(s.creature, false);
    node.prepend(el("p", { class: "muted" }, `${W.path} ${s.space} — ${list(SPACE_ENDS[s.space].map((p) => regionName(p, obs)))}`));
    if (s.gems) node.append(el("p", {}, `◆ ${s.gems} ${s.gems === 1 ? W.gem : W.gems}`));
    if (s.pending) node.append(el("p", {}, `${W.pending} — ${W.paid} ${list(s.paid.map(name))}`));
    return node;
  }
  if (PLACE[id]) {
    const cell = obs.layout.find((c) => c.pos === id);
    if (!cell) return null;
    const here = (obs.people || []).filter((p) => p.position === id).map((p) => playerWord(p.player));
    return el("div", { class: "fq-inspect" }, el("h3", {}, W.regions[cell.region] || cell.region),
      el("p", {}, W.statues[cell.statue] || cell.statue), here.length ? el("p", {}, `${W.here}: ${here.join(", ")}`) : null);
  }
  if (/^P\d$/.test(id)) return null;
  if (cards[id]) return inspectCard(id);
  return null;
}

function inspectCard(id, printedGems = true) {
  const c = cards[id];
  const rows = [el("h3", {}, name(id)), el("p", { class: "muted" }, W.kinds[c.kind] || c.kind)];
  if (c.kind === "quest") {
    rows.push(el("p", {}, `${W.region}: ${W.regions[c.region] || c.region}`));
    rows.push(el("p", {}, `${W.requires}:`), el("ul", { class: "fq-sym-list" }, requirement(id).map(([s, n]) => el("li", {}, icon(s), ` ${n} × ${W.symbols[s]}`))));
    rows.push(el("p", {}, `★ ${c.points} ${c.points === 1 ? W.point : W.points}`));
    if (c.reward) rows.push(el("p", {}, `${W.reward}: ${c.reward.split(" ").reduce((acc, v, i, a) => (i % 2 ? acc : [...acc, `${a[i + 1]} ${W.rewards[v] || v}`]), []).join(", ")}`));
    return el("div", { class: "fq-inspect" }, rows);
  }
  const syms = symbolsOf(id);
  if (syms.length) rows.push(el("p", {}, `${W.gives}:`), el("ul", { class: "fq-sym-list" }, syms.map((s) => el("li", {}, icon(s), ` ${W.symbols[s]}`))));
  if (c.ability) rows.push(el("p", {}, el("b", {}, abilityText(id))));
  const vuln = vulnOf(id);
  if (vuln.length) rows.push(el("p", {}, `${W.weak}:`), el("ul", { class: "fq-sym-list" }, vuln.map((s) => el("li", {}, icon(s), ` ${W.symbols[s]}`))));
  if (c.kind === "creature" && c.gems && printedGems) rows.push(el("p", {}, `◆ ${c.gems} ${c.gems === 1 ? W.gem : W.gems}`));
  if ((c.kind === "beast" || c.kind === "artifact") && !c.star) rows.push(el("p", {}, `${W.cost}: ◆ ${c.cost}`));
  return el("div", { class: "fq-inspect" }, rows);
}
