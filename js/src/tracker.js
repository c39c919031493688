// What every seat tracker of mazzo-bot shares (src/calabresella.js, src/minchiate.js): feeding it
// the seat-session messages of `mazzo-bot/1` (docs/protocol.md "Seat sessions") and the fields
// of the server's `tracked` answer. A game's tracker extends `SeatTracker` and gives `deal`,
// `event`, `reveal`, `toPlay`, `isOver` and its set `due` of the reveal keys owed to it.

import { TrackerError } from "./errors.js";

export class SeatTracker {
  /**
   * Run `change` all or nothing: a refused input (it throws) leaves the tracker as it was.
   * @param {() => void} change
   */
  atomic(change) {
    const saved = structuredClone({ ...this });
    try {
      change();
    } catch (e) {
      for (const key of Object.keys(this)) if (!(key in saved)) delete /** @type {any} */ (this)[key];
      Object.assign(this, saved);
      throw e;
    }
  }

  /** @param {string} what */
  requireDealt(what) {
    if (!(/** @type {any} */ (this).dealt)) throw new TrackerError("bad_field", `${what}: no deal yet; send deal`);
  }

  /**
   * The checks every event starts with, in the server's order: a deal, no reveal owed, the
   * deal not over. Returns the event as the messages name it.
   * @param {number} seat
   * @param {string} verb
   * @param {unknown} arg
   */
  eventStart(seat, verb, arg) {
    const self = /** @type {any} */ (this);
    const what = `event [S${seat}, ${JSON.stringify(verb)}, ${JSON.stringify(arg)}]`;
    this.requireDealt(what);
    if (self.due.size) throw new TrackerError("impossible", `${what}: the reveal of ${[...self.due].sort().join(", ")} is due first`);
    if (self.isOver()) throw new TrackerError("impossible", `${what}: the deal is over`);
    return what;
  }

  /**
   * Feed one protocol message (an object, or a JSON line): `deal`, `event` or `reveal`. Other
   * types (`tracked`, `move`, ...) are ignored.
   * @param {Record<string, any>|string} message
   * @returns {{step: number, to_play: number|null, due: string[], over: boolean}|null} what the
   *   server's `tracked` answer would say, or null for an ignored message
   */
  feed(message) {
    const m = typeof message === "string" ? JSON.parse(message) : message;
    const self = /** @type {any} */ (this);
    if (m.type === "deal") self.deal(m.dealer, m.private);
    else if (m.type === "event") self.event(m.seat, m.verb, m.arg);
    else if (m.type === "reveal") {
      const fields = { ...m };
      for (const k of ["type", "game", "id", "protocol"]) delete fields[k];
      self.reveal(fields);
    } else return null;
    return this.tracked();
  }

  /** The legal action ids of the seat (empty unless it is on turn), from the game's `legalMask()`. */
  legalActions() {
    const mask = /** @type {Int8Array} */ (/** @type {any} */ (this).legalMask());
    return [...mask.keys()].filter((a) => mask[a]);
  }

  /** The `tracked` answer's fields now. */
  tracked() {
    const self = /** @type {any} */ (this);
    const due = [.../** @type {Set<string>} */ (self.due)].sort();
    return { step: self.step, to_play: due.length ? null : self.toPlay(), due, over: !due.length && self.isOver() };
  }
}
