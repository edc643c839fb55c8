// A board for any game: the observation's numbers at a glance and the game's own text picture.
// Actions are chosen word by word (the engine's default board steps), so any notation can be clicked.
import { el } from "/static/i18n.js";

export function draw(container, payload) {
  const obs = payload.observation || {};
  const facts = Object.entries(obs).filter(([, v]) => v === null || typeof v !== "object").map(([k, v]) =>
    el("span", {}, el("b", {}, `${k}: `), String(v)));
  container.replaceChildren(el("div", { class: "kv" }, facts),
    payload.picture ? el("pre", { class: "picture" }, payload.picture) : el("pre", {}, JSON.stringify(obs, null, 1)));
}
