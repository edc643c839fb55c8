// Fantastiqa: the six regions and the seven paths between them with their creatures, the travellers,
// the open quests, your hand and quests, and every adventurer's gems and score.
import { el, t } from "/static/i18n.js";
import { PLAYER_COLORS, cardLine, spot, svg, title, loadCards } from "/static/boards/svg.js";

const PLACE = { TL: [0, 0], TR: [1, 0], ML: [0, 1], MR: [1, 1], BL: [0, 2], BR: [1, 2] };
const SPACE_ENDS = { 1: ["TL", "TR"], 2: ["TR", "MR"], 3: ["MR", "BR"], 4: ["BR", "BL"], 5: ["BL", "ML"], 6: ["ML", "TL"], 7: ["ML", "MR"] };
const REGION_COLORS = { FOR: "#9fcf96", FLD: "#e8dd8c", HIL: "#c9a97a", HGH: "#b8b8c8", WET: "#8fc3c9", FRZ: "#dbeaf5" };
let cards = {};

export async function prepare(lang) { cards = await loadCards("fantastiqa", lang); }

/** sub 2 p1NE → sp2, p1NE · teleport TL → TL · other actions: their words (card and quest ids are clickable). */
export function targetsOf(text) {
  const w = text.split(" ");
  if (w[0] === "sub") return [`sp${w[1]}`, ...w.slice(2)];
  if ((w[0] === "teleport" || w[0] === "start") && PLACE[w[1]]) return [w[1]];
  return w;
}

const name = (id) => (cards[id] ? cards[id].name : id);
export function label(target) { return target.startsWith("sp") ? `${t("path")} ${target.slice(2)}` : name(target); }
export function describe(text) { return text.split(" ").map((w) => (cards[w] ? name(w) : w)).join(" "); }

function center(pos) { const [c, r] = PLACE[pos]; return [2.5 + c * 6, 1.8 + r * 4.2]; }

export function draw(container, payload, ui) {
  const obs = payload.observation;
  const board = svg("svg", { viewBox: "0 0 11 12.2", role: "img", "aria-label": "Fantastiqa board" });
  for (const [space, [a, b]] of Object.entries(SPACE_ENDS)) {
    const [x1, y1] = center(a), [x2, y2] = center(b);
    const crossed = (obs.crossed || []).includes(Number(space));
    board.append(svg("line", { x1, y1, x2, y2, stroke: crossed ? "#d9a400" : "#9b8f78", "stroke-width": crossed ? 0.18 : 0.08 }));
  }
  for (const region of obs.layout || []) {
    const [x, y] = center(region.pos);
    const here = (obs.people || []).filter((p) => p.position === region.pos);
    board.append(spot(region.pos, ui, { transform: `translate(${x - 1.8} ${y - 1.1})`, "aria-label": `${region.region} (${region.pos})` },
      svg("rect", { class: "cell", width: 3.6, height: 2.2, rx: 0.3, fill: REGION_COLORS[region.region] || "#ddd", stroke: "#6b655b", "stroke-width": 0.05 }),
      svg("text", { x: 1.8, y: 0.55, "font-size": 0.4, "text-anchor": "middle" }, region.region),
      svg("text", { x: 1.8, y: 1.05, "font-size": 0.3, "text-anchor": "middle", fill: "#6b655b" }, `${t("statue")} ${region.statue}`),
      here.map((p, i) => svg("g", { transform: `translate(${0.5 + i * 0.7} 1.5)` },
        svg("rect", { x: -0.25, y: -0.25, width: 0.5, height: 0.5, transform: `rotate(${p.player * 20})`, fill: PLAYER_COLORS[p.player] }),
        svg("text", { x: 0, y: 0.12, "font-size": 0.3, "text-anchor": "middle", fill: "#fff" }, String(p.player + 1)))),
      title(`${region.region} (${region.pos})${here.length ? ": " + here.map((p) => t("player", { n: p.player + 1 })).join(", ") : ""}`)));
  }
  for (const s of obs.spaces || []) {
    const [a, b] = SPACE_ENDS[s.space].map(center);
    const x = (a[0] + b[0]) / 2, y = (a[1] + b[1]) / 2;
    const text = `${t("path")} ${s.space}: ${s.creature ? name(s.creature) : t("empty")}${s.gems ? `, ${t("gems")} ${s.gems}` : ""}`;
    board.append(spot(`sp${s.space}`, ui, { transform: `translate(${x - 0.75} ${y - 0.45})`, "aria-label": text },
      svg("rect", { class: "cell", width: 1.5, height: 0.9, rx: 0.2, fill: "#fff", stroke: "#6b655b", "stroke-width": 0.04 }),
      svg("text", { x: 0.75, y: 0.4, "font-size": 0.24, "text-anchor": "middle" }, s.creature ? name(s.creature).slice(0, 10) : "—"),
      svg("text", { x: 0.75, y: 0.75, "font-size": 0.22, "text-anchor": "middle", fill: "#8a5a00" }, s.gems ? "◆".repeat(s.gems) : ""),
      title(text)));
  }
  const chip = (id, extra = "") => {
    const classes = ["card"];
    if (ui.targets && ui.targets.has(id)) classes.push("target");
    if (ui.selection && ui.selection.includes(id)) classes.push("selected");
    return el("button", { class: classes.join(" "), "data-target": id, title: cards[id] ? cardLine(cards[id]) : id,
      onclick: () => ui.onTarget && ui.onTarget(id) }, `${name(id)}${extra}`);
  };
  const me = (obs.people || []).find((p) => p.player === payload.you);
  const rows = [el("div", { class: "kv" }, el("span", {}, `${t("phase")}: ${obs.phase}`), el("span", {}, `${t("goal")}: ${obs.goal}`),
    el("span", {}, `${t("route")}: ${(obs.route || []).join(" → ") || "—"}`))];
  const open = (obs.open_quests || []).filter((q) => q.quest);
  if (open.length) rows.push(el("div", { class: "zone" }, el("b", {}, t("openQuests")), open.map((q) => chip(q.quest, q.bonus ? " ★" : ""))));
  if (obs.draft) {
    rows.push(el("div", { class: "zone" }, el("b", {}, `draft: ${obs.draft.step}`),
      [...(obs.draft.quests || []), ...(obs.draft.artifacts || [])].map((c) => chip(c))));
  }
  if ((obs.row || []).length) rows.push(el("div", { class: "zone" }, el("b", {}, obs.row_kind || "row"), obs.row.map((c) => chip(c))));
  if (me) {
    rows.push(el("div", { class: "zone" }, el("b", {}, t("hand")), (me.hand || []).map((c) => chip(c))));
    rows.push(el("div", { class: "zone" }, el("b", {}, t("quests")), me.quests.map((q) => chip(q.quest, q.committed.length ? ` (${q.committed.length})` : ""))));
  }
  for (const p of obs.people || []) {
    rows.push(el("div", { class: "zone" }, el("b", { style: `color:${PLAYER_COLORS[p.player]}` }, t("player", { n: p.player + 1 })),
      el("span", {}, `${t("gems")} ${p.gems} · ${t("score")} ${p.score} · ${t("hand")} ${p.hand_size} · ${t("deck")} ${p.draw_size} · ${t("carpets")} ${p.carpets}`),
      (p.play || []).map((c) => el("span", { class: "card" }, name(c)))));
  }
  container.replaceChildren(board, ...rows);
}
