// The referee of one Minchiate deal for the local table (js/table/local_server.js). It keeps the
// whole deal (RULES.md Part M, as mazzo's envs/minchiate/state.py runs it: the cut and the
// robbing, the 10 + 11 deal with the face-up 21st cards, the Fola and the dealer's robbing and
// taking (dealing.py), the discards, the declarations, the play with the Matto and the King
// rule, the Matto's payment and the settlement with the resti), and keeps one mazzo-bot seat
// tracker per seat fed exactly what that seat may see: its `deal.private`, the events (another
// seat's discard hidden) and the reveals as they fall due (mazzo/serve/trackers/minchiate.py
// `due_reveals`, docs/protocol.md "Minchiate"). The bots play their seat's own tracker. It
// answers the legal labels, the VIEW of a seat (envs/minchiate/view_json.py's fields), the
// result (settle.py `result_dict`) and the D.3 record.
//
// The card tables and rule functions (legal plays, combinations, the ratchet, the Matto's
// automatic payment) are mazzo-bot's own (src/minchiate.js), the tracker's.

import { minchiate as M, createTracker, resolveFlags } from "../src/index.js";
import { MoveError, seededRandom, shuffled } from "./calabresella_referee.js";

const {
  CARDS, COMBOS, PHASES, VALUE, MATTO, TRUMP_SUIT = 4, T29, actionLabel, findCombos,
  discardable, isQualifying, playMask, ratchet, RELAX_CLASSES, KING, closeTrick, mattoHandover, settlement,
} = /** @type {any} */ (M);
const [DISCARD_CUTTER, DISCARD_DEALER, DECLARE_PHASE, PLAY, MATTO_PAY, DONE] = PHASES.map((/** @type {string} */ _, /** @type {number} */ i) => i);
const DECLARE = 97;
const SKIP = 98;
const LED = ["c", "d", "s", "b", "trumps"];
const SUIT_WORDS = ["cups (c)", "coins (d)", "swords (s)", "batons (b)"];
const TEAMS = ["A", "B"];
const RULESET = "cardavia";

/** @param {Iterable<number>} cards card codes in card index order */
const codes = (cards) => [...cards].sort((a, b) => a - b).map((c) => CARDS[c]);
/** @param {Iterable<number>} cards */
const points = (cards) => { let t = 0; for (const c of cards) t += VALUE[c]; return t; };
/** @param {any} c */
const score = (c) => c.points + c.bonus;
/** @param {number} c */
const card = (c) => (c >= 0 ? CARDS[c] : null);
/** @param {any} c a combination as the VIEW and the reveals write it */
const comboJson = (c) => ({ combo: COMBOS[c.kind], cards: codes(c.members), points: c.points, bonus: c.bonus });
/** @param {any} c a combination as the result writes it */
const comboResult = (c) => ({ kind: COMBOS[c.kind], cards: codes(c.members), points: c.points, bonus: c.bonus, score: score(c) });

export class MinchiateReferee {
  /**
   * @param {{flags?: Record<string, any>, seed?: number|null, dealer?: number, order?: number[]}} options
   *   `order`: the 97-card stream (card ids; RULES.md M-5.2), shuffled from `seed` when not
   *   given; `dealer` drawn from the same generator when not given.
   */
  constructor({ flags = {}, seed = null, dealer, order } = {}) {
    this.game = "minchiate";
    this.flags = resolveFlags("minchiate", flags);
    const r = this.rules = /** @type {any} */ (this.flags);
    this.n = 4;
    const random = seededRandom(seed ?? Math.floor(Math.random() * 2 ** 31));
    const d = this.dealer = dealer ?? Math.floor(random() * 4);
    this.order = order ? [...order] : shuffled(97, random);
    // ---- the cut and the deal (dealing.py cut_and_deal)
    const stream = this.order;
    const cutter = this.cutter = (d + 3) & 3;
    let nr = 0;
    while (nr < r.rob_cap && isQualifying(stream[nr])) nr++;
    this.robbed = stream.slice(0, nr);
    this.stop = stream[nr];
    const pack = [...stream.slice(nr + 1), this.stop];
    /** @type {Array<[number, number, string, number]>} */
    const setupEvents = [];
    if (points(this.robbed)) setupEvents.push([cutter & 1, points(this.robbed), "cutter_rob", cutter]);
    /** @type {Set<number>[]} */
    this.hands = [0, 1, 2, 3].map(() => new Set());
    this.faceup = [-1, -1, -1, -1];
    for (let k = 0; k < 4; k++) {
      const seat = (d + 1 + k) & 3;
      for (const c of [...pack.slice(10 * k, 10 * k + 10), ...pack.slice(40 + 11 * k, 51 + 11 * k)]) this.hands[seat].add(c);
      if (r.faceup_21st === "all" || k === 3) {
        const last = pack[50 + 11 * k];
        this.faceup[seat] = last;
        if (VALUE[last]) setupEvents.push([seat & 1, VALUE[last], "faceup", seat]);
      }
    }
    for (const c of this.robbed) this.hands[cutter].add(c);
    const folaOrder = pack.slice(84);
    let na = 0;
    while (na < folaOrder.length && isQualifying(folaOrder[na])) na++;
    this.dealerRobbed = folaOrder.slice(0, na);
    const takeable = (/** @type {number} */ c) => VALUE[c] > 0 || (c === T29 && r.dealer_takes === "counters_and_29");
    this.dealerTaken = folaOrder.slice(na).filter(takeable);
    /** the Fola after the dealer's robbing and taking (what he sees) */
    this.setupFola = folaOrder.slice(na).filter((c) => !takeable(c));
    for (const c of [...this.dealerRobbed, ...this.dealerTaken]) this.hands[d].add(c);
    if (points(this.dealerRobbed)) setupEvents.push([d & 1, points(this.dealerRobbed), "dealer_rob", d]);
    if (r.score_taken_cards && points(this.dealerTaken)) setupEvents.push([d & 1, points(this.dealerTaken), "dealer_take", d]);
    this.stopInFola = this.setupFola.includes(this.stop);
    // ---- the state (state.py _init_fields)
    this.phase = DONE;
    this.pos = -1;
    this.fola = new Set(this.setupFola);
    /** @type {Set<number>[]} */
    this.discards = [0, 1, 2, 3].map(() => new Set());
    this.toDiscard = 0;
    this.declK = 0;
    /** @type {any[]} */
    this.offers = [];
    this.offerI = 0;
    this.declSum = 0;
    /** @type {Array<[number, any]>} (seat, combination) */
    this.declared = [];
    this.declEnd = [0, 0];
    this.folaExposed = false;
    this.void = false;
    this.leader = (d + 1) & 3;
    this.led = -1;
    this.top = -1;
    this.suitsLed = 0;
    /** @type {number[]} */
    this.trick = [];
    /** @type {Array<{leader: number, cards: number[], winner: number}>} */
    this.tricks = [];
    /** @type {Array<{team: number, points: number, cause: string, seat: number, trick: number, d_after: number, r_after: number}>} */
    this.events = [];
    /** @type {Set<number>[]} */
    this.playedBy = [0, 1, 2, 3].map(() => new Set());
    /** @type {Set<number>[]} */
    this.piles = [new Set(), new Set()];
    this.mattoOwner = -1;
    this.mattoPaid = -1;
    this.lastWinner = -1;
    this.mattoDebt = false;
    this.mattoLost = false;
    this.D = 0;
    this.R = 0;
    this.rPlay = 0;
    this.endResti = 0;
    this.dFinal = 0;
    /** @type {any[]|null} */
    this.endCounts = null;
    /** @type {Array<[string, string, string]>} every action, as the D.3 record lists it */
    this.actions = [];
    for (const [team, pts, cause, seat] of setupEvents) this.#scoreEvent(team, pts, cause, seat, 0);
    this.#nextDiscards(0);
    // ---- the seats' trackers: the deal, then the reveals due at once
    this.trackers = [0, 1, 2, 3].map((s) => createTracker("minchiate", { seat: s, flags: this.flags }));
    this.trackers.forEach((t, s) => t.feed({ type: "deal", dealer: d, private: this.#private(s) }));
    this.#reveals(null, null);
  }

  /** The seat on turn, -1 after the end. */
  toPlay() { return this.phase === DONE ? -1 : this.pos; }

  isOver() { return this.phase === DONE; }

  /** The legal action ids of the seat on turn (queries.py legal_mask). @returns {number[]} */
  legalActions() {
    const hand = this.hands[this.pos];
    switch (this.phase) {
      case DONE: return [];
      case PLAY: return playMask(hand, this.led, this.top, this.suitsLed, this.rules.king_rule, this.rules.must_overtrump);
      case DECLARE_PHASE: return [DECLARE, SKIP];
      case MATTO_PAY: return [...this.piles[this.mattoOwner & 1]].filter((c) => c !== MATTO).sort((a, b) => a - b);
      default: return this.#discardMask(hand);
    }
  }

  /** The legal labels of the seat on turn. */
  legalLabels() { return this.legalActions().map((a) => actionLabel(a, this.phase)); }

  /** @param {Set<number>} hand M-8.2, MA-8, MA-9 (pregame.py discard_mask) */
  #discardMask(hand) {
    const cards = [...hand].sort((a, b) => a - b);
    if (this.rules.discard_rule === "any") return cards;
    if (this.rules.impossible_discard === "relax") {
      for (const cls of RELAX_CLASSES) {
        const got = cards.filter(cls);
        if (got.length) return got;
      }
    }
    return cards.filter(discardable);
  }

  /**
   * The action id of `label` now for the seat on turn; throws a MoveError `illegal` (with the
   * legal labels and, for an action of this phase that is not legal, `why`).
   * @param {string} label
   */
  parse(label) {
    const legal = this.legalLabels();
    let id = -1;
    for (let a = 0; a < 99; a++) if (actionLabel(a, this.phase) === label) { id = a; break; }
    if (id < 0) {
      throw new MoveError("illegal", `not a label of this phase (${PHASES[this.phase]}): ${JSON.stringify(label)}; legal: ${legal.join(", ")}`, { legal });
    }
    if (!this.legalActions().includes(id)) {
      const why = this.#why(id);
      throw new MoveError("illegal", `not legal now (${why}); legal: ${legal.join(", ")}`, { legal, why });
    }
    return id;
  }

  /** Why action `id` is not legal now (mazzo's minchiate/explain.py `why_illegal`). @param {number} id */
  #why(id) {
    const who = `S${this.pos}`;
    const phase = this.phase;
    if (phase === DONE) return this.void ? "the deal is void" : "the deal is over";
    if (phase === DECLARE_PHASE) {
      const c = this.offers[this.offerI];
      return `${who} must declare or skip the offered combination (${COMBOS[c.kind]} [${codes(c.members).join(" ")}] = ${score(c)})`;
    }
    if (id >= 97) return `${who} must ${phase === PLAY ? "play" : phase === MATTO_PAY ? "pay" : "discard"} a card`;
    if (phase === MATTO_PAY) return `${who} must pay a card of team ${TEAMS[this.mattoOwner & 1]}'s pile other than the Matto`;
    const hand = this.hands[this.pos];
    if (!hand.has(id)) return `${who} does not hold ${CARDS[id]}`;
    if (phase === PLAY) {
      const led = this.led;
      const legal = this.legalActions();
      if (led >= 0 && led < 4 && legal.length === 1 && legal[0] === KING[led] && hand.has(KING[led])) return `King rule: ${who} must play ${CARDS[KING[led]]}`;
      if (led >= 0 && led < 4 && [...hand].some((c) => c > 40 && Math.floor((c - 41) / 14) === led)) return `must follow suit (${SUIT_WORDS[led]} led)`;
      if (id < 40 && this.rules.must_overtrump && this.top >= 0 && [...hand].some((c) => c < 40 && c > this.top)) return `must overtrump ${CARDS[this.top]}`;
      if (led === TRUMP_SUIT) return "must play a trump (trumps led)";
      return `must trump (void in ${SUIT_WORDS[led]})`;
    }
    if (this.rules.impossible_discard === "relax") return "only zero-value cards other than T29 may be discarded (relax: the lowest-valued cards first)";
    return "only zero-value cards other than T29 may be discarded";
  }

  /**
   * The seat on turn takes action `id`: the deal moves on, every tracker is told (another
   * seat's discard hidden) and given the reveals that fall due.
   * @param {number} id
   * @returns {{seat: number, verb: string, arg: string, step: number, visible: boolean[]}}
   */
  apply(id) {
    const seat = this.pos;
    const phase = this.phase;
    const verb = phase === DECLARE_PHASE ? "declare" : phase === PLAY ? "play" : phase === MATTO_PAY ? "pay" : "discard";
    const arg = phase === DECLARE_PHASE ? (id === DECLARE ? "declare" : "skip") : CARDS[id];
    const visible = [0, 1, 2, 3].map((s) => (phase === DISCARD_CUTTER || phase === DISCARD_DEALER ? s === seat : true));
    const before = { phase, declared: this.declared.length, folaExposed: this.folaExposed, tricks: this.tricks.length };
    const step = this.actions.length;
    if (phase === PLAY) this.#play(id);
    else if (phase === DECLARE_PHASE) this.#declare(id);
    else if (phase === MATTO_PAY) this.#settle(id);
    else this.#discard(id);
    this.actions.push([`S${seat}`, verb, arg]);
    this.trackers.forEach((t, s) => t.feed({ type: "event", seat, verb, arg: visible[s] ? arg : null }));
    this.#reveals(before, { seat, verb });
    return { seat, verb, arg, step, visible };
  }

  // ------------------------------------------------------------------ what the seats are told
  /** The `deal.private` of `seat` (mazzo's trackers/minchiate_deal.py `private_of`). @param {number} seat */
  #private(seat) {
    /** @type {Record<string, any>} */
    const out = {
      hand: codes(this.hands[seat]),
      robbed: this.robbed.map((c) => CARDS[c]),
      stop: CARDS[this.stop],
      faceup: this.faceup.map(card),
      dealer_robbed: this.dealerRobbed.map((c) => CARDS[c]),
      dealer_taken: codes(this.dealerTaken),
    };
    if (seat === this.dealer) out.fola = codes(this.setupFola);
    return out;
  }

  /** @param {number} seat the cards `seat` must discard in all (worlds.py extra_cards) */
  #extra(seat) {
    if (seat === this.cutter) return this.robbed.length;
    if (seat === this.dealer) return this.dealerRobbed.length + this.dealerTaken.length;
    return 0;
  }

  /**
   * Feed every tracker the reveal due to it after a step (trackers/minchiate.py `due_reveals`
   * and `reveal_of`); `before` and `step` null after the deal.
   * @param {{phase: number, declared: number, folaExposed: boolean, tricks: number}|null} before
   * @param {{seat: number, verb: string}|null} step
   */
  #reveals(before, step) {
    const r = this.rules;
    const redeal = r.discard_rule === "zero_not_29" && r.impossible_discard === "redeal";
    const normal = r.declare_timing !== "with_first_card";
    const discarding = (/** @type {number} */ p) => p === DISCARD_CUTTER || p === DISCARD_DEALER;
    this.trackers.forEach((t, seat) => {
      /** @type {Set<string>} */
      const keys = new Set();
      if (!before || !step) {
        const first = this.robbed.length ? this.cutter : this.dealer;
        if (redeal && first !== seat && this.#extra(first)) keys.add("void");
        if (normal && !this.robbed.length && !this.#extra(this.dealer)) { keys.add("declaring"); keys.add("declared"); }
        if (this.folaExposed) keys.add("fola");
      } else {
        const ended = discarding(before.phase) && !discarding(this.phase);
        const cutterDone = before.phase === DISCARD_CUTTER && this.phase !== DISCARD_CUTTER;
        if (cutterDone && redeal && this.dealer !== seat && this.#extra(this.dealer)) keys.add("void");
        if ((normal && ended && !this.void) || step.verb === "declare"
          || (!normal && before.phase === PLAY && before.tricks === 0 && step.seat !== seat)) {
          keys.add("declaring");
          keys.add("declared");
        }
        if (this.folaExposed && !before.folaExposed) keys.add("fola");
      }
      if (!keys.size) return;
      /** @type {Record<string, any>} */
      const out = { type: "reveal" };
      for (const key of keys) {
        if (key === "declaring") out.declaring = this.phase === DECLARE_PHASE ? `S${this.pos}` : null;
        else if (key === "declared") out.declared = this.declared.slice(before ? before.declared : 0).map(([s, c]) => ({ seat: s, ...comboJson(c) }));
        else if (key === "void") out.void = this.void;
        else out.fola = codes(this.fola);
      }
      t.feed(out);
    });
  }

  // ------------------------------------------------------------------ the rules (state.py)
  /**
   * @param {number} team
   * @param {number} pts
   * @param {string} cause
   * @param {number} seat
   * @param {number} trick
   */
  #scoreEvent(team, pts, cause, seat, trick) {
    const [d, r] = ratchet(team === 0 ? this.D + pts : this.D - pts, this.R, this.rules.resti_unit);
    this.D = d;
    this.R = r;
    this.events.push({ team, points: pts, cause, seat, trick, d_after: d, r_after: r });
  }

  /** @param {number} done M-8.1: the first discard turn after the `done` first ones with cards, else the declarations */
  #nextDiscards(done) {
    const turns = [[DISCARD_CUTTER, this.cutter, this.robbed.length], [DISCARD_DEALER, this.dealer, this.dealerRobbed.length + this.dealerTaken.length]];
    for (const [phase, seat, n] of turns.slice(done)) {
      if (!n) continue;
      const r = this.rules;
      const impossible = r.discard_rule === "zero_not_29" && r.impossible_discard === "redeal" && [...this.hands[seat]].filter(discardable).length < n;
      if (impossible) {
        this.void = true;
        this.phase = DONE;
        this.pos = -1;
      } else {
        this.phase = phase;
        this.pos = seat;
        this.toDiscard = n;
      }
      return;
    }
    this.#startDeclarations();
  }

  /** @param {number} c */
  #discard(c) {
    const seat = this.pos;
    this.hands[seat].delete(c);
    this.discards[seat].add(c);
    this.fola.add(c);
    this.toDiscard--;
    if (!this.toDiscard) this.#nextDiscards(this.phase === DISCARD_CUTTER ? 1 : 2);
  }

  #startDeclarations() {
    if (this.rules.declare_timing === "with_first_card") { this.#startPlay(); return; }
    this.#nextDeclarer(0);
  }

  /** @param {number} k */
  #nextDeclarer(k) {
    for (; k < 4; k++) {
      const seat = (this.dealer + 1 + k) & 3;
      if (this.#offer(seat, this.hands[seat])) { this.declK = k; return; }
    }
    this.folaExposed = this.rules.fola_exposure === "after_declarations";
    this.#startPlay();
  }

  /**
   * `seat`'s combinations in `holder`; true when a DECLARE decision is pending (auto_all
   * declares them all at once).
   * @param {number} seat
   * @param {Set<number>} holder
   */
  #offer(seat, holder) {
    const r = this.rules;
    const combos = findCombos(holder, r.diecine, true, r.matto_bonus_in_own_combo);
    if (!combos.length) return false;
    if (r.declarations === "auto_all") {
      for (const c of combos) this.declared.push([seat, c]);
      this.#scoreDeclared(seat, combos.reduce((t, /** @type {any} */ c) => t + score(c), 0));
      return false;
    }
    this.offers = combos;
    this.offerI = 0;
    this.declSum = 0;
    this.phase = DECLARE_PHASE;
    this.pos = seat;
    return true;
  }

  /** @param {number} action */
  #declare(action) {
    const seat = this.pos;
    const combo = this.offers[this.offerI];
    if (action === DECLARE) {
      this.declared.push([seat, combo]);
      this.declSum += score(combo);
    }
    this.offerI++;
    if (this.offerI < this.offers.length) return;
    this.offers = [];
    this.offerI = 0;
    this.#scoreDeclared(seat, this.declSum);
    if (this.rules.declare_timing === "with_first_card") {
      this.phase = PLAY;
      this.#resumeTrick1();
      return;
    }
    this.#nextDeclarer(this.declK + 1);
  }

  /** @param {number} seat @param {number} pts */
  #scoreDeclared(seat, pts) {
    if (!pts) return;
    if (this.rules.declaration_score_timing === "end") this.declEnd[seat & 1] += pts;
    else this.#scoreEvent(seat & 1, pts, "declare", seat, 0);
  }

  #startPlay() {
    this.phase = PLAY;
    this.leader = this.pos = (this.dealer + 1) & 3;
  }

  /** @param {number} c */
  #play(c) {
    const seat = this.pos;
    this.hands[seat].delete(c);
    this.playedBy[seat].add(c);
    this.trick.push(c);
    if (c < 40) {
      if (this.led < 0) this.led = TRUMP_SUIT;
      if (c > this.top) this.top = c;
    } else if (c === MATTO) this.mattoOwner = seat;
    else if (this.led < 0) this.led = Math.floor((c - 41) / 14);
    if (this.rules.declare_timing === "with_first_card" && !this.tricks.length) {
      if (!this.#offer(seat, new Set([...this.hands[seat], c]))) this.#resumeTrick1();
      return;
    }
    if (this.trick.length < 4) { this.pos = (seat + 1) & 3; return; }
    this.#finishTrick();
  }

  #resumeTrick1() {
    const n = this.trick.length;
    if (n < 4) { this.pos = (this.leader + n) & 3; return; }
    this.folaExposed = this.rules.fola_exposure === "after_declarations";
    this.#finishTrick();
  }

  /** M-11.4, M-11.5, M-12.1 (kernel.py close_trick; src/minchiate.js `closeTrick`) */
  #finishTrick() {
    const n = this.tricks.length + 1;
    const { winner, team, capture, cards, leader } = closeTrick(this, n);
    if (capture) this.#scoreEvent(team, capture, "capture", winner, n);
    this.tricks.push({ leader, cards, winner });
    if (n === 21) this.#endOfPlay();
  }

  /** M-13.1, MA-22 (kernel.py matto_handover; src/minchiate.js `mattoHandover`) */
  #endOfPlay() {
    const c = mattoHandover(this);
    if (c !== null) this.#settle(c);
    else [this.phase, this.pos] = [MATTO_PAY, this.mattoOwner];
  }

  /**
   * M-13: the settlement after the hand-over of card `c` (-1 for nothing; settle.py settlement,
   * src/minchiate.js `settlement`), with its events and the result's breakdown.
   * @param {number} c
   */
  #settle(c) {
    const owner = this.mattoOwner;
    const s = settlement(this, c);
    if (s.death) this.events.push({ team: (owner & 1) ^ 1, points: s.death, cause: "matto_death", seat: owner, trick: 21, d_after: s.d, r_after: s.r });
    this.events.push({ team: s.net >= 0 ? 0 : 1, points: Math.abs(s.net), cause: "final", seat: -1, trick: 21, d_after: s.dFinal, r_after: s.resti });
    this.piles = s.piles;
    this.mattoPaid = c >= 0 && c !== MATTO ? c : -1;
    this.mattoLost = c === MATTO;
    this.endCounts = s.counts.map((/** @type {any} */ t) => ({ ...t, combos: t.combos.map(comboResult) }));
    this.rPlay = s.r;
    this.endResti = s.resti - s.r;
    this.dFinal = this.D = s.dFinal;
    this.R = s.resti;
    this.phase = DONE;
    this.pos = -1;
  }

  // ------------------------------------------------------------------ what the table shows
  /**
   * The VIEW of `seat` (mazzo's serve/views.py `view_json` with envs/minchiate/view_json.py's
   * fields): only what the seat may know.
   * @param {number} seat
   */
  view(seat) {
    const onTurn = this.phase !== DONE && seat === this.pos;
    let known;
    if (this.folaExposed) known = this.fola;
    else {
      known = new Set(this.discards[seat]);
      if (this.stopInFola) known.add(this.stop);
      if (seat === this.dealer) for (const c of this.setupFola) known.add(c);
    }
    const R = this.R;
    return {
      seat,
      to_play: this.toPlay(),
      phase: PHASES[this.phase].toLowerCase(),
      hand: codes(this.hands[seat]),
      legal: onTurn ? this.legalLabels() : [],
      dealer: this.dealer,
      cutter: this.cutter,
      n_tricks: this.tricks.length,
      robbed: this.robbed.map((c) => CARDS[c]),
      stop_card: CARDS[this.stop],
      faceup: this.faceup.map(card),
      dealer_robbed: this.dealerRobbed.map((c) => CARDS[c]),
      dealer_taken: codes(this.dealerTaken),
      discards: codes(this.discards[seat]),
      fola_known: codes(known),
      fola_exposed: this.folaExposed,
      declared: this.declared.map(([s, c]) => ({ seat: s, ...comboJson(c) })),
      offered: onTurn && this.phase === DECLARE_PHASE ? comboJson(this.offers[this.offerI]) : null,
      trick: this.trick.map((c, k) => ({ seat: (this.leader + k) % 4, card: CARDS[c] })),
      leader: this.leader,
      led: this.led >= 0 ? LED[this.led] : null,
      played_by: this.playedBy.map(codes),
      suits_led: [0, 1, 2, 3].filter((s) => (this.suitsLed >> s) & 1).map((s) => LED[s]),
      tricks: this.tricks.map((t) => ({ cards: t.cards.map((c, k) => ({ seat: (t.leader + k) % 4, card: CARDS[c] })), winner: t.winner })),
      piles: this.piles.map(codes),
      matto_owner: this.mattoOwner >= 0 ? this.mattoOwner : null,
      matto_debt: this.mattoDebt,
      D: this.D,
      R,
      events: this.events.map((e) => ({ ...e })),
      void: this.void,
      returns: this.returns(),
      hand_sizes: this.hands.map((h) => h.size),
      series_resti: 0,
      deals_done: 0,
    };
  }

  /** Per seat: +R for team A's seats, -R for team B's (M-14.4); zeros before the end and for a void deal. */
  returns() {
    if (this.phase !== DONE || this.void) return [0, 0, 0, 0];
    const r = this.R;
    return [r, -r, r, -r];
  }

  /** The result (mazzo's settle.py `result_dict`). */
  result() {
    const done = this.phase === DONE && !this.void;
    const count = (/** @type {any} */ c) => ({ ...c, combos: c.combos.map((/** @type {any} */ x) => ({ ...x })) });
    return {
      void: this.void,
      dealer: this.dealer,
      cutter: this.cutter,
      robbed: this.robbed.map((c) => CARDS[c]),
      stop: CARDS[this.stop],
      faceup: this.faceup.map(card),
      dealer_robbed: this.dealerRobbed.map((c) => CARDS[c]),
      dealer_taken: codes(this.dealerTaken),
      declared: this.declared.map(([s, c]) => ({ seat: s, ...comboResult(c) })),
      events: this.events.map((e) => ({ team: TEAMS[e.team], points: e.points, cause: e.cause, seat: e.seat, trick: e.trick, D: e.d_after, R: e.r_after })),
      trick_winners: this.tricks.map((t) => t.winner),
      end_counts: this.endCounts ? { A: count(this.endCounts[0]), B: count(this.endCounts[1]) } : null,
      matto: done ? { owner: this.mattoOwner, debt: this.mattoDebt, paid: card(this.mattoPaid), lost: this.mattoLost } : null,
      d_final: this.dFinal,
      r_play: done ? this.rPlay : this.R,
      end_resti: this.endResti,
      resti: done ? this.R : 0,
      returns: this.returns(),
    };
  }

  /** The D.3 record of the deal (format, rules, dealer, stream, actions, result). */
  record() {
    /** @type {Record<string, any>} */
    const flags = {};
    const defaults = resolveFlags("minchiate", {});
    for (const [k, v] of Object.entries(this.flags)) if (JSON.stringify(v) !== JSON.stringify(defaults[k])) flags[k] = v;
    /** @type {Record<string, any>} */
    const rec = {
      format: "minchiate-deal/1",
      rules: { ruleset: RULESET, flags },
      dealer: this.dealer,
      stream: this.order.map((c) => CARDS[c]),
      actions: this.actions.map((a) => [...a]),
    };
    if (this.isOver()) rec.result = this.result();
    return rec;
  }
}
