// The referee of one Calabresella deal for the local table (js/table/local_server.js): it deals,
// keeps every seat's knowledge in a seat tracker of mazzo-bot (the trackers together hold the
// whole state: each position's hand is known to the seat deciding for it), feeds each tracker
// exactly what its seat may see (the events, their args hidden where the seat may not see them,
// and the reveals as they fall due: docs/protocol.md "Seat sessions"), answers the legal labels
// and the VIEW of a seat (the fields of mazzo's envs/calabresella/view_json.py), and scores the
// deal as RULES.md C-7 to C-9 (mazzo's calabresella/kernel.py and scoring.py).

import { calabresella as C, createTracker, resolveFlags } from "../src/index.js";

const { CARDS, CONTRACTS, PHASES, actionLabel } = C;
const [BID, CALL, RETURN, SOLO_DISCARD, DIV_DISCARD, SPLIT, SCE_DISCARD, PLAY, DONE] = PHASES.map((_, i) => i);
const SOLISSIMO = 2;
const SUIT_LETTERS = "cdsb";
const SUIT_WORDS = ["coppe (c)", "denari (d)", "spade (s)", "bastoni (b)"];
const TRICK_ORDER = "4567JNKA23";
const THIRDS_OF = { A: 3, 2: 1, 3: 1, J: 1, N: 1, K: 1 };
const TOTAL_THIRDS = 32;
const TRICKS = 12;

const suitOf = (/** @type {number} */ c) => Math.floor(c / 10);
const rankOf = (/** @type {number} */ c) => CARDS[c].slice(0, -1);
const strength = (/** @type {number} */ c) => TRICK_ORDER.indexOf(rankOf(c));
const thirds = (/** @type {number} */ c) => /** @type {any} */ (THIRDS_OF)[rankOf(c)] ?? 0;
const codes = (/** @type {Iterable<number>} */ cards) => [...cards].sort((a, b) => a - b).map((c) => CARDS[c]);

/**
 * A small seeded generator (mulberry32) -> floats in [0, 1).
 * @param {number} seed
 */
export function seededRandom(seed) {
  let a = (Math.floor(seed) >>> 0) ^ 0x9e3779b9;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A uniformly shuffled deck of `size` card ids (Fisher-Yates) from `random`.
 * @param {number} size
 * @param {() => number} random
 */
export function shuffled(size, random) {
  const order = Array.from({ length: size }, (_, i) => i);
  for (let i = size - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/** A refused move, as the server words it (`illegal` with the legal labels and the reason). */
export class MoveError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {Record<string, any>} [extra]
   */
  constructor(code, message, extra = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }
}

export class CalabresellaReferee {
  /**
   * @param {{flags?: Record<string, any>, seed?: number|null, dealer?: number, order?: number[]}} options
   *   `order`: the dealing order (40 card ids; RULES.md C-3.1: three rounds of four cards to
   *   A0, A1, A2, the last four the monte), shuffled from `seed` when not given; `dealer` drawn
   *   from the same generator when not given (as mazzo's `deal_random`).
   */
  constructor({ flags = {}, seed = null, dealer, order } = {}) {
    this.game = "calabresella";
    this.flags = resolveFlags("calabresella", flags);
    const n = this.n = /** @type {number} */ (this.flags.players);
    const random = seededRandom(seed ?? Math.floor(Math.random() * 2 ** 31));
    this.dealer = dealer ?? Math.floor(random() * n);
    this.order = order ? [...order] : shuffled(40, random);
    const d = this.dealer;
    /** @type {number[]} the seat deciding for A0, A1, A2 (the dealer idle with 4, a due with 2) */
    this.seatOf = n === 2 ? [(d + 1) % 2, d, d] : [(d + 1) % n, (d + 2) % n, (d + 3) % n];
    /** @type {number[][]} */
    const hands = [[], [], []];
    for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) hands[k].push(...this.order.slice(12 * j + 4 * k, 12 * j + 4 * k + 4));
    this.monte = this.order.slice(36, 40);
    this.trackers = Array.from({ length: n }, (_, s) => createTracker("calabresella", { seat: s, flags: this.flags }));
    this.trackers.forEach((t, s) => {
      const mine = [0, 1, 2].filter((p) => this.seatOf[p] === s);
      t.feed({ type: "deal", dealer: d, private: { hands: mine.map((p) => codes(hands[p])) } });
    });
    /** @type {Array<[string, string, string|number]>} every action, as the D.3 record lists it */
    this.actions = [];
    this.giver = -3; // the position that held the called card; -1 the monte, -2 the soloist
    /** @type {number[]} every card set aside (the discards) */
    this.discards = [];
    /** @type {Array<{leader: number, cards: number[], winner: number}>} tricks by position */
    this.tricks = [];
    /** @type {number[]} */
    this.trick = [];
    this.trickLeader = 0;
  }

  get #public() { return /** @type {any} */ (this.trackers[0]); }

  /** The seat on turn, -1 after the end. */
  toPlay() { return this.#public.toPlay(); }

  isOver() { return this.#public.isOver(); }

  /** The legal labels of the seat on turn. */
  legalLabels() {
    const t = this.trackers[this.toPlay()];
    return t ? t.legalActions().map((a) => t.label(a)) : [];
  }

  /**
   * The action id of `label` now for the seat on turn; throws a MoveError `illegal` (with the
   * legal labels and, for an action of this phase that is not legal, `why`).
   * @param {string} label
   */
  parse(label) {
    const seat = this.toPlay();
    const t = /** @type {any} */ (this.trackers[seat]);
    const legal = this.legalLabels();
    const phase = t.phase;
    let id = -1;
    for (let a = 0; a < 62; a++) if (actionLabel(a, phase) === label || (a >= 40 && actionLabel(a) === label)) { id = a; break; }
    if (id < 0) {
      throw new MoveError("illegal", `not a label of this phase (${PHASES[phase]}): ${JSON.stringify(label)}; legal: ${legal.join(", ")}`, { legal });
    }
    if (!t.legalMask()[id]) {
      const why = this.#why(seat, id);
      throw new MoveError("illegal", `not legal now (${why}); legal: ${legal.join(", ")}`, { legal, why });
    }
    return id;
  }

  /**
   * Why action `id` is not legal for `seat` (mazzo's calabresella/explain.py `why_illegal`).
   * @param {number} seat
   * @param {number} id
   */
  #why(seat, id) {
    const t = /** @type {any} */ (this.trackers[seat]);
    const who = `S${seat}`;
    const hand = t.hands.get(t.pos) ?? new Set();
    switch (t.phase) {
      case PLAY:
        if (id >= 40) return `${who} must play a card`;
        if (!hand.has(id)) return `${who} does not hold ${CARDS[id]}`;
        return `${who} must follow suit (${SUIT_WORDS[suitOf(t.trick[0])]} led)`;
      case BID: return `${who} must pass or bid an allowed contract above the highest bid`;
      case CALL: return `${who} (the soloist) must call a card he does not hold`;
      case SPLIT: return `${who} must choose an allowed split of the monte (scegliete_splits)`;
      default:
        if (id >= 40) return `${who} must choose a card (${PHASES[t.phase]})`;
        return `${who} does not hold ${CARDS[id]}`;
    }
  }

  /** The hand of position `p` now (its seat's tracker knows it). @param {number} p */
  #hand(p) { return /** @type {any} */ (this.trackers[this.seatOf[p]]).hands.get(p) ?? new Set(); }

  /**
   * Whether `seat` may see the action of the position on turn now (mazzo's
   * `action_is_visible`): a discard only its own, a Chiamo return the soloist and the giver
   * (everyone under `chiamo_return_public`), the rest everyone.
   * @param {number} seat
   */
  visibleTo(seat) {
    const t = this.#public;
    const p = t.phase;
    if (p === SOLO_DISCARD || p === DIV_DISCARD || p === SCE_DISCARD) return this.seatOf[t.pos] === seat;
    if (p === RETURN) {
      return Boolean(this.flags.chiamo_return_public) || this.seatOf[t.soloist] === seat || this.seatOf[this.giver] === seat;
    }
    return true;
  }

  /**
   * The seat on turn takes action `id`: every tracker is told (its arg hidden where its seat may
   * not see it) and given the reveals that fall due.
   * @param {number} id
   * @returns {{seat: number, verb: string, arg: string|number, step: number, visible: boolean[]}}
   *   the event in full and, per seat, whether that seat may see its arg
   */
  apply(id) {
    const t = /** @type {any} */ (this.trackers[this.toPlay()]);
    const seat = this.toPlay();
    const pos = t.pos;
    const phase = t.phase;
    const { verb, arg } = t.triple(id);
    if (phase === CALL) this.giver = this.#holder(id, t.soloist);
    const visible = this.trackers.map((_, s) => this.visibleTo(s));
    const step = this.actions.length;
    this.trackers.forEach((tr, s) => tr.feed({ type: "event", seat, verb, arg: visible[s] ? arg : null }));
    this.actions.push([`S${seat}`, verb, arg]);
    if (verb === "discard") this.discards.push(/** @type {number} */ (id));
    if (phase === PLAY) this.#played(pos, id);
    this.#reveals();
    return { seat, verb, arg, step, visible };
  }

  /**
   * Who holds the called card (mazzo's `call_giver`): a defender's position, -2 the soloist, -1 the monte.
   * @param {number} card
   * @param {number} soloist
   */
  #holder(card, soloist) {
    for (const p of [(soloist + 1) % 3, (soloist + 2) % 3]) if (this.#hand(p).has(card)) return p;
    return this.#hand(soloist).has(card) ? -2 : -1;
  }

  /** @param {number} pos @param {number} card */
  #played(pos, card) {
    if (!this.trick.length) this.trickLeader = pos;
    this.trick.push(card);
    if (this.trick.length < 3) return;
    const [a, b, c] = this.trick;
    let w = suitOf(b) === suitOf(a) && strength(b) > strength(a) ? 1 : 0;
    if (suitOf(c) === suitOf(a) && strength(c) > strength(this.trick[w])) w = 2;
    this.tricks.push({ leader: this.trickLeader, cards: this.trick, winner: (this.trickLeader + w) % 3 });
    this.trick = [];
  }

  /** Give every tracker the reveals due to it (mazzo's trackers' `reveal_of`). */
  #reveals() {
    // a reveal may make another fall due (the giver, then the monte): until none is left
    for (let round = 0; round < 4 && this.trackers.some((t) => t.tracked().due.length); round++) this.#revealRound();
  }

  #revealRound() {
    this.trackers.forEach((t, s) => {
      const due = t.tracked().due;
      if (!due.length) return;
      const tr = /** @type {any} */ (t);
      const mine = [0, 1, 2].filter((p) => this.seatOf[p] === s);
      const sol = tr.soloist;
      /** @type {Record<string, any>} */
      const out = {};
      for (const key of due) {
        if (key === "monte") out.monte = codes(this.monte);
        else if (key === "giver") {
          const g = this.giver;
          out.giver = g === -1 ? "monte" : g === -2 ? "own" : this.n === 2 ? `A${g}` : `S${this.seatOf[g]}`;
        } else if (key === "received") {
          const d1 = (sol + 1) % 3;
          const d2 = (sol + 2) % 3;
          out.received = [];
          if (mine.includes(d1)) out.received.push(...codes(this.monte.slice(0, 2)));
          if (mine.includes(d2)) out.received.push(...codes(this.monte.slice(2, 4)));
        } else if (key === "partner") {
          out.partner = codes(this.#hand(3 - sol - mine[0]));
        }
      }
      t.feed({ type: "reveal", ...out });
    });
  }

  /**
   * The VIEW of `seat` (mazzo's `view_json` with envs/calabresella/view_json.py's fields).
   * @param {number} seat
   */
  view(seat) {
    const t = /** @type {any} */ (this.trackers[seat]);
    const v = t.view();
    const seatOf = this.seatOf;
    const at = (/** @type {number} */ p) => (p >= 0 ? seatOf[p] : null);
    const mine = [0, 1, 2].filter((p) => seatOf[p] === seat);
    const split = t.split >= 0;
    const giver = v.giver >= 0 ? seatOf[v.giver] : v.giver === -1 ? "monte" : v.giver === -2 ? "own" : null;
    const tricks = this.tricks.map((tk) => ({
      cards: tk.cards.map((c, k) => ({ seat: seatOf[(tk.leader + k) % 3], card: CARDS[c] })),
      winner: seatOf[tk.winner],
    }));
    return {
      seat,
      to_play: v.toPlay >= 0 ? seatOf[v.toPlay] : -1,
      phase: PHASES[v.phase].toLowerCase(),
      hand: codes(v.hand),
      legal: v.legal.map((/** @type {number} */ a) => t.label(a)),
      position: v.position,
      players: v.nPlayers,
      dealer: v.dealer,
      seat_of: [...seatOf],
      bids: v.bids.map((/** @type {[number, number]} */ [p, a]) => ({ seat: seatOf[p], bid: a === 40 ? "pass" : CONTRACTS[a - 41] })),
      no_chiamo: v.noChiamo,
      contract: v.contract >= 0 ? CONTRACTS[v.contract] : null,
      soloist: at(v.soloist),
      called: v.called >= 0 ? CARDS[v.called] : null,
      giver,
      returned: v.returned >= 0 ? CARDS[v.returned] : null,
      partner_hand: codes(v.partnerHand),
      known_monte: codes(v.knownMonte),
      discards: codes(v.discards),
      split: [codes(v.splitD1), codes(v.splitD2)],
      received: [0, 1, 2].map((p) => ((split || mine.includes(p)) && t.received[p] ? codes(t.received[p]) : [])),
      hand_sizes: [...t.handSizes],
      trick: v.trick.map((/** @type {number} */ c, /** @type {number} */ k) => ({ seat: seatOf[(v.leader + k) % 3], card: CARDS[c] })),
      leader: at(v.leader),
      tricks,
      played_by: v.playedBy.map(codes),
      void: v.void.map((/** @type {number} */ m) => [...SUIT_LETTERS].filter((_, s) => (m >> s) & 1)),
      piles: { soloist: codes(v.piles[0]), defenders: codes(v.piles[1]) },
      tricks_won: { soloist: v.tricksWon[0], defenders: v.tricksWon[1] },
      totals: [...v.totals],
    };
  }

  /** The settlement of the finished deal (C-7 to C-9), null for a void deal. */
  #settle() {
    const t = this.#public;
    const contract = t.contract;
    if (contract < 0) return null;
    const r = this.flags;
    const sol = t.soloist;
    const setAside = [...this.discards, ...(contract === SOLISSIMO ? this.monte : [])];
    let solThirds = 0;
    let solTricks = 0;
    this.tricks.forEach((tk, i) => {
      if (tk.winner !== sol) return;
      solTricks += 1;
      solThirds += tk.cards.reduce((x, c) => x + thirds(c), 0);
      if (i === TRICKS - 1) solThirds += setAside.reduce((x, c) => x + thirds(c), 0);
    });
    const lastSide = this.tricks[TRICKS - 1].winner === sol ? 0 : 1;
    const points = [Math.floor(solThirds / 3) + (lastSide === 0 ? 1 : 0), Math.floor((TOTAL_THIRDS - solThirds) / 3) + (lastSide === 1 ? 1 : 0)];
    const success = points[0] >= 6;
    let mult = 1;
    let bonus = "";
    if (solTricks === 0 || solTricks === TRICKS) { mult = /** @type {number} */ (r.cappotto_mult); bonus = "cappotto"; }
    else if (r.stramazzo) {
      const limit = r.stramazzo_def === "truncated" ? 2 : 0;
      if (Math.min(solThirds, TOTAL_THIRDS - solThirds) <= limit) { mult = /** @type {number} */ (r.stramazzo_mult); bonus = "stramazzo"; }
    }
    const value = /** @type {number[]} */ (r.contract_values)[contract];
    let unit = value * mult;
    if (r.payout_mode === "difference") unit *= Math.abs(points[0] - points[1]);
    const raw = [0, 1, 2].map((p) => (p === sol ? (success ? unit : 0) : (success ? 0 : unit)));
    const pair = [0, 1, 2].map((p) => (p === sol ? (success ? 2 * unit : -2 * unit) : (success ? -unit : unit)));
    return { contract, sol, solThirds, solTricks, lastSide, points, success, mult, bonus, value, unit, raw, pair };
  }

  /** @param {number[]} perPos */
  #perSeat(perPos) {
    const out = Array(this.n).fill(0);
    for (let p = 0; p < 3; p++) out[this.seatOf[p]] += perPos[p];
    return out;
  }

  /** Per seat: the settlement under `reward_mode` (zeros for a void deal). */
  returns() {
    const st = this.#settle();
    if (!st) return Array(this.n).fill(0);
    return this.#perSeat(this.flags.reward_mode === "pairwise" ? st.pair : st.raw);
  }

  /** The result of the finished deal (mazzo's `State.result()`, scoring.py `deal_result`). */
  result() {
    const st = this.#settle();
    const out = { void: st === null, dealer: this.dealer };
    if (!st) return { ...out, contract: null, returns: this.returns() };
    const sides = ["soloist", "defenders"];
    const seatOf = this.seatOf;
    const g = this.giver;
    const called = /** @type {any} */ (this.#public).called;
    return {
      ...out,
      contract: CONTRACTS[st.contract],
      soloist: seatOf[st.sol],
      defenders: [seatOf[(st.sol + 1) % 3], seatOf[(st.sol + 2) % 3]],
      called: called >= 0 ? CARDS[called] : null,
      called_from: g === -1 ? "monte" : g === -2 ? "own" : g === -3 ? null : `S${seatOf[g]}`,
      thirds: { soloist: st.solThirds, defenders: TOTAL_THIRDS - st.solThirds },
      points: { soloist: st.points[0], defenders: st.points[1] },
      tricks: { soloist: st.solTricks, defenders: TRICKS - st.solTricks },
      last_trick: sides[st.lastSide],
      success: st.success,
      multiplier: st.mult,
      bonus: st.bonus || null,
      value: st.value,
      unit: st.unit,
      raw: this.#perSeat(st.raw),
      pairwise: this.#perSeat(st.pair),
      returns: this.returns(),
    };
  }

  /** The D.3 record of the deal (docs/records: format, rules, dealer, deck, actions, result). */
  record() {
    /** @type {Record<string, any>} */
    const flags = {};
    const defaults = resolveFlags("calabresella", {});
    for (const [k, v] of Object.entries(this.flags)) if (JSON.stringify(v) !== JSON.stringify(defaults[k])) flags[k] = v;
    /** @type {Record<string, any>} */
    const rec = {
      format: "calabresella-deal/1",
      rules: { flags },
      dealer: this.dealer,
      deck: this.order.map((c) => CARDS[c]),
      actions: this.actions.map((a) => [...a]),
    };
    if (this.isOver()) rec.result = this.result();
    return rec;
  }
}
