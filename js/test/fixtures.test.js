// The fixtures of tests/js/make_fixtures.py: each test vector of the bundle rebuilt from the
// protocol messages its seat received (observation and mask exactly, probabilities within
// 1e-5), the rule variants step by step, the rules check's messages (mazzo's own), and the
// bundle's integrity checks.

import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, it } from "node:test";

import { BundleError, calabresella, createTracker, loadBundle, minchiate } from "../src/index.js";
import { dense, fixture, FIXTURES, maskIds, obsDiff } from "../testkit/fixtures.js";

const GAMES_WITH_TRACKERS = /** @type {const} */ ([["calabresella", calabresella], ["minchiate", minchiate]]);
const TOLERANCE = 1e-5;

for (const [game, module] of GAMES_WITH_TRACKERS) {
  const fx = fixture(game);
  const skip = fx ? false : FIXTURES ? `no ${game}.json in ${FIXTURES}` : "MAZZO_JS_FIXTURES not set";

  describe(`${game} fixtures`, { skip }, () => {
    it("test vectors: obs and mask exactly, probs within 1e-5", async () => {
      const bundle = await loadBundle(fx.bundle, { verify: "all" });
      bundle.check(game, fx.flags);
      let matched = 0;
      let worst = 0;
      for (const c of fx.vectors) {
        const seat = createTracker(game, { seat: c.seat, flags: c.flags });
        for (const m of c.messages) seat.feed(m);
        assert.equal(seat.toPlay(), c.to_play, `${c.name}: seat on turn`);
        const { obs, mask } = seat.encode();
        assert.deepEqual(obsDiff(obs, c.obs), [], `${c.name}: observation differs`);
        assert.deepEqual([...mask], c.mask, `${c.name}: mask differs`);
        const { probs } = await bundle.run(obs, mask);
        for (let a = 0; a < probs.length; a++) {
          const d = Math.abs(probs[a] - c.probs[a]);
          worst = Math.max(worst, d);
          assert.ok(d <= TOLERANCE, `${c.name}: probs[${a}] ${probs[a]} vs ${c.probs[a]}`);
        }
        matched++;
      }
      assert.equal(matched, fx.vectors.length);
      assert.deepEqual(bundle.manifest.action_labels, Array.from({ length: module.NUM_ACTIONS }, (_, a) => module.actionLabel(a)));
      console.log(`# ${game}: ${matched}/${fx.vectors.length} test vectors matched (max |probs diff| ${worst.toExponential(2)})`);
    });

    it("the bundle's own test_vectors.jsonl are the fixture's", async () => {
      const bundle = await loadBundle(fx.bundle);
      const vectors = await bundle.testVectors();
      assert.equal(vectors.length, fx.vectors.length);
      vectors.forEach((v, i) => assert.deepEqual(v.mask, fx.vectors[i].mask));
    });

    it("rule variants: the seat on turn, mask and observation after every message", () => {
      let checks = 0;
      for (const c of fx.variants) {
        const seat = createTracker(game, { seat: c.seat, flags: c.flags });
        let next = 0;
        c.messages.forEach((m, i) => {
          const tracked = seat.feed(m);
          assert.ok(tracked, `${c.name}: message ${i} ignored`);
          while (next < c.checks.length && c.checks[next].after === i) {
            const check = c.checks[next++];
            const where = `${c.name}, after message ${i} ${JSON.stringify(m)}`;
            assert.equal(seat.toPlay(), check.to_play, `${where}: seat on turn`);
            const { obs, mask } = seat.encode();
            assert.deepEqual(maskIds(mask), check.mask, `${where}: mask`);
            if (check.obs) assert.deepEqual(obsDiff(obs, dense(check.obs, obs.length)), [], `${where}: observation`);
            checks++;
          }
        });
        assert.equal(next, c.checks.length, `${c.name}: every check reached`);
        assert.ok(seat.isOver(), `${c.name}: the deal ends`);
      }
      console.log(`# ${game}: ${fx.variants.length} variant deal-seats, ${checks} positions matched`);
    });

    it("foreign rules are refused with the Python runtime's message", async () => {
      const bundle = await loadBundle(fx.bundle);
      assert.ok(fx.foreign.length > 0);
      for (const { flags, message } of fx.foreign) {
        if (message === null) {
          bundle.check(game, flags);
          continue;
        }
        assert.throws(() => bundle.check(game, flags), (e) => e instanceof BundleError && e.message === message);
      }
      assert.throws(() => bundle.check(game === "calabresella" ? "minchiate" : "calabresella"),
        /is a bundle for/);
    });

    it("a changed or missing file is refused", async () => {
      const read = async (/** @type {string} */ name) => new Uint8Array(await readFile(join(fx.bundle, name)));
      const tampered = async (/** @type {string} */ name) => {
        const bytes = await read(name);
        if (name === "policy.onnx") bytes[bytes.length - 1] ^= 1;
        return bytes;
      };
      await assert.rejects(loadBundle(fx.bundle, { read: tampered }),
        (e) => e instanceof BundleError && e.message === `${fx.bundle}/policy.onnx: sha256 differs from manifest.json's: the file was changed`);
      const otherFormat = async (/** @type {string} */ name) => name === "manifest.json"
        ? new TextEncoder().encode(JSON.stringify({ ...JSON.parse(new TextDecoder().decode(await read(name))), format: "mazzo-bundle/2" }))
        : read(name);
      await assert.rejects(loadBundle(fx.bundle, { read: otherFormat }),
        (e) => e instanceof BundleError && e.message === `${fx.bundle}: manifest.json format 'mazzo-bundle/2', expected 'mazzo-bundle/1'`);
      const missing = async (/** @type {string} */ name) => {
        if (name === "test_vectors.jsonl") throw Object.assign(new Error("no such file"), { code: "ENOENT" });
        return read(name);
      };
      await assert.rejects(loadBundle(fx.bundle, { read: missing, verify: "all" }), /missing test_vectors.jsonl \(listed in manifest.json\)/);
      await assert.rejects(loadBundle(join(fx.bundle, "no-such-folder")), /no manifest.json \(not a mazzo bundle\)/);
    });
  });
}
