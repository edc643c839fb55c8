// The game table: one WebSocket for this seat (or a spectator), the board, the turn controls, the inspector, the log.
// The board module draws and names things (docs/web.md, "The board contract"); this frame keeps the choice being built
// and plays it.
import { agentName, agentWord, el, lang, langPicker, seatKey, t } from "/static/i18n.js";
import { loadBoard } from "/static/boards/index.js";

const gameId = location.pathname.split("/").pop();
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
let socket = null, seatInfo = null, payload = null, board = null, selection = [], retry = 300, nextRef = 1;
let boardLoading = null;     // one load of the board, however many states arrive while it loads
// Secrets travel after '#' in links (never sent to a server): the invite, which joined seats keep to share it on,
// and a seat's token in the link to play that seat on another device.
const fragment = new URLSearchParams(location.hash.slice(1));
let invite = fragment.get("invite");
let seatFromLink = false;    // this page was opened by a seat link, and no state has come yet
let preview = null;          // the action whose button is hovered or focused, drawn on the board when it can be
let drawn = null;            // the payload on screen before this redraw: boards animate what changed (ui.previous)
let inspected = null;        // the board thing shown in the inspector
let drag = null;             // the board thing a pointer went down on, for drag-and-drop
let lostClick = null;        // a click on a thing redrawn under the pointer (see the pointerup handler)
let draws = 0, fromState = false;
// Controls wait for the server: from a send until its ack or error, and from a lost connection until a fresh state.
let awaitingAnswer = false, stateIsFresh = false;
let confirmingResign = false;
let dialogShownFor = null;   // the game whose game-over dialog was opened (once; the player may close it)
let sound = localStorage.getItem("coliseo.sound") === "on";

async function start() {
  document.documentElement.lang = lang();
  $("lang-slot").replaceChildren(langPicker(() => location.reload()));
  $("all-actions-title").textContent = t("allActions");
  $("log-title").textContent = t("log");
  $("inspector-title").textContent = t("inspector");
  $("tools").replaceChildren(soundToggle());
  $("status").textContent = t("settingUp");
  if (fragment.has("token")) takeSeatFromLink();
  seatInfo = JSON.parse(localStorage.getItem(seatKey(gameId)) || "null");
  if (seatInfo && seatInfo.invite) invite = seatInfo.invite;
  if (params.has("spectate")) seatInfo = null;
  else if (params.has("join") && !seatInfo) {
    const response = await fetch(`/api/games/${gameId}/join`, { method: "POST",
      headers: { "content-type": "application/json" }, body: JSON.stringify({ invite }) });
    const answer = await response.json();
    if (response.ok) {
      seatInfo = { ...answer, invite };
      localStorage.setItem(seatKey(gameId), JSON.stringify(seatInfo));
      history.replaceState(null, "", `/play/${gameId}`);
    } else say(answer.detail);
  }
  connect();
  document.addEventListener("keydown", onKey);
  $("all-actions").addEventListener("toggle", () => { if (payload) drawActions(); });
  const boardBox = $("board");
  boardBox.addEventListener("pointerdown", (e) => {
    const spot = e.target.closest("[data-target]");
    drag = spot && spot.classList.contains("target") ? spot : null;
  });
  boardBox.addEventListener("pointerup", (e) => {
    const spot = e.target.closest("[data-target]");
    if (drag && spot && spot.dataset.target !== drag.dataset.target) {
      // A drop: the same two choices as two clicks (the first may already be chosen by this gesture).
      const [from, to] = [drag.dataset.target, spot.dataset.target];
      if (selection[selection.length - 1] !== from) chooseTarget(from);
      if (selection[selection.length - 1] === from) chooseTarget(to);
    } else if (drag && spot && spot !== drag && !drag.isConnected) {
      // The board was redrawn between press and release (a state arrived): the browser may send the click to no
      // spot, so a press and release on the same thing are the click unless a spot got it.
      lostClick = spot.dataset.target;
      setTimeout(() => { if (lostClick !== null) chooseTarget(lostClick); lostClick = null; });
    }
    drag = null;
  });
  boardBox.addEventListener("click", (e) => { if (e.target.closest("[data-target]")) lostClick = null; }, true);
}

function connect() {
  socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws/${gameId}`);
  socket.onopen = () => {
    retry = 300;
    socket.send(JSON.stringify({ type: "hello", token: seatInfo ? seatInfo.token : null, lang: lang(), invite }));
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
    const changed = !payload || payload.ply !== message.ply || payload.undos !== message.undos;
    if (payload && changed) chime(message);
    payload = message;
    stepsByText = new Map(message.legal.map((text, n) => [text, message.steps[n]]));
    wordsByText = new Map(message.legal.map((text, n) => [text, message.texts[n]]));
    if (changed) selection = [];
    seatFromLink = false;
    if (!board) board = await (boardLoading ||= loadBoard(message.board, lang()));
    fromState = true;
    draw();
  } else if (message.type === "error" && message.fatal && seatFromLink) {
    forgetSeatFromLink();
  } else if (message.type === "error") {
    say(message.message);
    answered();
    if (message.fatal) { socket.onclose = null; socket.close(); }
  } else if (message.type === "ack") {
    say("");
    answered();
  } else if (message.type === "presence" && payload) {
    payload.present = message.present;
    drawSeats();
    drawBanner();
  }
}

// --- the stale-action rule: every command names its position (ply, undos); controls wait for the answer ---
function controlsLocked() { return awaitingAnswer || !stateIsFresh; }

function sendCommand(message) {
  if (controlsLocked() || !payload) return;
  awaitingAnswer = true;
  send({ ...message, ply: payload.ply, undos: payload.undos, ref: nextRef++ });
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

// Board labels are written to sit inside a sentence ("the capsule (e8)"); a message may open with one.
function sentence(text) { return text.charAt(0).toUpperCase() + text.slice(1); }

function act(text) {
  say("");
  sendCommand({ type: "act", action: text });
}

function cancel() {
  if (!selection.length) return;
  selection = [];
  if (payload) draw();
}

function onKey(e) {
  if (!payload || !board) return;
  if (e.key === "Escape") { cancel(); return; }
  if (board.keydown && board.keydown(e, uiState())) { e.preventDefault(); return; }
  // Arrows go between the board's things, except in a part of the board that scrolls (they scroll it).
  if (e.key.startsWith("Arrow") && $("board").contains(document.activeElement) && document.activeElement.getAttribute("role") !== "region") {
    if (moveFocus(e.key)) e.preventDefault();
  }
}

// Arrow keys go to the nearest focusable board thing in that direction.
function moveFocus(key) {
  const here = document.activeElement.getBoundingClientRect();
  const [dx, dy] = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[key];
  const cx = here.x + here.width / 2, cy = here.y + here.height / 2;
  let best = null, bestScore = Infinity;
  for (const node of $("board").querySelectorAll("[tabindex='0']:not([role='region'])")) {
    if (node === document.activeElement) continue;
    const r = node.getBoundingClientRect();
    const vx = r.x + r.width / 2 - cx, vy = r.y + r.height / 2 - cy;
    const along = vx * dx + vy * dy;
    if (along <= 1) continue;
    const score = along + 2 * Math.abs(vx * dy - vy * dx);
    if (score < bestScore) { best = node; bestScore = score; }
  }
  if (best) best.focus();
  return Boolean(best);
}

// --- choosing an action by clicks -----------------------------------------------------------
// The engine sends each legal action's board steps, words and kind beside its notation (docs/web.md, "The board
// contract").
let stepsByText = new Map();
let wordsByText = new Map();
function stepsOf(text) { return stepsByText.get(text) || []; }

function choices(chosen = selection) {
  const actions = payload.legal.map((text, n) => ({ text, steps: payload.steps[n], kind: payload.kinds[n] }));
  const candidates = actions.filter((a) => a.steps.length && chosen.every((s, i) => a.steps[i] === s));
  const next = new Set(candidates.filter((a) => a.steps.length > chosen.length).map((a) => a.steps[chosen.length]));
  return { candidates, next };
}

function chooseTarget(target) {
  if (!payload || controlsLocked()) return;
  if (!payload.legal.length) {
    const now = payload.current_player;
    const seated = payload.you !== null && !payload.result && now !== null && now !== undefined;
    if (seated) say(t("notYourTurn", { p: playerName(now) }));
    return;
  }
  if (selection.length && selection[selection.length - 1] === target) { cancel(); return; }
  if (!choices().next.has(target)) {
    // Clicking another piece starts over from it, as at a real table.
    if (selection.length && choices([]).next.has(target)) selection = [];
    else { say(sentence(notLegal(target))); return; }
  }
  say("");
  selection.push(target);
  inspected = target;
  const { candidates } = choices();
  if (candidates.length === 1 && candidates[0].steps.length === selection.length) act(candidates[0].text);
  else draw();
}

// An illegal click says what was wrong and what may be done instead (the choice so far is shown beside it).
function notLegal(target) {
  return t(selection.length ? "notNext" : "nothingWith", { t: name(target) });
}

function name(target) { return board.label ? board.label(target, payload) : target; }
function words(text) { return wordsByText.get(text) ?? text; }

// --- the picture ----------------------------------------------------------------------------
function uiState() {
  const { candidates, next } = payload.legal.length && !controlsLocked() ? choices() : { candidates: [], next: new Set() };
  return { targets: next, selection, candidateSteps: candidates.map((a) => a.steps),
    candidateKinds: candidates.map((a) => a.kind), marks: new Set(payload.marks),
    onTarget: chooseTarget, inspect, preview, previewed: new Set(preview ? stepsOf(preview) : []),
    previous: drawn, lang: lang() };
}

// Only the board is redrawn for a preview, so the button under the pointer stays.
function drawBoard() {
  const focused = focusedIn($("board"), "target");
  const parked = document.activeElement === $("board");   // left there while nothing could be chosen (undo sent)
  board.draw($("board"), payload, uiState());
  drawn = payload;
  // A picture that holds clickable things is a group, not an image (screen readers skip an image's inside).
  for (const picture of $("board").querySelectorAll("svg[role='img']")) {
    if (picture.querySelector("[tabindex]")) picture.setAttribute("role", "group");
  }
  if (parked) boardFocus().focus({ preventScroll: true });
  else refocusBoard(focused);
}

// A redraw replaces the elements: keyboard focus goes back to the same thing (else the first of its kind), and never
// to the page's body (a keyboard player would start over from the top).
function focusedIn(box, key) {
  const node = document.activeElement;
  return node && box.contains(node) && node !== box ? node.dataset[key] ?? null : null;
}

function refocus(box, key, value, fallback) {
  if (value === null) return;
  const again = box.querySelector(`[data-${key}="${CSS.escape(value)}"]:not([disabled])`) || box.querySelector(fallback);
  (again || boardFocus()).focus({ preventScroll: true });
}

// A board thing stays focused while Tab still reaches it; one that stopped being a target (the square a die was
// placed on, a region chosen) gives focus to the next target after it, else the first, else the board itself.
const REACHED = ":is([tabindex='0'], button:not([disabled]))";   // by Tab
function refocusBoard(value) {
  if (value === null) return;
  const same = $("board").querySelector(`[data-target="${CSS.escape(value)}"]`);
  if (same && same.matches(REACHED)) { same.focus({ preventScroll: true }); return; }
  const targets = [...$("board").querySelectorAll(`.target${REACHED}`)];
  const after = same && targets.find((n) => same.compareDocumentPosition(n) & Node.DOCUMENT_POSITION_FOLLOWING);
  (after || boardFocus()).focus({ preventScroll: true });
}

function boardFocus() { return $("board").querySelector(`.target${REACHED}`) || $("board"); }

// A table command that is gone or waits for the server (undo, once sent) gives focus to the board; the question
// "resign?" takes it to its safe answer and back.
const NEXT_COMMAND = { resign: "resign-no", "resign-no": "resign" };
function refocusCommand(id) {
  if (!id) return;
  const usable = (name) => name && $(name) && !$(name).disabled ? $(name) : null;
  (usable(id) || usable(NEXT_COMMAND[id]) || boardFocus()).focus({ preventScroll: true });
}

function draw() {
  $("title").textContent = payload.name;
  // The tab says when it is your turn, for a player who is in another tab meanwhile.
  const yourTurn = payload.you !== null && payload.current_player === payload.you && !payload.result;
  document.title = `${yourTurn ? `${t("yourTurn")} · ` : ""}${payload.name} · Coliseo`;
  preview = null;
  drawBanner();
  drawSeats();
  // The board's redraw after a state message is timed for bench/bench_redraw.py (the Performance API's user timing).
  const start = performance.now();
  drawBoard();
  if (fromState) performance.measure("coliseo:board", { start, end: performance.now() });
  if (performance.getEntriesByName("coliseo:board").length > 2000) performance.clearMeasures("coliseo:board");
  fromState = false;
  drawControls();
  drawActions();
  drawInspector();
  drawLog();
  drawLinks();
  drawGameOver();
  document.body.dataset.draws = String(++draws);
  document.body.dataset.ply = String(payload.ply);
  document.body.dataset.over = String(Boolean(payload.result));
  document.body.dataset.locked = String(controlsLocked());
  document.body.dataset.canAct = String(payload.legal.length > 0 && !controlsLocked());
  document.body.dataset.unreached = JSON.stringify(unreached());
}

// Actions whose next step is not drawn as a board target: only the folded list reaches them (a board to fix).
function unreached() {
  if (!payload.legal.length || controlsLocked()) return [];
  const onBoard = new Set([...$("board").querySelectorAll(".target[data-target]")].map((n) => n.dataset.target));
  const missing = choices().candidates.filter((a) => a.steps.length > selection.length && !onBoard.has(a.steps[selection.length]));
  return missing.map((a) => a.text);
}

function playerName(p) {
  const seat = payload.seats[p];
  return seat && seat.kind === "ai" ? t("playerAi", { n: p + 1 }) : t("player", { n: p + 1 });
}

function drawBanner() {
  const me = payload.you, now = payload.current_player;
  let text, kind;
  if (payload.result) { text = resultText(payload.result); kind = "over"; }
  else if (now === me && me !== null) { text = t("yourTurn"); kind = "mine"; }
  else if (payload.seats[now] && payload.seats[now].kind === "ai") { text = t("thinking", { p: playerName(now) }); kind = "thinking"; }
  else {
    const seat = payload.seats[now] || {};
    const why = !seat.taken ? (joinable() ? "waitingJoinLink" : "waitingJoin")
      : payload.present && !payload.present[now] ? "waitingAway" : "waiting";
    text = t(why, { p: playerName(now) }); kind = "theirs";
  }
  $("banner").dataset.kind = kind;
  $("banner").dataset.player = String(now);
  $("status").textContent = text;
  $("prompt").textContent = $("prompt").title = kind === "mine" && payload.prompt ? t("youMay", { what: payload.prompt }) : "";
  $("turn-number").textContent = t("turn", { n: payload.turn });
}

function drawSeats() {
  const me = payload.you;
  $("seats").replaceChildren(...payload.seats.map((s, p) => el("div",
    { class: `seat${payload.current_player === p && !payload.result ? " turn" : ""}`, "data-seat": p },
    el("span", { class: "swatch", "aria-hidden": "true" }, String(p + 1)),
    el("b", {}, playerName(p)), p === me ? ` (${t("you")})` : "",
    // The panels share one row (four in Fantastiqa): an AI is its word here, and its name on hover.
    el("small", s.kind === "ai" ? { title: agentName(s.agent) } : {},
      s.kind === "ai" ? agentWord(s.agent) : s.taken ? t("human") : t("openSeat")),
    s.kind === "human" && s.taken && p !== me ? presence(p) : "",
    s.resigned ? el("small", {}, t("resignedSeat")) : s.handed_over ? el("small", {}, t("handed")) : "")));
}

// Whether another person's seat has the table open (in any tab or device): a dot, and "away" in words when not.
function presence(p) {
  const here = Boolean(payload.present && payload.present[p]);
  const words = t(here ? "atTable" : "awayLong", { p: playerName(p) });
  return el("span", { class: `presence ${here ? "here" : "away"}`, title: words, "data-present": String(here) },
    el("span", { class: "dot", "aria-hidden": "true" }), el("span", { class: here ? "visually-hidden" : "away-word" },
      here ? words : t("away")));
}

function drawControls() {
  const node = document.activeElement, focused = focusedIn($("controls"), "action");
  const other = $("controls").contains(node) && focused === null ? node.id : "";   // Cancel
  drawControlItems();
  refocus($("controls"), "action", focused, "button:not([disabled])");
  if (other && !$(other)) boardFocus().focus({ preventScroll: true });
}

function drawControlItems() {
  const items = [];
  if (payload.legal.length) {
    for (const text of payload.legal.filter((a) => !stepsOf(a).length)) {
      items.push(previewing(el("button", { class: "control", "data-action": text, onclick: () => act(text), disabled: controlsLocked() },
        words(text)), text));
    }
  } else {
    items.push(el("span", { class: "muted" }, payload.result ? t("over") : payload.you === null ? t("spectator") : t("noActions")));
  }
  // A choice that is complete but could still go on (a payment with more cards) is confirmed here.
  const complete = selection.length ? choices().candidates.filter((a) => a.steps.length === selection.length) : [];
  for (const a of complete) {
    items.push(previewing(el("button", { class: "control confirm", "data-action": a.text, onclick: () => act(a.text),
      disabled: controlsLocked() },
      words(a.text)), a.text));
  }
  if (selection.length) {
    items.push(el("span", { class: "choice" }, t("selected", { s: selection.map(name).join(" → ") })),
      el("button", { id: "cancel", onclick: cancel, title: "Esc" }, t("cancel")));
  }
  $("choice").replaceChildren(...items);
}

// The folded list of every action consistent with the choice so far; built only while it is open.
function drawActions() {
  const details = $("all-actions");
  const { candidates } = payload.legal.length ? choices() : { candidates: [] };
  const list = selection.length ? candidates.map((a) => a.text) : payload.legal;
  // A count says something once a choice narrows the list; the whole of it (1,645 ways to set a die) only alarms.
  $("all-actions-count").textContent = selection.length ? `(${list.length.toLocaleString(lang())})` : "";
  details.hidden = !payload.legal.length;
  if (!details.open) { $("actions").replaceChildren(); return; }
  $("actions").replaceChildren(...list.map((text) => previewing(el("button",
    { class: "action", "data-action": text, title: text, onclick: () => act(text), disabled: controlsLocked() }, words(text)), text)));
}

function previewing(button, text) {
  // Only a preview that lights board things redraws the board: a redraw when a focused turn control blurs (the
  // mousedown of a click on the board) would replace the clicked element and lose the click.
  const show = (value) => () => {
    const shown = preview && stepsOf(preview).length, shows = value && stepsOf(value).length;
    preview = value;
    if (shown || shows) drawBoard();
  };
  button.onmouseenter = show(text);
  button.onfocus = show(text);
  button.onmouseleave = show(null);
  button.onblur = show(null);
  button.setAttribute("aria-label", words(text));
  return button;
}

// --- the inspector --------------------------------------------------------------------------
function inspect(id) {
  if (id === null) return;
  if (id === inspected) return;
  inspected = id;
  drawInspector();
}

function drawInspector() {
  const box = $("inspector-body");
  let node = null;
  if (inspected !== null && board.inspect) node = board.inspect(inspected, payload);
  if (!node && inspected !== null) {
    const spot = $("board").querySelector(`[data-target="${CSS.escape(inspected)}"]`);
    const words = spot && spot.getAttribute("aria-label");
    if (words) node = el("p", {}, words);
  }
  box.replaceChildren(node || el("p", { class: "muted" }, t("inspectHint")));
}

// --- log and links --------------------------------------------------------------------------
function drawLog() {
  const log = $("log");
  let previousPly = null;
  log.replaceChildren(...payload.log.map((e) => {
    const first = e.ply !== previousPly;
    previousPly = e.ply;
    return el("li", { class: `${e.ply === payload.ply ? "last" : ""}${first ? " new-ply" : ""}`, "data-ply": e.ply }, e.text);
  }));
  log.scrollTop = log.scrollHeight;
}

function resultText(result) {
  if (payload.result_text) return `${t("over")} — ${payload.result_text}`;
  const winners = result.winners || [];
  return `${t("over")} — ${winners.length ? t("winners", { w: winners.map((w) => t("player", { n: w + 1 })).join(", ") }) : t("draw")}`;
}

// Who won, said to this reader: a win shared by several players (Fantastiqa's tie) is never "You win!".
function headline(result) {
  const winners = result.winners || [], me = payload.you;
  const seated = me !== null && me !== undefined;
  if (!winners.length) return result.reason === "abandoned" ? t("noWinner") : t("draw");
  if (winners.length === 1) return seated ? (winners[0] === me ? t("youWin") : t("youLose")) : t("wins", { p: playerName(winners[0]) });
  if (seated && winners.includes(me)) return t("youShare", { p: names(winners.filter((w) => w !== me)) });
  return t("share", { p: names(winners) });
}

function names(players) {
  const words = players.map(playerName);
  return words.length > 1 ? `${words.slice(0, -1).join(", ")}${t("and")}${words.at(-1)}` : words[0];
}

// --- the end of the game ---------------------------------------------------------------------
function drawGameOver() {
  const dialog = $("game-over");
  if (!payload.result) { if (dialog.open) dialog.close(); return; }
  const result = payload.result;
  const scores = Array.isArray(result.scores) ? result.scores : null;
  const record = `/api/games/${gameId}/record`;
  const buttons = [];
  if (payload.you !== null) {
    buttons.push(el("button", { id: "rematch", class: "primary", onclick: rematch },
      payload.rematch ? t("acceptRematch") : t("rematch")));
  } else if (payload.rematch) {
    buttons.push(el("a", { id: "watch-rematch", href: `/play/${payload.rematch}?spectate=1` }, t("watchRematch")));
  }
  buttons.push(el("a", { id: "replay-link", href: `/replay/${gameId}` }, t("replay")),
    el("a", { id: "download-record", href: record, download: `coliseo-${gameId}.json` }, t("download")),
    el("button", { id: "close-dialog", onclick: () => dialog.close() }, t("close")));
  dialog.replaceChildren(...[el("h2", { id: "game-over-title" }, headline(result)),
    el("p", { id: "reason" }, t("because", { r: payload.reason_text })),
    payload.result_detail ? el("p", { id: "result-detail" }, payload.result_detail) : null,
    scores ? el("table", { class: "scores" }, el("caption", {}, payload.scores_name || t("scores")),
      el("tbody", {}, scores.map((score, p) => el("tr", { class: (result.winners || []).includes(p) ? "winner" : "" },
        el("th", { scope: "row" }, playerName(p)), el("td", {}, String(score)))))) : null,
    el("p", { class: "dialog-buttons" }, buttons)].filter(Boolean));   // a resigned or agreed result has no scores
  if (dialogShownFor !== gameId) {
    dialogShownFor = gameId;
    dialog.showModal();
  }
}

async function rematch() {
  const response = await fetch(`/api/games/${gameId}/rematch`, { method: "POST",
    headers: { "content-type": "application/json" }, body: JSON.stringify({ token: seatInfo ? seatInfo.token : "" }) });
  const answer = await response.json();
  if (!response.ok) {
    // This seat of the rematch is taken already: by this browser, most likely.
    if (payload.rematch && localStorage.getItem(seatKey(payload.rematch))) location.href = `/play/${payload.rematch}`;
    else say(answer.detail);
    return;
  }
  localStorage.setItem(seatKey(answer.id), JSON.stringify({ seat: answer.seat, token: answer.token, invite: answer.invite }));
  location.href = answer.play_url;
}

// --- sound: off unless asked for; a short tone when your turn comes and when the game ends ----------
function soundToggle() {
  const button = el("button", { id: "sound", "aria-pressed": String(sound), onclick: () => {
    sound = !sound;
    localStorage.setItem("coliseo.sound", sound ? "on" : "off");
    button.setAttribute("aria-pressed", String(sound));
    button.textContent = sound ? `♪ ${t("soundOn")}` : `♪ ${t("soundOff")}`;
  } }, sound ? `♪ ${t("soundOn")}` : `♪ ${t("soundOff")}`);
  return button;
}

let audio = null;
function chime(next) {
  if (!sound) return;
  const mine = next.legal.length > 0 && !payload.legal.length;
  if (!mine && !(next.result && !payload.result)) return;
  audio = audio || new AudioContext();
  const tone = audio.createOscillator(), gain = audio.createGain();
  tone.frequency.value = next.result ? 523 : 660;
  gain.gain.setValueAtTime(0.08, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
  tone.connect(gain).connect(audio.destination);
  tone.start();
  tone.stop(audio.currentTime + 0.25);
}

// --- undo, resign and draw offers: commands like any other, naming the position; at the top of the side column,
// where a long inspector or event log never pushes them out of sight ----------------
function tableCommands() {
  const out = [];
  if (payload.can_undo) {
    out.push(el("button", { id: "undo", disabled: controlsLocked(), onclick: () => sendCommand({ type: "undo" }) }, t("undo")));
  }
  const me = payload.you;
  if (me === null || payload.result || payload.resigned.includes(me)) return out;
  const command = (id, words, type) => el("button", { id, disabled: controlsLocked(),
    onclick: () => { confirmingResign = false; sendCommand({ type }); } }, words);
  if (payload.seats.length === 2) {
    const offer = payload.draw_offer;
    if (offer === null) out.push(command("offer-draw", t("offerDraw"), "offer-draw"));
    else if (offer === me) out.push(el("span", { id: "draw-offered" }, t("drawOffered")));
    else {
      out.push(el("span", { id: "draw-offer" }, t("drawOffer", { p: t("player", { n: offer + 1 }) }), " "),
        command("accept-draw", t("acceptDraw"), "accept-draw"), " ", command("decline-draw", t("declineDraw"), "decline-draw"));
    }
  }
  if (confirmingResign) {
    out.push(el("span", { id: "resign-confirm", role: "alert" }, t("resignSure"), " "),
      command("resign-yes", t("resignYes"), "resign"), " ",
      el("button", { id: "resign-no", onclick: () => { confirmingResign = false; drawLinks(); } }, t("resignNo")));
  } else {
    out.push(el("button", { id: "resign", disabled: controlsLocked(),
      onclick: () => { confirmingResign = true; drawLinks(); } }, t("resign")));
  }
  return out.flatMap((x) => [x, " "]);
}

// The creator decides whether the game is listed in the lobby (where anyone may join it).
function listingToggle() {
  const toggle = async () => {
    const response = await fetch(`/api/games/${gameId}/listing`, { method: "POST",
      headers: { "content-type": "application/json" }, body: JSON.stringify({ token: seatInfo.token, listed: !payload.listed }) });
    if (!response.ok) say((await response.json()).detail);
  };
  return el("p", {}, el("button", { id: "listing", onclick: toggle }, payload.listed ? t("unlist") : t("list")));
}

// Whether this page can give a join link: a seat is open and the game is listed or its invite is known here.
function joinable() {
  return payload.seats.some((s) => !s.taken) && Boolean(invite || payload.listed);
}

function drawLinks() {
  const origin = location.origin;
  const items = [el("h2", {}, t("links"))];
  const secret = invite ? `#invite=${invite}` : "";
  if (joinable()) {
    items.push(el("label", {}, t("joinLink"), el("input", { readonly: true, id: "join-link", value: `${origin}/play/${gameId}?join=1${secret}` })));
  }
  if (invite || !payload.watch_needs_invite) {
    items.push(el("label", {}, t("spectateLink"), el("input", { readonly: true, id: "spectate-link",
      value: `${origin}/play/${gameId}?spectate=1${payload.watch_needs_invite ? secret : ""}` })));
  }
  if (seatInfo) items.push(seatLink(origin));
  if (seatInfo && seatInfo.creator && !payload.result) items.push(listingToggle());
  items.push(el("p", { class: "commitment", title: t("commitmentHelp") }, `${t("commitment")}: `,
    el("code", {}, payload.seed_commitment)));   // whole, to compare with the record's (coliseo verify --commitment)
  if (payload.result) {
    items.push(el("p", {}, el("a", { href: `/api/games/${gameId}/record`, download: `coliseo-${gameId}.json`, id: "download" }, t("download")),
      " · ", el("a", { href: `/replay/${gameId}` }, t("replay"))));
  }
  $("links").replaceChildren(...items);
  const commands = $("table-commands"), focused = commands.contains(document.activeElement) ? document.activeElement.id : null;
  commands.replaceChildren(...tableCommands());
  refocusCommand(focused);
}

// This browser's seat, to go on playing it elsewhere (as a lichess game's player link does); folded, since whoever
// sees the link can play the seat, and left as the player left it when a new state redraws the links.
function seatLink(origin) {
  const secrets = new URLSearchParams({ seat: seatInfo.seat, token: seatInfo.token, ...(invite ? { invite } : {}),
    ...(seatInfo.creator ? { creator: 1 } : {}) });
  const open = Boolean($("seat-link-box") && $("seat-link-box").open);
  return el("details", { id: "seat-link-box", open }, el("summary", {}, t("seatLink")),
    el("p", { class: "side-detail" }, t("seatLinkHelp", { n: seatInfo.seat + 1 })),
    el("input", { readonly: true, id: "seat-link", "aria-label": t("seatLink"), value: `${origin}/play/${gameId}#${secrets}` }));
}

// A seat link opened here: this browser keeps the seat, and the address bar loses the token at once.
function takeSeatFromLink() {
  const seat = Number(fragment.get("seat"));
  if (Number.isInteger(seat) && seat >= 0) {
    localStorage.setItem(seatKey(gameId), JSON.stringify({ seat, token: fragment.get("token"), ...(invite ? { invite } : {}),
      ...(fragment.has("creator") ? { creator: true } : {}) }));
  }
  history.replaceState(null, "", location.pathname + location.search);
  seatFromLink = true;
}

// A seat link whose token the server refused (mistyped, or not this game's): forget it, say so and watch instead.
function forgetSeatFromLink() {
  seatFromLink = false;
  localStorage.removeItem(seatKey(gameId));
  seatInfo = null;
  socket.onclose = null;
  socket.close();
  say(t("badSeatLink"));
  connect();
}

start();
