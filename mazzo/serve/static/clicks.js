/* Clicks on cards of the hand that are not offered now, never dropped in silence: while the page
   waits (for the server's answer or the other players) a click queues the card for the person's
   next turn, marked in the hand and named in the prompt (a second click takes it back); at the
   turn the first queued card is played if it is legal, else the queue is dropped and the reason
   shown. On the person's turn a card that may not be played gets the engine's reason, which the
   server sends with its `illegal` answer (`why`). */
"use strict";

const Clicks = {
  queued: [], // card codes, in the order clicked
  why: null, // {code, text}: the last refused card and why, shown in the action bar
  askId: null, // the id of the move sent to ask the server why a card is not legal

  /** A card of the hand that is not highlighted was clicked. */
  card(code) {
    const M = App.M;
    if (!M || M.end || !App.connected || !M.hand.includes(code)) return;
    if (App.resume) return; // the replay plays the kept moves; the table is not the person's yet
    if (M.legal.length) { Clicks.ask(M, code); return; }
    const i = Clicks.queued.indexOf(code);
    if (i >= 0) Clicks.queued.splice(i, 1);
    else Clicks.queued.push(code);
    Clicks.why = null;
    Render.all();
  },

  /** The label a card would have on this turn (the verb of the turn's card moves), or null. */
  labelFor(M, code) {
    const verbs = M.legal.map((l) => l.split(" ")).filter((p) => p.length === 2 && Cards.isCard(p[1]));
    return verbs.length ? `${verbs[0][0]} ${code}` : null;
  },

  /** Ask the server why ``code`` may not be played: it refuses the move with its reason. */
  ask(M, code) {
    const label = Clicks.labelFor(M, code);
    if (!label) {
      Clicks.why = { code, text: "this turn is not a card to play: choose one of the buttons" };
      Render.all();
      return;
    }
    Clicks.why = { code, text: "…" };
    Clicks.askId = send({ type: "move", game: M.gid, action: label });
    Render.all();
  },

  /** The server's answer to ``ask``; true when ``msg`` was it. */
  answer(msg) {
    if (msg.id === undefined || msg.id !== Clicks.askId) return false;
    Clicks.askId = null;
    if (Clicks.why) Clicks.why.text = msg.why || msg.message;
    Render.all();
    return true;
  },

  /** The person's turn has come: play the first queued card if it is legal, else drop the
      queue and say why. */
  onTurn(M) {
    Clicks.why = null;
    if (!Clicks.queued.length) return;
    const code = Clicks.queued.shift();
    const label = M.legal.find((l) => l.split(" ")[1] === code);
    if (label && M.hand.includes(code)) { move(label); return; }
    Clicks.queued = [];
    Clicks.ask(M, code);
  },

  /** A new deal, or a deal left: nothing queued, nothing to explain. */
  reset() { Clicks.queued = []; Clicks.why = null; Clicks.askId = null; },

  /** The action bar's line about the clicks: what waits for the turn, or why a card was refused. */
  note(M) {
    // the engine's words with the page's: "you" for the person's seat, the suits' names
    const words = { "cups (c)": "Coppe", "coins (d)": "Denari", "swords (s)": "Spade", "batons (b)": "Bastoni" };
    const mine = (s) => Object.entries(words).reduce((t, [a, b]) => t.split(a).join(b), s)
      .replace(new RegExp(`\\bS${M.me}\\b`, "g"), "you");
    if (Clicks.why) {
      const text = mine(Clicks.why.text);
      return `<div class="why" role="status">${Cards.chip(Clicks.why.code)} cannot be played now: ${esc(text)}.</div>`;
    }
    if (Clicks.queued.length && !M.legal.length) {
      const cards = Clicks.queued.map((c) => Cards.chip(c)).join(" then ");
      return `<div class="queued-note" role="status">Queued for your turn: ${cards} (played as soon as your ` +
        "turn comes; click a card again to take it back).</div>";
    }
    return "";
  },
};
