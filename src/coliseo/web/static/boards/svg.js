// Small helpers to build SVG boards.
const NS = "http://www.w3.org/2000/svg";

export function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v);
  node.append(...children.flat().filter((c) => c !== null && c !== undefined));
  return node;
}

export function title(text) { return svg("title", {}, text); }

/** A clickable, focusable square or zone: Enter or a click chooses it when it is a legal next step. */
export function spot(id, ui, attrs, ...children) {
  const classes = ["spot"];
  if (ui.targets && ui.targets.has(id)) classes.push("target");
  if ((ui.selection && ui.selection.includes(id)) || (ui.previewed && ui.previewed.has(id))) classes.push("selected");
  if (ui.marks && ui.marks.has(id)) classes.push("recent");
  const g = svg("g", { class: classes.join(" "), "data-target": id, ...attrs }, ...children);
  if (ui.targets && ui.targets.has(id)) {
    g.setAttribute("tabindex", "0");
    g.setAttribute("role", "button");
  } else if (!g.hasAttribute("tabindex")) {
    // Chromium lets Tab reach an SVG element that has a focus listener: only targets (and what a board names) may.
    g.setAttribute("tabindex", "-1");
  }
  if (ui.onTarget) {
    g.addEventListener("click", () => ui.onTarget(id));
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); ui.onTarget(id); } });
  }
  if (ui.inspect) {
    g.addEventListener("pointerenter", () => ui.inspect(id));
    g.addEventListener("focus", () => ui.inspect(id));
  }
  return g;
}

const styles = new Map();

/** Adds a board's own stylesheet (static/boards/<game>.css) to the page once; resolves when it has loaded (or
 * failed to). */
export function loadStyle(game) {
  if (!styles.has(game)) {
    styles.set(game, new Promise((done) => {
      const link = Object.assign(document.createElement("link"), { rel: "stylesheet", href: `/static/boards/${game}.css` });
      link.onload = link.onerror = done;
      document.head.append(link);
    }));
  }
  return styles.get(game);
}

// A game's content rows by id (String(id): numeric ids too), in the chosen language; {} if unreachable.
export async function loadCards(game, lang) {
  try {
    const rows = await (await fetch(`/api/content/${game}?lang=${lang}`)).json();
    return Object.fromEntries(rows.map((r) => [String(r.id), r]));
  } catch { return {}; }
}

export const PLAYER_COLORS = ["#2563a8", "#b23a2e", "#2f7d3a", "#8a5a00"];

/** A content row (a card, a monster, a die) as one readable line for a tooltip. */
export function cardLine(row) {
  if (!row) return "";
  return [row.name, ...Object.entries(row).filter(([k, v]) => !["id", "name"].includes(k) && v !== "" && v !== null)
    .map(([k, v]) => `${k} ${v}`)].join(" · ");
}
