// The replay viewer: step through a finished game's record as one player or a spectator saw it.
import { agentWords, el, lang, langPicker, t } from "/static/i18n.js";
import { loadBoard } from "/static/boards/index.js";

const gameId = location.pathname.split("/").pop();
const $ = (id) => document.getElementById(id);
let data = null, board = null, index = 0, view = new URLSearchParams(location.search).get("view") || "spectator";

async function start() {
  document.documentElement.lang = lang();
  $("lang-slot").replaceChildren(langPicker(() => location.reload()));
  await load();
  // ← → a step, Home and End the first and the last (↑ ↓ as well, as on a chess site's move list).
  const keys = { ArrowRight: () => index + 1, ArrowLeft: () => index - 1, Home: () => 0, ArrowUp: () => 0,
    End: () => data.frames.length - 1, ArrowDown: () => data.frames.length - 1 };
  document.addEventListener("keydown", (e) => {
    if (!keys[e.key] || !data || e.target.closest("select")) return;
    e.preventDefault();
    go(keys[e.key]());
  });
}

async function load() {
  const response = await fetch(`/api/games/${gameId}/replay?view=${view}&lang=${lang()}`);
  const answer = await response.json();
  if (!response.ok) { $("message").textContent = answer.detail; return; }
  data = answer;
  board = board || await loadBoard(data.board, lang());
  controls();
  listSteps();
  go(Math.min(index, data.frames.length - 1));
}

function controls() {
  const players = data.record.players || [];
  const select = el("select", { id: "view", "aria-label": t("view"), onchange: () => { view = select.value; load(); } },
    new Option(t("spectatorView"), "spectator", false, view === "spectator"),
    players.map((_, p) => new Option(t("player", { n: p + 1 }), String(p), false, view === String(p))));
  $("controls").replaceChildren(t("view"), " ", select, " ",
    el("button", { id: "first", onclick: () => go(0) }, t("first")),
    el("button", { id: "prev", onclick: () => go(index - 1) }, t("prev")),
    el("button", { id: "next", onclick: () => go(index + 1) }, t("next")),
    el("button", { id: "last", onclick: () => go(data.frames.length - 1) }, t("last")));
  $("links").replaceChildren(el("a", { href: `/api/games/${gameId}/record`, download: `coliseo-${gameId}.json` }, t("download")));
}

function go(n) {
  index = Math.max(0, Math.min(n, data.frames.length - 1));
  const frame = data.frames[index];
  const viewer = view === "spectator" ? null : Number(view);
  $("title").textContent = data.name || data.game;
  $("step").textContent = t("step", { n: index, m: data.frames.length - 1 }) + (frame.action ? ` · ${actionWords(index)}` : "");
  $("step").title = frame.action || "";
  board.draw($("board"), { game: data.game, you: viewer, observation: frame.observation, picture: frame.picture, legal: [],
    marks: frame.marks || [] }, { targets: new Set(), selection: [], marks: new Set(frame.marks || []), onTarget: null });
  $("log").replaceChildren(...frame.events.map((text) => el("li", {}, text)));
  $("steps").querySelectorAll("button").forEach((button, n) => {
    if (n + 1 !== index) { button.removeAttribute("aria-current"); return; }
    button.setAttribute("aria-current", "step");
    // Scroll the list only (scrollIntoView would scroll the page too, off the board on a phone).
    const list = $("steps"), top = button.offsetTop, bottom = top + button.offsetHeight;
    if (top < list.scrollTop || bottom > list.scrollTop + list.clientHeight) list.scrollTop = top - list.clientHeight / 2;
  });
  document.body.dataset.step = String(index);
}

// The whole game at a glance, as a move list: every step in words, under the turn it was played in (a turn's
// heading names its player by the coloured number of the table's seat panels); a click goes to a step.
function listSteps() {
  $("steps-title").textContent = t("allSteps");
  const seats = data.record.players.map((agent, p) => `${t("player", { n: p + 1 })}: ${agentWords(agent)}`);
  $("result").replaceChildren(el("b", {}, data.result_text), el("br"),
    ...(data.result_detail ? [data.result_detail, el("br")] : []), el("small", {}, seats.join(" · ")));
  const turns = [];
  data.frames.forEach((frame, n) => {
    if (!n) return;
    const last = turns.at(-1);
    if (!last || last.turn !== frame.turn || last.player !== frame.player) {
      turns.push({ turn: frame.turn, player: frame.player, steps: [] });
    }
    turns.at(-1).steps.push(n);
  });
  $("steps").replaceChildren(...turns.map(({ turn, player, steps }) => el("li", { "data-seat": player },
    el("div", { class: "turn-head" }, el("span", { class: "swatch", "aria-hidden": "true" }, String(player + 1)),
      `${turn ? t("turn", { n: turn }) : t("setupTurn")} · ${t("player", { n: player + 1 })}`),
    el("ol", {}, steps.map((n) => {
      const own = boardWords(n);
      return el("li", {}, el("button", { type: "button", "aria-label": `${n}. ${actionWords(n, own)}`, onclick: () => go(n) },
        el("span", { class: "n" }, String(n)), el("span", {}, own ?? actionWords(n, own))));
    })))));
}

// A step's action in the words the table uses for it, said with its player; a table command (!resign 0) is told
// by its own event.
function actionWords(n, own = boardWords(n)) {
  const frame = data.frames[n];
  return own === null ? frame.events[0] || frame.action : `${t("player", { n: frame.player + 1 })}: ${own}`;
}

// A step's action in the words its player was offered (the frame's `words`, in that player's own view of the game);
// null in anyone else's view (the words may name what only that player knew) and for a table command.
function boardWords(n) { return data.frames[n].words ?? null; }

start();
