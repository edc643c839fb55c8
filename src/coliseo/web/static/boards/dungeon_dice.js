// Dungeon Dice Monsters: the dungeon grid, both players' paths, monsters and Dungeon Masters, the crest pools,
// and, while a die is being dimensioned, the candidate nets at the chosen anchor.
import { el, t } from "/static/i18n.js";
import { PLAYER_COLORS, spot, svg, title, loadCards } from "/static/boards/svg.js";

const SIZES = { jdmc: [14, 20], classic: [13, 19] };
// The 11 cube nets as (x, y) offsets (the same table as the game's board.py, rule R17).
const NETS = {
  T: [[-1, 1], [0, 1], [1, 1], [0, 0], [0, -1], [0, -2]], Y: [[-1, 1], [0, 1], [0, 0], [1, 0], [0, -1], [0, -2]],
  Z: [[-1, 1], [0, 1], [0, 0], [0, -1], [0, -2], [1, -2]], V: [[-1, 1], [0, 1], [0, 0], [0, -1], [1, -1], [0, -2]],
  X: [[0, 1], [-1, 0], [0, 0], [1, 0], [0, -1], [0, -2]], N: [[0, 1], [-1, 0], [0, 0], [0, -1], [1, -1], [0, -2]],
  M: [[-1, 1], [0, 1], [0, 0], [0, -1], [1, -1], [1, -2]], E: [[-1, 1], [-1, 0], [0, 0], [0, -1], [1, -1], [1, -2]],
  P: [[-1, 1], [-1, 0], [0, 0], [1, 0], [0, -1], [0, -2]], R: [[-1, 1], [-1, 0], [0, 0], [0, -1], [1, -1], [0, -2]],
  L: [[0, 2], [0, 1], [0, 0], [1, 0], [1, -1], [1, -2]],
};
const CRESTS = { S: "Summon", M: "Move", A: "Attack", D: "Defense", G: "Magic", T: "Trap", E: "Effect", Z: "Zash" };
let cards = {};

export async function prepare(lang) { cards = await loadCards("dungeon_dice", lang); }

const SQUARE = /^[a-n]\d{1,2}$/;

/** The clicks of an action: a net is its anchor square, then the net; others are their words, then their squares. */
export function targetsOf(text) {
  const dim = text.match(/^dim ([A-Z])(\d)@([a-n]\d+)$/);
  if (dim) return [dim[3], `${dim[1]}${dim[2]}@${dim[3]}`];
  const words = text.split(" ");
  const squares = words.filter((w) => SQUARE.test(w));
  const rest = words.filter((w) => !SQUARE.test(w));
  if (rest[0] === "move") return squares;
  return rest.length ? [rest.join(" "), ...squares] : squares;
}

export function describe(text) {
  const name = (id) => (cards[id] ? cards[id].name : id);
  return text.split(" ").map((w) => (cards[w] ? name(w) : w)).join(" ");
}

export function label(target) { return cards[target] ? cards[target].name : target; }

function netSquares(code) {
  const [, letter, o, anchor] = code.match(/^([A-Z])(\d)@([a-n])(\d+)$/) || [];
  if (!letter) return [];
  const ax = anchor.charCodeAt(0) - 97, ay = Number(code.split("@")[1].slice(1)) - 1;
  const r = Number(o) % 4, mirror = Number(o) >= 4;
  return NETS[letter].map(([x0, y0]) => {
    let [x, y] = [mirror ? -x0 : x0, y0];
    for (let i = 0; i < r; i++) [x, y] = [y, -x];
    return `${String.fromCharCode(97 + ax + x)}${ay + y + 1}`;
  });
}

export function draw(container, payload, ui) {
  const obs = payload.observation;
  const [w, h] = SIZES[(obs.options || {}).board] || SIZES.jdmc;
  const flip = payload.you === 1;
  const owner = new Map();
  (obs.path || []).forEach((squares, p) => squares.forEach((sq) => owner.set(sq, p)));
  const holes = new Set(obs.holes || []);
  const pieces = new Map((obs.pieces || []).map((p) => [p.square, p]));
  // Candidate nets at the chosen anchor are drawn as outlines.
  const preview = new Set();
  const hovered = ui.preview && targetsOf(ui.preview)[1];
  if (hovered && hovered.includes("@")) netSquares(hovered).forEach((s) => preview.add(s));
  else if (ui.selection && ui.selection.length === 1) {
    for (const text of payload.legal || []) {
      const steps = targetsOf(text);
      if (steps[0] === ui.selection[0] && steps[1] && steps[1].includes("@")) netSquares(steps[1]).forEach((s) => preview.add(s));
    }
  }
  const board = svg("svg", { viewBox: `-0.6 -0.1 ${w + 0.7} ${h + 0.6}`, role: "img", "aria-label": `dungeon ${w}×${h}` });
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const name = `${String.fromCharCode(97 + x)}${y + 1}`;
      const px = flip ? w - 1 - x : x, py = flip ? y : h - 1 - y;
      const piece = pieces.get(name);
      const fill = holes.has(name) ? "#333" : owner.has(name) ? (owner.get(name) === 0 ? "#cfe0f3" : "#f3d3cf") : "#efe9dc";
      const text = pieceText(piece, name);
      board.append(spot(name, ui, { transform: `translate(${px} ${py})`, "aria-label": text },
        svg("rect", { class: "cell", width: 1, height: 1, fill, stroke: preview.has(name) ? "#d9a400" : "#cbbfa6",
          "stroke-width": preview.has(name) ? 0.12 : 0.02 }),
        piece ? pieceShape(piece) : null, title(text)));
    }
  }
  for (let x = 0; x < w; x++) {
    board.append(svg("text", { x: (flip ? w - 1 - x : x) + 0.5, y: h + 0.35, "font-size": 0.3, "text-anchor": "middle",
      fill: "#6b655b" }, String.fromCharCode(97 + x)));
  }
  for (let y = 0; y < h; y++) {
    board.append(svg("text", { x: -0.3, y: (flip ? y : h - 1 - y) + 0.6, "font-size": 0.3, "text-anchor": "middle",
      fill: "#6b655b" }, String(y + 1)));
  }
  const pools = (obs.pool || []).map((pool, p) => el("div", { class: "zone" },
    el("b", {}, `${t("player", { n: p + 1 })} ♥ ${(obs.hearts || [])[p]}`),
    Object.entries(pool).filter(([, n]) => n).map(([c, n]) => el("span", { class: "card", title: CRESTS[c] || c }, `${c} ${n}`)),
    el("span", {}, ` · ${t("dice")} ${(obs.library_sizes || [])[p] ?? "?"}`)));
  const rolls = (obs.rolls || []).length ? el("div", { class: "zone" }, el("b", {}, t("roll")),
    obs.rolls.flat().map((r) => el("span", { class: "card" }, r))) : null;
  container.replaceChildren(board, el("div", { class: "kv" }, el("span", {}, `${t("phase")}: ${obs.phase}`),
    obs.placing ? el("span", {}, `${t("placing")}: ${label(obs.placing)}`) : null), ...pools, rolls);
}

function pieceText(piece, square) {
  if (!piece) return square;
  const who = t("player", { n: piece.player + 1 });
  if (piece.master) return `${who}: Dungeon Master on ${square}`;
  const card = cards[piece.card];
  return `${who}: ${card ? card.name : piece.card} (level ${piece.level}) ATK ${piece.atk} DEF ${piece.def} on ${square}`;
}

function pieceShape(piece) {
  const color = PLAYER_COLORS[piece.player];
  if (piece.master) {
    return svg("g", { class: "piece" }, svg("path", { d: "M.5 .85 L.15 .45 A.18 .18 0 0 1 .5 .3 A.18 .18 0 0 1 .85 .45 Z",
      fill: color }), svg("text", { x: 0.5, y: 0.62, "font-size": 0.25, "text-anchor": "middle", fill: "#fff" }, "DM"));
  }
  const card = cards[piece.card];
  return svg("g", { class: "piece" },
    svg("rect", { x: 0.1, y: 0.1, width: 0.8, height: 0.8, rx: 0.1, fill: "#fff", stroke: color, "stroke-width": 0.08 }),
    svg("text", { x: 0.5, y: 0.42, "font-size": 0.2, "text-anchor": "middle" }, (card ? card.name : piece.card).slice(0, 7)),
    svg("text", { x: 0.5, y: 0.72, "font-size": 0.2, "text-anchor": "middle", fill: color }, `${piece.atk / 100 | 0}/${piece.def / 100 | 0}`));
}
