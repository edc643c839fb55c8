// The game table: one WebSocket for this seat (or a spectator), the board, the actions, the log.
import { el, lang, langPicker, seatKey, t } from "/static/i18n.js";
import { loadBoard } from "/static/boards/index.js";

const gameId = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
let socket = null, seatInfo = null, payload = null, board = null, selection = [], retry = 300, nextRef = 1;
let preview = null;          // the action whose button is hovered or focused, drawn on the board when it can be
// Controls wait for the server: from a send until its ack or error, and from a lost connection until a fresh state.
let awaitingAnswer = false, stateIsFresh = false;

async function start() {
  document.documentElement.lang = lang();
  $("lang-slot").replaceChildren(langPicker(() => location.reload()));
  $("actions-title").textContent = t("actions");
  $("log-title").textContent = t("log");
  seatInfo = JSON.parse(localStorage.getItem(seatKey(gameId)) || "null");
  if (params.has("spectate")) seatInfo = null;
  else if (params.has("join") && !seatInfo) {
    const response = await fetch(`/api/games/${gameId}/join`, { method: "POST",
      headers: { "content-type": "application/json" }, body: "{}" });
    const answer = await response.json();
    if (response.ok) {
      seatInfo = answer;
      localStorage.setItem(seatKey(gameId), JSON.stringify(answer));
      history.replaceState(null, "", `/play/${gameId}`);
    } else say(answer.detail);
  }
  connect();
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") cancel(); });
}

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${gameId}`);
  socket.onopen = () => {
    retry = 300;
    socket.send(JSON.stringify({ type: "hello", token: seatInfo ? seatInfo.token : null, lang: lang() }));
  };
  socket.onmessage = (e) => receive(JSON.parse(e.data));
  socket.onclose = () => {
    markDisconnected();
    $("status").textContent = t("reconnecting");
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 3000);
  };
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

async function receive(message) {
  if (message.type === "state") {
    markFresh();
    const changed = !payload || payload.ply !== message.ply;
    payload = message;
    if (changed) selection = [];
    if (!board) board = await loadBoard(message.game, lang());
    draw();
  } else if (message.type === "error") {
    say(message.message);
    answered();
    if (message.fatal) { socket.onclose = null; socket.close(); }
  } else if (message.type === "ack") {
    say("");
    answered();
  }
}

// --- the stale-action rule: every command names its ply; controls wait for the answer ---------
function controlsLocked() { return awaitingAnswer || !stateIsFresh; }

function sendCommand(message) {
  if (controlsLocked() || !payload) return;
  awaitingAnswer = true;
  send({ ...message, ply: payload.ply, ref: nextRef++ });
  draw();
}

function answered() {
  awaitingAnswer = false;
  if (payload) draw();
}

function markDisconnected() {
  stateIsFresh = false;
  awaitingAnswer = false;
  document.body.dataset.connected = "false";
  $("offline").textContent = t("offline");
  $("offline").hidden = false;
  if (payload) draw();
}

function markFresh() {
  stateIsFresh = true;
  document.body.dataset.connected = "true";
  $("offline").hidden = true;
}

function say(text) { $("message").textContent = text; }

function act(text) {
  say("");
  sendCommand({ type: "act", action: text });
}

function cancel() { selection = []; if (payload) draw(); }

// --- choosing an action by clicks -----------------------------------------------------------
function choices() {
  const actions = payload.legal.map((text) => ({ text, steps: board.targetsOf(text) }));
  const candidates = actions.filter((a) => selection.every((s, i) => a.steps[i] === s));
  const next = new Set(candidates.filter((a) => a.steps.length > selection.length).map((a) => a.steps[selection.length]));
  return { candidates, next };
}

function chooseTarget(target) {
  if (controlsLocked()) return;
  const { next } = choices();
  if (!next.has(target)) {
    say(t("notLegal", { t: [...selection, target].join(" → ") }));
    return;
  }
  selection.push(target);
  const { candidates } = choices();
  if (candidates.length === 1 && candidates[0].steps.length === selection.length) act(candidates[0].text);
  else draw();
}

function drawActions() {
  const box = $("actions");
  if (!payload.legal.length) {
    box.replaceChildren(el("p", {}, payload.result ? t("over") : payload.you === null ? t("spectator") : t("noActions")));
    $("choice").textContent = "";
    return;
  }
  const { candidates, next } = choices();
  $("choice").replaceChildren(selection.length
    ? el("span", {}, t("selected", { s: selection.join(" → ") }), " ",
      el("button", { onclick: cancel, id: "cancel" }, t("cancel")))
    : "");
  const done = candidates.filter((a) => a.steps.length === selection.length);
  const buttons = [];
  if (candidates.length <= 24) {
    for (const a of candidates) buttons.push(actionButton(a.text));
  } else {
    for (const a of done) buttons.push(actionButton(a.text));
    buttons.push(el("p", {}, t("pick")));
    for (const target of next) {
      buttons.push(el("button", { class: "step", "data-step": target, onclick: () => chooseTarget(target), disabled: controlsLocked() },
        board.label ? board.label(target, payload) : target));
    }
  }
  box.replaceChildren(...buttons);
}

function actionButton(text) {
  const show = (value) => () => { preview = value; drawBoard(); };
  return el("button", { class: "action", "data-action": text, title: text, onclick: () => act(text), disabled: controlsLocked(),
    onmouseenter: show(text), onfocus: show(text), onmouseleave: show(null), onblur: show(null) },
  board.describe ? board.describe(text, payload) : text);
}

// Only the board is redrawn for a preview, so the button under the pointer stays.
function drawBoard() {
  const { next } = payload.legal.length && !controlsLocked() ? choices() : { next: new Set() };
  const previewed = new Set(preview ? board.targetsOf(preview) : []);
  board.draw($("board"), payload, { targets: next, selection, marks: new Set(payload.marks), onTarget: chooseTarget,
    preview, previewed });
}

// --- the picture ----------------------------------------------------------------------------
function draw() {
  const me = payload.you;
  $("title").textContent = payload.name;
  document.title = `${payload.name} · Coliseo`;
  const status = payload.result ? resultText(payload.result)
    : payload.current_player === me && me !== null ? t("yourTurn")
      : t("waiting", { p: t("player", { n: payload.current_player + 1 }) });
  $("status").replaceChildren(el("span", { class: payload.result ? "result" : "" }, `${t("turn", { n: payload.turn })} · ${status}`));
  $("seats").replaceChildren(...payload.seats.map((s, p) => el("span",
    { class: `seat${payload.current_player === p ? " turn" : ""}`, "data-seat": p },
    `${t("player", { n: p + 1 })}: ${s.kind === "ai" ? `${t("ai")} ${s.agent}` : s.taken ? t("human") : t("free")}`,
    s.handed_over ? ` (${t("handed")})` : "", p === me ? ` (${t("you")})` : "")));
  preview = null;
  drawBoard();
  drawActions();
  drawLog();
  drawLinks();
  document.body.dataset.ply = String(payload.ply);
  document.body.dataset.locked = String(controlsLocked());
  document.body.dataset.over = String(Boolean(payload.result));
}

function resultText(result) {
  const winners = result.winners || [];
  return `${t("over")} — ${winners.length ? t("winners", { w: winners.map((w) => t("player", { n: w + 1 })).join(", ") }) : t("draw")}`;
}

function drawLog() {
  const log = $("log");
  log.replaceChildren(...payload.log.map((e) => el("li", { class: e.ply === payload.ply ? "last" : "" }, e.text)));
  log.scrollTop = log.scrollHeight;
}

function drawLinks() {
  const origin = location.origin;
  const items = [el("h2", {}, t("links"))];
  if (payload.seats.some((s) => !s.taken)) {
    items.push(el("label", {}, t("joinLink"), el("input", { readonly: true, id: "join-link", value: `${origin}/play/${gameId}?join=1` })));
  }
  items.push(el("label", {}, t("spectateLink"), el("input", { readonly: true, value: `${origin}/play/${gameId}?spectate=1` })));
  items.push(el("p", { class: "commitment", title: t("commitmentHelp") }, `${t("commitment")}: `,
    el("code", {}, payload.seed_commitment.slice(0, 16) + "…")));
  if (payload.can_undo) {
    items.push(el("p", {}, el("button", { id: "undo", disabled: controlsLocked(), onclick: () => sendCommand({ type: "undo" }) }, t("undo"))));
  }
  if (payload.result) {
    items.push(el("p", {}, el("a", { href: `/api/games/${gameId}/record`, download: `coliseo-${gameId}.json`, id: "download" }, t("download")),
      " · ", el("a", { href: `/replay/${gameId}` }, t("replay"))));
  }
  $("links").replaceChildren(...items);
}

start();
