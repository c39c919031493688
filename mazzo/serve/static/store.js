/* What the page keeps in the browser's localStorage, so that a reload or a server restart loses
   nothing: the person's last settings (the game, the seat, the bots, the flags, the speed) and
   the deal in progress, as its `open` message (always with a seed: the server deals the same
   cards and the bots, whose generators the seed sets, play the same moves) and the person's
   moves so far. Resuming opens the same table again and replays those moves at once; a replay
   that does not meet the same turns is stopped and said so. */
"use strict";

const Store = {
  SETTINGS: "mazzo.settings",
  DEAL: "mazzo.deal",
  MAX_AGE_MS: 24 * 3600 * 1000, // a deal left for a day is not taken up again

  get(key) {
    try { return JSON.parse(localStorage.getItem(key) || "null"); } catch (err) { return null; }
  },

  /** Keep ``value`` under ``key`` (null removes it); a browser without storage keeps nothing. */
  put(key, value) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, JSON.stringify(value));
    } catch (err) { /* storage refused (private mode, quota): the page works without it */ }
  },

  /** The settings of the setup form, kept at each deal (the seed is not: a new deal each time). */
  saveSettings(settings) {
    const { game, seat, bots, flags, speed } = settings;
    Store.put(Store.SETTINGS, { game, seat, bots, flags, speed });
  },

  saveSpeed(speed) {
    const s = Store.get(Store.SETTINGS);
    if (s) { s.speed = speed; Store.put(Store.SETTINGS, s); }
  },

  /** A new deal: its open message (without an id) and no moves yet. */
  startDeal(open) {
    const rec = { open, moves: [], at: Date.now() };
    Store.put(Store.DEAL, rec);
    return rec;
  },

  /** The person's move in the kept deal. */
  addMove(rec, label) {
    rec.moves.push(label);
    rec.at = Date.now();
    Store.put(Store.DEAL, rec);
  },

  /** The kept deal, if there is one recent enough to take up. */
  deal() {
    const rec = Store.get(Store.DEAL);
    const ok = rec && rec.open && typeof rec.open.seed === "number" && Array.isArray(rec.moves) &&
      Date.now() - (rec.at || 0) < Store.MAX_AGE_MS;
    return ok ? rec : null;
  },

  dropDeal() { Store.put(Store.DEAL, null); },
};
