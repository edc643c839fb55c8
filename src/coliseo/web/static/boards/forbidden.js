// Forbidden Memories duel, drawn like a duel client (EDOPro, Duelingbook): both fields as card faces (backs when
// face-down), LP plates, decks and graveyards, the terrain as a tint, and your hand. Every play is built on the board:
// hand cards in chain order (the fusion result shows before you place it), then a zone, then face up or down; then
// position and guardian star; attacks from your monster to a target show the battle's result before you commit.
import { el } from "/static/i18n.js";
import { loadCards, spot, svg, title } from "/static/boards/svg.js";

let cards = {};
let lang = "en";

const WORDS = {
  en: {
    faceUp: "Face up", faceDown: "Face down", activate: "Activate", position: "Change position",
    atk: "Attack", def: "Defence", deck: "Deck", grave: "Graveyard", hand: "Hand", result: "Result",
    you: "You", opponent: "Opponent", player: "Player {n}", lp: "LP", terrain: "Terrain", cards: "{n} cards", card: "1 card",
    main: "Main", place: "Place", battle: "Battle", over: "Over", fusion: "Fusion", equip: "Equip +{v}",
    fails: "{c} is discarded", pinned: "Cannot attack: {n}", setCard: "Set card", faceDownCard: "Face-down card",
    choosePlace: "Position and guardian star", star: "Guardian star", stars: "Guardian stars",
    beats: "beats {s}", losesTo: "loses to {s}", chosen: "chosen", empty: "empty zone", monsterZone: "monster zone {n}",
    spellZone: "spell zone {n}", yours: "your {z}", theirs: "opponent's {z}", whose: "{p}'s {z}",
    win: "Wins|{d} damage to them", lose: "Loses|{d} damage to you", both: "Both destroyed|no damage",
    destroys: "Destroys it|no damage", blocked: "Blocked|{d} damage to you", nothing: "No effect|", unknown: "Face-down|unknown",
    direct: "Direct attack|{d} damage",
    starAdj: "star {s}", attackDirect: "Attack directly", removedList: "In the graveyard, last first",
    deckList: "Left in your deck", level: "Level {n}", base: "base {v}", modBy: "equips {v}", curse: "curse {v}",
    terrainBy: "terrain {v}",
    placeAs: "{p}, guardian star {s}", steps: "Chain", onto: "onto {c}", used: "attacked", moved: "moved",
    known: "identity known", faceDownMark: "face-down", kept: "kept", hint: "Click cards in the order to chain them",
  },
  es: {
    faceUp: "Boca arriba", faceDown: "Boca abajo", activate: "Activar",
    position: "Cambiar posición", atk: "Ataque", def: "Defensa", deck: "Mazo", grave: "Cementerio", hand: "Mano",
    result: "Resultado", you: "Tú", opponent: "Rival", player: "Jugador {n}", lp: "LP", terrain: "Terreno",
    cards: "{n} cartas", card: "1 carta", main: "Principal", place: "Colocar", battle: "Batalla", over: "Fin",
    fusion: "Fusión", equip: "Equipo +{v}", fails: "{c} se descarta", pinned: "No puede atacar: {n}",
    setCard: "Carta colocada", faceDownCard: "Carta boca abajo", choosePlace: "Posición y estrella guardiana",
    star: "Estrella guardiana", stars: "Estrellas guardianas", beats: "vence a {s}", losesTo: "pierde ante {s}",
    chosen: "elegida", empty: "zona vacía", monsterZone: "zona de monstruo {n}", spellZone: "zona de magia {n}",
    yours: "tu {z}", theirs: "{z} del rival", whose: "{z} de {p}",
    win: "Gana|{d} de daño al rival", lose: "Pierde|{d} de daño para ti", both: "Ambos destruidos|sin daño",
    destroys: "Lo destruye|sin daño", blocked: "Bloqueado|{d} de daño para ti", nothing: "Sin efecto|",
    unknown: "Boca abajo|desconocido", direct: "Ataque directo|{d} de daño", starAdj: "estrella {s}", attackDirect: "Ataque directo",
    removedList: "En el cementerio, la última primero", deckList: "Quedan en tu mazo", level: "Nivel {n}",
    base: "base {v}", modBy: "equipos {v}", curse: "maldición {v}", terrainBy: "terreno {v}",
    placeAs: "{p}, estrella guardiana {s}",
    steps: "Cadena", onto: "sobre {c}", used: "ya atacó", moved: "ya cambió", known: "identidad conocida",
    faceDownMark: "boca abajo", kept: "se queda", hint: "Pulsa cartas en orden para encadenarlas",
  },
};
const TYPES = {
  DR: ["Dragon", "Dragón"], SC: ["Spellcaster", "Lanzador de Conjuros"], ZO: ["Zombie", "Zombi"], WA: ["Warrior", "Guerrero"],
  BW: ["Beast-Warrior", "Guerrero-Bestia"], BE: ["Beast", "Bestia"], WB: ["Winged Beast", "Bestia Alada"], FI: ["Fiend", "Demonio"],
  FA: ["Fairy", "Hada"], IN: ["Insect", "Insecto"], DI: ["Dinosaur", "Dinosaurio"], RE: ["Reptile", "Reptil"], FS: ["Fish", "Pez"],
  SS: ["Sea Serpent", "Serpiente Marina"], MA: ["Machine", "Máquina"], TH: ["Thunder", "Trueno"], AQ: ["Aqua", "Aqua"],
  PY: ["Pyro", "Piro"], RO: ["Rock", "Roca"], PL: ["Plant", "Planta"],
};
const KINDS = { monster: ["Monster", "Monstruo"], magic: ["Magic", "Magia"], ritual: ["Ritual", "Ritual"],
  equip: ["Equip", "Equipo"], trap: ["Trap", "Trampa"] };
const STARS = { Sun: ["☉", "Sol"], Moon: ["☽", "Luna"], Venus: ["♀", "Venus"], Mercury: ["☿", "Mercurio"], Mars: ["♂", "Marte"],
  Jupiter: ["♃", "Júpiter"], Saturn: ["♄", "Saturno"], Uranus: ["♅", "Urano"], Pluto: ["♇", "Plutón"], Neptune: ["♆", "Neptuno"] };
// Terrain by code: name in both languages and the field's tint.
const TERRAINS = [["Normal", "Normal", "#ece6d8"], ["Forest", "Bosque", "#cfe3bf"], ["Wasteland", "Páramo", "#e8d5b0"],
  ["Mountain", "Montaña", "#d8d2c8"], ["Sogen", "Pradera (Sogen)", "#e4eeb8"], ["Umi", "Mar (Umi)", "#c6dff0"],
  ["Yami", "Oscuridad (Yami)", "#d3c6e3"]];
const KIND_COLORS = { monster: "#c8893a", magic: "#1f8a76", ritual: "#3a62ae", equip: "#2f7d55", trap: "#a13a7c" };

function w(key, vars = {}) {
  const text = (WORDS[lang] || WORDS.en)[key] ?? WORDS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ""));
}
const es = () => (lang === "es" ? 1 : 0);
const typeName = (code) => (TYPES[code] ? TYPES[code][es()] : code || "");
const kindName = (kind) => (KINDS[kind] ? KINDS[kind][es()] : kind || "");
const starName = (star) => (STARS[star] && es() ? STARS[star][1] : star || "");
const starSymbol = (star) => (STARS[star] ? STARS[star][0] : "?");
const row = (id) => (id === null || id === undefined ? null : cards[String(id)] || null);
const cardName = (id) => (row(id) ? row(id).name : "?");
const isMonster = (id) => Boolean(row(id) && row(id).kind === "monster");
const zoneWords = (code) => w(code[0] === "m" ? "monsterZone" : "spellZone", { n: code.slice(1) });

export async function prepare(language) {
  lang = language;
  cards = await loadCards("forbidden", language);
}

// --- steps ------------------------------------------------------------------------------------------
function side(payload, mine) {
  const obs = payload.observation;
  const me = payload.you ?? 0;
  return obs.sides[mine ? me : 1 - me];
}

// Whose zone, said to the reader: "your" and "opponent's" to the player acting (`you`), names to anyone else (a replay
// passes its `reader`).
function zoneOf(payload, mine, z) {
  if (payload.reader === undefined || payload.reader === payload.you) return w(mine ? "yours" : "theirs", { z });
  const me = payload.you ?? 0;
  return w("whose", { p: w("player", { n: (mine ? me : 1 - me) + 1 }), z });
}

/** A board step in words (the frame's "Chosen: …" line). */
export function label(target, payload) {
  const m = target.match(/^h(\d)$/);
  if (m) return cardName(side(payload, true).hand?.[Number(m[1]) - 1]);
  const z = target.match(/^(my|op)-([ms])(\d)$/);
  if (z) {
    const rec = side(payload, z[1] === "my")[z[2] === "m" ? "monsters" : "spells"][Number(z[3]) - 1];
    const where = zoneOf(payload, z[1] === "my", zoneWords(`${z[2]}${z[3]}`));
    return rec && rec.id !== null && rec.id !== undefined ? `${cardName(rec.id)} (${where})` : where;
  }
  const place = target.match(/^place-([ad])([12])$/);
  if (place) return placeWords(payload, place[1], Number(place[2]));
  return { up: w("faceUp"), down: w("faceDown"), act: w("activate"), activate: w("activate"), pos: w("position"),
    direct: w("attackDirect") }[target] || target;
}

function placeWords(payload, position, star) {
  const obs = payload.observation;
  const pending = obs.pending ? side(payload, true).monsters[Number(obs.pending[1]) - 1] : null;
  const card = pending && row(pending.id);
  const starKey = card && card[`star${star}`];
  return w("placeAs", { p: w(position === "a" ? "atk" : "def"), s: starKey ? `${starSymbol(starKey)} ${starName(starKey)}` : star });
}

// --- predictions (the fusion calculator's steps and the battle rule, from the hints of the seat to move) ----------
/** Fold a chain as the engine does (R12): a fusion step from the hints, else an equip step, else a failure. */
export function fold(ids, start, hints) {
  let a = start ? start.id : ids[0];
  let mod = start ? start.mod || 0 : 0;
  let kept = Boolean(start);
  const steps = [];
  for (const b of start ? ids : ids.slice(1)) {
    const step = hints && hints.steps ? hints.steps[`${a}+${b}`] : null;
    if (step && step[0] === "F") { steps.push({ kind: "fusion", a, b, result: step[1] }); a = step[1]; mod = 0; kept = false; }
    else if (step && isMonster(a)) { steps.push({ kind: "equip", equip: b, monster: a, value: step[1] }); mod += step[1]; }
    else if (step) { steps.push({ kind: "equip", equip: a, monster: b, value: step[1] }); a = b; mod = step[1]; kept = false; }
    else if (isMonster(a) && !isMonster(b)) steps.push({ kind: "fail", kept: a, lost: b });
    else { steps.push({ kind: "fail", kept: b, lost: a }); a = b; mod = 0; kept = false; }
  }
  return { id: a, mod, kept, steps };
}

function foldStats(result, start, hints) {
  const card = row(result.id);
  if (!card || card.kind !== "monster") return null;
  const bonus = (hints && hints.terrain_bonus && hints.terrain_bonus[card.type]) || 0;
  const curse = result.kept && start ? start.curse || 0 : 0;
  const clamp = (v) => Math.max(0, Math.min(9999, v));
  return { atk: clamp(card.atk + result.mod + bonus + curse), def: clamp(card.def + result.mod + bonus + curse) };
}

function starOf(rec) {
  const card = rec && row(rec.id);
  return card && rec.star ? card[`star${rec.star}`] : null;
}

/** R20: the battle of an attacker against a visible target; null when the target is face-down to you. */
export function battle(attacker, target, hints) {
  if (!target || target.id === null || target.id === undefined || target.atk === undefined) return null;
  const beats = (hints && hints.beats) || {};
  const bonus = (hints && hints.star_bonus) || 0;
  const a = starOf(attacker), t = starOf(target);
  const adj = a && t && beats[a] === t ? bonus : a && t && beats[t] === a ? -bonus : 0;
  const defending = target.position === "def";
  const d = Math.min(attacker.atk + adj, 9999) - (defending ? target.def : target.atk);
  let outcome, tone;
  if (!defending) [outcome, tone] = d > 0 ? [w("win", { d }), "good"] : d < 0 ? [w("lose", { d: -d }), "bad"] : [w("both"), "even"];
  else [outcome, tone] = d > 0 ? [w("destroys"), "good"] : d < 0 ? [w("blocked", { d: -d }), "bad"] : [w("nothing"), "even"];
  return { d, adj, outcome, tone };
}

// --- drawing ----------------------------------------------------------------------------------------
const CW = 1.6, CH = 2.3;                     // a card, in board units
const PITCH = 1.8;                            // zones: x of zone i = G.ZX + PITCH * i
const SPELL = 0.7;                            // spell rows are drawn smaller
// Two layouts: wide (LP plates and piles in side columns) and narrow (a phone: plates and piles in bars).
const WIDE = { W: 13.45, H: 12.0, ZX: 2.3, narrow: false,
  Y: { oppSpells: 0.1, oppMonsters: 1.85, middle: 4.3, myMonsters: 5.15, mySpells: 7.6, hand: 9.6 },
  plate: (mine) => ({ x: 0.15, y: mine ? 7.6 : 1.0, w: 1.9, h: 1.6 }),
  pile: (mine, which) => ({ x: 11.6, y: which === "deck" ? (mine ? 7.4 : 0.1) : (mine ? 5.15 : 2.15), scale: SPELL }),
  terrain: { x: 0.15, y: 4.3, w: 1.9 }, phases: { x: 2.3, w: PITCH * 5 - 0.2 },
  oppHand: { x: 0.15, w: 1.9, y: 0.05, scale: 0.38 }, preview: { x: 11.55, y: 9.6, scale: 1 } };
const NARROW = { W: 9.4, H: 14.05, ZX: 0.3, narrow: true,
  Y: { oppHand: 0.07, oppSpells: 1.1, oppMonsters: 2.85, middle: 5.25, myMonsters: 6.1, mySpells: 8.55, hand: 11.6 },
  plate: (mine) => ({ x: 0.3, y: mine ? 10.25 : 0.05, w: 3.1, h: 0.95 }),
  pile: (mine, which) => ({ x: which === "deck" ? 7.45 : 8.35, y: mine ? 10.2 : 0.02, scale: 0.42 }),
  terrain: { x: 0.3, y: 5.25, w: 1.7 }, phases: { x: 2.1, w: 7.0 },
  oppHand: { x: 3.5, w: 3.8, y: 0.07, scale: 0.36 }, preview: { x: 3.6, y: 10.22, scale: 0.4 } };
let G = WIDE;

let lastPly = null;                 // what the last change of ply moved, kept across redraws of the same ply
let change = { zones: new Set(), lp: [null, null], left: [], attack: null, fresh: false, handBefore: 99 };
let previewBox = null, previewState = null;

function textLines(name, maxChars) {
  const words = String(name).split(" ");
  const lines = [""];
  for (const word of words) {
    const line = lines[lines.length - 1];
    if (!line || (line + " " + word).length <= maxChars || lines.length === 2) lines[lines.length - 1] = line ? `${line} ${word}` : word;
    else lines.push(word);
  }
  return lines;
}

// A text that never overflows its width: squeezed to fit when it is longer than the width holds.
function fitText(text, attrs, width, size) {
  const fits = String(text).length * size * 0.56 <= width;
  return svg("text", { ...attrs, "font-size": size, textLength: fits ? undefined : width, lengthAdjust: fits ? undefined : "spacingAndGlyphs" }, text);
}

/** A card face at (0,0), CW×CH: name, level stars, guardian stars (the chosen one ringed), type, ATK/DEF or text. */
export function cardFace(id, rec = null) {
  const card = row(id);
  if (!card) return cardBack();
  const color = KIND_COLORS[card.kind] || "#888";
  const parts = [svg("rect", { class: "frame", width: CW, height: CH, rx: 0.08, fill: color, stroke: "#3b2a14", "stroke-width": 0.03 })];
  parts.push(svg("rect", { x: 0.07, y: 0.07, width: CW - 0.14, height: 0.56, rx: 0.04, fill: "#fbf6ea" }));
  const lines = textLines(card.name, 13);
  lines.forEach((line, i) => parts.push(fitText(line, { x: 0.12, y: lines.length === 1 ? 0.42 : 0.3 + i * 0.24, class: "fm-name" },
    CW - 0.24, 0.21)));
  let y = 0.7;
  if (card.level) {
    parts.push(svg("text", { x: CW - 0.1, y: y + 0.15, "font-size": 0.14, "text-anchor": "end", fill: "#ffd54a", class: "fm-level" },
      "★".repeat(Math.min(12, Number(card.level)))));
    y += 0.2;
  }
  parts.push(svg("rect", { x: 0.1, y, width: CW - 0.2, height: 1.6 - y + 0.1, rx: 0.04, fill: "#f3ead6", opacity: 0.95 }));
  if (card.kind === "monster") {
    [card.star1, card.star2].forEach((star, i) => {
      const cx = 0.5 + i * 0.6, cy = y + 0.36;
      const chosen = rec && rec.star === i + 1;
      parts.push(svg("circle", { cx, cy, r: 0.27, fill: chosen ? "#fff3b8" : "#fff", stroke: chosen ? "#b8860b" : "#b9ab8c",
        "stroke-width": chosen ? 0.07 : 0.025, class: chosen ? "fm-star chosen" : "fm-star" }));
      parts.push(svg("text", { x: cx, y: cy + 0.12, "font-size": 0.34, "text-anchor": "middle", fill: "#3b2a14" }, starSymbol(star)),
        title(starName(star)));
    });
    const typeLine = [typeName(card.type), card.attribute].filter(Boolean).join(" · ");
    parts.push(fitText(typeLine, { x: CW / 2, y: 1.58, "text-anchor": "middle", fill: "#3b2a14", class: "fm-type" }, CW - 0.3, 0.14));
    const atk = rec && rec.atk !== undefined ? rec.atk : card.atk, def = rec && rec.def !== undefined ? rec.def : card.def;
    parts.push(svg("rect", { x: 0.07, y: 1.78, width: CW - 0.14, height: 0.45, rx: 0.04, fill: "#fbf6ea" }));
    parts.push(svg("text", { x: 0.12, y: 1.9, "font-size": 0.1, fill: "#5f5a50" }, "ATK"),
      svg("text", { x: CW - 0.12, y: 1.9, "font-size": 0.1, fill: "#5f5a50", "text-anchor": "end" }, "DEF"),
      statText(String(atk), 0.12, atk, card.atk, "start"), statText(String(def), CW - 0.12, def, card.def, "end"));
  } else {
    const symbol = { magic: "✦", ritual: "✺", equip: "⚔", trap: "⚠" }[card.kind] || "✦";
    parts.push(svg("text", { x: CW / 2, y: y + 0.62, "font-size": 0.62, "text-anchor": "middle", fill: color }, symbol));
    parts.push(fitText(kindName(card.kind), { x: CW / 2, y: 1.62, "text-anchor": "middle", fill: "#3b2a14", class: "fm-type" }, CW - 0.3, 0.15));
    parts.push(svg("rect", { x: 0.07, y: 1.78, width: CW - 0.14, height: 0.45, rx: 0.04, fill: "#fbf6ea" }));
    textLines(card.text || "", 24).slice(0, 2).forEach((line, i) =>
      parts.push(fitText(line, { x: 0.12, y: 1.95 + i * 0.17, fill: "#3b2a14" }, CW - 0.24, 0.12)));
  }
  return parts;
}

function statText(text, x, value, base, anchor) {
  const tone = value > base ? "#1b7a2e" : value < base ? "#b3261e" : "#1f1d1a";
  return svg("text", { x, y: 2.13, "font-size": 0.23, "font-weight": 700, "text-anchor": anchor, fill: tone, class: "fm-stat" }, text);
}

function cardBack() {
  return [svg("rect", { class: "frame", width: CW, height: CH, rx: 0.08, fill: "#5b3a1d", stroke: "#2e1c0c", "stroke-width": 0.03 }),
    svg("rect", { x: 0.12, y: 0.12, width: CW - 0.24, height: CH - 0.24, rx: 0.05, fill: "none", stroke: "#c9a25a", "stroke-width": 0.03 }),
    svg("ellipse", { cx: CW / 2, cy: CH / 2, rx: 0.5, ry: 0.75, fill: "#8a5a2b", stroke: "#e0b867", "stroke-width": 0.05 }),
    svg("ellipse", { cx: CW / 2, cy: CH / 2, rx: 0.22, ry: 0.34, fill: "#3d220c" })];
}

function emptySlot(small) {
  return [svg("rect", { class: "frame slot", width: CW, height: CH, rx: 0.08, fill: "rgba(255,255,255,.35)", stroke: "#9c8f76",
    "stroke-width": 0.025, "stroke-dasharray": small ? "0.08 0.06" : "0.1 0.07" })];
}

// One field record as seen by this seat: a face, or a back; own face-down cards show their face under a veil.
function fieldCard(rec, monster) {
  if (!rec) return emptySlot(!monster);
  const known = rec.id !== null && rec.id !== undefined;
  if (!known) return cardBack();
  const parts = cardFace(rec.id, monster ? rec : null);
  if (monster ? rec.face_up === false : true) {
    parts.push(svg("rect", { width: CW, height: CH, rx: 0.08, fill: "url(#fm-veil)", class: "fm-veil" }),
      svg("text", { x: CW / 2, y: 1.35, "font-size": 0.17, "text-anchor": "middle", fill: "#fff", class: "fm-veil-label" }, w("faceDownMark")));
  }
  return parts;
}

function describeRecord(rec, monster) {
  if (!rec) return w("empty");
  if (rec.id === null || rec.id === undefined) return monster ? w("faceDownCard") : w("setCard");
  const card = row(rec.id);
  const stats = card && card.kind === "monster" ? ` ATK ${rec.atk ?? card.atk} DEF ${rec.def ?? card.def}` : "";
  const pos = monster && rec.position ? `, ${w(rec.position)}` : "";
  return `${cardName(rec.id)}${stats}${pos}${monster && rec.face_up === false ? `, ${w("faceDownMark")}` : ""}`;
}

function inspectable(id, ui, attrs, ...children) {
  // Not a step of any action: pointing at it (or tapping it) shows it in the inspector.
  const g = svg("g", { "data-inspect": id, tabindex: "0", role: "button", ...attrs }, ...children);
  if (ui.marks && ui.marks.has(id)) g.classList.add("recent");
  const show = () => ui.inspect && ui.inspect(id);
  g.addEventListener("pointerenter", show);
  g.addEventListener("focus", show);
  g.addEventListener("click", show);
  return g;
}

function computeChange(payload, previous) {
  if (payload.ply === lastPly) { change.fresh = false; return; }
  lastPly = payload.ply;
  change = { zones: new Set(), lp: [null, null], left: [], attack: null, fresh: Boolean(previous), handBefore: 99 };
  if (!previous || previous.ply === payload.ply) return;
  const me = payload.you ?? 0;
  change.handBefore = (previous.observation.sides[me].hand || []).length;
  payload.observation.sides.forEach((now, s) => {
    const before = previous.observation.sides[s];
    const prefix = s === me ? "my" : "op";
    if (before.lp !== now.lp) change.lp[s] = before.lp;
    for (const [key, code] of [["monsters", "m"], ["spells", "s"]]) {
      now[key].forEach((rec, i) => {
        const old = before[key][i];
        if (JSON.stringify(old) !== JSON.stringify(rec)) change.zones.add(`${prefix}-${code}${i + 1}`);
        if (old && !rec) change.left.push({ id: `${prefix}-${code}${i + 1}`, rec: old, monster: key === "monsters" });
        if (key === "monsters" && rec && old && rec.used && !old.used) change.attack = { from: `${prefix}-m${i + 1}`, side: s };
      });
    }
  });
  if (change.attack) {
    // The target: what changed on the other side (a zone, else its LP), else what the opponent's turn touched last there.
    const other = change.attack.side === me ? "op" : "my";
    const onOther = (id) => id.startsWith(`${other}-m`) || id === `${other}-lp`;
    const changed = [...change.zones].find(onOther) || (change.lp[1 - change.attack.side] !== null ? `${other}-lp` : null);
    change.attack.to = changed || (payload.marks || []).filter(onOther).pop() || null;
  }
}

const positions = {};   // target id → [x, y] of its centre, for arrows and overlays

export function draw(container, payload, ui) {
  const obs = payload.observation;
  const me = payload.you ?? 0;
  const hints = payload.hints || null;
  computeChange(payload, ui.previous);
  const terrain = TERRAINS[obs.terrain] || [`${obs.terrain}`, `${obs.terrain}`, "#ece6d8"];
  G = window.innerWidth < 600 ? NARROW : WIDE;     // the window, not the box: reading a box forces a layout
  const board = svg("svg", { viewBox: `0 0 ${G.W} ${G.H}`, class: "fm-board", role: "group", "aria-label": es() ? "campo de duelo" : "duel field",
    "data-phase": obs.phase, "data-hand": payload.you === null ? undefined : JSON.stringify(side(payload, true).hand || []) });
  board.append(svg("defs", {}, svg("pattern", { id: "fm-veil", width: 0.2, height: 0.2, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)" }, svg("rect", { width: 0.2, height: 0.2, fill: "rgba(60,36,14,.45)" }),
  svg("rect", { width: 0.07, height: 0.2, fill: "rgba(60,36,14,.25)" }))));
  board.append(svg("rect", { x: 0, y: 0, width: G.W, height: G.H, rx: 0.2, fill: "#f7f2e6" }));
  board.append(svg("rect", { x: G.ZX - 0.15, y: G.Y.oppSpells - 0.08, width: PITCH * 5 + 0.1, height: G.Y.mySpells + CH * SPELL - G.Y.oppSpells + 0.16, rx: 0.15,
    fill: terrain[2], class: "fm-terrain", "data-terrain": obs.terrain }));

  for (const mine of [false, true]) {
    const s = side(payload, mine);
    const prefix = mine ? "my" : "op";
    const monY = mine ? G.Y.myMonsters : G.Y.oppMonsters, spellY = mine ? G.Y.mySpells : G.Y.oppSpells;
    s.monsters.forEach((rec, i) => board.append(zone(`${prefix}-m${i + 1}`, G.ZX + PITCH * i, monY, rec, true, ui, hints, payload)));
    s.spells.forEach((rec, i) => board.append(zone(`${prefix}-s${i + 1}`, G.ZX + PITCH * i, spellY, rec, false, ui, hints, payload)));
  }
  for (const gone of change.fresh ? change.left : []) {
    const [x, y] = positions[gone.id] || [0, 0];
    const scale = gone.monster ? 1 : SPELL;
    board.append(svg("g", { transform: `translate(${x - (CW * scale) / 2} ${y - (CH * scale) / 2}) scale(${scale})`, "aria-hidden": "true" },
      svg("g", { class: "fm-leave" }, fieldCard(gone.rec, gone.monster))));
  }
  drawOpponentHand(board, side(payload, false));
  drawPlates(board, payload, ui);
  drawPiles(board, payload, ui);
  drawMiddle(board, payload, ui, terrain);
  if (payload.you !== null) drawHand(board, payload, ui);
  drawOverlays(board, payload, ui);
  if (change.fresh && change.attack && change.attack.to && positions[change.attack.from] && positions[change.attack.to]) {
    const [x1, y1] = positions[change.attack.from], [x2, y2] = positions[change.attack.to];
    board.append(svg("line", { x1, y1, x2, y2, class: "fm-attack", "marker-end": "url(#fm-arrow)", "aria-hidden": "true" }));
    board.querySelector("defs").append(svg("marker", { id: "fm-arrow", viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 4,
      markerHeight: 4, orient: "auto-start-reverse" }, svg("path", { d: "M0 0 L10 5 L0 10 z", fill: "#c0392b" })));
  }
  const preview = el("div", { class: "fm-preview-text", "aria-live": "polite" });
  container.replaceChildren(board, preview);
  previewBox = { board, text: preview };
  previewState = { payload, ui, hints };
  showPreview(null);
}

function zone(id, x, y, rec, monster, ui, hints, payload) {
  const scale = monster ? 1 : SPELL;
  const w0 = CW * scale, h0 = CH * scale;
  const dx = monster ? 0 : (CW - w0) / 2;
  positions[id] = [x + dx + w0 / 2, y + h0 / 2];
  const defence = monster && rec && rec.position === "def";
  const inner = svg("g", { transform: defence ? `rotate(-90 ${CW / 2} ${CH / 2}) scale(1)` : undefined }, fieldCard(rec, monster));
  const body = defence ? svg("g", { transform: `translate(${CW / 2} ${CH / 2}) scale(0.72) translate(${-CW / 2} ${-CH / 2})` }, inner) : inner;
  const classes = ["fm-card"];
  if (change.fresh && change.zones.has(id) && rec) classes.push("fm-enter");
  const g = spot(id, ui, { transform: `translate(${x + dx} ${y}) scale(${scale})`, role: "img",
    "aria-label": `${label(id, payload)}: ${describeRecord(rec, monster)}` },
    svg("g", { class: classes.join(" ") }, body), title(describeRecord(rec, monster)));
  if (rec && (rec.id === null || rec.id === undefined)) g.dataset.facedown = "true";
  if (rec && monster && rec.used) g.classList.add("fm-used");
  g.addEventListener("pointerenter", () => showPreview(id));
  g.addEventListener("pointerleave", () => showPreview(null));
  // An attacker chosen: each target shows the battle's result; a face-down target shows nothing it hides.
  const attacker = ui.selection && ui.selection.length === 1 && /^my-m\d$/.test(ui.selection[0]) && id.startsWith("op-m")
    && ui.targets && ui.targets.has(id) ? side(payload, true).monsters[Number(ui.selection[0].slice(4)) - 1] : null;
  // The badges sit where they hide no number the battle compares: over an upright card's stars and type line
  // (its name above, ATK/DEF below stay readable), in the free space above and below a card lying in defence.
  if (attacker) {
    const result = battle(attacker, rec, hints);
    const [outcomeY, adjY] = defence ? [CH - 0.31, 0.25] : [1.3, 0.78];
    g.append(pill(result ? result.outcome : w("unknown"), result ? result.tone : "even", CW / 2, outcomeY, CW + 0.2));
    if (result && result.adj) g.append(pill(w("starAdj", { s: result.adj > 0 ? `+${result.adj}` : result.adj }), result.adj > 0 ? "good" : "bad", CW / 2, adjY, 1.3));
  }
  return g;
}

// A badge: "Head|detail" as a bold line and a small one (the outcome of a battle, the star bonus).
function pill(text, tone, cx, cy, width) {
  const [head, detail] = text.split("|");
  const tall = Boolean(detail);
  const h = tall ? 0.62 : 0.38;
  return svg("g", { class: `fm-pill ${tone}`, "aria-hidden": "true", "data-text": detail ? `${head}: ${detail}` : head },
    svg("rect", { x: cx - width / 2, y: cy - h / 2, width, height: h, rx: 0.14 }),
    fitText(head, { x: cx, y: cy + (tall ? -0.04 : 0.07), "text-anchor": "middle" }, width - 0.16, 0.22),
    tall ? fitText(detail, { x: cx, y: cy + 0.21, "text-anchor": "middle", class: "fm-pill-detail" }, width - 0.16, 0.15) : null);
}

function drawOpponentHand(board, opp) {
  const n = opp.hand_size || 0;
  const { x, w: width, y, scale } = G.oppHand;
  const room = G.narrow ? width - 1.2 : width;     // the wide layout says the count on the opponent's plate
  const step = Math.min(CW * scale + 0.08, (room - CW * scale) / Math.max(1, n - 1));
  for (let i = 0; i < n; i += 1) {
    board.append(svg("g", { transform: `translate(${x + i * step} ${y}) scale(${scale})`, "aria-hidden": "true" }, cardBack()));
  }
  if (G.narrow) {
    board.append(svg("text", { x: x + width, y: y + 0.55, "font-size": 0.24, "text-anchor": "end", class: "fm-muted" }, `${w("hand")}: ${n}`));
  }
}

function drawPlates(board, payload, ui) {
  const me = payload.you ?? 0;
  for (const mine of [false, true]) {
    const s = side(payload, mine);
    const seat = mine ? me : 1 - me;
    const { x, y, w: width, h } = G.plate(mine);
    const compact = h < 1.2;
    const id = mine ? "my-lp" : "op-lp";
    positions[id] = [x + width / 2, y + h / 2];
    const who = payload.you === null ? w("player", { n: seat + 1 }) : mine ? w("you") : w("opponent");
    const from = change.lp[seat];
    const lpText = svg("text", { x: compact ? x + width - 0.12 : x + width / 2, y: compact ? y + 0.62 : y + 1.05, "font-size": compact ? 0.42 : 0.5,
      "font-weight": 700, "text-anchor": compact ? "end" : "middle", class: "fm-lp", "data-lp": s.lp }, String(s.lp));
    const ratio = Math.max(0, Math.min(1, s.lp / (s.max_lp || 8000)));
    const barY = compact ? y + 0.75 : y + 1.2;
    const note = s.pinned ? w("pinned", { n: s.pinned }) : mine ? w("lp") : `${w("lp")} · ${w("hand")}: ${s.hand_size}`;
    const parts = [
      svg("rect", { class: "frame", x, y, width, height: h, rx: 0.12, fill: "#fffdf8", stroke: seat === 0 ? "#2563a8" : "#b23a2e", "stroke-width": 0.05 }),
      fitText(`${seat + 1} · ${who}`, { x: x + 0.12, y: y + (compact ? 0.3 : 0.35), "font-weight": 600 }, compact ? width - 1.5 : width - 0.24, 0.2),
      lpText,
      svg("rect", { x: x + 0.12, y: barY, width: width - 0.24, height: 0.12, rx: 0.06, fill: "#e3dccd" }),
      svg("rect", { x: x + 0.12, y: barY, width: (width - 0.24) * ratio, height: 0.12, rx: 0.06, class: "fm-lp-bar",
        fill: ratio > 0.5 ? "#2f8a48" : ratio > 0.25 ? "#d99a20" : "#c0392b" }),
      compact ? (s.pinned ? svg("text", { x: x + 0.12, y: y + 0.62, "font-size": 0.15, fill: "#b3261e" }, note) : null)
        : svg("text", { x: x + 0.12, y: y + 1.52, "font-size": 0.15, class: "fm-muted" }, note),
    ];
    if (change.fresh && from !== null && from !== s.lp) {
      const delta = s.lp - from;
      parts.push(svg("text", { x: compact ? x + 0.9 : x + width / 2, y: compact ? y + 0.66 : y + 0.65, "font-size": 0.32, "font-weight": 700,
        "text-anchor": "middle", class: `fm-delta ${delta < 0 ? "bad" : "good"}` }, delta > 0 ? `+${delta}` : String(delta)));
      countUp(lpText, from, s.lp);
    }
    if (!mine && ui.targets && ui.targets.has("direct")) {
      const attacker = ui.selection && ui.selection[0] ? side(payload, true).monsters[Number(ui.selection[0].slice(4)) - 1] : null;
      const plate = spot("direct", ui, { "aria-label": w("attackDirect") }, parts, title(w("attackDirect")),
        attacker ? pill(w("direct", { d: attacker.atk }), "good", x + width / 2, y + h + 0.25, Math.max(width, 2.1)) : null);
      if (ui.marks && ui.marks.has(id)) plate.classList.add("recent");
      board.append(plate);
    } else {
      board.append(inspectable(id, ui, { "aria-label": `${who}: ${s.lp} LP` }, parts));
    }
  }
}

// LP count from the old value to the new one, under 300 ms (nothing moves under prefers-reduced-motion).
function countUp(node, from, to) {
  if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
  const start = performance.now();
  node.textContent = String(from);
  const tick = (now) => {
    const k = Math.min(1, (now - start) / 260);
    node.textContent = String(Math.round(from + (to - from) * k));
    if (k < 1) requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

function drawPiles(board, payload, ui) {
  for (const mine of [false, true]) {
    const s = side(payload, mine);
    const prefix = mine ? "my" : "op";
    const d = G.pile(mine, "deck"), g = G.pile(mine, "grave");
    const labels = !G.narrow;
    board.append(inspectable(`${prefix}-deck`, ui, { "aria-label": `${w("deck")}: ${s.deck_size}` },
      svg("g", { transform: `translate(${d.x} ${d.y}) scale(${d.scale})` }, s.deck_size ? cardBack() : emptySlot(true)),
      svg("text", { x: d.x + (CW * d.scale) / 2, y: d.y + (CH * d.scale) / 2 + 0.13, "font-size": 0.36 * d.scale / SPELL, "font-weight": 700,
        "text-anchor": "middle", fill: s.deck_size ? "#fff" : "#5f5a50", class: "fm-count" }, String(s.deck_size)),
      labels ? svg("text", { x: d.x + (CW * d.scale) / 2, y: d.y + CH * d.scale + 0.22, "font-size": 0.18, "text-anchor": "middle", class: "fm-muted" },
        w("deck")) : null));
    const top = s.removed.length ? s.removed[s.removed.length - 1] : null;
    const [bx, by] = G.narrow ? [g.x + (CW * g.scale) / 2, g.y + (CH * g.scale) / 2] : [g.x + CW * g.scale - 0.05, g.y + 0.05];
    board.append(inspectable(`${prefix}-grave`, ui, { "aria-label": `${w("grave")}: ${s.removed.length}` },
      svg("g", { transform: `translate(${g.x} ${g.y}) scale(${g.scale})` }, top === null ? emptySlot(true) : cardFace(top)),
      svg("circle", { cx: bx, cy: by, r: 0.26, fill: "#3b2a14" }),
      svg("text", { x: bx, y: by + 0.08, "font-size": 0.22, "font-weight": 700, "text-anchor": "middle", fill: "#fff" }, String(s.removed.length)),
      labels ? svg("text", { x: g.x + (CW * g.scale) / 2, y: g.y + CH * g.scale + 0.22, "font-size": 0.18, "text-anchor": "middle", class: "fm-muted" },
        w("grave")) : null));
  }
}

function drawMiddle(board, payload, ui, terrain) {
  const obs = payload.observation;
  const { x: tx, y, w: tw } = G.terrain;
  board.append(inspectable("terrain", ui, { "aria-label": `${w("terrain")}: ${terrain[es()]}` },
    svg("rect", { class: "frame", x: tx, y, width: tw, height: 0.7, rx: 0.12, fill: terrain[2], stroke: "#9c8f76", "stroke-width": 0.02 }),
    svg("text", { x: tx + 0.12, y: y + 0.27, "font-size": 0.16, class: "fm-muted" }, w("terrain")),
    fitText(terrain[es()], { x: tx + 0.12, y: y + 0.56, "font-weight": 700 }, tw - 0.24, 0.24)));
  const phases = ["main", "place", "battle"];
  const actHere = ui.targets && ui.targets.has("act");
  const span = actHere ? G.phases.w - 2.6 : G.phases.w;
  phases.forEach((phase, i) => {
    const x = G.phases.x + (span / phases.length) * i;
    const now = obs.phase === phase;
    board.append(svg("g", { class: `fm-phase${now ? " now" : ""}`, "aria-hidden": now ? undefined : "true" },
      svg("rect", { x, y: y + 0.1, width: span / phases.length - 0.1, height: 0.5, rx: 0.25 }),
      svg("text", { x: x + (span / phases.length - 0.1) / 2, y: y + 0.43, "font-size": 0.24, "text-anchor": "middle" }, w(phase))));
  });
  if (actHere) {
    const x = G.phases.x + G.phases.w - 2.5;
    positions.act = [x + 1.25, y + 0.35];
    board.append(spot("act", ui, { "aria-label": w("activate") },
      svg("rect", { class: "frame", x, y: y + 0.02, width: 2.5, height: 0.66, rx: 0.2 }),
      fitText(`✦ ${w("activate")}`, { x: x + 1.25, y: y + 0.45, "font-weight": 700, "text-anchor": "middle" }, 2.3, 0.26)));
  }
}

function drawHand(board, payload, ui) {
  const hand = side(payload, true).hand || [];
  hand.forEach((id, i) => {
    const target = `h${i + 1}`;
    const order = ui.selection ? ui.selection.indexOf(target) : -1;
    const x = G.ZX + PITCH * i, y = G.Y.hand - (order >= 0 ? 0.3 : 0);
    positions[target] = [x + CW / 2, y + CH / 2];
    const g = spot(target, ui, { transform: `translate(${x} ${y})`, role: "img", "aria-label": `${i + 1}: ${describeRecord({ id }, false).replace(/, .*$/, "")}` },
      svg("g", { class: `fm-card${change.fresh && i >= change.handBefore ? " fm-draw" : ""}` }, cardFace(id)),
      title(cardName(id)));
    if (order >= 0) {
      g.append(svg("circle", { cx: CW / 2, cy: -0.08, r: 0.22, class: "fm-order" }),
        svg("text", { x: CW / 2, y: 0.01, "font-size": 0.25, "font-weight": 700, "text-anchor": "middle", fill: "#fff" }, String(order + 1)));
    }
    board.append(g);
  });
  if (!hand.length) return;
  if (payload.observation.phase === "main" && payload.legal.length && !(ui.selection || []).length) {
    board.append(svg("text", { x: G.ZX, y: G.Y.hand - 0.12, "font-size": 0.2, class: "fm-muted" }, w("hint")));
  }
}

// Overlays for the steps after a card is chosen: face up/down on the zone, position, activation, placement.
function drawOverlays(board, payload, ui) {
  const targets = ui.targets || new Set();
  const chosen = ui.selection && ui.selection.length ? ui.selection[ui.selection.length - 1] : null;
  const at = chosen && positions[chosen];
  if (at && (targets.has("up") || targets.has("down"))) {
    const [cx, cy] = at;
    for (const [i, key, word] of [[0, "up", "faceUp"], [1, "down", "faceDown"]]) {
      if (!targets.has(key)) continue;
      board.append(spot(key, ui, { "aria-label": w(word) },
        svg("rect", { class: "frame fm-choice", x: cx - CW / 2 - 0.05, y: cy - 1.1 + i * 1.1, width: CW + 0.1, height: 1.0, rx: 0.12 }),
        svg("text", { x: cx, y: cy - 0.5 + i * 1.1, "font-size": 0.24, "font-weight": 700, "text-anchor": "middle" }, w(word))));
    }
  }
  if (at) {
    // Change position stays off the monster's ATK/DEF: over an upright card's stars, under a card lying in defence.
    const lying = /^my-m\d$/.test(chosen) && (side(payload, true).monsters[Number(chosen.slice(4)) - 1] || {}).position === "def";
    for (const [key, word] of [["pos", "position"], ["activate", "activate"]]) {
      if (!targets.has(key)) continue;
      const [cx, cy] = at;
      const y = key !== "pos" ? cy + 0.45 : targets.has("activate") ? cy - 0.7 : lying ? cy + 0.62 : cy - 0.3;
      board.append(spot(key, ui, { "aria-label": w(word) },
        svg("rect", { class: "frame fm-choice", x: cx - 0.95, y, width: 1.9, height: 0.55, rx: 0.27 }),
        fitText(`${key === "pos" ? "⟳" : "✦"} ${w(word)}`, { x: cx, y: y + 0.37, "font-weight": 700, "text-anchor": "middle" }, 1.7, 0.22)));
    }
  }
  const places = ["a1", "a2", "d1", "d2"].filter((p) => targets.has(`place-${p}`));
  if (places.length) drawPlaceChoice(board, payload, ui, places);
}

function drawPlaceChoice(board, payload, ui, places) {
  const obs = payload.observation;
  const zoneIndex = obs.pending ? Number(obs.pending[1]) - 1 : 0;
  const rec = side(payload, true).monsters[zoneIndex];
  const card = rec && row(rec.id);
  const x0 = G.ZX + 0.1, y0 = G.Y.mySpells - 0.2, width = PITCH * 5 - 0.4;
  board.append(svg("rect", { x: x0 - 0.1, y: y0, width: width + 0.2, height: 2.2, rx: 0.15, class: "fm-panel" }));
  board.append(svg("text", { x: x0 + 0.1, y: y0 + 0.32, "font-size": 0.22, "font-weight": 700 },
    `${w("choosePlace")}${card ? ` — ${card.name}` : ""}`));
  const optionW = width / 4;
  places.forEach((p, i) => {
    const x = x0 + optionW * i, y = y0 + 0.45;
    const star = card ? card[`star${p[1]}`] : null;
    const sideways = p[0] === "d";
    const beats = (payload.hints && payload.hints.beats) || DEFAULT_BEATS;
    const glyph = sideways
      ? svg("rect", { x: x + 0.15, y: y + 0.35, width: 0.8, height: 0.56, rx: 0.05, fill: "#c8893a", stroke: "#3b2a14", "stroke-width": 0.02 })
      : svg("rect", { x: x + 0.27, y: y + 0.2, width: 0.56, height: 0.8, rx: 0.05, fill: "#c8893a", stroke: "#3b2a14", "stroke-width": 0.02 });
    const beaten = star && beats[star];
    const beatenBy = star && Object.keys(beats).find((k) => beats[k] === star);
    board.append(spot(`place-${p}`, ui, { "aria-label": placeWords(payload, p[0], Number(p[1])) },
      svg("rect", { class: "frame fm-choice", x, y, width: optionW - 0.1, height: 1.7, rx: 0.12 }),
      glyph,
      fitText(w(sideways ? "def" : "atk"), { x: x + 1.05, y: y + 0.5, "font-weight": 700 }, optionW - 1.25, 0.24),
      svg("text", { x: x + 1.05, y: y + 0.95, "font-size": 0.32 }, star ? starSymbol(star) : p[1]),
      fitText(star ? starName(star) : "", { x: x + 1.35, y: y + 0.93, "font-weight": 600 }, optionW - 1.5, 0.2),
      beaten ? fitText(`▲ ${w("beats", { s: starName(beaten) })}`, { x: x + 0.15, y: y + 1.3, fill: "#1b7a2e" }, optionW - 0.4, 0.15) : null,
      beatenBy ? fitText(`▼ ${w("losesTo", { s: starName(beatenBy) })}`, { x: x + 0.15, y: y + 1.55, fill: "#b3261e" }, optionW - 0.4, 0.15) : null));
  });
}

// The result of the chain being built (and, while pointing at one of your occupied zones, of the chain onto it).
function showPreview(hoverZone) {
  if (!previewBox || !previewState) return;
  const { payload, ui, hints } = previewState;
  const selection = (ui.selection || []).filter((s) => /^h\d$/.test(s));
  const old = previewBox.board.querySelector(".fm-preview");
  if (old) old.remove();
  const own = payload.you === null ? null : side(payload, true);
  if (!own || !own.hand || !selection.length || !hints) { previewBox.text.textContent = ""; return; }
  const ids = selection.map((s) => own.hand[Number(s.slice(1)) - 1]);
  let start = null;
  const z = hoverZone && hoverZone.match(/^my-([ms])(\d)$/);
  if (z && ui.targets && ui.targets.has(hoverZone)) {
    const rec = own[z[1] === "m" ? "monsters" : "spells"][Number(z[2]) - 1];
    if (rec && rec.id !== null && rec.id !== undefined) start = { id: rec.id, mod: rec.mod || 0, curse: rec.curse || 0 };
  }
  if (!start && ids.length < 2) { previewBox.text.textContent = ""; return; }
  const result = fold(ids, start, hints);
  const stats = foldStats(result, start, hints);
  const shown = stats ? { id: result.id, atk: stats.atk, def: stats.def, star: null } : null;
  const { x, y, scale } = G.preview;
  const fused = result.steps.some((s) => s.kind === "fusion");
  const caption = fused ? w("fusion") : result.steps.find((s) => s.kind === "equip") ? w("equip", { v: result.mod }) : w("result");
  const beside = scale < 1;    // the phone's bar: a small card with its words beside it
  const box = svg("g", { class: "fm-preview", role: "img", "data-result": String(result.id), "aria-label": `${w("result")}: ${cardName(result.id)}` },
    beside ? svg("rect", { x: x - 0.1, y: y - 0.02, width: 3.7, height: CH * scale + 0.04, rx: 0.1, class: "fm-panel" }) : null,
    svg("text", { x: beside ? x + CW * scale + 0.12 : x + CW / 2, y: beside ? y + 0.35 : y - 0.12, "font-size": 0.22, "font-weight": 700,
      "text-anchor": beside ? "start" : "middle", class: fused ? "fm-fused" : "" }, `= ${caption}`),
    beside ? fitText(cardName(result.id), { x: x + CW * scale + 0.12, y: y + 0.7, "font-weight": 700 }, 2.8, 0.22) : null,
    svg("g", { transform: `translate(${x} ${y}) scale(${scale})` }, svg("g", { class: "fm-card fm-enter" }, cardFace(result.id, shown))));
  previewBox.board.append(box);
  const stepWords = result.steps.map((s) => (s.kind === "fusion" ? `${cardName(s.a)} + ${cardName(s.b)} → ${cardName(s.result)}`
    : s.kind === "equip" ? `${cardName(s.equip)} → ${cardName(s.monster)} (+${s.value})` : w("fails", { c: cardName(s.lost) })));
  previewBox.text.textContent = `${w("steps")}${start ? ` ${w("onto", { c: cardName(start.id) })}` : ""}: ${stepWords.join(" · ")} ⇒ ${cardName(result.id)}${
    stats ? ` (ATK ${stats.atk} / DEF ${stats.def})` : ""}`;
}

// --- the inspector ----------------------------------------------------------------------------------
export function inspect(id, payload) {
  if (!payload) return null;
  const obs = payload.observation;
  const hand = side(payload, true).hand || [];
  let m = id.match(/^h(\d)$/);
  if (m) return cardDetails(hand[Number(m[1]) - 1], null, payload);
  m = id.match(/^(my|op)-([ms])(\d)$/);
  if (m) {
    const rec = side(payload, m[1] === "my")[m[2] === "m" ? "monsters" : "spells"][Number(m[3]) - 1];
    if (!rec) return el("p", {}, `${label(id, payload)}: ${w("empty")}`);
    if (rec.id === null || rec.id === undefined) return el("p", {}, `${label(id, payload)}: ${m[2] === "m" ? w("faceDownCard") : w("setCard")}`);
    return cardDetails(rec.id, m[2] === "m" ? rec : null, payload, rec);
  }
  m = id.match(/^(my|op)-(grave|deck|lp)$/);
  if (m) {
    const s = side(payload, m[1] === "my");
    if (m[2] === "lp") return el("p", {}, `${m[1] === "my" ? w("you") : w("opponent")}: ${s.lp} / ${s.max_lp} LP`);
    if (m[2] === "deck") {
      const names = s.deck_cards ? countNames(s.deck_cards) : null;
      return el("div", {}, el("p", {}, el("b", {}, `${w("deck")}: ${s.deck_size === 1 ? w("card") : w("cards", { n: s.deck_size })}`)),
        names ? el("p", { class: "fm-list" }, `${w("deckList")}: ${names}`) : null);
    }
    return el("div", {}, el("p", {}, el("b", {}, `${w("grave")}: ${s.removed.length === 1 ? w("card") : w("cards", { n: s.removed.length })}`)),
      s.removed.length ? el("p", { class: "fm-list" }, `${w("removedList")}: ${[...s.removed].reverse().map(cardName).join(", ")}`) : null);
  }
  if (id === "terrain") {
    const terrain = TERRAINS[obs.terrain];
    const bonus = payload.hints && payload.hints.terrain_bonus;
    const list = bonus ? Object.entries(bonus).map(([type, v]) => `${typeName(type)} ${v > 0 ? "+" : ""}${v}`).join(", ") : "";
    return el("div", {}, el("p", {}, el("b", {}, `${w("terrain")}: ${terrain ? terrain[es()] : obs.terrain}`)), list ? el("p", {}, list) : null);
  }
  if (/^place-/.test(id)) return el("p", {}, label(id, payload));
  return null;
}

function countNames(ids) {
  const counts = new Map();
  for (const id of ids) counts.set(cardName(id), (counts.get(cardName(id)) || 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(", ");
}

function cardDetails(id, monsterRec, payload, rec = null) {
  const card = row(id);
  if (!card) return null;
  const face = svg("svg", { viewBox: `-0.05 -0.05 ${CW + 0.1} ${CH + 0.1}`, class: "fm-zoom", role: "img", "aria-label": card.name },
    cardFace(id, monsterRec));
  const facts = [el("h3", {}, card.name),
    el("p", {}, [kindName(card.kind), card.kind === "monster" ? typeName(card.type) : null, card.attribute,
      card.level ? w("level", { n: card.level }) : null].filter(Boolean).join(" · "))];
  if (card.kind === "monster") {
    const atk = monsterRec ? monsterRec.atk : card.atk, def = monsterRec ? monsterRec.def : card.def;
    facts.push(el("p", { class: "fm-stats" }, `ATK ${atk} / DEF ${def}`));
    if (monsterRec && (monsterRec.mod || monsterRec.curse || atk !== card.atk)) {
      const terrainBonus = atk - card.atk - (monsterRec.mod || 0) - (monsterRec.curse || 0);
      facts.push(el("p", { class: "fm-muted" }, [w("base", { v: `${card.atk}/${card.def}` }),
        monsterRec.mod ? w("modBy", { v: signed(monsterRec.mod) }) : null, monsterRec.curse ? w("curse", { v: signed(monsterRec.curse) }) : null,
        terrainBonus ? w("terrainBy", { v: signed(terrainBonus) }) : null].filter(Boolean).join(" · ")));
    }
    const beats = (payload.hints && payload.hints.beats) || DEFAULT_BEATS;
    facts.push(el("p", {}, el("b", {}, `${w("stars")}: `)),
      el("ul", { class: "fm-stars" }, [card.star1, card.star2].map((star, i) => {
        const beatenBy = Object.keys(beats).find((k) => beats[k] === star);
        return el("li", { class: monsterRec && monsterRec.star === i + 1 ? "chosen" : "" },
          `${starSymbol(star)} ${starName(star)}${monsterRec && monsterRec.star === i + 1 ? ` (${w("chosen")})` : ""} — `,
          beats[star] ? w("beats", { s: starName(beats[star]) }) : "", beatenBy ? `, ${w("losesTo", { s: starName(beatenBy) })}` : "");
      })));
  }
  if (card.text) facts.push(el("p", { class: "fm-text" }, card.text));
  if (rec) {
    const flags = [monsterRec && monsterRec.face_up === false ? w("faceDownMark") : null, rec.known && rec.face_up === false ? w("known") : null,
      monsterRec && monsterRec.used ? w("used") : null, monsterRec && monsterRec.moved ? w("moved") : null,
      monsterRec ? w(monsterRec.position) : null].filter(Boolean);
    if (flags.length) facts.push(el("p", { class: "fm-muted" }, flags.join(" · ")));
  }
  return el("div", { class: "fm-inspect" }, face, el("div", {}, ...facts));
}

const signed = (v) => (v > 0 ? `+${v}` : String(v));
// The default star cycles (rules R3), to explain stars when no hints came (not your turn).
const DEFAULT_BEATS = { Sun: "Moon", Moon: "Venus", Venus: "Mercury", Mercury: "Sun", Mars: "Jupiter", Jupiter: "Saturn",
  Saturn: "Uranus", Uranus: "Pluto", Pluto: "Neptune", Neptune: "Mars" };

/** Keys 1–5 choose the hand card at that position (chains by keyboard, as by clicks). */
export function keydown(event, ui) {
  const target = /^[1-5]$/.test(event.key) ? `h${event.key}` : null;
  if (!target || !ui.targets || !ui.targets.has(target)) return false;
  ui.onTarget(target);
  return true;
}
