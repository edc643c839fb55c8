// Capsule Monsters: the square board, kings, monsters and capsules with their faction marks.
import { el, t } from "/static/i18n.js";
import { PLAYER_COLORS, spot, svg, title, loadCards } from "/static/boards/svg.js";

const FACTIONS = { light: ["#f4e6a1", "☀"], dark: ["#5b4b7a", "☾"], earth: ["#b08a5a", "▲"], electric: ["#f2d13a", "ϟ"],
  fire: ["#e0703a", "♨"], water: ["#5aa0d8", "≈"], wind: ["#a8d8b0", "~"] };
let cards = {};

export async function prepare(lang) { cards = await loadCards("capsule", lang); }

export function targetsOf(text) { return text.match(/[a-z]\d+/g) || []; }

const VERBS = { S: "summon", R: "recover" };
export function describe(text) {
  const m = text.match(/^([SR]) (\w+)$/);
  if (m) return `${VERBS[m[1]]} ${m[2]}`;
  return text.replace("x", " ⚔ ").replace("-", " → ").replace("!", " ✦ ").replace("@", " → ");
}

function squareName(x, y) { return `${String.fromCharCode(97 + x)}${y + 1}`; }

function cardText(piece) {
  const card = piece.card && cards[piece.card];
  const who = t("player", { n: piece.owner + 1 });
  if (!card) return `${who}: ${piece.kind} (${piece.faction}) ${piece.sq}`;
  const stats = Object.entries(card).filter(([k]) => !["id", "name"].includes(k)).map(([k, v]) => `${k} ${v}`).join(", ");
  return `${who}: ${card.name} — ${piece.kind} on ${piece.sq}; ${stats}${piece.damage ? `; damage ${piece.damage}` : ""}`;
}

function pieceShape(piece) {
  const color = PLAYER_COLORS[piece.owner];
  const [fill, mark] = FACTIONS[piece.faction] || ["#ccc", "?"];
  const parts = [];
  if (piece.kind === "capsule") {
    parts.push(svg("rect", { x: 0.18, y: 0.3, width: 0.64, height: 0.4, rx: 0.2, fill, stroke: color, "stroke-width": 0.07 }));
    parts.push(svg("line", { x1: 0.5, y1: 0.3, x2: 0.5, y2: 0.7, stroke: color, "stroke-width": 0.04 }));
    parts.push(svg("text", { x: 0.5, y: 0.6, "font-size": 0.26, "text-anchor": "middle" }, mark));
  } else if (piece.kind === "king") {
    parts.push(svg("path", { d: "M.15 .8 L.15 .35 L.32 .5 L.5 .2 L.68 .5 L.85 .35 L.85 .8 Z", fill, stroke: color, "stroke-width": 0.07 }));
    parts.push(svg("text", { x: 0.5, y: 0.72, "font-size": 0.24, "text-anchor": "middle" }, mark));
  } else {
    parts.push(svg("circle", { cx: 0.5, cy: 0.5, r: 0.32, fill, stroke: color, "stroke-width": 0.07,
      "stroke-dasharray": piece.stunned ? "0.08 0.05" : undefined }));
    parts.push(svg("text", { x: 0.5, y: 0.58, "font-size": 0.24, "text-anchor": "middle" }, mark));
  }
  // Whose piece shows by a number as well as by colour.
  parts.push(svg("text", { x: 0.12, y: 0.22, "font-size": 0.2, fill: color, "font-weight": "bold" }, String(piece.owner + 1)));
  if (piece.card && cards[piece.card]) {
    parts.push(svg("text", { x: 0.5, y: 0.95, "font-size": 0.15, "text-anchor": "middle" }, cards[piece.card].name.slice(0, 12)));
  }
  if (piece.damage) parts.push(svg("text", { x: 0.88, y: 0.22, "font-size": 0.2, fill: "#b00", "text-anchor": "end" }, `-${piece.damage}`));
  return parts;
}

export function draw(container, payload, ui) {
  const obs = payload.observation;
  const flip = payload.you === 1;
  const zone = new Map();
  obs.zones.forEach((squares, owner) => squares.forEach((sq) => zone.set(sq, owner)));
  const pieces = new Map(obs.pieces.map((p) => [p.sq, p]));
  const board = svg("svg", { viewBox: `-0.4 -0.1 ${obs.width + 0.5} ${obs.height + 0.5}`, role: "img",
    "aria-label": `Capsule Monsters board ${obs.width}×${obs.height}` });
  for (let y = 0; y < obs.height; y++) {
    for (let x = 0; x < obs.width; x++) {
      const name = squareName(x, y);
      const px = flip ? obs.width - 1 - x : x;
      const py = flip ? y : obs.height - 1 - y;
      const piece = pieces.get(name);
      const shade = zone.has(name) ? (zone.get(name) === 0 ? "#e3ebf5" : "#f5e3e1") : (x + y) % 2 ? "#efe7d6" : "#f8f3e8";
      board.append(spot(name, ui, { transform: `translate(${px} ${py})`, "aria-label": piece ? cardText(piece) : name },
        svg("rect", { class: "cell", width: 1, height: 1, fill: shade, stroke: "#cbbfa6", "stroke-width": 0.02 }),
        piece ? svg("g", { class: "piece" }, pieceShape(piece)) : null,
        title(piece ? cardText(piece) : name)));
    }
  }
  for (let x = 0; x < obs.width; x++) {
    board.append(svg("text", { x: (flip ? obs.width - 1 - x : x) + 0.5, y: obs.height + 0.3, "font-size": 0.25,
      "text-anchor": "middle", fill: "#6b655b" }, String.fromCharCode(97 + x)));
  }
  for (let y = 0; y < obs.height; y++) {
    board.append(svg("text", { x: -0.2, y: (flip ? y : obs.height - 1 - y) + 0.58, "font-size": 0.25,
      "text-anchor": "middle", fill: "#6b655b" }, String(y + 1)));
  }
  const facts = el("div", { class: "kv" },
    el("span", {}, `AP: ${obs.ap}`), el("span", {}, `${t("mode")}: ${obs.mode}`),
    obs.destroyed.map((list, p) => el("span", {}, `${t("player", { n: p + 1 })} ✝ ${list.map((c) => (cards[c] ? cards[c].name : c)).join(", ") || "—"}`)));
  container.replaceChildren(board, facts);
}
