// Capsule Monsters: the square board, Kings, monsters and capsules with their faction marks, HP and attack on every
// piece; legal squares as dots (moves) and rings (attacks); the inspector shows a piece's whole card. Before turn 1
// each person places their pieces in secret (R9): a tray of the pieces left, a square of the zone for each, a
// "Random" control and an "As last time" button that replays the placement this browser remembers for the team.
import { el, t } from "/static/i18n.js";
import { PLAYER_COLORS, loadCards, spot, svg, title } from "/static/boards/svg.js";

const FACTIONS = { light: ["#f4e6a1", "☀"], dark: ["#6d5c8c", "☾"], earth: ["#b08a5a", "▲"], electric: ["#f2d13a", "ϟ"],
  fire: ["#e0703a", "♨"], water: ["#5aa0d8", "≈"], wind: ["#a8d8b0", "~"] };
let cards = {};
let lang = "en";

const WORDS = {
  en: { capsule: "capsule", theCapsule: "the capsule",
    hidden: "hidden monster", yourCapsule: "Your capsule", enemyCapsule: "Enemy capsule", king: "King", monster: "monster",
    hp: "HP", kingPoints: "King points", attackWord: "Attack", moveWord: "Move", cost: "cost", range: "range",
    damage: "damage", level: "Level", abilities: "Abilities", none: "none", ap: "Action points", apOf: "{p}'s action points", stunned: "stunned",
    moved: "moved", attacked: "attacked", faction: "Faction", destroyed: "Destroyed", of: "{p}'s {k}",
    hiddenText: "Its monster is hidden until it is summoned or scouted.", squareEmpty: "Square {s}: empty",
    patternHelp: "● moves, ◯ attacks", mp: "Monster points", capsuleDamage: "Damage taken: {n}",
    light: "light", dark: "dark", earth: "earth", electric: "electric", fire: "fire", water: "water", wind: "wind",
    abilityWords: { stun: "Stun: a monster it attacks is stunned (cannot act until recovered)",
      fly: "Fly: moves over enemy pieces", pierce: "Pierce: its attacks go through enemy pieces",
      armor: "Armor {n}: takes {n} less damage from attacks", bane: "Bane {f}: +{n} damage against {f} pieces",
      heal: "Heal (cost {c}): a damaged friendly monster nearby recovers {a}",
      scout: "Scout (cost {c}): look inside an enemy capsule up to {r} squares away",
      rouse: "Rouse (cost {c}): wakes a stunned friendly monster next to it" },
    asLastTime: "As last time",
    placeHint: "In secret: a piece, then a square",
    placing: "{p} is placing their pieces in secret.", toPlace: "To place" },
  es: { capsule: "cápsula", theCapsule: "la cápsula", hidden: "monstruo oculto", yourCapsule: "Tu cápsula",
    enemyCapsule: "Cápsula rival", king: "Rey", monster: "monstruo", hp: "PV", kingPoints: "Puntos del Rey",
    attackWord: "Ataque", moveWord: "Movimiento", cost: "coste", range: "alcance", damage: "daño", level: "Nivel",
    abilities: "Habilidades", none: "ninguna", ap: "Puntos de acción", apOf: "Puntos de acción de {p}", stunned: "aturdido", moved: "ya movió",
    attacked: "ya atacó", faction: "Facción", destroyed: "Destruidos", of: "{k} de {p}",
    hiddenText: "Su monstruo está oculto hasta que se invoque o se explore.", squareEmpty: "Casilla {s}: vacía",
    patternHelp: "● mueve, ◯ ataca", mp: "Puntos de monstruo", capsuleDamage: "Daño recibido: {n}",
    light: "luz", dark: "oscuridad", earth: "tierra", electric: "electricidad", fire: "fuego", water: "agua", wind: "viento",
    abilityWords: { stun: "Aturdir: el monstruo al que ataca queda aturdido (no actúa hasta recuperarse)",
      fly: "Volar: se mueve por encima de piezas rivales", pierce: "Perforar: sus ataques atraviesan piezas rivales",
      armor: "Armadura {n}: recibe {n} menos de daño de los ataques",
      bane: "Azote de {f}: +{n} de daño contra piezas de {f}",
      heal: "Curar (coste {c}): un monstruo aliado dañado cercano recupera {a}",
      scout: "Explorar (coste {c}): mira dentro de una cápsula rival a {r} casillas o menos",
      rouse: "Despertar (coste {c}): despierta a un monstruo aliado aturdido a su lado" },
    asLastTime: "Como la última vez",
    placeHint: "En secreto: una pieza y luego una casilla",
    placing: "{p} está colocando sus piezas en secreto.", toPlace: "Por colocar" },
};
const w = (key, vars = {}) => String((WORDS[lang] || WORDS.en)[key] ?? key).replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ""));

export async function prepare(language) {
  lang = language;
  cards = await loadCards("capsule", language);
}

// --- steps in words ------------------------------------------------------------------------
function pieceAt(payload, sq) { return payload.observation.pieces.find((p) => p.sq === sq); }
// A piece still in your tray, by its target id ("#K", "#2"), shaped as a piece for the inspector.
function trayPiece(payload, id) {
  const entry = (payload.observation.tray || []).find((p) => `#${p.piece}` === id);
  return entry && { ...entry, owner: payload.you, sq: "—", damage: 0 };
}
function cardName(piece) {
  if (!piece) return "";
  if (piece.card && cards[piece.card]) return cards[piece.card].name;
  return piece.kind === "capsule" ? w("theCapsule") : piece.kind;
}

export function label(target, payload) {
  if (target.startsWith("!")) return target.slice(1);
  if (target.startsWith("#")) return cardName(payload && trayPiece(payload, target)) || target;
  const piece = payload && pieceAt(payload, target);
  return piece ? `${cardName(piece)} (${target})` : target;
}

// --- numbers of a piece ----------------------------------------------------------------------
function stats(piece, payload) {
  const card = piece.card && cards[piece.card];
  if (piece.kind === "capsule") return { hp: null, damage: piece.damage };
  if (!card) return { hp: null, damage: piece.damage };
  const advanced = payload.observation.mode === "advanced" ? 1 : 0;
  const total = piece.kind === "king" ? Number(String(card.mp).split("/")[advanced]) : Number(card.hp);
  const attack = card.attack ? String(card.attack).split("/") : null;
  return { hp: Math.max(0, total - piece.damage), total, attack: attack ? Number(attack[3]) : null };
}

// Text is drawn at a readable size in its own coordinates: Chromium mis-draws tiny font sizes under CSS transforms.
function txt(x, y, size, attrs, ...children) {
  return svg("text", { transform: `translate(${x} ${y}) scale(0.01)`, "font-size": size * 100, ...attrs }, ...children);
}

function squareName(x, y) { return `${String.fromCharCode(97 + x)}${y + 1}`; }
function coords(sq) { return [sq.charCodeAt(0) - 97, Number(sq.slice(1)) - 1]; }

function pieceText(piece, payload) {
  const who = t("player", { n: piece.owner + 1 });
  if (piece.kind === "capsule") {
    const inside = piece.card && cards[piece.card] ? cards[piece.card].name : w("hidden");
    return `${who}: ${w("capsule")} (${w(piece.faction)}, ${inside}) ${piece.sq}`;
  }
  const s = stats(piece, payload);
  const status = piece.stunned ? `, ${w("stunned")}` : "";
  return `${who}: ${cardName(piece)} ${piece.sq}, ${w("hp")} ${s.hp ?? "?"}/${s.total ?? "?"}` +
    `${s.attack !== null && s.attack !== undefined ? `, ${w("damage")} ${s.attack}` : ""}${status}`;
}

// Names wrap on two lines instead of being cut.
function nameLines(name) {
  const words = name.split(" ");
  if (words.length === 1 || name.length <= 10) return [name];
  const half = Math.ceil(words.length / 2);
  return [words.slice(0, half).join(" "), words.slice(half).join(" ")];
}

function pieceShape(piece, payload) {
  const color = PLAYER_COLORS[piece.owner];
  const [fill, mark] = FACTIONS[piece.faction] || ["#ccc", "?"];
  const parts = [];
  const mine = piece.owner === payload.you;
  if (piece.kind === "capsule") {
    const known = piece.card && cards[piece.card];
    if (known) {
      // Your own capsule shows its monster faintly behind the shell.
      parts.push(svg("circle", { class: "ghost", cx: 0.5, cy: 0.46, r: 0.3, fill, stroke: color, "stroke-width": 0.04 }));
    }
    parts.push(svg("rect", { class: "shell", x: 0.2, y: 0.3, width: 0.6, height: 0.34, rx: 0.17, fill: known ? "none" : fill,
      stroke: color, "stroke-width": 0.07 }));
    parts.push(svg("line", { x1: 0.5, y1: 0.3, x2: 0.5, y2: 0.64, stroke: color, "stroke-width": 0.035 }));
    parts.push(txt(0.5, 0.55, 0.22, { "text-anchor": "middle", class: "mark-glyph" },
      known ? mark : "?"));
    if (!known && !mine) parts.push(txt(0.5, 0.85, 0.15, { "text-anchor": "middle", class: "faction" }, mark));
  } else if (piece.kind === "king") {
    // The crown ends above the points (16/32), which are wider than a monster's hit points.
    parts.push(svg("path", { d: "M.18 .53 L.18 .26 L.34 .37 L.5 .13 L.66 .37 L.82 .26 L.82 .53 Z", fill, stroke: color, "stroke-width": 0.06 }));
    parts.push(txt(0.5, 0.49, 0.18, { "text-anchor": "middle" }, mark));
  } else {
    parts.push(svg("circle", { cx: 0.5, cy: 0.45, r: 0.27, fill, stroke: color, "stroke-width": 0.06,
      "stroke-dasharray": piece.stunned ? "0.08 0.05" : undefined }));
    parts.push(txt(0.5, 0.52, 0.2, { "text-anchor": "middle" }, mark));
    if (piece.stunned) parts.push(txt(0.8, 0.3, 0.18, { class: "stun" }, "✶"));
  }
  // Whose piece shows by a number as well as by colour.
  parts.push(txt(0.06, 0.17, 0.15, { fill: color, "font-weight": "bold" }, String(piece.owner + 1)));
  const s = stats(piece, payload);
  if (s.attack !== null && s.attack !== undefined) {
    parts.push(svg("g", { class: "atk" }, svg("rect", { x: 0.66, y: 0.03, width: 0.31, height: 0.17, rx: 0.04 }),
      txt(0.815, 0.165, 0.14, { "text-anchor": "middle" }, `⚔${s.attack}`)));
  }
  if (s.hp !== null && s.hp !== undefined) {
    const width = 0.84;
    parts.push(svg("rect", { class: "hp-back", x: 0.08, y: 0.71, width, height: 0.07, rx: 0.03 }));
    parts.push(svg("rect", { class: `hp-bar${s.hp / s.total <= 0.34 ? " low" : ""}`, x: 0.08, y: 0.71,
      width: width * Math.max(0, s.hp) / s.total, height: 0.07, rx: 0.03 }));
    parts.push(txt(0.93, 0.67, 0.13, { "text-anchor": "end", class: "hp-text" }, `${s.hp}/${s.total}`));
  } else if (piece.damage) {
    for (let i = 0; i < piece.damage; i++) parts.push(svg("circle", { class: "crack", cx: 0.3 + i * 0.14, cy: 0.76, r: 0.045 }));
  }
  const name = piece.card && cards[piece.card] && piece.kind !== "capsule" ? cards[piece.card].name
    : piece.kind === "capsule" && piece.card && cards[piece.card] ? cards[piece.card].name : null;
  if (name) {
    const lines = nameLines(name);
    lines.forEach((line, i) => parts.push(txt(0.5, lines.length === 1 ? 0.93 : 0.88 + i * 0.1, 0.11,
      { "text-anchor": "middle", class: "name" }, line)));
  }
  return parts;
}

// --- the board -------------------------------------------------------------------------------
export function draw(container, payload, ui) {
  const obs = payload.observation;
  const flip = payload.you === 1;
  const zone = new Map();
  obs.zones.forEach((squares, owner) => squares.forEach((sq) => zone.set(sq, owner)));
  const pieces = new Map(obs.pieces.map((p) => [p.sq, p]));
  const before = ui.previous && ui.previous.observation && ui.previous !== payload ? ui.previous.observation : null;
  const earlier = before ? new Map(before.pieces.map((p) => [p.sq, p])) : new Map();
  const kinds = nextKinds(ui);
  const place = (sq) => { const [x, y] = coords(sq); return [flip ? obs.width - 1 - x : x, flip ? y : obs.height - 1 - y]; };
  const board = svg("svg", { viewBox: `-0.4 -0.1 ${obs.width + 0.5} ${obs.height + 0.5}`, role: "group", class: "capsule-board",
    "aria-label": `Capsule Monsters ${obs.width}×${obs.height}` });
  const floats = [];
  for (let y = 0; y < obs.height; y++) {
    for (let x = 0; x < obs.width; x++) {
      const name = squareName(x, y);
      const [px, py] = place(name);
      const piece = pieces.get(name);
      const shade = zone.has(name) ? (zone.get(name) === 0 ? "#e3ebf5" : "#f5e3e1") : (x + y) % 2 ? "#ece3cf" : "#f8f3e8";
      const kind = ui.targets && ui.targets.has(name) ? kinds.get(name) : null;
      const words = piece ? pieceText(piece, payload) : w("squareEmpty", { s: name });
      const attrs = { transform: `translate(${px} ${py})`, "aria-label": words };
      if (piece) attrs.tabindex = "0";
      const g = spot(name, ui, attrs,
        svg("rect", { class: "cell", width: 1, height: 1, fill: shade, style: `--shade:${shade}` }),
        piece ? svg("g", { class: `piece${piece.owner === payload.you ? " own" : ""}`, style: slide(piece, before, place) },
          pieceShape(piece, payload)) : null,
        kind === "move" || kind === "place" ? svg("circle", { class: "dot", cx: 0.5, cy: 0.5, r: 0.13 }) : null,
        kind === "attack" || kind === "ability" ? svg("circle", { class: `ring ${kind}`, cx: 0.5, cy: 0.5, r: 0.42 }) : null,
        title(words));
      if (kind) g.classList.add(`to-${kind}`);
      // A King hurt by the loss of one of its monsters (R25) is marked by its owner, not by a square.
      if (piece && piece.kind === "king" && ui.marks && ui.marks.has(`king${piece.owner + 1}`)) g.classList.add("recent");
      board.append(g);
      const old = earlier.get(name);
      if (piece && old && old.kind === piece.kind && piece.damage > old.damage) {
        floats.push(svg("g", { transform: `translate(${px + 0.5} ${py + 0.4}) scale(0.01)` },
          svg("text", { class: "float", "text-anchor": "middle", "font-size": 34 }, `−${piece.damage - old.damage}`)));
      }
    }
  }
  board.append(...floats);
  for (let x = 0; x < obs.width; x++) {
    board.append(txt((flip ? obs.width - 1 - x : x) + 0.5, obs.height + 0.3, 0.25,
      { "text-anchor": "middle", class: "coord" }, String.fromCharCode(97 + x)));
  }
  for (let y = 0; y < obs.height; y++) {
    board.append(txt(-0.2, (flip ? y : obs.height - 1 - y) + 0.58, 0.25,
      { "text-anchor": "middle", class: "coord" }, String(y + 1)));
  }
  remember(payload);
  container.replaceChildren(board, obs.placing ? tray(payload, ui) : facts(payload, ui));
  replayStep(payload, ui);
}

// What the selected piece would do on each lit square (the engine's kind of each action): move (dot), attack (ring)
// or an ability.
function nextKinds(ui) {
  const kinds = new Map();
  if (!ui.selection || !ui.selection.length) return kinds;
  (ui.candidateSteps || []).forEach((steps, n) => {
    const to = steps[1], kind = ui.candidateKinds[n];
    if (!to) return;
    const seen = kinds.get(to);
    kinds.set(to, seen && seen !== kind ? "attack" : kind);
  });
  return kinds;
}

// A piece that was elsewhere before this state slides in from there.
function slide(piece, before, place) {
  if (!before || !piece.card || piece.kind === "capsule") return undefined;
  if (before.pieces.some((p) => p.sq === piece.sq && p.card === piece.card)) return undefined;
  const old = before.pieces.find((p) => p.card === piece.card && p.owner === piece.owner && p.kind === piece.kind);
  if (!old) return undefined;
  const [ox, oy] = place(old.sq), [nx, ny] = place(piece.sq);
  return `--dx:${ox - nx}px;--dy:${oy - ny}px;animation:slide var(--slow) ease-out`;
}

function facts(payload, ui) {
  const obs = payload.observation;
  const me = payload.you;
  const mover = obs.current_player ?? null;
  const apTotal = mover !== null && mover === me ? obs.ap : null;
  // The points are the player to move's: named, unless they are yours (or nobody is to move).
  const apWords = apTotal !== null || mover === null ? w("ap") : w("apOf", { p: t("player", { n: mover + 1 }) });
  const abilityChoices = [...(ui.targets || [])].filter((id) => id.startsWith("!"));
  return el("div", { class: "capsule-facts" },
    obs.placing ? null : el("span", { class: "ap", title: apWords }, `${apWords}: `,
      el("b", {}, String(obs.ap)), apTotal !== null ? el("span", { class: "pips", "aria-hidden": "true" }, "●".repeat(Math.min(obs.ap, 12))) : ""),
    abilityChoices.map((id) => el("button", { class: "target ability-choice", "data-target": id, type: "button",
      onclick: () => ui.onTarget(id) }, id.slice(1))),
    obs.destroyed.map((list, p) => list.length ? el("span", { class: "destroyed" },
      `${t("player", { n: p + 1 })} ✝ ${list.map((c) => (cards[c] ? cards[c].name : c)).join(", ")}`) : null));
}

// --- the placement (R9) --------------------------------------------------------------------------
// This browser remembers each team's last placement (localStorage), as the zone index of each card, and can play
// it again as ordinary place actions, one per state.
const MEMORY = "coliseo.capsule.placement.";
let replaying = null;      // {ply, steps: [action text, ...]} while "As last time" plays

function teamKey(obs, payload) {
  const mine = [...obs.pieces.filter((p) => p.owner === payload.you), ...(obs.tray || [])];
  return MEMORY + [obs.mode, obs.zones[payload.you].length, ...mine.map((p) => p.card).sort()].join(",");
}

function remember(payload) {
  const obs = payload.observation;
  const unmoved = obs.turn === 0 || (obs.turn === 1 && (obs.current_player !== payload.you || !obs.acted));
  if (payload.you === null || payload.you === undefined || !unmoved || (obs.tray || []).length) return;
  const zone = obs.zones[payload.you];
  const mine = obs.pieces.filter((p) => p.owner === payload.you && (p.kind === "king" || p.kind === "capsule"));
  if (mine.length !== obs.team_sizes[payload.you] + 1 || !mine.every((p) => zone.includes(p.sq))) return;
  try {
    localStorage.setItem(teamKey(obs, payload), JSON.stringify(mine.map((p) => [p.card, zone.indexOf(p.sq)])));
  } catch { /* private browsing: nothing is remembered */ }
}

// The remembered placement as the place actions it takes now; null when there is none or it does not fit the tray.
function lastTime(payload) {
  const obs = payload.observation;
  if (!payload.legal.length || !obs.tray || obs.tray.length !== obs.team_sizes[payload.you] + 1) return null;
  let saved;
  try { saved = JSON.parse(localStorage.getItem(teamKey(obs, payload)) || "null"); } catch { saved = null; }
  if (!Array.isArray(saved) || saved.length !== obs.tray.length) return null;
  const left = [...obs.tray];
  const steps = [];
  for (const [card, index] of saved) {
    const at = left.findIndex((p) => p.card === card);
    const sq = obs.zones[payload.you][index];
    if (at < 0 || sq === undefined) return null;
    steps.push([`#${left[at].piece}`, sq]);
    left.splice(at, 1);
  }
  return new Set(saved.map(([, index]) => index)).size === steps.length && legalSteps(payload, steps[0]) ? steps : null;
}

// Whether a legal action is built by exactly these board steps.
function legalSteps(payload, steps) {
  return payload.steps.some((s) => s.length === steps.length && s.every((x, n) => x === steps[n]));
}

// While "As last time" plays: on each new state of your placement, the next piece, then its square, once the table
// takes clicks again (the draw that follows the server's answer tries again).
function replayStep(payload, ui) {
  if (replaying && !payload.observation.placing) replaying = null;
  if (!replaying || replaying.ply === payload.ply || !payload.legal.length) return;
  setTimeout(() => {
    const body = document.body.dataset;
    if (!replaying || replaying.ply === payload.ply || body.locked === "true" || body.ply !== String(payload.ply)) return;
    const [from, to] = replaying.steps.shift();
    replaying.ply = payload.ply;
    if (!replaying.steps.length) replaying = null;
    if (!legalSteps(payload, [from, to])) { replaying = null; return; }
    ui.onTarget(from);
    ui.onTarget(to);
  }, 0);
}

function tray(payload, ui) {
  const obs = payload.observation;
  const mine = payload.you !== null && payload.you !== undefined && obs.current_player === payload.you;
  const again = mine ? lastTime(payload) : null;
  const pieces = (obs.tray || []).map((p) => {
    const id = `#${p.piece}`;
    const [fill, mark] = FACTIONS[p.faction] || ["#ccc", "?"];
    const lit = ui.targets && ui.targets.has(id);
    const chosen = ui.selection && ui.selection.includes(id);
    return el("button", { class: `tray-piece${lit ? " target" : ""}${chosen ? " selected" : ""}`, type: "button",
      "data-target": id, style: `--faction:${fill}`, onclick: () => ui.onTarget(id),
      onpointerenter: () => ui.inspect && ui.inspect(id) },
    el("span", { class: "tray-mark", "aria-hidden": "true" }, p.kind === "king" ? "♛" : mark),
    `${p.piece === "K" ? w("king") : p.piece} · ${cards[p.card] ? cards[p.card].name : p.card}`);
  });
  return el("div", { class: `capsule-tray${mine ? "" : " waiting"}` },
    // Your own step is in the banner's prompt: the hint is the tray's title, so that the table still fits the window.
    mine ? null : el("span", { class: "hint" }, w("placing", { p: t("player", { n: obs.current_player + 1 }) })),
    pieces.length ? el("span", { class: "tray-pieces", role: "group", "aria-label": w("toPlace"),
      title: mine ? w("placeHint") : null }, pieces) : null,
    again ? el("button", { class: "as-last-time", type: "button", "data-action": "as-last-time",
      onclick: () => { replaying = { ply: null, steps: again }; replayStep(payload, ui); } }, w("asLastTime")) : null);
}

// --- the inspector ---------------------------------------------------------------------------
function patternCells(pattern, range, star) {
  const cells = [];
  const dirs = { "+": [[1, 0], [-1, 0], [0, 1], [0, -1]], X: [[1, 1], [1, -1], [-1, 1], [-1, -1]] };
  dirs["*"] = [...dirs["+"], ...dirs.X];
  if (pattern === "O") {
    for (let dx = -2; dx <= 2; dx++) for (let dy = -2; dy <= 2; dy++) {
      if (Math.max(Math.abs(dx), Math.abs(dy)) !== 2) continue;
      if (star && !(dx === 0 || dy === 0 || Math.abs(dx) === Math.abs(dy))) continue;
      cells.push([dx, dy]);
    }
    return cells;
  }
  for (const [dx, dy] of dirs[pattern] || []) for (let r = 1; r <= range; r++) cells.push([dx * r, dy * r]);
  return cells;
}

/** Move and attack reach on a small grid around the piece (blocking left out). */
function patternGrid(card) {
  const move = String(card.move || "").split("/");
  const attack = card.attack ? String(card.attack).split("/") : null;
  const moves = patternCells(move[2], Number(move[1]) || 0);
  const attacks = attack ? patternCells(attack[2], Number(attack[1]) || 0) : [];
  const reach = Math.min(3, Math.max(2, ...[...moves, ...attacks].map(([dx, dy]) => Math.max(Math.abs(dx), Math.abs(dy)))));
  const size = 2 * reach + 1;
  const grid = svg("svg", { viewBox: `0 0 ${size} ${size}`, class: "pattern", role: "img", "aria-label": w("patternHelp") });
  const key = (dx, dy) => `${dx},${dy}`;
  const mv = new Set(moves.map(([a, b]) => key(a, b))), at = new Set(attacks.map(([a, b]) => key(a, b)));
  for (let gy = 0; gy < size; gy++) for (let gx = 0; gx < size; gx++) {
    const dx = gx - reach, dy = reach - gy;
    grid.append(svg("rect", { x: gx + 0.04, y: gy + 0.04, width: 0.92, height: 0.92, class: dx === 0 && dy === 0 ? "here" : "sq" }));
    if (mv.has(key(dx, dy))) grid.append(svg("circle", { cx: gx + 0.5, cy: gy + 0.5, r: 0.18, class: "dot" }));
    if (at.has(key(dx, dy))) grid.append(svg("circle", { cx: gx + 0.5, cy: gy + 0.5, r: 0.36, class: "ring" }));
  }
  return grid;
}

function abilityWords(text) {
  if (!text) return [];
  return text.split(",").map((part) => {
    const [id, ...rest] = part.trim().split(" ");
    const vars = { n: 1 };
    for (const r of rest) {
      if (/^c\d+$/.test(r)) vars.c = r.slice(1);
      else if (/^a\d+$/.test(r)) vars.a = r.slice(1);
      else if (/^r\d+$/.test(r)) vars.r = r.slice(1);
      else if (/^\d+$/.test(r)) vars.n = r;
      else vars.f = w(r);
    }
    const words = (WORDS[lang] || WORDS.en).abilityWords[id];
    return words ? words.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? "")) : part.trim();
  });
}

export function inspect(id, payload) {
  if (!payload || !payload.observation || id.startsWith("!")) return null;
  const piece = pieceAt(payload, id) || trayPiece(payload, id);
  if (!piece) return null;
  const who = t("player", { n: piece.owner + 1 });
  const [fill, mark] = FACTIONS[piece.faction] || ["#ccc", "?"];
  const head = (name, kind) => el("div", { class: "card-head", style: `--faction:${fill}` },
    el("span", { class: "card-mark", "aria-hidden": "true" }, mark), el("b", {}, name),
    el("small", {}, `${kind} · ${w(piece.faction)} · ${who} · ${piece.sq}`));
  const card = piece.card && cards[piece.card];
  if (piece.kind === "capsule" && !card) {
    return el("div", { class: "capsule-card" }, head(w("enemyCapsule"), w("capsule")), el("p", {}, w("hiddenText")),
      piece.damage ? el("p", {}, w("capsuleDamage", { n: piece.damage })) : null);
  }
  if (!card) return null;
  const s = stats(piece, payload);
  const rows = [];
  if (piece.kind === "capsule") rows.push(el("p", { class: "muted" }, `${w("yourCapsule")} — ${w("hiddenText")}`));
  if (piece.kind === "king") {
    rows.push(el("p", {}, `${w("kingPoints")}: `, el("b", {}, `${s.hp}/${s.total}`), ` · ${w("ap")}: ${card.ap}`));
  } else {
    rows.push(el("p", {}, `${w("hp")}: `, el("b", {}, piece.kind === "capsule" ? String(card.hp) : `${s.hp}/${s.total}`),
      ` · ${w("level")} ${card.level} · ${w("cost")} ${card.cost}`));
  }
  const move = String(card.move || "").split("/");
  rows.push(el("p", {}, `${w("moveWord")}: ${w("cost")} ${move[0]}, ${w("range")} ${move[1]}, ${move[2]}`));
  if (card.attack) {
    const a = String(card.attack).split("/");
    rows.push(el("p", {}, `${w("attackWord")}: ${w("cost")} ${a[0]}, ${w("range")} ${a[1]}, ${a[2]}, ${w("damage")} ${a[3]}`));
  }
  rows.push(el("div", { class: "pattern-box" }, patternGrid(card), el("small", {}, w("patternHelp"))));
  const abilities = abilityWords(card.abilities);
  rows.push(el("p", {}, `${w("abilities")}: `, abilities.length ? "" : w("none")),
    abilities.length ? el("ul", { class: "abilities" }, abilities.map((a) => el("li", {}, a))) : null);
  const status = [piece.stunned && w("stunned"), piece.moved && w("moved"), piece.attacked && w("attacked")].filter(Boolean);
  if (status.length) rows.push(el("p", { class: "muted" }, status.join(" · ")));
  return el("div", { class: "capsule-card" }, head(card.name, piece.kind === "king" ? w("king") : w("monster")), rows);
}
