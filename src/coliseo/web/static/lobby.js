// The lobby: choose a game, its options and who sits where; list the recent games.
import { agentWords, el, lang, langPicker, seatKey, t } from "/static/i18n.js";
import { DESCRIPTIONS, OPTION_WHEN, optionChoices, optionWords } from "/static/options.js";

const form = document.getElementById("new-game");
const message = document.getElementById("message");
let catalog = [];

async function start() {
  document.documentElement.lang = lang();
  document.getElementById("lang-slot").replaceChildren(langPicker(() => location.reload()));
  document.getElementById("new-title").textContent = t("newGame");
  document.getElementById("recent-title").textContent = t("recent");
  document.getElementById("games-title").textContent = t("games");
  document.getElementById("no-games").textContent = t("noGames");
  document.getElementById("mine-title").textContent = t("yourGames");
  for (const head of document.querySelectorAll(".games-head")) {
    head.replaceChildren(el("tr", {}, [t("game"), t("created"), t("seats"), t("progress"), t("links")].map((h) =>
      el("th", { scope: "col" }, h))));
  }
  catalog = await (await fetch(`/api/catalog?lang=${lang()}`)).json();
  drawGames();
  drawForm(catalog[0].id);
  listGames();
  listMine();
}

const gameName = (g) => g.names[lang()] || g.names.en;

// One tile per game: its name, what it is in one line, how to play it, and a button that picks it in the form.
function drawGames() {
  document.getElementById("game-list").replaceChildren(...catalog.map((g) => el("li", { class: "game-tile", "data-game": g.id },
    el("h3", {}, gameName(g)),
    el("p", {}, (DESCRIPTIONS[lang()] || DESCRIPTIONS.en)[g.id] || ""),
    el("p", { class: "tile-links" },
      el("button", { type: "button", class: "choose", onclick: () => { drawForm(g.id); document.getElementById("game").focus(); } },
        t("choose")),
      el("a", { href: `/rules/${g.id}?lang=${lang()}`, class: "how" }, t("howToPlay"))))));
}

const optionValue = (game, values, name) => values[name] ?? game.options.find((o) => o.name === name)?.default;

function playerCount(game, values) {
  return game.options.some((o) => o.name === "players") ? Number(optionValue(game, values, "players")) : game.min_players;
}

// The sides (team presets, decks) a seat may pick under these options.
const sidesFor = (game, values) => game.sides.filter((s) =>
  Object.entries(s.options).every(([name, value]) => optionValue(game, values, name) === value));

// A seat: who sits there and, where the game has sides, what they play with (what that holds, below).
// `kept` is what the seat held before the form was redrawn ({who, side}), kept where it still fits.
function seatPicker(game, p, sides, kept = {}) {
  const who = el("select", { id: `seat-${p}`, "aria-label": t("player", { n: p + 1 }) },
    new Option(t("human"), "human", false, p === 0),
    game.agents.map((a) => new Option(agentWords(a), `ai:${a}`, false, p > 0 && a === preferred(game))));
  if (kept.who) who.value = kept.who;
  const parts = [el("label", {}, t("player", { n: p + 1 }), " ", who)];
  if (sides.length) {
    const detail = el("small", { class: "side-detail", id: `side-detail-${p}` });
    const side = el("select", { id: `side-${p}`, "aria-label": `${game.side_word} — ${t("player", { n: p + 1 })}` },
      sides.map((s, i) => new Option(s.name, s.id, false, i === p % sides.length)));
    if (sides.some((s) => s.id === kept.side)) side.value = kept.side;
    const show = () => { detail.textContent = sides.find((s) => s.id === side.value).detail; };
    side.onchange = show;
    show();
    parts.push(el("label", {}, game.side_word, " ", side), detail);
  }
  return el("div", { class: "seat-pick" }, parts);
}

const seatsNow = () => [...form.querySelectorAll("select[id^=seat-]")].map((who, p) =>
  ({ who: who.value, side: document.getElementById(`side-${p}`)?.value }));

function drawForm(gameId, values = {}, kept = []) {
  const game = catalog.find((g) => g.id === gameId);
  const gameSelect = el("select", { id: "game", name: "game", onchange: () => drawForm(gameSelect.value) },
    catalog.map((g) => new Option(gameName(g), g.id, false, g.id === gameId)));
  // Lists of squares or pack files are set from the command line; a form field would only hold the default.
  const editable = (o) => o.choices.length || ["bool", "int", "str"].includes(o.kind);
  const valueOf = (name) => values[name] ?? game.options.find((o) => o.name === name).default;
  const when = (o) => OPTION_WHEN[`${game.id}.${o.name}`];
  const matters = (o) => !when(o) || when(o)[1].includes(valueOf(when(o)[0]));
  // Options that change the seats (their number, the sides they may pick) or which options matter redraw the form.
  const formShaping = new Set(["players", ...game.sides.flatMap((s) => Object.keys(s.options)),
    ...game.options.filter(when).map((o) => when(o)[0])]);
  const inputs = game.options.filter((o) => editable(o) && matters(o)).map((o) => [o, optionInput(game.id, o, values, () => {
    if (formShaping.has(o.name)) drawForm(gameId, readOptions(game), seatsNow());
  })]);
  // The variant (and the player count) stand out; the other options fold away.
  const upfront = inputs.filter(([o]) => ["mode", "variant", "players"].includes(o.name)).map(([, input]) => input);
  const options = inputs.filter(([o]) => !["mode", "variant", "players"].includes(o.name)).map(([, input]) => input);
  const sides = sidesFor(game, values);
  const seats = [...Array(playerCount(game, values)).keys()].map((p) => seatPicker(game, p, sides, kept[p]));
  const idle = el("select", { id: "idle" }, new Option(t("never"), ""),
    [60, 300, 900].map((s) => new Option(`${s / 60} min`, String(s))));
  form.replaceChildren(
    el("p", { class: "kv" }, el("label", {}, t("game"), " ", gameSelect),
      el("a", { href: `/rules/${game.id}?lang=${lang()}`, id: "how-to-play" }, t("howToPlay")), upfront),
    el("p", { class: "description" }, (DESCRIPTIONS[lang()] || DESCRIPTIONS.en)[game.id] || ""),
    el("fieldset", {}, el("legend", {}, t("seats")), el("div", { class: "seats" }, seats)),
    el("details", {}, el("summary", {}, t("options")), el("div", { class: "kv" }, options)),
    el("p", {}, el("label", {}, t("idle"), " ", idle)),
    el("p", { class: "checks" }, el("label", {}, el("input", { type: "checkbox", id: "listed" }), " ", t("listGame")),
      el("label", {}, el("input", { type: "checkbox", id: "watch-invite" }), " ", t("watchInvite"))),
    el("button", { type: "submit", class: "primary", id: "create" }, t("create")));
  form.onsubmit = (e) => { e.preventDefault(); create(game); };
}

// The strongest agent by default: its moves cost at most about 0.2 s of CPU (docs/ai.md).
function preferred(game) { return ["mcts", "greedy"].find((a) => game.agents.includes(a)) || game.agents[0]; }

function optionInput(gameId, o, values, onChange) {
  const value = values[o.name] ?? o.default;
  const words = optionWords(lang(), gameId, o);
  const choices = optionChoices(lang(), gameId, o);
  let input;
  if (choices.length) {
    input = el("select", {}, choices.map(([c, text]) => new Option(text, String(c), false, c === value)));
  } else if (o.kind === "bool") {
    input = el("input", { type: "checkbox", checked: value === true });
  } else if (o.kind === "int") {
    input = el("input", { type: "number", value: String(value), min: o.minimum ?? undefined, max: o.maximum ?? undefined });
  } else {
    input = el("input", { type: "text", value: String(value) });
  }
  input.name = o.name;
  input.dataset.kind = o.kind;
  input.title = words.help;
  input.onchange = onChange;
  return el("label", { title: words.help }, words.label, " ", input);
}

function readOptions(game) {
  const out = {};
  for (const input of form.querySelectorAll("[data-kind]")) {
    const o = game.options.find((x) => x.name === input.name);
    let value = input.type === "checkbox" ? input.checked : input.value;
    if (o.kind === "int") value = Number(value);
    if (o.choices.length && typeof o.default === "number") value = Number(value);
    if (value !== o.default) out[o.name] = value;
  }
  return out;
}

async function create(game) {
  const chosen = seatsNow();
  const seats = chosen.map(({ who }) => (who === "human" ? { kind: "human" } : { kind: "ai", agent: who.slice(3) }));
  const sides = chosen.filter(({ side }) => side).map(({ side }) => side);
  const idle = document.getElementById("idle").value;
  const body = { game: game.id, options: readOptions(game), seats, sides: sides.length ? sides : null,
    idle_seconds: idle ? Number(idle) : null,
    listed: document.getElementById("listed").checked, spectators_need_invite: document.getElementById("watch-invite").checked };
  const response = await fetch("/api/games", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) { message.textContent = answer.detail; return; }
  localStorage.setItem(seatKey(answer.id), JSON.stringify(answer.token
    ? { seat: answer.seat, token: answer.token, invite: answer.invite, creator: true } : { invite: answer.invite }));
  location.href = answer.seat === null ? answer.spectate_url : answer.play_url;
}

// The listed games, newest first, read again every few seconds while the page is in view.
async function listGames() {
  const games = await (await fetch("/api/games")).json();
  document.getElementById("no-games").hidden = games.length > 0;
  document.getElementById("games-table").hidden = games.length === 0;
  document.getElementById("games").replaceChildren(...games.map(gameRow));
}

// The games this browser holds a seat in (their tokens are in local storage, never on the server's list), newest
// first: a game against the AI is unlisted, and this is the way back to it. The first read looks at every seat
// kept; the reads after it only at the unfinished games among the 20 shown (a finished game no longer changes).
let myShown = [];

async function listMine() {
  const ids = myShown.length ? myShown.filter((g) => !g.finished).map((g) => g.id)
    : Object.keys(localStorage).filter((k) => k.startsWith(seatKey(""))).map((k) => k.slice(seatKey("").length))
      .filter(heldSeat);
  const found = await Promise.all(ids.map(async (id) => {
    const response = await fetch(`/api/games/${id}`);
    return response.ok ? response.json() : null;
  }));
  const byId = new Map(myShown.map((g) => [g.id, g]));
  for (const g of found.filter(Boolean)) byId.set(g.id, g);
  myShown = [...byId.values()].sort((a, b) => b.created.localeCompare(a.created)).slice(0, 20);
  document.getElementById("mine").hidden = myShown.length === 0;
  document.getElementById("my-games").replaceChildren(...myShown.map(gameRow));
  // The tab says how many games wait for you, as a table's tab says it is your turn.
  const waiting = myShown.filter(yourTurnIn).length;
  document.title = waiting ? `${t("yourTurn")} (${waiting}) · Coliseo` : "Coliseo";
}

// Whether a game of Your games waits for this browser's seat (only a game's own summary names its current player).
function yourTurnIn(g) {
  const mine = heldSeat(g.id);
  return Boolean(mine) && !g.finished && g.current_player === mine.seat;
}

// The seat this browser holds in a game, or null (the lobby also keeps an all-AI game's invite there, no seat).
function heldSeat(id) {
  const kept = JSON.parse(localStorage.getItem(seatKey(id)) || "null");
  return kept && kept.token ? kept : null;
}

// One game as a row: what, when, who sits where, how far it has gone, and the links this browser may follow.
function gameRow(g) {
  const mine = heldSeat(g.id);
  const seated = Boolean(mine);
  const free = g.seats.some((s) => !s.taken);
  const links = [];
  if (seated && !g.finished) links.push(el("a", { href: `/play/${g.id}` }, t("play")));
  if (free && !seated && !g.finished) links.push(el("a", { href: `/play/${g.id}?join=1` }, t("join")));
  links.push(el("a", { href: `/play/${g.id}?spectate=1` }, t("spectate")));
  if (g.finished) links.push(el("a", { href: `/replay/${g.id}` }, t("replay")));
  const seat = (s, n) => (seated && mine.seat === n ? t("you") : s.kind === "ai" ? agentWords(s.agent)
    : s.taken ? t("human") : t("openSeat"));
  const progress = g.finished ? t("over") : yourTurnIn(g) ? el("b", {}, t("yourTurn"))
    : g.ply ? t("moves", { n: g.ply }) : t("notStarted");
  const entry = catalog.find((c) => c.id === g.game);
  return el("tr", {}, el("td", {}, entry ? gameName(entry) : g.game), el("td", {}, g.created.replace("T", " ").slice(0, 16)),
    el("td", {}, g.seats.map(seat).join(" · ")), el("td", {}, progress), el("td", {}, links.flatMap((a) => [a, " "])));
}

// Your games are read in a background tab too (its title tells when a game waits for you); the listed games only
// while the page is in view.
setInterval(() => {
  if (!catalog.length) return;
  listMine();
  if (!document.hidden) listGames();
}, 10_000);
// A seat taken in another tab of this browser (a new game, a join) joins Your games at once.
addEventListener("storage", (e) => {
  if (e.key && e.key.startsWith(seatKey("")) && catalog.length) { myShown = []; listMine(); }
});
start();
