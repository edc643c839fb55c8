// Which board draws which game; a game without its own board gets the generic one.
import * as generic from "/static/boards/generic.js";
import { loadStyle } from "/static/boards/svg.js";

const OWN = new Set(["capsule", "dungeon_dice", "fantastiqa", "forbidden"]);

export async function loadBoard(gameId, lang) {
  let board = generic;
  if (OWN.has(gameId)) {
    try { board = await import(`/static/boards/${gameId}.js`); } catch (e) { console.warn(e); board = generic; }
  }
  // An own board is drawn only once its stylesheet is in: unstyled, its icons would take the page's full width.
  await Promise.all([board.prepare && board.prepare(lang), board !== generic && loadStyle(gameId)]);
  return board;
}
