// Forbidden Memories duel: both fields (monster and spell zones), LP, decks, the terrain and your hand.
// A play is built by clicks: hand cards in order (one card, or a combination to fuse), then a zone, then face up/down.
import { el, t } from "/static/i18n.js";
import { PLAYER_COLORS, cardLine, spot, svg, title, loadCards } from "/static/boards/svg.js";

let cards = {};

export async function prepare(lang) { cards = await loadCards("forbidden", lang); }

/** play 4+2 m3 fd → h4, h2, my-m3, fd · attack m1 m2 → my-m1, op-m2 · pos m1 → my-m1, pos. */
export function targetsOf(text) {
  const w = text.split(" ");
  if (w[0] === "play") return [...w[1].split("+").map((n) => `h${n}`), ...w.slice(2).map((z) => (/^[ms]\d$/.test(z) ? `my-${z}` : z))];
  if (w[0] === "attack") return [`my-${w[1]}`, w[2] === "direct" ? "direct" : `op-${w[2]}`];
  if (w[0] === "pos") return [`my-${w[1]}`, "pos"];
  return [text];
}

export function label(target, payload) {
  const hand = payload && payload.observation.sides[payload.you]?.hand;
  const m = target.match(/^h(\d)$/);
  if (m && hand) return `${target}: ${name(hand[Number(m[1]) - 1])}`;
  return target;
}

export function describe(text, payload) {
  const hand = payload && payload.observation.sides[payload.you]?.hand;
  const m = text.match(/^play ([\d+]+) (.*)$/);
  if (m && hand) return `${m[1].split("+").map((n) => name(hand[Number(n) - 1])).join(" + ")} → ${m[2]}`;
  return text;
}

function name(id) { return id === null || id === undefined ? "?" : cards[String(id)] ? cards[String(id)].name : `#${id}`; }

function cardFace(card, x, y, color, target, ui, extra = "") {
  const known = card && card.id !== null && card.id !== undefined;
  const row = known ? cards[String(card.id)] : null;
  const text = known ? `${name(card.id)}${row && row.kind === "monster" ? ` ATK ${card.atk ?? row.atk} DEF ${card.def ?? row.def}` : ""}${extra}`
    : card ? "face-down card" : target;
  const body = [];
  if (!card) body.push(svg("rect", { class: "cell", width: 1.6, height: 2.2, rx: 0.1, fill: "#efe9dc", stroke: "#cbbfa6", "stroke-width": 0.03 }));
  else if (!known) {
    body.push(svg("rect", { class: "cell", width: 1.6, height: 2.2, rx: 0.1, fill: "#6b4f2a", stroke: color, "stroke-width": 0.06 }));
  } else {
    const rotate = card.position === "def" ? "rotate(90 0.8 1.1)" : undefined;
    body.push(svg("g", { transform: rotate },
      svg("rect", { class: "cell", width: 1.6, height: 2.2, rx: 0.1, fill: card.face_up === false ? "#e8dcc8" : "#fff",
        stroke: color, "stroke-width": 0.06 }),
      svg("text", { x: 0.8, y: 0.5, "font-size": 0.22, "text-anchor": "middle" }, name(card.id).slice(0, 12)),
      row && row.kind === "monster" ? svg("text", { x: 0.8, y: 1.8, "font-size": 0.22, "text-anchor": "middle" },
        `${card.atk ?? row.atk}/${card.def ?? row.def}`) : null));
  }
  return spot(target, ui, { transform: `translate(${x} ${y})`, "aria-label": text }, body, title(text));
}

export function draw(container, payload, ui) {
  const obs = payload.observation;
  const me = payload.you ?? 0;
  const order = [1 - me, me];              // the opponent on top, you below
  const board = svg("svg", { viewBox: "0 0 11 14.6", role: "img", "aria-label": "duel field" });
  order.forEach((side, row) => {
    const s = obs.sides[side];
    const mine = side === me && payload.you !== null;
    const prefix = mine ? "my" : "op";
    const color = PLAYER_COLORS[side];
    const monstersY = row === 0 ? 3.0 : 7.4, spellsY = row === 0 ? 0.6 : 9.8;
    s.monsters.forEach((card, i) => board.append(cardFace(card, 0.3 + i * 2.1, monstersY, color, `${prefix}-m${i + 1}`, ui,
      card && card.star ? ` · star ${card.star}` : "")));
    s.spells.forEach((card, i) => board.append(cardFace(card, 0.3 + i * 2.1, spellsY, color, `${prefix}-s${i + 1}`, ui)));
  });
  board.append(spot("direct", ui, { transform: "translate(0.3 5.55)" },
    svg("rect", { class: "cell", width: 10.4, height: 1.5, rx: 0.2, fill: "#fbf8f1", stroke: "#cbbfa6", "stroke-width": 0.03 }),
    svg("text", { x: 5.2, y: 1, "font-size": 0.45, "text-anchor": "middle", fill: "#6b655b" },
      `${t("player", { n: 1 - me + 1 })}: LP ${obs.sides[1 - me].lp} · ${t("player", { n: me + 1 })}: LP ${obs.sides[me].lp}`)));
  const own = obs.sides[me];
  const hand = el("div", { class: "zone" }, el("b", {}, t("hand")),
    (own.hand || []).map((id, i) => {
      const target = `h${i + 1}`;
      const classes = ["card"];
      if (ui.targets && ui.targets.has(target)) classes.push("target");
      if (ui.selection && ui.selection.includes(target)) classes.push("selected");
      const row = cards[String(id)];
      return el("button", { class: classes.join(" "), "data-target": target, title: cardLine(row),
        onclick: () => ui.onTarget && ui.onTarget(target) }, `${i + 1}. ${name(id)}${row && row.kind === "monster" ? ` ${row.atk}/${row.def}` : ""}`);
    }));
  const opp = obs.sides[1 - me];
  const info = el("div", { class: "kv" }, el("span", {}, `${t("phase")}: ${obs.phase}`), el("span", {}, `${t("terrain")}: ${obs.terrain}`),
    el("span", {}, `${t("deck")} ${own.deck_size} / ${opp.deck_size}`), el("span", {}, `${t("oppHand")}: ${opp.hand_size} ▮`),
    obs.pending ? el("span", {}, `${t("pending")}: ${obs.pending}`) : null);
  container.replaceChildren(board, info, payload.you === null ? "" : hand);
}
