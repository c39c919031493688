// The local table server of the static web table (js/table/), with no Python: whole deals with
// random bots under several rule sets, a transport's order of replies, and the errors a table
// session answers (tests/js/test_local_table.py checks every message against mazzo's referee).

import assert from "node:assert/strict";
import { describe, it } from "node:test";

import { LocalTableServer, createLocalTransport } from "../table/local_server.js";

const random = { name: "random", help: "random", rules: null };
const server = () => new LocalTableServer({ bots: { calabresella: [random] } });

/** Open a table (S0 the client) and answer every turn with its first legal label. */
async function playDeal(flags, seed) {
  const srv = server();
  const got = [];
  const n = flags.players ?? 3;
  const seats = ["client", ...Array(n - 1).fill("random")];
  await srv.handle({ type: "open", id: 1, mode: "table", game: "calabresella", flags, seats, seed }, (m) => got.push(m));
  for (let i = 0; i < 100 && got.at(-1).type === "turn"; i++) {
    await srv.handle({ type: "move", id: 2 + i, game: "g1", action: got.at(-1).legal[0] }, (m) => got.push(m));
  }
  return got;
}

describe("the local table", () => {
  it("plays whole deals to their end", async () => {
    for (const flags of [{}, { players: 2 }, { players: 4 }, { aperta: true }, { auction: "until_two_passes" }]) {
      for (let seed = 0; seed < 4; seed++) {
        const got = await playDeal(flags, seed);
        assert.equal(got[0].type, "opened");
        const end = got.at(-1);
        assert.equal(end.type, "end", JSON.stringify(flags));
        assert.equal(end.returns.length, flags.players ?? 3);
        assert.equal(end.returns.reduce((a, b) => a + b, 0), 0); // pairwise: zero-sum
        assert.ok(got.filter((m) => m.type === "event").every((m, i) => m.step === i));
      }
    }
  });

  it("deals the same cards from the same seed", async () => {
    const a = await playDeal({}, 9);
    const b = await playDeal({}, 9);
    assert.deepEqual(a.at(-1).record, b.at(-1).record);
  });

  it("answers errors as mazzo serve does", async () => {
    const srv = server();
    const got = [];
    const push = (m) => got.push(m);
    await srv.handle({ type: "move", id: 5, game: "g9", action: "pass" }, push);
    assert.equal(got.at(-1).code, "unknown_session");
    assert.equal(got.at(-1).id, 5);
    await srv.handle({ type: "open", mode: "table", game: "calabresella", seats: ["client", "nobody", "random"] }, push);
    assert.equal(got.at(-1).code, "unknown_bot");
    await srv.handle({ type: "open", mode: "table", game: "calabresella", flags: { players: 7 }, seats: [] }, push);
    assert.equal(got.at(-1).code, "bad_flags");
    const trained = new LocalTableServer({ bots: { calabresella: [{ name: "bot", help: "", rules: { players: 3 }, load: async () => null }] } });
    await trained.handle({ type: "open", mode: "table", game: "calabresella", flags: { players: 4 }, seats: ["client", "bot", "bot", "bot"] }, push);
    assert.equal(got.at(-1).code, "foreign_rules");
    assert.match(got.at(-1).message, /players 3 \(trained\) vs 4 \(here\)/);
    // seed 1: S0 deals, S1 bids first; seed 0: S1 deals, S2 bids, then S0 (the client)
    await srv.handle({ type: "open", mode: "table", game: "calabresella", seats: ["client", "random", "random"], seed: 0 }, push);
    let turn = got.at(-1);
    while (turn.type === "turn" && !turn.legal[0].startsWith("play")) {
      await srv.handle({ type: "move", game: turn.game, action: turn.legal.at(-1) }, push);
      turn = got.at(-1);
    }
    if (turn.type === "turn") {
      const hand = turn.view.hand;
      const bad = hand.find((c) => !turn.legal.includes(`play ${c}`));
      await srv.handle({ type: "move", id: 7, game: turn.game, action: "bid solo" }, push);
      assert.equal(got.at(-1).code, "illegal");
      assert.deepEqual(got.at(-1).legal, turn.legal);
      if (bad) {
        await srv.handle({ type: "move", id: 8, game: turn.game, action: `play ${bad}` }, push);
        assert.equal(got.at(-1).code, "illegal");
        assert.match(got.at(-1).why, /^S0 must follow suit/);
      }
    }
    await srv.handle({ type: "close", game: "g1" }, push);
    assert.deepEqual(got.at(-1), { type: "closed", game: "g1" });
  });

  it("gives app.js a WebSocket-like transport", async () => {
    const ws = createLocalTransport(Promise.resolve(server()));
    assert.equal(ws.readyState, 0);
    const got = [];
    await new Promise((resolve) => { ws.onopen = resolve; });
    assert.equal(ws.readyState, 1);
    const done = new Promise((resolve) => {
      ws.onmessage = (e) => { got.push(JSON.parse(e.data)); if (got.length === 2) resolve(); };
    });
    ws.send(JSON.stringify({ type: "hello", protocol: "mazzo-bot/1", id: 1 }));
    ws.send(JSON.stringify({ type: "bots", id: 2 }));
    await done;
    assert.deepEqual(got.map((m) => [m.type, m.id]), [["hello", 1], ["bots", 2]]);
    assert.deepEqual(got[0].bots, { calabresella: ["random"], minchiate: [] });
    assert.equal(got[0].games.minchiate.seats, 4);
    assert.equal(got[0].games.minchiate.record_format, "minchiate-deal/1");
  });

  it("plays whole Minchiate deals to their end", async () => {
    const srv = new LocalTableServer({ bots: { minchiate: [random] } });
    const flagSets = [{}, { declarations: "auto_all" }, { declare_timing: "with_first_card" }, { matto_payment: "agent" }];
    for (const [k, flags] of flagSets.entries()) {
      const got = [];
      const push = (m) => got.push(m);
      await srv.handle({ type: "open", mode: "table", game: "minchiate", flags, seats: ["client", "random", "random", "random"], seed: k }, push);
      const gid = got[0].game;
      assert.equal(got[0].type, "opened");
      for (let i = 0; i < 200 && got.at(-1).type === "turn"; i++) {
        const turn = got.at(-1);
        assert.deepEqual(turn.legal, turn.view.legal);
        await srv.handle({ type: "move", game: gid, action: turn.legal.at(-1) }, push);
      }
      const end = got.at(-1);
      assert.equal(end.type, "end", JSON.stringify(flags));
      const r = end.result.resti;
      assert.deepEqual(end.returns, [r, -r, r, -r]);
      assert.equal(end.record.format, "minchiate-deal/1");
      assert.equal(end.record.actions.filter((a) => a[1] === "play").length, 84);
      assert.ok(got.filter((m) => m.type === "event").every((m, i) => m.step === i));
    }
    // an illegal move: the labels and the reason, as mazzo serve gives them
    const got = [];
    await srv.handle({ type: "open", mode: "table", game: "minchiate", seats: ["client", "random", "random", "random"], seed: 3 }, (m) => got.push(m));
    const turn = got.at(-1);
    assert.equal(turn.type, "turn");
    await srv.handle({ type: "move", game: got[0].game, action: "bid solo" }, (m) => got.push(m));
    assert.equal(got.at(-1).code, "illegal");
    assert.deepEqual(got.at(-1).legal, turn.legal);
  });
});
