/* Discards chosen before any is sent: where a game discards several cards in a row (Calabresella's
   exchange with the monte), a click on a card picks it (a second click takes it back), and a
   Discard button, enabled once every card is chosen, sends them; until then nothing leaves the
   page, so a misclick costs nothing. The cards go one a turn: the first at once, the others
   queued for the turns that follow (clicks.js plays a queued card as its turn comes). */
"use strict";

const Discards = {
  picked: [], // card codes, in the order chosen

  /** How many cards this turn begins to discard (0: not such a turn). */
  due(M) {
    const G = Games[M.game] || Games.generic;
    if (!M.legal.length || !M.legal.every((l) => l.startsWith("discard "))) return 0;
    return G.discardsDue ? G.discardsDue(M) : 0;
  },

  /** A legal card move clicked: true when it was taken as a pick (nothing is sent). */
  click(label) {
    const M = App.M;
    if (!M || Discards.due(M) < 2 || !label.startsWith("discard ")) return false;
    const code = label.slice(8);
    const i = Discards.picked.indexOf(code);
    if (i >= 0) Discards.picked.splice(i, 1);
    else if (Discards.picked.length < Discards.due(M)) Discards.picked.push(code);
    Render.all();
    return true;
  },

  /** The Discard button: send the first pick, queue the others for the next turns. */
  confirm() {
    const M = App.M;
    const k = M ? Discards.due(M) : 0;
    if (!k || Discards.picked.length !== k) return;
    const [first, ...rest] = Discards.picked;
    Discards.picked = [];
    Clicks.queued = rest;
    move(`discard ${first}`);
  },

  /** Clear the picks (the Clear button, a new deal, a turn that is no discard). */
  reset() { Discards.picked = []; },

  /** The action bar's line and buttons while cards are being picked; "" otherwise. */
  note(M) {
    const k = Discards.due(M);
    if (k < 2) { Discards.picked = []; return ""; }
    const n = Discards.picked.length;
    const chosen = `${Discards.picked.map((c) => Cards.chip(c)).join(" ")} ${n} of ${k} chosen`;
    return `<div class="picks" role="status">${chosen.trim()} ` +
      `<button id="discard-confirm" class="act"${n === k ? "" : " disabled"}>Discard</button> ` +
      `<button id="discard-clear" class="act"${n ? "" : " disabled"}>Clear</button></div>`;
  },
};
