// Tests that need no Python: the worked example of docs/encoding.md 2.7 (read from the doc when
// this package sits in the mazzo repository), the tracker's protocol rules (what is due, what is
// refused), flags and labels.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { Bundle, BundleError, calabresella, createTracker, minchiate, pyRepr, resolveFlags, TrackerError } from "../src/index.js";

const DOC = fileURLToPath(new URL("../../docs/encoding.md", import.meta.url));

/** The messages S0 receives in the record of encoding.md 2.7 (dealer S0, deck in index order). */
function workedExample() {
  const seat = createTracker("calabresella", { seat: 0 });
  const tracked = [];
  const feed = (/** @type {any} */ m) => tracked.push(seat.feed({ game: "g1", ...m }));
  feed({ type: "deal", dealer: 0, private: { hands: [["Nc", "Kc", "Ad", "2d", "As", "2s", "3s", "4s", "3b", "4b", "5b", "6b"]] } });
  feed({ type: "event", seat: 1, verb: "bid", arg: "chiamo" });
  feed({ type: "event", seat: 2, verb: "bid", arg: "pass" });
  feed({ type: "event", seat: 0, verb: "bid", arg: "pass" });
  feed({ type: "event", seat: 1, verb: "call", arg: "Ad" });
  feed({ type: "event", seat: 1, verb: "return", arg: "4c" });
  for (let k = 0; k < 4; k++) feed({ type: "event", seat: 1, verb: "discard", arg: null });
  for (const [s, card] of [[1, "Ac"], [2, "5c"], [0, "Kc"], [1, "3d"], [2, "7d"]]) {
    feed({ type: "event", seat: s, verb: "play", arg: card });
  }
  return { seat, tracked };
}

describe("encoding.md 2.7, the worked example", () => {
  it("S0's observation and mask", { skip: existsSync(DOC) ? false : "docs/encoding.md not found" }, () => {
    const text = readFileSync(DOC, "utf8");
    const block = text.split("<!-- nonzero:calabresella seat=0 mask=11 -->")[1].split("```text")[1].split("```")[0];
    const want = new Float32Array(calabresella.OBS_SIZE);
    for (const line of block.trim().split("\n")) {
      const [index, value] = line.trim().split(/\s+/);
      const [a, b] = value.split("/").map(Number);
      want[Number(index)] = b ? a / b : a;
    }
    const { seat } = workedExample();
    const { obs, mask } = seat.encode();
    assert.deepEqual([...obs], [...want]);
    assert.deepEqual([...mask.keys()].filter((a) => mask[a]), [11]);
    assert.equal(seat.label(11), "play 2d");
    assert.deepEqual(seat.triple(11), { verb: "play", arg: "2d" });
  });

  it("the tracked answers: S0 is never owed a reveal (it holds the called card)", () => {
    const { tracked } = workedExample();
    assert.deepEqual(tracked[0], { step: 0, to_play: 1, due: [], over: false });
    assert.deepEqual(tracked.at(-1), { step: 14, to_play: 0, due: [], over: false });
    assert.ok(tracked.every((t) => t.due.length === 0));
  });
});

describe("the seat tracker's protocol", () => {
  const hand = ["3c", "6c", "Ad", "3d", "5d", "2s", "3s", "4s", "5s", "6s", "3b", "7b"];
  const dealt = () => {
    const seat = createTracker("calabresella", { seat: 0 });
    seat.feed({ type: "deal", dealer: 2, private: { hands: [hand] } });
    return seat;
  };

  it("refuses an event before the deal and after its end, and changes nothing", () => {
    const fresh = createTracker("calabresella", { seat: 0 });
    assert.throws(() => fresh.event(0, "bid", "pass"), (e) => e instanceof TrackerError && e.code === "bad_field" && /no deal yet/.test(e.message));
    const seat = dealt();
    for (const s of [0, 1, 2]) seat.feed({ type: "event", seat: s, verb: "bid", arg: "pass" });
    const end = seat.tracked();
    assert.equal(end.over, true);  // all passed: the deal is void
    assert.throws(() => seat.event(0, "bid", "solo"), (e) => e instanceof TrackerError && e.code === "impossible" && /the deal is over/.test(e.message));
    assert.deepEqual(seat.tracked(), end);
  });

  it("protocol.md's example: Solo owes the soloist the monte", () => {
    const seat = dealt();
    assert.deepEqual(seat.legalActions(), [40, 41, 42, 43, 44, 45]);
    seat.feed({ type: "event", seat: 0, verb: "bid", arg: "solo" });
    seat.feed({ type: "event", seat: 1, verb: "bid", arg: "pass" });
    const t = seat.feed({ type: "event", seat: 2, verb: "bid", arg: "pass" });
    assert.deepEqual(t, { step: 3, to_play: null, due: ["monte"], over: false });
    assert.throws(() => seat.event(0, "discard", "3c"), (e) => e instanceof TrackerError && e.code === "impossible");
    assert.deepEqual(seat.feed({ type: "reveal", monte: ["7d", "Jd", "As", "Ab"] }), { step: 3, to_play: 0, due: [], over: false });
    assert.equal(seat.view().hand.length, 16);
    assert.equal(seat.label(seat.legalActions()[0]), "discard 3c");
  });

  it("refuses what the seat cannot be told", () => {
    const seat = dealt();
    assert.throws(() => seat.event(1, "bid", "pass"), /S0 is on turn, not S1/);
    assert.throws(() => seat.event(0, "play", "3c"), /no "play" is due now/);
    assert.throws(() => seat.reveal({ monte: ["7d", "Jd", "As", "Ab"] }), /shown no monte now/);
    seat.event(0, "bid", "chiamo");
    seat.event(1, "bid", "pass");
    seat.event(2, "bid", "pass");
    assert.throws(() => seat.event(0, "call", "3c"), /not legal for S0/); // his own card
    assert.deepEqual(seat.feed({ type: "event", seat: 0, verb: "call", arg: "Kb" }).due, ["giver"]);
    // the giver makes the monte due, taken in one reveal
    assert.deepEqual(seat.feed({ type: "reveal", giver: "monte", monte: ["Kb", "Jd", "As", "Ab"] }),
      { step: 4, to_play: 0, due: [], over: false });
    assert.equal(seat.view().giver, -1);
    assert.throws(() => seat.event(0, "discard", null), /its arg is needed/);
    assert.throws(() => createTracker("calabresella", { seat: 3 }), /seat must be a seat 0..2/);
    assert.throws(() => createTracker("minchiate", { seat: 4 }), /seat must be a seat 0..3/);
    assert.throws(() => createTracker("tarocchi", { seat: 0 }), (e) => e instanceof TrackerError && e.code === "bad_field");
  });
});

describe("flags and the rules check", () => {
  it("resolves flags and renders values as Python does", () => {
    assert.equal(resolveFlags("calabresella", { players: 4 }).players, 4);
    assert.throws(() => resolveFlags("calabresella", { player: 4 }), /unknown calabresella flag 'player'/);
    assert.throws(() => resolveFlags("calabresella", { players: 5 }), /must be one of/);
    assert.equal(pyRepr(true), "True");
    assert.equal(pyRepr(["chiamo", "solo"]), "['chiamo', 'solo']");
    assert.equal(pyRepr(1, "aperta_payout_factor"), "1.0");
  });

  it("refuses another game, encoding or rules", () => {
    const manifest = { game: "calabresella", encoding_version: 2, obs_size: 720, num_actions: 62,
      flags: resolveFlags("calabresella", {}) };
    const bundle = new Bundle("b", manifest, null, null, async () => new Uint8Array());
    assert.throws(() => bundle.check("calabresella", { aperta: true }), (e) => e instanceof BundleError
      && e.message === "b does not fit this calabresella: encoding_version 2 (here 1); flag 'aperta' False (here True)");
    assert.throws(() => bundle.check("minchiate"), /b is a bundle for calabresella, not for minchiate/);
  });
});

describe("refused input changes nothing", () => {
  it("a reveal whose second key is refused leaves the first unapplied", () => {
    const seat = createTracker("calabresella", { seat: 1 });
    seat.feed({ type: "deal", dealer: 2, private: { hands: [["Ac", "2c", "3c", "4c", "3d", "4d", "5d", "6d", "5s", "6s", "7s", "Js"]] } });
    seat.feed({ type: "event", seat: 0, verb: "bid", arg: "chiamo" });
    seat.feed({ type: "event", seat: 1, verb: "bid", arg: "pass" });
    seat.feed({ type: "event", seat: 2, verb: "bid", arg: "pass" });
    assert.deepEqual(seat.feed({ type: "event", seat: 0, verb: "call", arg: "Kb" }).due, ["giver"]);
    const before = JSON.stringify(seat.view());
    // S1 is not the soloist: the monte never falls due to it here
    assert.throws(() => seat.reveal({ giver: "S2", monte: ["Kb", "Jd", "As", "Ab"] }), /shown no monte/);
    assert.deepEqual(seat.tracked().due, ["giver"]);
    assert.equal(JSON.stringify(seat.view()), before);
    assert.deepEqual(seat.feed({ type: "reveal", giver: "S2" }), { step: 4, to_play: 0, due: [], over: false });
    assert.throws(() => seat.event(0, "return", "Kb"), /may not see this return/);
    seat.event(0, "return", null);
    assert.equal(seat.view().returned, -1);
    assert.equal(seat.view().giver, 2);
  });
});

// ------------------------------------------------------------------------------ Minchiate
const TRUMP_VALUE = /** @type {Record<number, number>} */ ({ 1: 5, 2: 3, 3: 3, 4: 3, 5: 3, 10: 5, 13: 5, 20: 5, 28: 5 });
/** @param {number} c RULES.md M-3.1 */
const value = (c) => (c < 40 ? (c + 1 >= 36 ? 10 : c + 1 >= 30 ? 5 : TRUMP_VALUE[c + 1] ?? 0) : c === 40 ? 5 : (c - 41) % 14 === 13 ? 5 : 0);
/** @param {number} c M-5.1 */
const qualifies = (c) => value(c) > 0 || (c >= 20 && c < 40);
/** @param {number[]} cards */
const codes = (cards) => cards.map((c) => minchiate.CARDS[c]);

/**
 * The `deal.private` of each seat for a stream (default rules): the cut, the robbing, the
 * 10 + 11 deal and the dealer's robbing and taking of RULES.md M-5 to M-7, written for this test.
 * @param {number} dealer
 * @param {number[]} stream
 */
function privates(dealer, stream) {
  let r = 0;
  while (r < 13 && qualifies(stream[r])) r++;
  const robbed = stream.slice(0, r);
  const stop = stream[r];
  const pack = [...stream.slice(r + 1), stop];
  const hands = [[], [], [], []].map(() => /** @type {number[]} */ ([]));
  const faceup = [-1, -1, -1, -1];
  for (let k = 0; k < 4; k++) {
    const s = (dealer + 1 + k) & 3;
    hands[s].push(...pack.slice(10 * k, 10 * k + 10), ...pack.slice(40 + 11 * k, 51 + 11 * k));
    faceup[s] = pack[50 + 11 * k];
  }
  hands[(dealer + 3) & 3].push(...robbed);
  const order = pack.slice(84);
  let a = 0;
  while (a < order.length && qualifies(order[a])) a++;
  const rest = order.slice(a);
  const taken = rest.filter((c) => value(c) > 0 || c === 28);
  hands[dealer].push(...order.slice(0, a), ...taken);
  return (/** @type {number} */ seat) => ({
    hand: codes(hands[seat].sort((x, y) => x - y)), robbed: codes(robbed), stop: minchiate.CARDS[stop],
    faceup: codes(faceup), dealer_robbed: codes(order.slice(0, a)), dealer_taken: codes(taken),
    ...(seat === dealer ? { fola: codes(rest.filter((c) => !taken.includes(c))) } : {}),
  });
}

/**
 * The messages seat `seat` receives in the record of encoding.md 3.7 (dealer S0, the stream in
 * index order), and the tracker fed with them.
 * @param {number} seat
 */
function minchiateExample(seat) {
  const priv = privates(0, Array.from({ length: 97 }, (_, c) => c))(seat);
  const t = createTracker("minchiate", { seat });
  const answers = [];
  const feed = (/** @type {any} */ m) => answers.push(t.feed({ game: "g1", ...m }));
  feed({ type: "deal", dealer: 0, private: priv });
  if (seat !== 3) feed({ type: "reveal", void: false });
  for (const card of ["T27", "As", "2s", "3s", "4s"]) feed({ type: "event", seat: 3, verb: "discard", arg: seat === 3 ? card : null });
  if (seat !== 0) feed({ type: "reveal", void: false });
  feed({ type: "event", seat: 0, verb: "discard", arg: seat === 0 ? "Ac" : null });
  feed({ type: "reveal", declaring: "S3", declared: [] });
  feed({ type: "event", seat: 3, verb: "declare", arg: "declare" });
  feed({ type: "reveal", declaring: "S3", declared: [{ seat: 3, combo: "low run", cards: ["T1", "T2", "T3", "T4", "T5"], bonus: 0 }] });
  feed({ type: "event", seat: 3, verb: "declare", arg: "declare" });
  const high = ["T28", "T29", "T30", "T31", "T32", "T33", "T34", "T35", "T36"];
  feed({ type: "reveal", declaring: "S0", declared: [{ seat: 3, combo: "high run", cards: high, points: 50, bonus: 0 }] });
  return { t, answers };
}

/**
 * The non-zero elements of encoding.md's block `<!-- nonzero:minchiate seat=N mask=... -->`.
 * @param {string} text
 * @param {number} seat
 */
function nonzero(text, seat) {
  const block = text.split(new RegExp(`<!-- nonzero:minchiate seat=${seat} mask=[0-9,]* -->`))[1].split("```text")[1].split("```")[0];
  const want = new Float32Array(minchiate.OBS_SIZE);
  for (const line of block.trim().split("\n")) {
    const [where, v] = line.trim().split(/\s+/);
    const [a, b] = v.split("/").map(Number);
    const [lo, hi] = where.split("..").map(Number);
    for (let i = lo; i <= (hi ?? lo); i++) want[i] = b ? a / b : a;
  }
  return want;
}

describe("encoding.md 3.7, the Minchiate worked example from protocol messages", () => {
  const skip = existsSync(DOC) ? false : "docs/encoding.md not found";
  it("S0 (the dealer, on turn, offered a high run) and S1 (off turn)", { skip }, () => {
    const text = readFileSync(DOC, "utf8");
    for (const [seat, legal] of [[0, [97, 98]], [1, []]]) {
      const { t, answers } = minchiateExample(/** @type {number} */ (seat));
      assert.deepEqual(answers.at(-1), { step: 8, to_play: 0, due: [], over: false });
      const { obs, mask } = t.encode();
      assert.deepEqual([...obs], [...nonzero(text, /** @type {number} */ (seat))], `S${seat}'s observation`);
      assert.deepEqual([...mask.keys()].filter((a) => mask[a]), legal);
      assert.deepEqual([t.view().D, t.view().R], [-24, -1]);
    }
  });

  it("what is due when, and the declarations' scoring (encoding.md 3.9)", () => {
    const { answers } = minchiateExample(1);
    assert.deepEqual(answers[0], { step: 0, to_play: null, due: ["void"], over: false }); // is the cutter void?
    assert.deepEqual(answers[1], { step: 0, to_play: 3, due: [], over: false });
    assert.deepEqual(answers[6], { step: 5, to_play: null, due: ["void"], over: false }); // is the dealer void?
    assert.deepEqual(answers[8], { step: 6, to_play: null, due: ["declared", "declaring"], over: false });
    const s0 = minchiateExample(0).t;
    assert.deepEqual(s0.view().offered, { kind: 1, members: [36, 37, 38, 39] });
    assert.equal(s0.label(97), "declare");
    assert.deepEqual(s0.triple(98), { verb: "declare", arg: "skip" });
    // S0 declares (40 + 5 bonus: D = -24 + 45), and the declarations end: the Fola is exposed, S1 leads
    s0.feed({ type: "event", seat: 0, verb: "declare", arg: "declare" });
    assert.deepEqual(s0.feed({ type: "reveal", declaring: null, declared: [{ seat: 0, combo: "high run", cards: ["T37", "T38", "T39", "T40"], bonus: 5 }] }),
      { step: 9, to_play: null, due: ["fola"], over: false });
    const fola = ["T6", "T27", "As", "2s", "3s", "4s", "Ac", "8b", "9b", "10b", "Jb", "Nb", "Qb"];
    assert.deepEqual(s0.feed({ type: "reveal", fola }), { step: 9, to_play: 1, due: [], over: false });
    const v = s0.view();
    assert.deepEqual([v.D, v.R, v.folaExposed, v.folaKnown.length, v.phase], [21, -1, true, 13, 3]);
  });

  it("refuses what the seat cannot be told, and changes nothing", () => {
    const { t } = minchiateExample(1);
    const refused = (/** @type {any} */ m, /** @type {string} */ code, /** @type {RegExp} */ why) => {
      const before = JSON.stringify([t.tracked(), t.view()]);
      assert.throws(() => t.feed(m), (e) => e instanceof TrackerError && e.code === code && why.test(e.message), JSON.stringify(m));
      assert.equal(JSON.stringify([t.tracked(), t.view()]), before);
    };
    refused({ type: "event", seat: 1, verb: "declare", arg: "skip" }, "impossible", /S0 is on turn, not S1/);
    refused({ type: "event", seat: 0, verb: "play", arg: "T40" }, "impossible", /no "play" is due now/);
    refused({ type: "reveal", fola: [] }, "impossible", /shown no fola now/);
    refused({ type: "reveal", declaring: "S9" }, "bad_field", /reveal.declaring must be a seat/);
    refused({ type: "deal", dealer: 0, private: {} }, "bad_field", /dealt already/);
    t.feed({ type: "event", seat: 0, verb: "declare", arg: "skip" });
    // S0 declared last (S1 first); S0 skipped: it declared nothing
    refused({ type: "reveal", declaring: "S1", declared: [] }, "impossible", /go in order/);
    refused({ type: "reveal", declaring: null, declared: [{ seat: 0, combo: "low run", cards: ["T6", "T7", "T8"] }] }, "impossible", /declares nothing now/);
    t.feed({ type: "reveal", declaring: null, declared: [], fola: ["T6", "T27", "As", "2s", "3s", "4s", "Ac", "8b", "9b", "10b", "Jb", "Nb", "Qb"] });
    assert.equal(t.toPlay(), 1);
    assert.throws(() => t.feed({ type: "event", seat: 1, verb: "play", arg: "T40" }), /not legal for S1/); // not its card
    t.feed({ type: "event", seat: 1, verb: "play", arg: "Kc" });
    assert.throws(() => t.feed({ type: "event", seat: 2, verb: "play", arg: "Kc" }), /was played already/);
    assert.throws(() => t.feed({ type: "event", seat: 2, verb: "play", arg: "7b" }), /is S0's/); // S0's face-up card
    assert.throws(() => t.feed({ type: "event", seat: 2, verb: "play", arg: "Ac" }), /lies in the Fola/);
  });
});
