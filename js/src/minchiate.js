// Minchiate for mazzo-bot: the cards and actions (RULES.md D.1, D.4) and the observation encoder
// of docs/encoding.md section 3 (version 1), from a view holding the fields of encoding.md 3.4.
// The seat tracker that builds such a view from protocol messages is not written yet: a page
// that keeps the fields itself (or reads them from a server's VIEW) can encode already.

export const GAME = "minchiate";
export const ENCODING_VERSION = 1;
export const OBS_SIZE = 2572;
export const NUM_ACTIONS = 99;

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
 */
export function parseCard(code) {
  const c = typeof code === "string" ? CARD_INDEX.get(code) : undefined;
  if (c === undefined) throw new RangeError(`unknown card code ${JSON.stringify(code)}`);
  return c;
}

export const PHASES = Object.freeze(["DISCARD_CUTTER", "DISCARD_DEALER", "DECLARE", "PLAY", "MATTO_PAY", "DONE"]);
const PLAY = 3;
const VERB = ["discard", "discard", null, "play", "pay", null];
/** Combination kinds (`offer_kind`, protocol.md's `combo` names). */
export const COMBOS = Object.freeze(["low run", "high run", "1-13-28", "diecine", "1-40-M", "kings"]);
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
