// Calabresella for mazzo-bot: the cards and actions (RULES.md D.2, D.5), the seat tracker fed by
// the `mazzo-bot/1` seat-session messages (docs/protocol.md "Seat sessions"), and the
// observation encoder of docs/encoding.md section 2 (version 1).
//
// The tracker keeps exactly what one seat knows, following the rules of RULES.md Part C from the
// deal message, every event (the seat's own moves included) and the reveals owed to it. It
// never guesses a hidden card: what the seat may not see stays unknown (another seat's hand,
// discards), which the encoding never needs.

import { resolveFlags } from "./flags.js";
import { TrackerError } from "./errors.js";
import { SeatTracker } from "./tracker.js";

export const GAME = "calabresella";
export const ENCODING_VERSION = 1;
export const OBS_SIZE = 720;
export const NUM_ACTIONS = 62;

// ------------------------------------------------------------------------------------- cards
const SUITS = "cdsb";
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "N", "K"];
const TRICK_ORDER = ["4", "5", "6", "7", "J", "N", "K", "A", "2", "3"];
const THIRDS_OF = { A: 3, 2: 1, 3: 1, J: 1, N: 1, K: 1 };

/** Card codes by card index (`10 * suit + rank`): `CARDS[0] === "Ac"`. */
export const CARDS = Object.freeze(
  Array.from({ length: 40 }, (_, c) => RANKS[c % 10] + SUITS[Math.floor(c / 10)]),
);
const SUIT = CARDS.map((_, c) => Math.floor(c / 10));
const STRENGTH = CARDS.map((_, c) => TRICK_ORDER.indexOf(RANKS[c % 10]));
const THIRDS = CARDS.map((_, c) => THIRDS_OF[/** @type {keyof THIRDS_OF} */ (RANKS[c % 10])] ?? 0);
const CARD_INDEX = new Map(CARDS.map((code, c) => [code, c]));
for (const s of SUITS) CARD_INDEX.set(`Q${s}`, CARD_INDEX.get(`N${s}`)); // Q accepted for N

/**
 * A card code -> its index.
 * @param {unknown} code
 * @returns {number}
 */
export function parseCard(code) {
  const c = typeof code === "string" ? CARD_INDEX.get(code) : undefined;
  if (c === undefined) throw new TrackerError("bad_field", `unknown card code ${JSON.stringify(code)}`);
  return c;
}

// ----------------------------------------------------------------------------------- actions
export const PHASES = Object.freeze(["BID", "CALL", "RETURN", "SOLO_DISCARD", "DIV_DISCARD",
  "SPLIT", "SCE_DISCARD", "PLAY", "DONE"]);
const [BID, CALL, RETURN, SOLO_DISCARD, DIV_DISCARD, SPLIT, SCE_DISCARD, PLAY, DONE] =
  PHASES.map((_, i) => i);
export const CONTRACTS = Object.freeze(["chiamo", "solo", "solissimo", "dividete", "scegliete"]);
const [CHIAMO, SOLO, SOLISSIMO, DIVIDETE, SCEGLIETE] = [0, 1, 2, 3, 4];
const PASS = 40;
const BID_BASE = 41;
const SPLIT_BASE = 46;
const GIVER_NONE = -3;
const GIVER_OWN = -2;
const GIVER_MONTE = -1;
/** The D.3 verb of each phase (a card action's verb follows the phase). */
const VERB = ["bid", "call", "return", "discard", "discard", "split", "discard", "play", null];

/**
 * The label of action `id` (RULES.md D.5): `play Ac`, `pass`, `bid solo`, `split 9`; a card
 * action outside a card phase is `card Ac` (the manifest's `action_labels`).
 * @param {number} id
 * @param {number} [phase]
 */
export function actionLabel(id, phase) {
  if (id >= 0 && id < 40) {
    const verb = phase === undefined ? "card" : (VERB[phase] ?? "card");
    return `${verb === "bid" || verb === "split" ? "card" : verb} ${CARDS[id]}`;
  }
  if (id === PASS) return "pass";
  if (id >= BID_BASE && id < SPLIT_BASE) return `bid ${CONTRACTS[id - BID_BASE]}`;
  if (id >= SPLIT_BASE && id < NUM_ACTIONS) return `split ${id - SPLIT_BASE}`;
  throw new RangeError(`action id ${id} is outside Discrete(${NUM_ACTIONS})`);
}

/**
 * Set helpers: card sets are `Set<number>` of card indices.
 * @param {Iterable<number>} cards
 */
const sorted = (cards) => [...cards].sort((a, b) => a - b);
/** @param {Set<number>} a @param {Iterable<number>} b */
const addAll = (a, b) => { for (const c of b) a.add(c); };
/** @param {number} m */
const popcount = (m) => { let n = 0; for (let x = m; x; x &= x - 1) n++; return n; };

/**
 * @typedef {object} CalabresellaView
 * The fields of encoding.md 2.4 for one seat (card sets as sorted arrays of card indices).
 * @property {number} seat
 * @property {number} position
 * @property {number} nPlayers
 * @property {number} dealer
 * @property {number[]} seatOf
 * @property {number} phase
 * @property {number} toPlay the position on turn, -1 when the deal is over
 * @property {number[]} legal the legal action ids when the seat is on turn, else []
 * @property {number[]} hand
 * @property {number[]} partnerHand
 * @property {Array<[number, number]>} bids (position, action id)
 * @property {boolean} noChiamo
 * @property {number} contract
 * @property {number} soloist
 * @property {number} called
 * @property {number} giver
 * @property {number} returned
 * @property {number[]} knownMonte
 * @property {number[]} discards
 * @property {number[]} splitD1
 * @property {number[]} splitD2
 * @property {number[]} trick
 * @property {number} leader
 * @property {number[][]} playedBy
 * @property {number[]} void
 * @property {number[][]} piles
 * @property {number[]} tricksWon
 * @property {number} nTricks
 * @property {number[]} totals
 * @property {number} target
 */

// ----------------------------------------------------------------------------------- tracker
/**
 * One seat's knowledge of a Calabresella deal, fed with the seat-session messages of
 * `mazzo-bot/1`: `deal`, `event` and `reveal` (other message types are ignored by `feed`).
 */
export class CalabresellaTracker extends SeatTracker {
  /**
   * @param {{seat: number, flags?: Record<string, any>, totals?: number[]}} options
   *   `flags`: the rules of the table (defaults filled in); `totals`: match totals per seat
   *   (zeros outside a match).
   */
  constructor({ seat, flags = {}, totals }) {
    super();
    this.game = GAME;
    this.flags = resolveFlags(GAME, flags);
    this.rules = /** @type {any} */ (this.flags);
    this.n = /** @type {number} */ (this.rules.players);
    if (!Number.isInteger(seat) || seat < 0 || seat >= this.n) {
      throw new TrackerError("bad_field", `seat must be a seat 0..${this.n - 1}, got ${JSON.stringify(seat)}`);
    }
    this.seat = seat;
    this.totals = totals ? [...totals] : Array(this.n).fill(0);
    this.dealt = false;
    this.step = 0;
    /** @type {Set<string>} the reveal keys due before the next event */
    this.due = new Set();
    this.dealer = -1;
    /** @type {number[]} the seat deciding for each position A0, A1, A2 */
    this.seatOf = [0, 0, 0];
    /** @type {number[]} the positions the seat decides for */
    this.mine = [];
    /** @type {Map<number, Set<number>>} the hands of the seat's positions */
    this.hands = new Map();
    this.noChiamo = false;
    this.#reset();
  }

  /** Every field of the deal's state, as the auction opens. */
  #reset() {
    this.phase = BID;
    this.pos = 0;
    this.handSizes = [12, 12, 12];
    /** @type {Array<[number, number]>} */
    this.bids = [];
    this.passed = 0;
    this.highBid = -1;
    this.highPos = -1;
    this.contract = -1;
    this.soloist = -1;
    this.called = -1;
    this.giver = GIVER_NONE;
    this.returned = -1;
    /** @type {number[]|null} the monte cards, once the seat has seen them */
    this.monte = null;
    this.monteTaken = false; // the soloist took the monte into his hand (Solo, Chiamo)
    /** @type {Array<Set<number>|null>} the monte cards each position received, where known */
    this.received = [null, null, null];
    this.receivedCount = [0, 0, 0];
    /** @type {Set<number>[]} */
    this.discarded = [new Set(), new Set(), new Set()];
    /** @type {Set<number>} the set-aside cards the seat knows */
    this.setAside = new Set();
    this.split = -1;
    this.left = 0;
    /** @type {number[]} */
    this.trick = [];
    this.leader = 0;
    this.nTricks = 0;
    this.tricksWon = [0, 0];
    /** @type {Set<number>[]} */
    this.piles = [new Set(), new Set()];
    /** @type {Set<number>[]} */
    this.playedBy = [new Set(), new Set(), new Set()];
    this.voids = [0, 0, 0];
    /** @type {Set<number>|null} the other defender's hand, under aperta after trick 1 */
    this.partner = null;
  }

  // ------------------------------------------------------------------ messages
  // (`feed` and `tracked` are SeatTracker's, src/tracker.js)
  /**
   * The deal: the dealer and the seat's `private` (`{"hands": [[12 codes], ...], "no_chiamo"?}`).
   * @param {number} dealer
   * @param {{hands: string[][], no_chiamo?: boolean}} priv
   */
  deal(dealer, priv) {
    if (this.dealt) throw new TrackerError("bad_field", "the deal has been dealt already");
    if (!Number.isInteger(dealer) || dealer < 0 || dealer >= this.n) {
      throw new TrackerError("bad_field", `dealer must be a seat 0..${this.n - 1}, got ${JSON.stringify(dealer)}`);
    }
    if (!priv || typeof priv !== "object") throw new TrackerError("bad_field", "deal.private must be a JSON object");
    const unknown = Object.keys(priv).filter((k) => k !== "hands" && k !== "no_chiamo");
    if (unknown.length) throw new TrackerError("bad_field", `unknown deal.private key(s) ${unknown.join(", ")}; calabresella takes hands, no_chiamo`);
    const d = dealer;
    const n = this.n;
    this.dealer = d;
    this.seatOf = n === 2 ? [(d + 1) % 2, d, d] : [(d + 1) % n, (d + 2) % n, (d + 3) % n];
    this.mine = [0, 1, 2].filter((p) => this.seatOf[p] === this.seat);
    if (!Array.isArray(priv.hands) || priv.hands.length !== this.mine.length) {
      throw new TrackerError("bad_field", `deal.private.hands must list ${this.mine.length} hand(s) for S${this.seat}, got ${JSON.stringify(priv.hands)}`);
    }
    this.hands = new Map();
    const seen = new Set();
    this.mine.forEach((p, i) => {
      const cards = this.#cards(priv.hands[i], `deal.private.hands[${i}]`, 12);
      for (const c of cards) {
        if (seen.has(c)) throw new TrackerError("bad_field", `deal.private.hands repeat card ${CARDS[c]}`);
        seen.add(c);
      }
      this.hands.set(p, new Set(cards));
    });
    const noChiamo = priv.no_chiamo ?? false;
    if (typeof noChiamo !== "boolean") throw new TrackerError("bad_field", "deal.private.no_chiamo must be true or false");
    this.#reset();
    this.noChiamo = noChiamo;
    this.dealt = true;
    this.due = new Set();
  }

  /**
   * One action of the deal (the seat's own included): D.3 `seat`, `verb`, `arg` (`null` exactly
   * where the seat may not see it; a split's arg an integer or its digits).
   * @param {number} seat
   * @param {string} verb
   * @param {string|number|null} arg
   */
  event(seat, verb, arg) {
    this.atomic(() => this.#event(seat, verb, arg));
  }

  /**
   * @param {number} seat
   * @param {string} verb
   * @param {string|number|null} arg
   */
  #event(seat, verb, arg) {
    const what = this.eventStart(seat, verb, arg);
    if (seat !== this.seatOf[this.pos]) throw new TrackerError("impossible", `${what}: S${this.seatOf[this.pos]} is on turn, not S${seat}`);
    if (verb !== VERB[this.phase]) throw new TrackerError("impossible", `${what}: no ${JSON.stringify(verb)} is due now (${PHASES[this.phase]})`);
    const visible = this.#visible();
    if (!visible) {
      if (arg !== null) throw new TrackerError("impossible", `${what}: S${this.seat} may not see this ${verb}; send its arg as null`);
      this.#apply(null);
      this.step++;
      return;
    }
    if (arg === null || arg === undefined) throw new TrackerError("impossible", `${what}: S${this.seat} sees this action; its arg is needed`);
    const action = this.#parseArg(verb, arg, what);
    const own = seat === this.seat;
    if (own || this.phase === BID || this.phase === SPLIT || this.phase === CALL) {
      const legal = own ? this.legalMask() : this.#publicMask();
      if (!legal[action]) throw new TrackerError("impossible", `${what}: not legal for S${seat} now`);
    } else if (this.#heldByMe(action) || this.#played(action)) {
      throw new TrackerError("impossible", `${what}: S${seat} cannot hold ${CARDS[action]}`);
    }
    this.#apply(action);
    this.step++;
  }

  /**
   * Cards or facts the game shows the seat (`monte`, `giver`, `received`, `partner`), taken in
   * the order they fall due.
   * @param {Record<string, any>} fields
   */
  reveal(fields) {
    this.atomic(() => this.#reveal(fields));
  }

  /** @param {Record<string, any>} fields */
  #reveal(fields) {
    this.requireDealt("reveal");
    const keys = Object.keys(fields);
    if (!keys.length) throw new TrackerError("bad_field", "a reveal needs at least one field");
    for (const k of keys) {
      if (!["monte", "giver", "received", "partner"].includes(k)) {
        throw new TrackerError("bad_field", `unknown reveal field ${JSON.stringify(k)}; calabresella reveals monte, giver, received, partner`);
      }
    }
    const left = new Set(keys);
    while (left.size) {
      const now = [...left].filter((k) => this.due.has(k));
      if (!now.length) {
        throw new TrackerError("impossible", `reveal: S${this.seat} is shown no ${[...left].sort().join(", ")} now; reveals due: ${[...this.due].sort().join(", ") || "none"}`);
      }
      // giver first: it decides whether the monte falls due
      now.sort((a, b) => (a === "giver" ? -1 : b === "giver" ? 1 : 0));
      for (const k of now) {
        left.delete(k);
        this.due.delete(k);
        this.#revealOne(k, fields[k]);
      }
    }
  }

  // ------------------------------------------------------------------ queries
  /** Whether the deal is over. */
  isOver() { return this.dealt && this.phase === DONE; }

  /** The seat on turn, -1 after the end. */
  toPlay() { return !this.dealt || this.phase === DONE ? -1 : this.seatOf[this.pos]; }

  /** The legal mask of the seat (all zero unless it is on turn and nothing is due). */
  legalMask() {
    const mask = new Int8Array(NUM_ACTIONS);
    if (!this.dealt || this.phase === DONE || this.seatOf[this.pos] !== this.seat || this.due.size) return mask;
    const hand = this.hands.get(this.pos) ?? new Set();
    const r = this.rules;
    switch (this.phase) {
      case BID: {
        let allowed = 0;
        for (const c of r.allowed_contracts) allowed |= 1 << CONTRACTS.indexOf(c);
        if (this.noChiamo) allowed &= ~1;
        if (this.n !== 2) {
          mask[PASS] = 1;
          allowed &= ~((1 << (this.highBid + 1)) - 1);
        }
        for (let k = 0; k < 5; k++) if (allowed >> k & 1) mask[BID_BASE + k] = 1;
        break;
      }
      case CALL:
        for (let c = 0; c < 40; c++) if (r.allow_call_own_card || !hand.has(c)) mask[c] = 1;
        break;
      case SPLIT:
        for (let m = 0; m < 16; m++) if (r.scegliete_splits !== "only_2_2" || popcount(m) === 2) mask[SPLIT_BASE + m] = 1;
        break;
      case PLAY: {
        const led = this.trick.length ? SUIT[this.trick[0]] : -1;
        const follow = led >= 0 && [...hand].some((c) => SUIT[c] === led);
        for (const c of hand) if (!follow || SUIT[c] === led) mask[c] = 1;
        break;
      }
      default: // RETURN and the discards
        for (const c of hand) mask[c] = 1;
    }
    return mask;
  }

  /**
   * The protocol label of action `id` now (`play Ac`, `bid solo`, `pass`, `split 9`).
   * @param {number} id
   */
  label(id) { return actionLabel(id, this.phase); }

  /**
   * The D.3 event of action `id` now: `{verb, arg}` (a split's arg the mask as an integer).
   * @param {number} id
   * @returns {{verb: string, arg: string|number}}
   */
  triple(id) {
    if (id === PASS) return { verb: "bid", arg: "pass" };
    if (id >= BID_BASE && id < SPLIT_BASE) return { verb: "bid", arg: CONTRACTS[id - BID_BASE] };
    if (id >= SPLIT_BASE) return { verb: "split", arg: id - SPLIT_BASE };
    return { verb: /** @type {string} */ (VERB[this.phase] ?? "card"), arg: CARDS[id] };
  }

  /**
   * The seat's view: the fields encoding.md 2.4 reads.
   * @returns {CalabresellaView}
   */
  view() {
    this.requireDealt("view");
    const done = this.phase === DONE;
    const mine = this.mine;
    const pos = mine.length === 1 ? mine[0] : mine.length === 0 ? -1
      : (mine.includes(this.pos) && !done ? this.pos : mine[0]);
    const union = (/** @type {Array<Set<number>|null>} */ sets) => {
      const out = new Set();
      for (const p of mine) addAll(out, sets[p] ?? []);
      return sorted(out);
    };
    const sol = this.soloist;
    const d1 = (sol + 1) % 3;
    const d2 = (sol + 2) % 3;
    let partnerHand = /** @type {number[]} */ ([]);
    if (sol >= 0 && pos >= 0 && pos !== sol) {
      const other = pos === d1 ? d2 : d1;
      if (mine.includes(other)) partnerHand = sorted(this.hands.get(other) ?? []);
      else if (this.rules.aperta && this.nTricks > 0 && this.partner) partnerHand = sorted(this.partner);
    }
    let knownMonte = /** @type {number[]} */ ([]);
    const c = this.contract;
    if (c >= 0) {
      const all = this.monte ? sorted(this.monte) : [];
      if (c === SCEGLIETE) knownMonte = all;
      else if (c === CHIAMO && this.rules.chiamo_monte_exposed && this.phase > RETURN) knownMonte = all;
      else if (c === SOLISSIMO && this.rules.solissimo_view_monte && mine.includes(sol)) knownMonte = all;
      else knownMonte = union(this.received);
    }
    const split = this.split >= 0;
    return {
      seat: this.seat,
      position: pos,
      nPlayers: this.n,
      dealer: /** @type {number} */ (this.dealer),
      seatOf: [...this.seatOf],
      phase: this.phase,
      toPlay: done ? -1 : this.pos,
      legal: this.legalActions(),
      hand: pos >= 0 ? sorted(this.hands.get(pos) ?? []) : [],
      partnerHand,
      bids: this.bids.map(([p, a]) => [p, a]),
      noChiamo: this.noChiamo,
      contract: c,
      soloist: sol,
      called: this.called,
      giver: this.giver,
      returned: this.returned,
      knownMonte,
      discards: union(this.discarded),
      splitD1: split ? sorted(this.received[d1] ?? []) : [],
      splitD2: split ? sorted(this.received[d2] ?? []) : [],
      trick: [...this.trick],
      leader: this.leader,
      playedBy: this.playedBy.map((s) => sorted(s)),
      void: [...this.voids],
      piles: this.piles.map((s) => sorted(s)),
      tricksWon: [...this.tricksWon],
      nTricks: this.nTricks,
      totals: [...this.totals],
      target: this.rules.target,
    };
  }

  /** The observation and mask of the seat now (encoding.md 2). */
  encode() { return encode(this.view()); }

  // ------------------------------------------------------------------ the rules
  #visible() {
    const p = this.phase;
    if (p === SOLO_DISCARD || p === DIV_DISCARD || p === SCE_DISCARD) return this.mine.includes(this.pos);
    if (p === RETURN) return this.rules.chiamo_return_public || this.mine.includes(this.soloist) || this.mine.includes(this.giver);
    return true;
  }

  /** The mask of what the position on turn may do, as far as public facts go (bids, splits, calls). */
  #publicMask() {
    const mask = new Int8Array(NUM_ACTIONS);
    if (this.phase === CALL) { for (let c = 0; c < 40; c++) mask[c] = this.#played(c) ? 0 : 1; return mask; }
    const seat = this.seat;
    // the bid and split rules depend on public facts only: evaluate them as if the seat were on turn
    const saved = this.seatOf;
    this.seat = saved[this.pos];
    const out = this.legalMask();
    this.seat = seat;
    return out;
  }

  /** @param {number} c */
  #heldByMe(c) { for (const h of this.hands.values()) if (h.has(c)) return true; return false; }

  /** @param {number} c */
  #played(c) { return this.playedBy.some((s) => s.has(c)) || this.setAside.has(c); }

  /**
   * @param {string} verb
   * @param {string|number} arg
   * @param {string} what
   */
  #parseArg(verb, arg, what) {
    if (verb === "bid") {
      if (arg === "pass") return PASS;
      const k = CONTRACTS.indexOf(/** @type {string} */ (arg));
      if (k < 0) throw new TrackerError("impossible", `${what}: unknown contract ${JSON.stringify(arg)}`);
      return BID_BASE + k;
    }
    if (verb === "split") {
      const m = typeof arg === "number" ? arg : /^\d+$/.test(String(arg)) ? Number(arg) : NaN;
      if (!Number.isInteger(m) || m < 0 || m > 15) throw new TrackerError("impossible", `${what}: a split is an integer 0..15`);
      return SPLIT_BASE + m;
    }
    try {
      return parseCard(arg);
    } catch (e) {
      throw new TrackerError("impossible", `${what}: ${/** @type {Error} */ (e).message}`);
    }
  }

  /** @param {number|null} a the action id, null for a hidden one */
  #apply(a) {
    switch (this.phase) {
      case BID: return this.#bid(/** @type {number} */ (a));
      case CALL: return this.#call(/** @type {number} */ (a));
      case RETURN: return this.#return(a);
      case SPLIT: return this.#split(/** @type {number} */ (a) - SPLIT_BASE);
      case PLAY: return this.#play(/** @type {number} */ (a));
      default: return this.#discard(a);
    }
  }

  /** @param {number} a */
  #bid(a) {
    const pos = this.pos;
    this.bids.push([pos, a]);
    if (a === PASS) this.passed |= 1 << pos;
    else { this.highBid = a - BID_BASE; this.highPos = pos; }
    const next = this.#nextBidder(pos);
    if (next >= 0) { this.pos = next; return; }
    if (this.highBid < 0) {
      if (this.rules.all_pass === "forced_chiamo_eldest") { this.highBid = CHIAMO; this.highPos = 0; }
      else { this.phase = DONE; return; }
    } else {
      this.#startContract(true);
      return;
    }
    this.#startContract(false);
  }

  /** @param {number} pos */
  #nextBidder(pos) {
    if (this.n === 2) return -1;
    if (this.rules.auction === "single_round") return this.bids.length < 3 ? pos + 1 : -1;
    const nPassed = popcount(this.passed);
    if (nPassed < 2 || (nPassed === 2 && this.highBid < 0)) {
      let next = (pos + 1) % 3;
      while (this.passed >> next & 1) next = (next + 1) % 3;
      return next;
    }
    return -1;
  }

  /** @param {boolean} byAuction the auction chose it (not an all-pass Chiamo): reveals fall due */
  #startContract(byAuction) {
    const c = this.contract = this.highBid;
    const sol = this.soloist = this.highPos;
    const solMine = this.mine.includes(sol);
    const d1 = (sol + 1) % 3;
    const d2 = (sol + 2) % 3;
    switch (c) {
      case CHIAMO:
        this.phase = CALL;
        this.pos = sol;
        break;
      case SOLO:
        this.#takeMonte();
        if (solMine && byAuction) this.due.add("monte");
        break;
      case SOLISSIMO:
        if (solMine && this.rules.solissimo_view_monte && byAuction) this.due.add("monte");
        this.#startPlay();
        break;
      case DIVIDETE:
        this.receivedCount[d1] = this.receivedCount[d2] = 2;
        this.handSizes[d1] += 2;
        this.handSizes[d2] += 2;
        this.phase = DIV_DISCARD;
        this.left = 2;
        this.pos = d1;
        if (byAuction && (this.mine.includes(d1) || this.mine.includes(d2))) this.due.add("received");
        break;
      case SCEGLIETE:
        this.phase = SPLIT;
        this.pos = d1;
        if (byAuction) this.due.add("monte");
        break;
    }
  }

  #takeMonte() {
    const sol = this.soloist;
    this.monteTaken = true;
    this.handSizes[sol] += 4;
    this.receivedCount[sol] = 4;
    if (this.monte && this.mine.includes(sol)) this.#monteToSoloist();
    this.phase = SOLO_DISCARD;
    this.left = 4;
    this.pos = sol;
  }

  #monteToSoloist() {
    const monte = /** @type {number[]} */ (this.monte);
    const hand = /** @type {Set<number>} */ (this.hands.get(this.soloist));
    addAll(hand, monte);
    this.received[this.soloist] = new Set(monte);
  }

  /** @param {number} card */
  #call(card) {
    this.called = card;
    const holder = this.mine.find((p) => this.hands.get(p)?.has(card));
    if (holder === undefined) { this.due.add("giver"); return; }
    this.#setGiver(holder === this.soloist ? GIVER_OWN : holder);
  }

  /** @param {number} g */
  #setGiver(g) {
    this.giver = g;
    const sol = this.soloist;
    const solMine = this.mine.includes(sol);
    if (g >= 0) {
      this.hands.get(g)?.delete(this.called);
      this.hands.get(sol)?.add(this.called);
      this.handSizes[g]--;
      this.handSizes[sol]++;
      this.phase = RETURN;
      return;
    }
    this.#takeMonte();
    if (solMine || this.rules.chiamo_monte_exposed) this.due.add("monte");
  }

  /** @param {number|null} card */
  #return(card) {
    const sol = this.soloist;
    const g = this.giver;
    if (card !== null) {
      this.returned = card;
      this.hands.get(sol)?.delete(card);
      this.hands.get(g)?.add(card);
    }
    this.handSizes[sol]--;
    this.handSizes[g]++;
    this.#takeMonte();
    if (this.mine.includes(sol) || this.rules.chiamo_monte_exposed) this.due.add("monte");
  }

  /** @param {number} m */
  #split(m) {
    this.split = m;
    const cards = sorted(/** @type {number[]} */ (this.monte));
    const toD1 = new Set(cards.filter((_, i) => m >> i & 1));
    const toD2 = new Set(cards.filter((_, i) => !(m >> i & 1)));
    const d1 = (this.soloist + 1) % 3;
    const d2 = (this.soloist + 2) % 3;
    this.received[d1] = toD1;
    this.received[d2] = toD2;
    this.receivedCount[d1] = toD1.size;
    this.receivedCount[d2] = toD2.size;
    this.handSizes[d1] += toD1.size;
    this.handSizes[d2] += toD2.size;
    if (this.hands.has(d1)) addAll(/** @type {Set<number>} */ (this.hands.get(d1)), toD1);
    if (this.hands.has(d2)) addAll(/** @type {Set<number>} */ (this.hands.get(d2)), toD2);
    this.phase = SCE_DISCARD;
    this.left = toD1.size || toD2.size;
    this.pos = toD1.size ? d1 : d2;
  }

  /** @param {number|null} card */
  #discard(card) {
    const pos = this.pos;
    if (card !== null) {
      this.hands.get(pos)?.delete(card);
      this.discarded[pos].add(card);
      this.setAside.add(card);
    }
    this.handSizes[pos]--;
    this.left--;
    if (this.left) return;
    const d1 = (this.soloist + 1) % 3;
    const d2 = (this.soloist + 2) % 3;
    if (this.phase !== SOLO_DISCARD && pos === d1) {
      this.left = this.receivedCount[d2];
      if (this.left) { this.pos = d2; return; }
    }
    this.#startPlay();
  }

  #startPlay() {
    const lead = this.rules.first_lead;
    let first = 0;
    if (lead === "soloist") first = this.soloist;
    else if (lead === "dealer_left") {
      const n = this.n;
      first = n === 2 ? 2 : this.seatOf.indexOf((/** @type {number} */ (this.dealer) - 1 + n) % n);
    }
    this.phase = PLAY;
    this.leader = first;
    this.pos = first;
  }

  /** @param {number} card */
  #play(card) {
    const pos = this.pos;
    this.hands.get(pos)?.delete(card);
    if (this.partner && pos === 3 - this.soloist - this.mine[0]) this.partner.delete(card);
    this.handSizes[pos]--;
    this.playedBy[pos].add(card);
    const trick = this.trick;
    trick.push(card);
    if (trick.length > 1 && SUIT[card] !== SUIT[trick[0]]) this.voids[pos] |= 1 << SUIT[trick[0]];
    if (trick.length < 3) { this.pos = (pos + 1) % 3; return; }
    const [a, b, c] = trick;
    let w = SUIT[b] === SUIT[a] && STRENGTH[b] > STRENGTH[a] ? 1 : 0;
    if (SUIT[c] === SUIT[a] && STRENGTH[c] > STRENGTH[trick[w]]) w = 2;
    const winner = (this.leader + w) % 3;
    const side = winner === this.soloist ? 0 : 1;
    const last = this.nTricks === 11;
    addAll(this.piles[side], trick);
    if (last) addAll(this.piles[side], this.#knownSetAside());
    this.tricksWon[side]++;
    this.nTricks++;
    this.trick = [];
    if (this.nTricks === 1 && this.rules.aperta && this.mine.length === 1 && !this.mine.includes(this.soloist)) {
      this.due.add("partner");
    }
    if (last) { this.phase = DONE; return; }
    this.leader = winner;
    this.pos = winner;
  }

  /** The set-aside cards the seat knows (its discards; a Solissimo monte it saw). */
  #knownSetAside() {
    const out = new Set(this.setAside);
    if (this.contract === SOLISSIMO && this.monte) addAll(out, this.monte);
    return out;
  }

  /**
   * @param {string} key
   * @param {any} value
   */
  #revealOne(key, value) {
    if (key === "monte") {
      const cards = this.#cards(value, "reveal.monte", 4);
      if (this.monte && sorted(this.monte).join() !== sorted(cards).join()) {
        throw new TrackerError("impossible", "reveal.monte contradicts the monte the seat saw");
      }
      const soloHand = this.monteTaken ? this.hands.get(this.soloist) : undefined;
      for (const c of cards) {
        if (this.#played(c) || (this.#heldByMe(c) && !(soloHand?.has(c)))) {
          throw new TrackerError("impossible", `reveal.monte: ${CARDS[c]} cannot lie in the monte`);
        }
      }
      this.monte = cards;
      if (this.monteTaken && this.mine.includes(this.soloist)) this.#monteToSoloist();
    } else if (key === "giver") {
      const g = this.#giver(value);
      if (g >= 0 && this.mine.includes(g)) throw new TrackerError("impossible", `reveal.giver: S${this.seat} does not hold ${CARDS[this.called]}`);
      if (g === GIVER_OWN && !this.rules.allow_call_own_card) throw new TrackerError("impossible", "reveal.giver: the soloist may not call his own card");
      this.#setGiver(g);
    } else if (key === "received") {
      const defenders = [(this.soloist + 1) % 3, (this.soloist + 2) % 3].filter((d) => this.mine.includes(d));
      const cards = this.#cards(value, "reveal.received", 2 * defenders.length);
      defenders.forEach((d, i) => {
        const pair = cards.slice(2 * i, 2 * i + 2);
        this.received[d] = new Set(pair);
        addAll(/** @type {Set<number>} */ (this.hands.get(d)), pair);
      });
    } else if (key === "partner") {
      const other = 3 - this.soloist - this.mine[0];
      const cards = this.#cards(value, "reveal.partner", this.handSizes[other]);
      this.partner = new Set(cards);
    }
  }

  /** @param {unknown} value */
  #giver(value) {
    if (value === "monte") return GIVER_MONTE;
    if (value === "own") return GIVER_OWN;
    if (typeof value === "string" && /^A[0-2]$/.test(value) && this.n === 2) return Number(value[1]);
    if (typeof value === "string" && /^S\d+$/.test(value)) {
      const seat = Number(value.slice(1));
      const positions = [0, 1, 2].filter((p) => this.seatOf[p] === seat);
      if (positions.length === 1) return positions[0];
    }
    throw new TrackerError("bad_field", `reveal.giver must be a seat S<n> deciding for one position, A1/A2 (a due), 'monte' or 'own', got ${JSON.stringify(value)}`);
  }

  /**
   * @param {unknown} codes
   * @param {string} name
   * @param {number} n
   * @returns {number[]}
   */
  #cards(codes, name, n) {
    if (!Array.isArray(codes) || !codes.every((c) => typeof c === "string")) {
      throw new TrackerError("bad_field", `${name} must be a list of card codes, got ${JSON.stringify(codes)}`);
    }
    if (codes.length !== n) throw new TrackerError("bad_field", `${name} must hold ${n} cards, got ${codes.length}`);
    const cards = codes.map(parseCard);
    if (new Set(cards).size !== cards.length) throw new TrackerError("bad_field", `${name} repeats a card`);
    return cards;
  }

}

// ----------------------------------------------------------------------------------- encoder
const O = {
  phase: 0, myPosition: 9, toPlay: 13, role: 16, hand: 19, partnerHand: 59, bids: 99,
  highBid: 117, noChiamo: 122, contract: 123, soloist: 128, called: 131, giver: 171,
  returned: 176, knownMonte: 216, discards: 256, splitD1: 296, splitD2: 336, trick: 376,
  trickLeader: 496, playedBy: 499, void: 619, pileSoloist: 631, pileDefenders: 671,
  nTricks: 711, thirds: 712, tricksWon: 714, totals: 716,
};

/**
 * The observation (`Float32Array(720)`) and legal mask (`Int8Array(62)`) of a view, exactly as
 * docs/encoding.md section 2 specifies (version 1).
 * @param {CalabresellaView} v
 * @returns {{obs: Float32Array, mask: Int8Array}}
 */
export function encode(v) {
  const obs = new Float32Array(OBS_SIZE);
  const mask = new Int8Array(NUM_ACTIONS);
  const me = v.position >= 0 ? v.position : 0;
  const rel = (/** @type {number} */ p) => (((p - me) % 3) + 3) % 3;
  const set = (/** @type {number} */ offset, /** @type {Iterable<number>} */ cards) => { for (const c of cards) obs[offset + c] = 1; };
  obs[O.phase + v.phase] = 1;
  obs[O.myPosition + (v.position >= 0 ? v.position : 3)] = 1;
  if (v.toPlay >= 0) obs[O.toPlay + rel(v.toPlay)] = 1;
  if (v.soloist >= 0 && v.position >= 0) obs[O.role + (((v.position - v.soloist) % 3) + 3) % 3] = 1;
  set(O.hand, v.hand);
  set(O.partnerHand, v.partnerHand);
  if (v.bids.length) {
    const last = [-1, -1, -1];
    let high = -1;
    for (const [p, a] of v.bids) {
      last[p] = a;
      if (a !== PASS) high = a - BID_BASE;
    }
    for (let p = 0; p < 3; p++) {
      if (last[p] >= 0) obs[O.bids + 6 * rel(p) + (last[p] === PASS ? 0 : 1 + last[p] - BID_BASE)] = 1;
    }
    if (high >= 0) obs[O.highBid + high] = 1;
    if (v.noChiamo) obs[O.noChiamo] = 1;
    if (v.contract >= 0) obs[O.contract + v.contract] = 1;
  }
  if (v.soloist >= 0) obs[O.soloist + rel(v.soloist)] = 1;
  if (v.called >= 0) {
    obs[O.called + v.called] = 1;
    obs[O.giver + (v.giver >= 0 ? rel(v.giver) : v.giver === GIVER_MONTE ? 3 : 4)] = 1;
  }
  if (v.returned >= 0) obs[O.returned + v.returned] = 1;
  set(O.knownMonte, v.knownMonte);
  set(O.discards, v.discards);
  set(O.splitD1, v.splitD1);
  set(O.splitD2, v.splitD2);
  v.trick.forEach((card, k) => { obs[O.trick + 40 * rel((v.leader + k) % 3) + card] = 1; });
  if (v.phase === PLAY) obs[O.trickLeader + rel(v.leader)] = 1;
  for (let p = 0; p < 3; p++) {
    set(O.playedBy + 40 * rel(p), v.playedBy[p]);
    for (let s = 0; s < 4; s++) if (v.void[p] >> s & 1) obs[O.void + 4 * rel(p) + s] = 1;
  }
  set(O.pileSoloist, v.piles[0]);
  set(O.pileDefenders, v.piles[1]);
  const thirds = (/** @type {number[]} */ pile) => pile.reduce((t, c) => t + THIRDS[c], 0);
  obs[O.nTricks] = v.nTricks / 12;
  obs[O.thirds] = thirds(v.piles[0]) / 32;
  obs[O.thirds + 1] = thirds(v.piles[1]) / 32;
  obs[O.tricksWon] = v.tricksWon[0] / 12;
  obs[O.tricksWon + 1] = v.tricksWon[1] / 12;
  const n = v.nPlayers;
  for (let k = 0; k < n && k < 4; k++) obs[O.totals + k] = v.totals[(v.seat + k) % n] / v.target;
  for (const a of v.legal) mask[a] = 1;
  return { obs, mask };
}
