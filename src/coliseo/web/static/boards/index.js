// Which board draws which game; a game without its own board gets the generic one.
import * as generic from "/static/boards/generic.js";

const OWN = new Set(["capsule", "dungeon_dice", "fantastiqa", "forbidden"]);

export async function loadBoard(gameId, lang) {
  let board = generic;
  if (OWN.has(gameId)) {
    try { board = await import(`/static/boards/${gameId}.js`); } catch (e) { console.warn(e); board = generic; }
  }
  if (board.prepare) await board.prepare(lang);
  return board;
}
