// The board module the server names for a game (the catalog's and every payload's `board`): a game's own, or the
// generic one.
import * as generic from "/static/boards/generic.js";
import { loadStyle } from "/static/boards/svg.js";

export async function loadBoard(name, lang) {
  let board = generic;
  if (name !== "generic") {
    try { board = await import(`/static/boards/${name}.js`); } catch (e) { console.warn(e); board = generic; }
  }
  // An own board is drawn only once its stylesheet is in: unstyled, its icons would take the page's full width.
  await Promise.all([board.prepare && board.prepare(lang), board !== generic && loadStyle(name)]);
  return board;
}
