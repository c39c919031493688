// Minchiate for mazzo-bot: the cards and actions (RULES.md D.1, D.4), the seat tracker fed by
// the `mazzo-bot/1` seat-session messages (docs/protocol.md "Seat sessions", "Minchiate"), and
// the observation encoder of docs/encoding.md section 3 (version 1).
//
// The tracker keeps exactly what one seat knows, following the rules of RULES.md Part M (and
// the variant flags of C.3) from the deal message, every event (the seat's own moves included)
// and the reveals owed to it: the cut and the robbing, the 10 + 11 deal with its face-up cards,
// the Fola, the discards, the declarations (versicole), the trick play with the Matto and the
// King rule, the Matto's payment, the scoring events with the resti ratchet (M-14) and the
// settlement. It never guesses a hidden card: another seat's hand and discards stay unknown,
// which the encoding never needs.

import { resolveFlags } from "./flags.js";
import { TrackerError } from "./errors.js";
import { SeatTracker } from "./tracker.js";

export const GAME = "minchiate";
export const ENCODING_VERSION = 1;
export const OBS_SIZE = 2572;
export const NUM_ACTIONS = 99;

// ------------------------------------------------------------------------------------- cards
const SUITS = "cdsb";
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"];

/** Card codes by card index: T1..T40 = 0..39, the Matto `M` = 40, then `Ac` = 41 .. `Kb` = 96. */
export const CARDS = Object.freeze([
  ...Array.from({ length: 40 }, (_, i) => `T${i + 1}`),
  "M",
  ...Array.from({ length: 56 }, (_, i) => RANKS[i % 14] + SUITS[Math.floor(i / 14)]),
]);
const CARD_INDEX = new Map(CARDS.map((code, c) => [code, c]));

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

const MATTO = 40;
const TRUMP = 4; // the trumps' suit, and the led-suit value of a trump lead
const T29 = 28;
/** Suit of each card: 0..3 the plain suits, 4 the trumps, 5 the Matto. */
const SUIT = CARDS.map((_, c) => (c < 40 ? TRUMP : c === MATTO ? 5 : Math.floor((c - 41) / 14)));
/** Strength within a suit (M-2.2): courts above pips; in cups and coins the ace is the highest pip. */
const STRENGTH = CARDS.map((_, c) => {
  if (c < 40) return c + 1;
  if (c === MATTO) return 0;
  const r = (c - 41) % 14;
  return r >= 10 ? r : SUIT[c] <= 1 ? 9 - r : r;
});
/** @type {Record<number, number>} */
const TRUMP_VALUE = { 1: 5, 2: 3, 3: 3, 4: 3, 5: 3, 10: 5, 13: 5, 20: 5, 28: 5 };
/** Card values (M-3.1). */
const VALUE = CARDS.map((_, c) => {
  if (c < 40) return c + 1 >= 36 ? 10 : c + 1 >= 30 ? 5 : TRUMP_VALUE[c + 1] ?? 0;
  if (c === MATTO) return 5;
  return (c - 41) % 14 === 13 ? 5 : 0;
});
const COMBO_VALUE = VALUE.map((v, c) => (c === T29 ? 5 : v)); // T29 counts 5 in a combination
const CAPTURE_VALUE = VALUE.map((v, c) => (c === MATTO ? 0 : v)); // M-12.1: never the Matto
const KING = [0, 1, 2, 3].map((s) => 41 + 14 * s + 13);
/** @param {number} c M-8.2: value 0 and not T29 */
const discardable = (c) => VALUE[c] === 0 && c !== T29;
/** MA-9 relax: the discard classes from the least to the most valuable. */
const RELAX_CLASSES = [discardable, (/** @type {number} */ c) => c === T29,
  (/** @type {number} */ c) => VALUE[c] === 3, (/** @type {number} */ c) => VALUE[c] === 5,
  (/** @type {number} */ c) => VALUE[c] === 10];
/**
 * M-11.4: the key of `card` in a trick led in suit `led` (the higher wins; 0 never wins).
 * @param {number} led
 * @param {number} card
 */
const winKey = (led, card) => (SUIT[card] === TRUMP ? 200 + STRENGTH[card] : SUIT[card] === led ? 100 + STRENGTH[card] : 0);

export const PHASES = Object.freeze(["DISCARD_CUTTER", "DISCARD_DEALER", "DECLARE", "PLAY", "MATTO_PAY", "DONE"]);
const [DISCARD_CUTTER, DISCARD_DEALER, DECLARE_PHASE, PLAY, MATTO_PAY, DONE] = PHASES.map((_, i) => i);
const VERB = ["discard", "discard", null, "play", "pay", null];
const DECLARE = 97;
const SKIP = 98;
/** Combination kinds (`offer_kind`, protocol.md's `combo` names). */
export const COMBOS = Object.freeze(["low run", "high run", "1-13-28", "diecine", "1-40-M", "kings"]);
const [LOW_RUN, HIGH_RUN, ONE_13_28, DIECINE, ONE_40_M, KINGS] = [0, 1, 2, 3, 4, 5];
const MATTO_BONUS = 5;
const RESTI_SCALE = 8;

/**
 * The label of action `id` (`discard T8`, `play Kd`, `pay T6`, `declare`, `skip`; a card
 * action outside a card phase is `card Xx`, the manifest's `action_labels`).
 * @param {number} id
 * @param {number} [phase]
 */
export function actionLabel(id, phase) {
  if (id >= 0 && id < 97) return `${(phase !== undefined && VERB[phase]) || "card"} ${CARDS[id]}`;
  if (id === 97) return "declare";
  if (id === 98) return "skip";
  throw new RangeError(`action id ${id} is outside Discrete(${NUM_ACTIONS})`);
}

// -------------------------------------------------------------------------- card sets, combos
/** @param {Iterable<number>} cards */
const sorted = (cards) => [...cards].sort((a, b) => a - b);
/** @param {Iterable<number>} cards */
const points = (cards) => { let t = 0; for (const c of cards) t += VALUE[c]; return t; };

/**
 * @typedef {object} Combo
 * A combination (RULES.md M-9): its kind (an index of COMBOS), its members (card indices,
 * ascending), the points of its cards (T29 counts 5) and the Matto's bonus.
 * @property {number} kind
 * @property {number[]} members
 * @property {number} points
 * @property {number} bonus
 */

/**
 * The maximal runs of three or more among `width` trumps from `first` in `holder`.
 * @param {Set<number>} holder
 * @param {number} first
 * @param {number} width
 */
function runs(holder, first, width) {
  const out = [];
  let i = 0;
  while (i < width) {
    if (!holder.has(first + i)) { i++; continue; }
    let j = i;
    while (j < width && holder.has(first + j)) j++;
    if (j - i >= 3) out.push(Array.from({ length: j - i }, (_, k) => first + i + k));
    i = j;
  }
  return out;
}

/**
 * Every combination in `holder` (a hand, or a team's pile at the end), in the canonical order of
 * M-9.7: low run, high runs, 1-13-28, diecine, 1-40-M, kings.
 * @param {Set<number>} holder
 * @param {string} diecine flag `diecine`
 * @param {boolean} mattoBonus apply M-9.4 when the holder holds the Matto
 * @param {boolean} bonusOwn flag `matto_bonus_in_own_combo`
 * @returns {Combo[]}
 */
export function findCombos(holder, diecine = "merge_four", mattoBonus = true, bonusOwn = false) {
  /** @type {Array<[number, number[]]>} */
  const found = [];
  for (const m of runs(holder, 0, 5)) found.push([LOW_RUN, m]);
  for (const m of runs(holder, 27, 13)) found.push([HIGH_RUN, m]);
  const all = (/** @type {number[]} */ cards) => cards.every((c) => holder.has(c));
  if (all([0, 12, 27])) found.push([ONE_13_28, [0, 12, 27]]);
  const d = [9, 19, 29, 39].filter((c) => holder.has(c));
  if (d.length >= 3) {
    if (diecine === "any_three" || (diecine === "merge_four" && d.length === 4)) found.push([DIECINE, d]);
    else {
      if (all([9, 19, 29])) found.push([DIECINE, [9, 19, 29]]);
      if (all([19, 29, 39])) found.push([DIECINE, [19, 29, 39]]);
    }
  }
  if (all([0, 39, MATTO])) found.push([ONE_40_M, [0, 39, MATTO]]);
  const kings = KING.filter((c) => holder.has(c));
  if (kings.length >= 3) found.push([KINGS, kings]);
  const hasMatto = mattoBonus && holder.has(MATTO);
  return found.map(([kind, members]) => ({
    kind, members, points: members.reduce((t, c) => t + COMBO_VALUE[c], 0),
    bonus: hasMatto && (bonusOwn || !members.includes(MATTO)) ? MATTO_BONUS : 0,
  }));
}

/** @param {Combo} c */
const score = (c) => c.points + c.bonus;
/** @param {Combo} a @param {Combo} b */
const sameCombo = (a, b) => a.kind === b.kind && a.bonus === b.bonus && a.members.join() === b.members.join();
/** @param {Combo} c the cards a declared combination shows its declarer holds (the Matto with a bonus) */
const comboCards = (c) => (c.bonus || c.kind === ONE_40_M ? [...new Set([...c.members, MATTO])] : c.members);

/**
 * M-11.3: the legal plays from `hand`.
 * @param {Set<number>} hand
 * @param {number} led the led suit (4 for trumps), -1 when leading or after a Matto lead alone
 * @param {number} top the highest trump in the trick, -1 if none
 * @param {number} suitsLed bit s: plain suit s was led in an earlier trick
 * @param {boolean} kingRule
 * @param {boolean} overtrump flag `must_overtrump`
 * @returns {number[]}
 */
function playMask(hand, led, top, suitsLed, kingRule, overtrump) {
  const cards = sorted(hand);
  if (led < 0) return cards;
  const matto = hand.has(MATTO) ? [MATTO] : [];
  if (led !== TRUMP) {
    if (kingRule && top >= 0 && hand.has(KING[led]) && !(suitsLed >> led & 1)) return [KING[led]];
    const follow = cards.filter((c) => SUIT[c] === led);
    if (follow.length) return sorted([...follow, ...matto]);
  }
  let trumps = cards.filter((c) => c < 40);
  if (!trumps.length) return cards;
  if (overtrump && top >= 0) {
    const higher = trumps.filter((c) => c > top);
    if (higher.length) trumps = higher;
  }
  return sorted([...trumps, ...matto]);
}

/**
 * M-14.2: every full `unit` of D becomes a resto.
 * @param {number} d
 * @param {number} r
 * @param {number} unit
 * @returns {[number, number]}
 */
function ratchet(d, r, unit) {
  if (d >= unit) { const q = Math.floor(d / unit); return [d - q * unit, r + q]; }
  if (d <= -unit) { const q = Math.floor(-d / unit); return [d + q * unit, r - q]; }
  return [d, r];
}

/**
 * M-14.3: sign(d) x ceil(|d| / unit).
 * @param {number} d
 * @param {number} unit
 */
const endRounding = (d, unit) => (d > 0 ? Math.ceil(d / unit) : d < 0 ? -Math.ceil(-d / unit) : 0);

/**
 * M-13.1 (MA-23): the card a team pays for the Matto from its pile.
 * @param {Set<number>} pile
 */
function autoPayment(pile) {
  const cards = sorted(pile).filter((c) => c !== MATTO);
  const zero = cards.filter(discardable);
  if (zero.length) return zero[0];
  let best = cards[0];
  for (const c of cards) if (VALUE[c] < VALUE[best]) best = c;
  return best;
}

/**
 * @typedef {object} MinchiateView
 * The fields of encoding.md 3.4 (card sets as arrays of card indices).
 * @property {number} seat
 * @property {number} phase
 * @property {number} toPlay -1 when the deal is over
 * @property {number} dealer
 * @property {number} cutter
 * @property {number[]} hand
 * @property {number[]} discards
 * @property {number[]} robbed
 * @property {number} stopCard
 * @property {number[]} faceup per seat, -1 for none
 * @property {number[]} dealerRobbed
 * @property {number[]} dealerTaken
 * @property {Array<{seat: number, kind: number, members: number[]}>} declared
 * @property {number[]} folaKnown
 * @property {boolean} folaExposed
 * @property {{kind: number, members: number[]}|null} offered
 * @property {number[]} trick
 * @property {number} leader
 * @property {number} led -1, a suit 0..3, or 4 (trumps)
 * @property {number[][]} playedBy
 * @property {number} suitsLed bit s: plain suit s was led in a completed trick
 * @property {number[][]} piles per team (A = S0+S2, B = S1+S3)
 * @property {number} mattoOwner
 * @property {boolean} mattoDebt
 * @property {number} D
 * @property {number} R
 * @property {number} nTricks
 * @property {number} seriesResti
 * @property {number} restiUnit the rule flag `resti_unit`
 * @property {number[]} legal the legal action ids when the seat is on turn, else []
 */

// ------------------------------------------------------------------ the end of a trick, the end of play
// The rules that close a trick and settle the deal, over the explicit state that both this seat
// tracker and the referee of the whole deal (js/table/minchiate_referee.js) keep under the same
// names, so that each rule is written once.

/**
 * @typedef {object} PlayState what `closeTrick`, `mattoHandover` and `settlement` read and write
 * @property {Record<string, any>} rules the resolved rule flags
 * @property {number[]} trick the cards of the trick in play order
 * @property {number} leader
 * @property {number} led -1, a suit 0..3, or 4 (trumps)
 * @property {number} top
 * @property {number} pos the seat on turn
 * @property {Set<number>[]} piles per team
 * @property {number} suitsLed bit s: plain suit s was led in a completed trick
 * @property {number} mattoOwner
 * @property {boolean} mattoDebt
 * @property {boolean} mattoLost
 * @property {number} lastWinner
 * @property {number[]} declEnd the declared points each team keeps for the end count (MA-16)
 * @property {number} D
 * @property {number} R
 */

/**
 * M-11.4, M-11.5, M-12.1: close the full trick of `st` as trick number `n` (1..21): its winner
 * leads next, the cards go to the winner's pile, the Matto to its owner's (with the debt of a
 * card when the other team took the trick, or lost in the last trick under
 * matto_last_trick_lost). The capture bonus is returned for the caller to score.
 * @param {PlayState} st
 * @param {number} n
 * @returns {{winner: number, team: number, capture: number, cards: number[], leader: number}}
 */
function closeTrick(st, n) {
  const { trick, leader, led } = st;
  let best = 0;
  for (let i = 1; i < 4; i++) if (winKey(led, trick[i]) > winKey(led, trick[best])) best = i;
  const winner = (leader + best) & 3;
  const team = winner & 1;
  for (const c of trick) if (c !== MATTO) st.piles[team].add(c);
  let capture = 0;
  if (st.rules.capture_bonus) {
    const i = (team ^ leader ^ 1) & 1;
    capture = CAPTURE_VALUE[trick[i]] + CAPTURE_VALUE[trick[i + 2]];
  }
  if (trick.includes(MATTO)) {
    const owner = st.mattoOwner;
    const lost = n === 21 && st.rules.matto_last_trick_lost;
    st.piles[owner & 1].add(MATTO);
    st.mattoDebt = !lost && (owner & 1) !== team;
    st.mattoLost = lost;
  }
  if (led < TRUMP) st.suitsLed |= 1 << led;
  st.trick = [];
  st.led = -1;
  st.top = -1;
  st.leader = st.pos = winner;
  if (n === 21) st.lastWinner = winner;
  return { winner, team, capture, cards: trick, leader };
}

/**
 * M-13.1, MA-22: the card the Matto's team hands over at the end of play: -1 for nothing, the
 * Matto itself when it is lost or its team has nothing else, else the automatic payment; null
 * when its owner chooses the card (matto_payment=agent).
 * @param {PlayState} st
 * @returns {number|null}
 */
function mattoHandover(st) {
  const pile = st.piles[st.mattoOwner & 1];
  if (st.mattoLost) return MATTO;
  if (!st.mattoDebt) return -1;
  if (![...pile].some((c) => c !== MATTO)) return MATTO;
  if (st.rules.matto_payment === "agent") return null;
  return autoPayment(pile);
}

/**
 * M-13.2: a team's end count T_X, broken down (mazzo's scoring.py end_count); `combos` are the
 * combinations found in the pile (`{kind, members, points, bonus}`).
 * @param {Set<number>} pile
 * @param {boolean} wonLast
 * @param {number} declared
 * @param {Record<string, any>} r the rule flags
 */
function endCount(pile, wonLast, declared, r) {
  const combos = r.end_recount_combos ? findCombos(pile, r.diecine, r.matto_bonus_at_end, r.matto_bonus_in_own_combo) : [];
  const comboPoints = combos.reduce((t, c) => t + score(c), 0);
  const cardPoints = points(pile);
  const surplus = Math.max(0, pile.size - r.surplus_base);
  const lastTrick = wonLast ? r.last_trick_bonus : 0;
  return {
    card_points: cardPoints, combos, combo_points: comboPoints, cards: pile.size,
    surplus, last_trick: lastTrick, declared, total: cardPoints + comboPoints + surplus + lastTrick + declared,
  };
}

/**
 * M-13: the settlement after the hand-over of `card` (-1 for nothing; mazzo's settle.py
 * settlement). Reads `st`, changes nothing: `piles` the teams' piles after the hand-over (new
 * sets), `d`/`r` the differential and resti after the Matto's death bonus (`death` its points,
 * 0 for none), `counts` the teams' end counts, `net` T_A - T_B, `dFinal` and `resti` the final
 * differential and resti.
 * @param {PlayState} st
 * @param {number} card
 */
function settlement(st, card) {
  const r = st.rules;
  const owner = st.mattoOwner;
  const pa = new Set(st.piles[0]);
  const pb = new Set(st.piles[1]);
  let d = st.D;
  let rr = st.R;
  const death = card === MATTO && r.matto_death_bonus ? VALUE[MATTO] : 0;
  if (card >= 0) {
    const [from, to] = (owner & 1) === 0 ? [pa, pb] : [pb, pa];
    from.delete(card);
    to.add(card);
    if (death) [d, rr] = ratchet(owner & 1 ? d + death : d - death, rr, r.resti_unit);
  }
  const last = st.lastWinner & 1;
  const counts = [endCount(pa, last === 0, st.declEnd[0], r), endCount(pb, last === 1, st.declEnd[1], r)];
  const net = counts[0].total - counts[1].total;
  const dFinal = d + net;
  return { piles: [pa, pb], d, r: rr, death, counts, net, dFinal, resti: rr + endRounding(dFinal, r.resti_unit) };
}

// ----------------------------------------------------------------------------------- tracker
const PRIVATE_KEYS = ["dealer_robbed", "dealer_taken", "faceup", "fola", "hand", "robbed", "stop"];
const REVEAL_KEYS = ["declaring", "declared", "void", "fola"];

/**
 * One seat's knowledge of a Minchiate deal, fed with the seat-session messages of
 * `mazzo-bot/1`: `deal`, `event` and `reveal` (other message types are ignored by `feed`).
 */
export class MinchiateTracker extends SeatTracker {
  /**
   * @param {{seat: number, flags?: Record<string, any>, seriesResti?: number}} options
   *   `flags`: the rules of the table (defaults filled in); `seriesResti`: in a series, team
   *   A's net resti of the finished deals (encoding.md's `series_resti`; 0 for a single deal).
   */
  constructor({ seat, flags = {}, seriesResti = 0 }) {
    super();
    this.game = GAME;
    this.flags = resolveFlags(GAME, flags);
    this.rules = /** @type {any} */ (this.flags);
    if (!Number.isInteger(seat) || seat < 0 || seat >= 4) {
      throw new TrackerError("bad_field", `seat must be a seat 0..3, got ${JSON.stringify(seat)}`);
    }
    if (!Number.isInteger(seriesResti)) throw new TrackerError("bad_field", "seriesResti must be an integer");
    this.seat = seat;
    this.seriesResti = seriesResti;
    this.dealt = false;
    this.step = 0;
    /** @type {Set<string>} the reveal keys due before the next event */
    this.due = new Set();
    this.dealer = 0;
    this.cutter = 3;
    /** @type {Set<number>} */
    this.hand = new Set();
    /** @type {number[]} */
    this.robbed = [];
    this.stop = 0;
    /** @type {number[]} */
    this.faceup = [-1, -1, -1, -1];
    /** @type {number[]} */
    this.dealerRobbed = [];
    /** @type {Set<number>} */
    this.dealerTaken = new Set();
    /** @type {Set<number>} the Fola the dealer saw (empty for another seat) */
    this.dealerFola = new Set();
    this.stopInFola = false;
    this.phase = DONE;
    this.pos = -1; // the seat on turn
    this.toDiscard = 0;
    /** @type {number[]|null} the discard turn waiting on the `void` reveal: [phase, seat, n] */
    this.voidTurn = null;
    this.void = false;
    /** @type {Set<number>} */
    this.discards = new Set();
    /** @type {Array<{seat: number, combo: Combo}>} */
    this.declared = [];
    /** @type {Combo[]} the seat's own offers while it declares */
    this.offers = [];
    this.offerI = 0;
    /** the seat deciding on its combinations, its order index (M-9.1) and its declared total */
    this.declSeat = -1;
    this.declK = -1;
    this.declSum = 0;
    /** @type {Record<string, any>|null} what the declarations reveal due answers (see #reveal) */
    this.ctx = null;
    this.declEnd = [0, 0];
    this.folaExposed = false;
    /** @type {Set<number>} the Fola once exposed */
    this.fola = new Set();
    /** @type {number[]} */
    this.trick = [];
    this.leader = 0;
    this.led = -1;
    this.top = -1;
    this.suitsLed = 0;
    this.nTricks = 0;
    /** @type {Set<number>[]} */
    this.playedBy = [new Set(), new Set(), new Set(), new Set()];
    /** @type {Set<number>[]} per seat, the cards its play shows it does not hold */
    this.absent = [new Set(), new Set(), new Set(), new Set()];
    /** @type {Set<number>[]} per team */
    this.piles = [new Set(), new Set()];
    this.mattoOwner = -1;
    this.mattoDebt = false;
    this.mattoLost = false;
    this.lastWinner = -1;
    this.D = 0;
    this.R = 0;
  }

  // ------------------------------------------------------------------ messages
  // (`feed` and `tracked` are SeatTracker's, src/tracker.js)
  /**
   * The deal: the dealer and the seat's `private` (protocol.md "Minchiate": `hand`, `robbed`,
   * `stop`, `faceup`, `dealer_robbed`, `dealer_taken`, and `fola` for the dealer).
   * @param {number} dealer
   * @param {Record<string, any>} priv
   */
  deal(dealer, priv) {
    this.atomic(() => this.#deal(dealer, priv));
  }

  /**
   * @param {number} dealer
   * @param {Record<string, any>} priv
   */
  #deal(dealer, priv) {
    if (this.dealt) throw new TrackerError("bad_field", "the deal has been dealt already");
    if (!Number.isInteger(dealer) || dealer < 0 || dealer >= 4) {
      throw new TrackerError("bad_field", `dealer must be a seat 0..3, got ${JSON.stringify(dealer)}`);
    }
    if (!priv || typeof priv !== "object" || Array.isArray(priv)) throw new TrackerError("bad_field", `deal.private must be a JSON object, got ${JSON.stringify(priv)}`);
    const seat = this.seat;
    const r = this.rules;
    const wanted = PRIVATE_KEYS.filter((k) => k !== "fola" || seat === dealer);
    const got = Object.keys(priv).sort();
    if (got.join() !== wanted.join()) {
      throw new TrackerError("bad_field", `deal.private for S${seat} needs exactly the keys [${wanted.map((k) => `'${k}'`).join(", ")}], got [${got.map((k) => `'${k}'`).join(", ")}]`);
    }
    const stop = typeof priv.stop === "string" ? CARD_INDEX.get(priv.stop) ?? -1 : -1;
    if (stop < 0) throw new TrackerError("bad_field", `deal.private.stop must be a card code, got ${JSON.stringify(priv.stop)}`);
    if (!Array.isArray(priv.faceup) || priv.faceup.length !== 4) {
      throw new TrackerError("bad_field", `deal.private.faceup must list 4 cards or nulls, got ${JSON.stringify(priv.faceup)}`);
    }
    const faceup = priv.faceup.map((/** @type {unknown} */ c) => (c === null ? -1 : parseCard(c)));
    const robbed = codes(priv.robbed, "robbed");
    const dRobbed = codes(priv.dealer_robbed, "dealer_robbed");
    const taken = new Set(codes(priv.dealer_taken, "dealer_taken"));
    const fola = new Set(seat === dealer ? codes(priv.fola, "fola") : []);
    const hand = new Set(codes(priv.hand, "hand"));
    // the checks of mazzo's read_private
    const nr = robbed.length;
    const na = dRobbed.length;
    const nt = taken.size;
    if (nr > r.rob_cap) throw new TrackerError("bad_field", `deal.private.robbed holds ${nr} cards; rob_cap is ${r.rob_cap}`);
    if (nr + na + nt > 13) throw new TrackerError("bad_field", `${nr} robbed, ${na} dealer-robbed and ${nt} taken cards: at most 13 in all`);
    const shown = r.faceup_21st === "all";
    faceup.forEach((c, s) => {
      if ((c >= 0) !== (shown || s === dealer)) {
        throw new TrackerError("bad_field", `deal.private.faceup[${s}] must be ${shown || s === dealer ? "a card" : "null"} under faceup_21st = ${r.faceup_21st}, got ${c < 0 ? "null" : CARDS[c]}`);
      }
    });
    /** @type {number[][]} */
    const groups = [robbed, dRobbed, [...taken], ...faceup.filter((c) => c >= 0).map((c) => [c])];
    if (seat === dealer) groups.push([...fola]);
    const seen = new Set();
    for (const g of groups) {
      const twice = g.filter((c) => seen.has(c));
      if (twice.length) throw new TrackerError("bad_field", `deal.private puts ${cardList(twice)} in two places`);
      for (const c of g) seen.add(c);
    }
    const cutter = (dealer + 3) & 3;
    const extras = seat === cutter ? robbed : seat === dealer ? [...dRobbed, ...taken] : [];
    if (hand.size !== 21 + extras.length) {
      throw new TrackerError("bad_field", `deal.private.hand must hold ${21 + extras.length} cards for S${seat}, got ${hand.size}`);
    }
    const own = [...extras, ...(faceup[seat] >= 0 ? [faceup[seat]] : [])];
    const lacking = own.filter((c) => !hand.has(c));
    if (lacking.length) throw new TrackerError("bad_field", `deal.private.hand lacks S${seat}'s public card(s) ${cardList(lacking)}`);
    const elsewhere = [...seen].filter((c) => !own.includes(c) && hand.has(c));
    if (elsewhere.length) throw new TrackerError("bad_field", `deal.private.hand holds card(s) ${cardList(elsewhere)} shown elsewhere`);
    if (seat === dealer && fola.size !== 13 - nr - na - nt) {
      throw new TrackerError("bad_field", `deal.private.fola must hold ${13 - nr - na - nt} cards, got ${fola.size}`);
    }
    if (hand.has(stop) && !own.includes(stop)) throw new TrackerError("impossible", `no deal gives S${seat} the stop card ${CARDS[stop]} in its hand`);
    if (nr < r.rob_cap && nr < 13 && isQualifying(stop)) {
      throw new TrackerError("impossible", `the stop card ${CARDS[stop]} would have been robbed (M-5.2)`);
    }
    for (const c of robbed) if (!isQualifying(c)) throw new TrackerError("impossible", `the robbed card ${CARDS[c]} does not qualify (M-5.1)`);
    for (const c of dRobbed) if (!isQualifying(c)) throw new TrackerError("impossible", `the dealer's robbed card ${CARDS[c]} does not qualify (M-7.1)`);
    const takeable = (/** @type {number} */ c) => VALUE[c] > 0 || (c === T29 && r.dealer_takes === "counters_and_29");
    for (const c of taken) if (!takeable(c)) throw new TrackerError("impossible", `the dealer cannot take ${CARDS[c]} (M-7.2)`);
    for (const c of fola) if (takeable(c)) throw new TrackerError("impossible", `the dealer would have taken ${CARDS[c]} from the Fola (M-7.2)`);

    this.dealer = dealer;
    this.cutter = cutter;
    this.hand = hand;
    this.robbed = robbed;
    this.stop = stop;
    this.faceup = faceup;
    this.dealerRobbed = dRobbed;
    this.dealerTaken = taken;
    this.dealerFola = fola;
    this.stopInFola = !dRobbed.includes(stop) && !taken.has(stop) && !faceup.includes(stop);
    this.leader = (dealer + 1) & 3;
    this.dealt = true;
    // the scoring events of the cut and the deal (M-14.5 order)
    if (points(robbed)) this.#score(cutter & 1, points(robbed));
    for (let k = 0; k < 4; k++) {
      const s = (dealer + 1 + k) & 3;
      if (faceup[s] >= 0 && VALUE[faceup[s]]) this.#score(s & 1, VALUE[faceup[s]]);
    }
    if (points(dRobbed)) this.#score(dealer & 1, points(dRobbed));
    if (r.score_taken_cards && points(taken)) this.#score(dealer & 1, points(taken));
    this.#nextDiscards(0);
  }

  /**
   * One action of the deal (the seat's own included): D.3 `seat`, `verb`, `arg` (`null` exactly
   * where the seat may not see it: another seat's discard; a declaration's arg `declare` or
   * `skip`).
   * @param {number} seat
   * @param {string} verb
   * @param {string|null} arg
   */
  event(seat, verb, arg) {
    this.atomic(() => this.#event(seat, verb, arg));
  }

  /**
   * @param {number} seat
   * @param {string} verb
   * @param {string|null} arg
   */
  #event(seat, verb, arg) {
    const what = this.eventStart(seat, verb, arg);
    if (seat !== this.pos) throw new TrackerError("impossible", `${what}: S${this.pos} is on turn, not S${seat}`);
    const want = this.phase === DECLARE_PHASE ? "declare" : VERB[this.phase];
    if (verb !== want) throw new TrackerError("impossible", `${what}: no ${JSON.stringify(verb)} is due now (${PHASES[this.phase]})`);
    const own = seat === this.seat;
    const discarding = this.phase === DISCARD_CUTTER || this.phase === DISCARD_DEALER;
    if (discarding && !own) {
      if (arg !== null) throw new TrackerError("impossible", `${what}: S${this.seat} may not see this ${verb}; send its arg as null`);
      this.#discard(null);
      this.step++;
      return;
    }
    if (typeof arg !== "string") throw new TrackerError("impossible", `${what}: S${this.seat} sees this action; its arg is needed`);
    let action;
    if (this.phase === DECLARE_PHASE) {
      if (arg !== "declare" && arg !== "skip") throw new TrackerError("impossible", `${what}: a declaration is 'declare' or 'skip', got ${JSON.stringify(arg)}`);
      action = arg === "declare" ? DECLARE : SKIP;
    } else {
      try {
        action = parseCard(arg);
      } catch (e) {
        throw new TrackerError("impossible", `${what}: ${/** @type {Error} */ (e).message}`);
      }
    }
    if (own) {
      if (!this.legalMask()[action]) throw new TrackerError("impossible", `${what}: not legal for S${seat} now; legal: ${this.legalActions().map((a) => this.label(a)).join(", ")}`);
    } else if (this.phase === MATTO_PAY) {
      if (action === MATTO || !this.piles[this.mattoOwner & 1].has(action)) throw new TrackerError("impossible", `${what}: not legal for S${seat} now (his team's pile lacks ${CARDS[action]})`);
    } else if (this.phase === PLAY) {
      const why = this.#cannotPlay(seat, action);
      if (why) throw new TrackerError("impossible", `${what} is impossible: ${why}`);
    }
    if (this.phase === PLAY) this.#play(action);
    else if (this.phase === DECLARE_PHASE) this.#declare(action);
    else if (this.phase === MATTO_PAY) this.#settle(action);
    else this.#discard(action);
    this.step++;
  }

  /**
   * Cards or facts the game shows the seat (`declaring`, `declared`, `void`, `fola`), taken in
   * the order they fall due.
   * @param {Record<string, any>} fields
   */
  reveal(fields) {
    this.atomic(() => this.#reveal(fields));
  }

  /** @param {Record<string, any>} fields */
  #reveal(fields) {
    this.requireDealt("reveal");
    const keys = Object.keys(fields ?? {});
    if (!keys.length) throw new TrackerError("bad_field", "a reveal needs at least one field");
    /** @type {Map<string, any>} */
    const parsed = new Map();
    for (const k of keys) {
      if (!REVEAL_KEYS.includes(k)) throw new TrackerError("bad_field", `unknown reveal field ${JSON.stringify(k)}; minchiate reveals declaring, declared, void, fola`);
      parsed.set(k, readReveal(k, fields[k]));
    }
    const order = ["void", "declared", "declaring", "fola"];
    while (parsed.size) {
      const now = order.filter((k) => parsed.has(k) && this.due.has(k));
      if (!now.length) {
        throw new TrackerError("impossible", `reveal: S${this.seat} is shown no ${[...parsed.keys()].sort().join(", ")} now; reveals due: ${[...this.due].sort().join(", ") || "none"}`);
      }
      for (const k of now) {
        this.due.delete(k);
        this.#revealOne(k, parsed.get(k));
        parsed.delete(k);
      }
    }
  }

  // ------------------------------------------------------------------ queries
  /** Whether the deal is over (played out and settled, or void). */
  isOver() { return this.dealt && this.phase === DONE; }

  /** The seat on turn, -1 after the end. */
  toPlay() { return !this.dealt || this.phase === DONE ? -1 : this.pos; }

  /** The legal mask of the seat (all zero unless it is on turn and nothing is due). */
  legalMask() {
    const mask = new Int8Array(NUM_ACTIONS);
    if (!this.dealt || this.phase === DONE || this.pos !== this.seat || this.due.size) return mask;
    let legal;
    switch (this.phase) {
      case PLAY: legal = playMask(this.hand, this.led, this.top, this.suitsLed, this.rules.king_rule, this.rules.must_overtrump); break;
      case DECLARE_PHASE: legal = [DECLARE, SKIP]; break;
      case MATTO_PAY: legal = [...this.piles[this.mattoOwner & 1]].filter((c) => c !== MATTO); break;
      default: legal = this.#discardMask(this.hand);
    }
    for (const a of legal) mask[a] = 1;
    return mask;
  }

  /**
   * The protocol label of action `id` now (`discard T8`, `play Kd`, `pay T6`, `declare`).
   * @param {number} id
   */
  label(id) { return actionLabel(id, this.phase); }

  /**
   * The D.3 event of action `id` now: `{verb, arg}` (`{verb: "declare", arg: "skip"}`).
   * @param {number} id
   * @returns {{verb: string, arg: string}}
   */
  triple(id) {
    if (id === DECLARE || id === SKIP) return { verb: "declare", arg: id === DECLARE ? "declare" : "skip" };
    return { verb: /** @type {string} */ (VERB[this.phase] ?? "card"), arg: CARDS[id] };
  }

  /** The combination the seat is offered now (its DECLARE turn), else null. */
  offered() {
    return this.phase === DECLARE_PHASE && this.pos === this.seat && !this.due.size ? this.offers[this.offerI] ?? null : null;
  }

  /**
   * The seat's view: the fields encoding.md 3.4 reads.
   * @returns {MinchiateView}
   */
  view() {
    this.requireDealt("view");
    const done = this.phase === DONE;
    let folaKnown;
    if (this.folaExposed && !this.due.has("fola")) folaKnown = sorted(this.fola);
    else {
      const known = new Set([...this.discards, ...this.dealerFola]);
      if (this.stopInFola) known.add(this.stop);
      folaKnown = sorted(known);
    }
    const offered = this.offered();
    return {
      seat: this.seat,
      phase: this.phase,
      toPlay: done ? -1 : this.pos,
      dealer: this.dealer,
      cutter: this.cutter,
      hand: sorted(this.hand),
      discards: sorted(this.discards),
      robbed: [...this.robbed],
      stopCard: this.stop,
      faceup: [...this.faceup],
      dealerRobbed: [...this.dealerRobbed],
      dealerTaken: sorted(this.dealerTaken),
      declared: this.declared.map(({ seat, combo }) => ({ seat, kind: combo.kind, members: [...combo.members] })),
      folaKnown,
      folaExposed: this.folaExposed,
      offered: offered && { kind: offered.kind, members: [...offered.members] },
      trick: [...this.trick],
      leader: this.leader,
      led: this.led,
      playedBy: this.playedBy.map((s) => sorted(s)),
      suitsLed: this.suitsLed,
      piles: this.piles.map((s) => sorted(s)),
      mattoOwner: this.mattoOwner,
      mattoDebt: this.mattoDebt,
      D: this.D,
      R: this.R,
      nTricks: this.nTricks,
      seriesResti: this.seriesResti,
      restiUnit: this.rules.resti_unit,
      legal: this.legalActions(),
    };
  }

  /** The observation and mask of the seat now (encoding.md 3). */
  encode() { return encode(this.view()); }

  // ------------------------------------------------------------------ the rules
  /** @param {Set<number>} hand M-8.2, MA-8, MA-9: the legal discards */
  #discardMask(hand) {
    const r = this.rules;
    const cards = sorted(hand);
    if (r.discard_rule === "any") return cards;
    if (r.impossible_discard === "relax") {
      for (const cls of RELAX_CLASSES) {
        const got = cards.filter(cls);
        if (got.length) return got;
      }
    }
    return cards.filter(discardable);
  }

  /** The discards are void when short of legal ones (M-8.5), under `redeal`. */
  #redeal() { return this.rules.discard_rule === "zero_not_29" && this.rules.impossible_discard === "redeal"; }

  /**
   * @param {number} team
   * @param {number} pts
   */
  #score(team, pts) {
    [this.D, this.R] = ratchet(team === 0 ? this.D + pts : this.D - pts, this.R, this.rules.resti_unit);
  }

  /**
   * M-9.6: a player's declared total, one event (or kept for the end count, MA-16).
   * @param {number} seat
   * @param {number} pts
   */
  #scoreDeclared(seat, pts) {
    if (!pts) return;
    if (this.rules.declaration_score_timing === "end") this.declEnd[seat & 1] += pts;
    else this.#score(seat & 1, pts);
  }

  /** @param {number} seat its order in the declarations, S(d+1) first (M-9.1) */
  #order(seat) { return (seat - this.dealer - 1) & 3; }

  /** M-8.1: open the first discard turn after the `done` first ones with cards to discard. */
  /** @param {number} done */
  #nextDiscards(done) {
    const turns = [[DISCARD_CUTTER, this.cutter, this.robbed.length],
      [DISCARD_DEALER, this.dealer, this.dealerRobbed.length + this.dealerTaken.size]];
    for (const [phase, seat, n] of turns.slice(done)) {
      if (!n) continue;
      if (this.#redeal() && seat !== this.seat) {
        this.voidTurn = [phase, seat, n];
        this.due.add("void");
        return;
      }
      if (this.#redeal() && seat === this.seat && [...this.hand].filter(discardable).length < n) {
        this.void = true;
        this.phase = DONE;
        this.pos = -1;
        return;
      }
      this.phase = phase;
      this.pos = seat;
      this.toDiscard = n;
      return;
    }
    this.#startDeclarations();
  }

  /** @param {number|null} card a discard, null for another seat's (hidden) */
  #discard(card) {
    if (card !== null) {
      this.hand.delete(card);
      this.discards.add(card);
    }
    this.toDiscard--;
    if (!this.toDiscard) this.#nextDiscards(this.phase === DISCARD_CUTTER ? 1 : 2);
  }

  /** M-9.1: the declarations in order, or straight to the play under MA-11. */
  #startDeclarations() {
    if (this.rules.declare_timing === "with_first_card") { this.#startPlay(); return; }
    this.#awaitDeclarations("start", -1);
  }

  /**
   * The declarations reveals fall due: who declares now, and what was declared.
   * @param {string} kind `start` (they open), `after` (a declare event), `trick1` (another
   *   seat's card of trick 1 under with_first_card)
   * @param {number} seat the seat of the event (-1 at the start)
   */
  #awaitDeclarations(kind, seat) {
    this.ctx = { kind, seat, declaring: undefined, declared: undefined, fola: false };
    this.due.add("declaring");
    this.due.add("declared");
  }

  /** The seat's own offers from `holder` (its hand; under with_first_card with its card). */
  /** @param {Set<number>} holder */
  #offers(holder) {
    const r = this.rules;
    return findCombos(holder, r.diecine, true, r.matto_bonus_in_own_combo);
  }

  /** Whether the seat still has combinations to be offered in the declarations in order. */
  #mineToCome() {
    return this.rules.declarations === "agent" && this.#offers(this.hand).length > 0;
  }

  #startPlay() {
    this.phase = PLAY;
    this.leader = this.pos = (this.dealer + 1) & 3;
  }

  /**
   * Why seat `p` (not this one) cannot play `card` as far as this seat knows, or "".
   * @param {number} p
   * @param {number} card
   */
  #cannotPlay(p, card) {
    const name = CARDS[card];
    if (this.hand.has(card)) return `S${this.seat} holds ${name}`;
    if (this.playedBy.some((s) => s.has(card))) return `${name} was played already`;
    if (this.#knownFola().has(card)) return `${name} lies in the Fola`;
    const holder = this.#publicHolder(card);
    if (holder >= 0 && holder !== p) return `${name} is S${holder}'s`;
    if (this.absent[p].has(card)) return `S${p}'s play so far shows it does not hold ${name}`;
    const known = this.#knownHeld(p);
    known.add(card);
    if (!playMask(known, this.led, this.top, this.suitsLed, this.rules.king_rule, this.rules.must_overtrump).includes(card)) {
      return `S${p} holds ${cardList(sorted(this.#knownHeld(p)))} and may not play ${name} now`;
    }
    return "";
  }

  /** The Fola cards the seat knows. */
  #knownFola() {
    if (this.folaExposed) return new Set(this.fola);
    const known = new Set([...this.discards, ...this.dealerFola]);
    if (this.stopInFola) known.add(this.stop);
    return known;
  }

  /**
   * The one seat that may hold `card` besides the Fola, from the public setup and the
   * declarations (-1: not known).
   * @param {number} card
   */
  #publicHolder(card) {
    const up = this.faceup.indexOf(card);
    if (up >= 0) return up;
    if (this.robbed.includes(card)) return this.cutter;
    if (this.dealerRobbed.includes(card) || this.dealerTaken.has(card)) return this.dealer;
    for (const { seat, combo } of this.declared) if (comboCards(combo).includes(card)) return seat;
    return -1;
  }

  /**
   * The cards seat `p` is known to hold now: its declared cards, and its public setup cards
   * it cannot have discarded, less what it played.
   * @param {number} p
   */
  #knownHeld(p) {
    const out = new Set();
    for (const { seat, combo } of this.declared) if (seat === p) for (const c of comboCards(combo)) out.add(c);
    const discarder = (p === this.cutter && this.robbed.length > 0)
      || (p === this.dealer && this.dealerRobbed.length + this.dealerTaken.size > 0);
    const mayDiscard = (/** @type {number} */ c) => discarder && (!this.#redeal() || discardable(c));
    const setup = [this.faceup[p]];
    if (p === this.cutter) setup.push(...this.robbed);
    if (p === this.dealer) setup.push(...this.dealerRobbed, ...this.dealerTaken);
    for (const c of setup) if (c >= 0 && !mayDiscard(c)) out.add(c);
    for (const c of this.playedBy[p]) out.delete(c);
    if (p === this.seat) return new Set(this.hand);
    return out;
  }

  /**
   * What playing `card` shows of seat `p`'s hand (the exclusions of mazzo's knowledge module).
   * @param {number} p
   * @param {number} card
   */
  #exclusions(p, card) {
    const led = this.led;
    const top = this.top;
    if (led < 0) return;
    const out = this.absent[p];
    if (led < TRUMP && this.rules.king_rule && top >= 0 && !(this.suitsLed >> led & 1) && card !== KING[led]) out.add(KING[led]);
    if (card === MATTO) return;
    const s = SUIT[card];
    if (s !== led && led < TRUMP) for (let c = 41 + 14 * led; c < 55 + 14 * led; c++) out.add(c);
    if (s !== TRUMP && s !== led) for (let c = 0; c < 40; c++) out.add(c);
    if (this.rules.must_overtrump && s === TRUMP && top >= 0 && card < top) for (let c = top + 1; c < 40; c++) out.add(c);
  }

  /** @param {number} card */
  #play(card) {
    const p = this.pos;
    this.#exclusions(p, card);
    this.hand.delete(card);
    this.playedBy[p].add(card);
    this.trick.push(card);
    if (card < 40) {
      if (this.led < 0) this.led = TRUMP;
      if (card > this.top) this.top = card;
    } else if (card === MATTO) this.mattoOwner = p;
    else if (this.led < 0) this.led = SUIT[card];
    if (this.rules.declare_timing === "with_first_card" && this.nTricks === 0) {
      if (p !== this.seat) { this.#awaitDeclarations("trick1", p); return; }
      const offers = this.#offers(new Set([...this.hand, card]));
      if (offers.length && this.rules.declarations === "auto_all") {
        for (const combo of offers) this.declared.push({ seat: p, combo });
        this.#scoreDeclared(p, offers.reduce((t, c) => t + score(c), 0));
      } else if (offers.length) {
        this.#beginSession(p, offers);
        return;
      }
      this.#resumeTrick1();
      return;
    }
    if (this.trick.length < 4) { this.pos = (p + 1) & 3; return; }
    this.#finishTrick();
  }

  /** Trick 1 goes on after a player's declarations under with_first_card. */
  #resumeTrick1() {
    this.phase = PLAY;
    const n = this.trick.length;
    if (n < 4) { this.pos = (this.leader + n) & 3; return; }
    this.#expose();
    this.#finishTrick();
  }

  /** M-10.1: the Fola is turned face up once the declarations end (flag fola_exposure). */
  #expose() {
    if (this.rules.fola_exposure !== "after_declarations") return;
    this.folaExposed = true;
    if (!this.ctx?.fola) this.due.add("fola");
    if (this.ctx) this.ctx.fola = true;
  }

  /** M-11.4, M-11.5, M-12.1: the winner, the piles, the Matto and the capture (`closeTrick`). */
  #finishTrick() {
    const n = this.nTricks + 1;
    const { team, capture } = closeTrick(this, n);
    if (capture) this.#score(team, capture);
    this.nTricks = n;
    if (n === 21) this.#endOfPlay();
  }

  /** M-13.1, MA-22: what the Matto's team hands over (`mattoHandover`); its owner chooses under matto_payment=agent. */
  #endOfPlay() {
    const card = mattoHandover(this);
    if (card !== null) this.#settle(card);
    else [this.phase, this.pos] = [MATTO_PAY, this.mattoOwner];
  }

  /**
   * M-13: the settlement after the hand-over of `card` (-1 for nothing; `settlement`).
   * @param {number} card
   */
  #settle(card) {
    const s = settlement(this, card);
    this.piles = s.piles;
    this.D = s.dFinal;
    this.R = s.resti;
    this.phase = DONE;
    this.pos = -1;
  }

  // ------------------------------------------------------------------ the declarations
  /**
   * Seat `q` decides on its combinations now (the seat's own: `offers`).
   * @param {number} q
   * @param {Combo[]} [offers]
   */
  #beginSession(q, offers = []) {
    this.phase = DECLARE_PHASE;
    this.pos = q;
    this.declSeat = q;
    this.declK = this.#order(q);
    this.declSum = 0;
    this.offers = q === this.seat ? offers : [];
    this.offerI = 0;
  }

  /** @param {number} action DECLARE or SKIP */
  #declare(action) {
    const q = this.pos;
    if (q === this.seat) {
      const combo = this.offers[this.offerI];
      this.ctx = null;
      this.#awaitDeclarations("after", q);
      /** @type {Record<string, any>} */ (this.ctx).mine = action === DECLARE ? combo : null;
      this.offerI++;
    } else {
      this.#awaitDeclarations("after", q);
    }
    /** @type {Record<string, any>} */ (this.ctx).action = action;
  }

  /**
   * @param {string} key
   * @param {any} value
   */
  #revealOne(key, value) {
    if (key === "void") {
      const turn = /** @type {number[]} */ (this.voidTurn);
      this.voidTurn = null;
      if (value) {
        this.void = true;
        this.phase = DONE;
        this.pos = -1;
      } else {
        [this.phase, this.pos, this.toDiscard] = turn;
      }
    } else if (key === "fola") {
      this.#revealFola(value);
    } else {
      const ctx = /** @type {Record<string, any>} */ (this.ctx);
      if (key === "declared") this.#checkDeclared(ctx, value);
      else this.#checkDeclaring(ctx, value);
      ctx[key] = value;
      if (key === "declaring" && ctx.declared === undefined) {
        // the Fola falls due as soon as the declarations are known to be over
        if (this.#ends(ctx, value)) this.#wouldExpose(ctx);
      }
      if (ctx.declaring !== undefined && ctx.declared !== undefined) this.#settleDeclarations(ctx);
    }
  }

  /**
   * Whether `declaring` ends the declarations (or this part of trick 1 of with_first_card)
   * with the Fola's exposure.
   * @param {Record<string, any>} ctx
   * @param {number|null} declaring
   */
  #ends(ctx, declaring) {
    if (declaring !== null) return false;
    if (this.rules.declare_timing === "with_first_card") return this.trick.length === 4;
    return ctx.kind === "start" || ctx.kind === "after";
  }

  /** @param {Record<string, any>} ctx */
  #wouldExpose(ctx) {
    if (this.rules.fola_exposure !== "after_declarations" || ctx.fola) return;
    ctx.fola = true;
    this.due.add("fola");
  }

  /**
   * The `declared` reveal against what the seat knows.
   * @param {Record<string, any>} ctx
   * @param {Array<{seat: number, combo: Combo}>} list
   */
  #checkDeclared(ctx, list) {
    const auto = this.rules.declarations === "auto_all";
    const bad = (/** @type {string} */ why) => new TrackerError("impossible", `reveal.declared contradicts what S${this.seat} knows: ${why}`);
    /** @type {number[]} */
    let seats;
    if (ctx.kind === "start") seats = auto ? [0, 1, 2, 3].map((k) => (this.dealer + 1 + k) & 3) : [];
    else if (ctx.kind === "trick1") seats = auto ? [ctx.seat] : [];
    else seats = ctx.action === DECLARE ? [ctx.seat] : [];
    if (ctx.kind === "after" && ctx.action === DECLARE && list.length !== 1) throw bad(`S${ctx.seat} declared one combination`);
    let at = 0;
    for (const { seat, combo } of list) {
      while (at < seats.length && seats[at] !== seat) at++;
      if (at === seats.length) throw bad(`S${seat} declares nothing now`);
      if (seat === this.seat) continue;
      const holder = new Set(comboCards(combo));
      const real = this.#offers(holder).find((c) => c.kind === combo.kind && c.members.join() === combo.members.join());
      if (!real || real.bonus !== combo.bonus) throw bad(`no hand shows ${COMBOS[combo.kind]} [${cardList(combo.members)}] with bonus ${combo.bonus}`);
      const trick1 = this.rules.declare_timing === "with_first_card" && this.nTricks === 0;
      for (const c of holder) {
        const other = this.#publicHolder(c);
        let why = "";
        if (this.hand.has(c)) why = `S${this.seat} holds it`;
        else if (this.#knownFola().has(c)) why = "it lies in the Fola";
        else if ([0, 1, 2, 3].some((s) => s !== seat && this.playedBy[s].has(c))) why = "another seat played it";
        else if (this.playedBy[seat].has(c) && !trick1) why = "it was played";
        else if (other >= 0 && other !== seat) why = `it is S${other}'s`;
        else if (this.absent[seat].has(c) && !this.playedBy[seat].has(c)) why = `S${seat}'s play shows it does not hold it`;
        if (why) throw bad(`S${seat} cannot hold ${CARDS[c]} (${why})`);
      }
    }
    // the seat's own combinations, exactly as it was offered them
    const mine = list.filter((e) => e.seat === this.seat).map((e) => e.combo);
    /** @type {Combo[]} */
    let want = [];
    if (ctx.kind === "start" && auto) want = this.#offers(this.hand);
    else if (ctx.kind === "after" && ctx.seat === this.seat && ctx.mine) want = [ctx.mine];
    if (mine.length !== want.length || !mine.every((c, i) => sameCombo(c, want[i]))) {
      throw bad(`S${this.seat}'s own declarations are ${want.map((c) => `${COMBOS[c.kind]} [${cardList(c.members)}]`).join(", ") || "none"}`);
    }
  }

  /**
   * The `declaring` reveal against what the seat knows.
   * @param {Record<string, any>} ctx
   * @param {number|null} q
   */
  #checkDeclaring(ctx, q) {
    const bad = (/** @type {string} */ why) => new TrackerError("impossible", `reveal.declaring ${q === null ? "null" : `S${q}`} contradicts what S${this.seat} knows: ${why}`);
    const me = this.seat;
    if (q !== null && this.rules.declarations === "auto_all") throw bad("under declarations = auto_all nobody decides");
    if (ctx.kind === "trick1") {
      if (q !== null && q !== ctx.seat) throw bad(`only S${ctx.seat} may declare now`);
      return;
    }
    if (ctx.kind === "after") {
      const q0 = ctx.seat;
      if (q0 === me) {
        const more = this.offerI < this.offers.length;
        if (more && q !== me) throw bad(`S${me} has more combinations on offer`);
        if (!more && q === me) throw bad(`S${me} has no more combinations on offer`);
        if (more) return;
      } else if (q === q0) return;
      if (this.rules.declare_timing === "with_first_card") {
        if (q !== null) throw bad("only the player of the card declares in trick 1");
        return;
      }
    }
    // the declarations in order: from the seat after the last declarer to the one named
    const from = ctx.kind === "start" ? 0 : this.#order(ctx.seat) + 1;
    const to = q === null ? 4 : this.#order(q);
    if (to < from) throw bad("the declarations go in order S(d+1) .. S(d)");
    const k = this.#order(me);
    if (q === me && !this.#mineToCome()) throw bad(`S${me} has no combination to declare`);
    if (k >= from && k < to && this.#mineToCome()) throw bad(`S${me} has a combination to declare first`);
  }

  /**
   * Both declarations reveals are in: score the player whose declarations ended, then go on.
   * @param {Record<string, any>} ctx
   */
  #settleDeclarations(ctx) {
    /** @type {Array<{seat: number, combo: Combo}>} */
    const list = ctx.declared;
    /** @type {number|null} */
    const q = ctx.declaring;
    for (const e of list) this.declared.push(e);
    if (ctx.kind === "start" || ctx.kind === "trick1") {
      // auto_all: each player's total when his turn comes
      /** @type {Map<number, number>} */
      const totals = new Map();
      for (const { seat, combo } of list) totals.set(seat, (totals.get(seat) ?? 0) + score(combo));
      for (const [seat, pts] of totals) this.#scoreDeclared(seat, pts);
    } else {
      for (const { combo } of list) this.declSum += score(combo);
      if (q !== ctx.seat) this.#scoreDeclared(ctx.seat, this.declSum);
    }
    if (q !== null && (ctx.kind !== "after" || q !== ctx.seat)) {
      this.#beginSession(q, q === this.seat ? this.#offers(this.hand) : []);
    } else if (q !== null) {
      this.phase = DECLARE_PHASE;
      this.pos = q;
    } else if (this.rules.declare_timing === "with_first_card") {
      this.#resumeTrick1();
    } else {
      this.#expose();
      this.#startPlay();
    }
    this.ctx = null;
  }

  /** @param {Set<number>} fola */
  #revealFola(fola) {
    const bad = (/** @type {string} */ why) => new TrackerError("impossible", `reveal.fola contradicts what S${this.seat} knows: ${why}`);
    if (fola.size !== 13) throw bad(`the Fola holds 13 cards, got ${fola.size}`);
    const known = new Set([...this.discards, ...this.dealerFola]);
    if (this.stopInFola) known.add(this.stop);
    const missing = sorted(known).filter((c) => !fola.has(c));
    if (missing.length) throw bad(`it lacks ${cardList(missing)}`);
    for (const c of fola) {
      if (known.has(c)) continue;
      if (this.hand.has(c)) throw bad(`S${this.seat} holds ${CARDS[c]}`);
      if (this.playedBy.some((s) => s.has(c))) throw bad(`${CARDS[c]} was played`);
      const holder = this.#publicHolder(c);
      if (holder >= 0 && this.#knownHeld(holder).has(c)) throw bad(`S${holder} holds ${CARDS[c]}`);
      if (this.seat === this.dealer && holder < 0 && !(this.robbed.length && this.#mayBeDiscard(c))) throw bad(`${CARDS[c]} was not in the Fola the dealer saw`);
    }
    this.fola = new Set(fola);
  }

  /** @param {number} c whether `c` may be one of the cutter's discards (as the dealer sees it) */
  #mayBeDiscard(c) { return !this.#redeal() || discardable(c); }

}

/** @param {number} c M-5.1: a counter or a trump above 20 */
function isQualifying(c) { return VALUE[c] > 0 || (c >= 20 && c < 40); }

/** @param {number[]} cards */
const cardList = (cards) => `[${cards.map((c) => `'${CARDS[c]}'`).join(", ")}]`;

/**
 * A list of card codes with no repeats.
 * @param {unknown} value
 * @param {string} name
 * @returns {number[]}
 */
function codes(value, name) {
  if (!Array.isArray(value) || !value.every((c) => typeof c === "string")) {
    throw new TrackerError("bad_field", `deal.private.${name} must be a list of card codes, got ${JSON.stringify(value)}`);
  }
  const cards = value.map(parseCard);
  if (new Set(cards).size !== cards.length) {
    const dup = [...new Set(value.filter((c, i) => value.indexOf(c) !== i))].sort();
    throw new TrackerError("bad_field", `deal.private.${name} repeats card(s) [${dup.map((c) => `'${c}'`).join(", ")}]`);
  }
  return cards;
}

/**
 * @param {unknown} value
 * @param {string} name
 */
function readSeat(value, name) {
  if (Number.isInteger(value) && /** @type {number} */ (value) >= 0 && /** @type {number} */ (value) < 4) return /** @type {number} */ (value);
  if (typeof value === "string" && /^S[0-3]$/.test(value)) return Number(value[1]);
  throw new TrackerError("bad_field", `${name} must be a seat S0..S3 (or 0..3), got ${JSON.stringify(value)}`);
}

/**
 * A reveal field's value, read as mazzo's tracker reads it.
 * @param {string} key
 * @param {any} value
 */
function readReveal(key, value) {
  if (key === "declaring") return value === null ? null : readSeat(value, "reveal.declaring");
  if (key === "void") {
    if (typeof value !== "boolean") throw new TrackerError("bad_field", `reveal.void must be true or false, got ${JSON.stringify(value)}`);
    return value;
  }
  if (key === "fola") {
    if (!Array.isArray(value) || !value.every((c) => typeof c === "string")) {
      throw new TrackerError("bad_field", `reveal.fola must be a list of card codes, got ${JSON.stringify(value)}`);
    }
    return new Set(value.map(parseCard));
  }
  if (!Array.isArray(value)) throw new TrackerError("bad_field", `reveal.declared must be a list, got ${JSON.stringify(value)}`);
  return value.map((x, i) => readCombo(x, `reveal.declared[${i}]`));
}

/**
 * A declared combination `{seat, combo, cards, bonus, points?}`.
 * @param {any} value
 * @param {string} name
 * @returns {{seat: number, combo: Combo}}
 */
function readCombo(value, name) {
  if (!value || typeof value !== "object" || Array.isArray(value) || !["seat", "combo", "cards"].every((k) => k in value)) {
    throw new TrackerError("bad_field", `${name} must be an object with seat, combo, cards (and bonus), got ${JSON.stringify(value)}`);
  }
  const unknown = Object.keys(value).filter((k) => !["seat", "combo", "cards", "bonus", "points"].includes(k)).sort();
  if (unknown.length) throw new TrackerError("bad_field", `${name}: unknown field(s) [${unknown.map((k) => `'${k}'`).join(", ")}]`);
  const kind = COMBOS.indexOf(value.combo);
  if (kind < 0) throw new TrackerError("bad_field", `${name}.combo must be one of ${COMBOS.join(", ")}, got ${JSON.stringify(value.combo)}`);
  const cards = value.cards;
  if (!Array.isArray(cards) || !cards.every((c) => typeof c === "string")) {
    throw new TrackerError("bad_field", `${name}.cards must be a list of card codes, got ${JSON.stringify(cards)}`);
  }
  const members = sorted(new Set(cards.map(parseCard)));
  const bonus = value.bonus ?? 0;
  if (!Number.isInteger(bonus) || bonus < 0) throw new TrackerError("bad_field", `${name}.bonus must be a non-negative integer, got ${JSON.stringify(bonus)}`);
  const pts = members.reduce((t, c) => t + COMBO_VALUE[c], 0);
  if ("points" in value && value.points !== pts) throw new TrackerError("bad_field", `${name}.points is ${JSON.stringify(value.points)}, but its cards are worth ${pts}`);
  return { seat: readSeat(value.seat, `${name}.seat`), combo: { kind, members, points: pts, bonus } };
}

// ----------------------------------------------------------------------------------- encoder
const O = {
  phase: 0, toPlay: 6, dealer: 10, cutter: 14, hand: 18, discards: 115, robbed: 212,
  stopCard: 309, faceup: 406, dealerRobbed: 794, dealerTaken: 891, declared: 988,
  folaKnown: 1376, folaExposed: 1473, offerKind: 1474, offerCards: 1480, trick: 1577,
  trickLeader: 1965, led: 1969, playedBy: 1974, suitsLed: 2362, mattoOwner: 2366,
  mattoDebt: 2370, pileMine: 2371, pileTheirs: 2468, nTricks: 2565, dLead: 2566,
  dBehind: 2567, rAhead: 2568, rBehind: 2569, seriesAhead: 2570, seriesBehind: 2571,
};

/**
 * The observation (`Float32Array(2572)`) and legal mask (`Int8Array(99)`) of a view, exactly
 * as docs/encoding.md section 3 specifies (version 1).
 * @param {MinchiateView} v
 * @returns {{obs: Float32Array, mask: Int8Array}}
 */
export function encode(v) {
  const obs = new Float32Array(OBS_SIZE);
  const mask = new Int8Array(NUM_ACTIONS);
  const me = v.seat;
  const rel = (/** @type {number} */ s) => (((s - me) % 4) + 4) % 4;
  const set = (/** @type {number} */ offset, /** @type {Iterable<number>} */ cards) => { for (const c of cards) obs[offset + c] = 1; };
  obs[O.phase + v.phase] = 1;
  if (v.toPlay >= 0) obs[O.toPlay + rel(v.toPlay)] = 1;
  obs[O.dealer + rel(v.dealer)] = 1;
  obs[O.cutter + rel(v.cutter)] = 1;
  set(O.hand, v.hand);
  set(O.discards, v.discards);
  set(O.robbed, v.robbed);
  obs[O.stopCard + v.stopCard] = 1;
  v.faceup.forEach((card, s) => { if (card >= 0) obs[O.faceup + 97 * rel(s) + card] = 1; });
  set(O.dealerRobbed, v.dealerRobbed);
  set(O.dealerTaken, v.dealerTaken);
  for (const { seat, members } of v.declared) set(O.declared + 97 * rel(seat), members);
  set(O.folaKnown, v.folaKnown);
  if (v.folaExposed) obs[O.folaExposed] = 1;
  if (v.offered) {
    obs[O.offerKind + v.offered.kind] = 1;
    set(O.offerCards, v.offered.members);
  }
  v.trick.forEach((card, k) => { obs[O.trick + 97 * rel((v.leader + k) % 4) + card] = 1; });
  if (v.phase === PLAY) obs[O.trickLeader + rel(v.leader)] = 1;
  if (v.led >= 0) obs[O.led + v.led] = 1;
  v.playedBy.forEach((cards, s) => set(O.playedBy + 97 * rel(s), cards));
  for (let s = 0; s < 4; s++) if (v.suitsLed >> s & 1) obs[O.suitsLed + s] = 1;
  if (v.mattoOwner >= 0) obs[O.mattoOwner + rel(v.mattoOwner)] = 1;
  if (v.mattoDebt) obs[O.mattoDebt] = 1;
  set(O.pileMine, v.piles[me % 2]);
  set(O.pileTheirs, v.piles[1 - (me % 2)]);
  const sign = me % 2 === 0 ? 1 : -1;
  const d = sign * v.D;
  const r = sign * v.R;
  const t = sign * v.seriesResti;
  obs[O.nTricks] = v.nTricks / 21;
  obs[O.dLead] = Math.max(d, 0) / v.restiUnit;
  obs[O.dBehind] = Math.max(-d, 0) / v.restiUnit;
  obs[O.rAhead] = Math.max(r, 0) / RESTI_SCALE;
  obs[O.rBehind] = Math.max(-r, 0) / RESTI_SCALE;
  obs[O.seriesAhead] = Math.max(t, 0) / RESTI_SCALE;
  obs[O.seriesBehind] = Math.max(-t, 0) / RESTI_SCALE;
  for (const a of v.legal) mask[a] = 1;
  return { obs, mask };
}

// The card tables and rule functions a referee of the whole deal shares with the tracker
// (js/table/minchiate_referee.js), so that the two cannot disagree.
export {
  VALUE, SUIT, KING, MATTO, T29, CAPTURE_VALUE, discardable, isQualifying, playMask, ratchet,
  endRounding, autoPayment, winKey, RELAX_CLASSES, closeTrick, mattoHandover, endCount, settlement,
};
