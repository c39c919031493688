// Tests that need no Python: the worked example of docs/encoding.md 2.7 (read from the doc when
// this package sits in the mazzo repository), the tracker's protocol rules (what is due, what is
// refused), flags and labels.

import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";

import { Bundle, BundleError, calabresella, createTracker, pyRepr, resolveFlags, TrackerError } from "../src/index.js";

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
    assert.throws(() => createTracker("minchiate", { seat: 0 }), (e) => e instanceof TrackerError && e.code === "not_implemented");
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
