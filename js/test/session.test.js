// The protocol cross-check against `mazzo serve --stdio`: for every seat of a few whole deals,
// the server opens a seat session with its `onnx` bot (the same bundle) and, when named, one
// with a bot that reports probabilities (`go` with `"probs": true`, the shipped `bot`); the same
// messages go to the server and to the JS tracker. Every `tracked` answer must equal the JS
// tracker's, and at every turn of the seat the server's move must be the JS bot's choice (and its
// probabilities the JS model's, within 1e-5 plus the server's 6-digit rounding).
//
// MAZZO_SERVE: the server's command line as a JSON array (it must offer the bundle as bot `onnx`);
// MAZZO_SERVE_PROBS_BOT: the name of a bot of that server with probabilities (optional).

import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { after, before, describe, it } from "node:test";

import { calabresella, createTracker, loadBundle, minchiate, TrackerError } from "../src/index.js";
import { fixture, FIXTURES } from "../testkit/fixtures.js";

const SERVE = process.env.MAZZO_SERVE ? JSON.parse(process.env.MAZZO_SERVE) : null;
const PROBS_BOT = process.env.MAZZO_SERVE_PROBS_BOT || null;
const REFUSE_EVERY = 5; // inputs the seat must refuse are tried before every 5th message

/**
 * Inputs the seat cannot be told just before `message` (the next real one): another seat's
 * event, a hidden card sent or a seen one held by the seat itself, an own move that is not
 * legal, an event while a reveal is due, a reveal not due, a malformed reveal, a second deal.
 * @param {string} game
 * @param {any} js the JS tracker
 * @param {Record<string, any>} message
 * @param {number} seats
 * @returns {Array<Record<string, any>>}
 */
function refusedInputs(game, js, message, seats) {
  const cards = game === "calabresella" ? calabresella.CARDS : minchiate.CARDS;
  const out = [];
  const due = js.tracked().due;
  const view = js.view();
  const hand = /** @type {number[]} */ (view.hand);
  if (due.length) out.push({ type: "event", seat: 0, verb: "play", arg: cards[0] });
  if (message.type === "event") {
    if (seats > 1) out.push({ ...message, seat: (message.seat + 1) % seats });
    if (message.arg === null) out.push({ ...message, arg: cards[hand[0] ?? 0] });
    else if (message.seat !== js.seat && typeof message.arg === "string" && cards.includes(message.arg) && hand.length) {
      out.push({ ...message, arg: cards[hand[0]] });
    } else if (message.seat === js.seat && typeof message.arg === "string" && cards.includes(message.arg)) {
      const legal = new Set(js.legalActions());
      const illegal = cards.findIndex((_, c) => !legal.has(c) && c < cards.length);
      if (illegal >= 0) out.push({ ...message, arg: cards[illegal] });
    }
  }
  const keys = game === "calabresella" ? { giver: "monte" } : { void: false, declaring: null };
  for (const [key, value] of Object.entries(keys)) if (!due.includes(key)) { out.push({ type: "reveal", [key]: value }); break; }
  if (game === "minchiate") out.push({ type: "reveal", declaring: "X9" });
  out.push({ type: "deal", dealer: 0, private: {} });
  return out;
}

/** A `mazzo serve --stdio` child: one request, one answer (seat sessions answer every message once). */
class Server {
  /** @param {string[]} argv */
  constructor(argv) {
    this.child = spawn(argv[0], argv.slice(1), { stdio: ["pipe", "pipe", "pipe"] });
    /** @type {Array<(line: string) => void>} */
    this.waiting = [];
    this.stderr = "";
    this.child.stderr.on("data", (d) => { this.stderr = (this.stderr + d).slice(-4000); });
    createInterface({ input: this.child.stdout }).on("line", (line) => {
      const resolve = this.waiting.shift();
      if (resolve) resolve(line);
    });
    this.exited = new Promise((resolve) => this.child.on("exit", resolve));
  }

  /**
   * @param {Record<string, any>} message
   * @returns {Promise<Record<string, any>>}
   */
  async ask(message) {
    const answer = new Promise((resolve, reject) => {
      this.waiting.push((line) => resolve(JSON.parse(line)));
      this.exited.then((code) => reject(new Error(`mazzo serve exited (${code}): ${this.stderr}`)));
    });
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
    return /** @type {Promise<Record<string, any>>} */ (answer);
  }

  async close() {
    this.child.stdin.end();
    await this.exited;
  }
}

for (const game of ["calabresella", "minchiate"]) {
  const fx = fixture(game);
  const skip = !fx ? (FIXTURES ? `no ${game}.json in ${FIXTURES}` : "MAZZO_JS_FIXTURES not set")
    : !SERVE ? "MAZZO_SERVE not set" : false;

  describe(`${game} seat sessions against mazzo serve --stdio`, { skip }, () => {
    /** @type {Server} */
    let server;
    before(() => { server = new Server(SERVE); });
    after(async () => { await server?.close(); });

    it("every tracked answer and every decision equals the server's", async () => {
      const bundle = await loadBundle(fx.bundle);
      bundle.check(game, fx.flags);
      let decisions = 0;
      let games = 0;
      let refused = 0;
      const seats = game === "calabresella" ? fx.flags.players ?? 3 : 4;
      for (const deal of fx.sessions) {
        for (const { seat, messages } of deal.seats) {
          const bots = PROBS_BOT ? ["onnx", PROBS_BOT] : ["onnx"];
          const ids = [];
          for (const bot of bots) {
            const opened = await server.ask({ type: "open", mode: "seat", game, flags: fx.flags, seat, bot });
            assert.equal(opened.type, "opened", JSON.stringify(opened));
            ids.push(opened.game);
          }
          games++;
          const js = createTracker(game, { seat, flags: fx.flags });
          for (const [i, message] of messages.entries()) {
            const where = `${deal.name}, S${seat}, message ${i} ${JSON.stringify(message)}`;
            if (i > 0 && i % REFUSE_EVERY === 0) {
              for (const bad of refusedInputs(game, js, message, seats)) {
                const before = JSON.stringify([js.tracked(), js.view()]);
                const answer = await server.ask({ ...bad, game: ids[0] });
                assert.equal(answer.type, "error", `${where}: the server took ${JSON.stringify(bad)}: ${JSON.stringify(answer)}`);
                assert.throws(() => js.feed(bad), (e) => e instanceof TrackerError && e.code === answer.code,
                  `${where}: ${JSON.stringify(bad)} must be refused with ${answer.code} (${answer.message})`);
                assert.equal(JSON.stringify([js.tracked(), js.view()]), before, `${where}: ${JSON.stringify(bad)} changed the tracker`);
                refused++;
              }
            }
            const mine = js.feed(message);
            for (const id of ids) {
              const answer = await server.ask({ ...message, game: id });
              assert.equal(answer.type, "tracked", `${where}: ${JSON.stringify(answer)}`);
              const { type: _t, game: _g, ...theirs } = answer;
              assert.deepEqual(mine, theirs, `${where}: tracked`);
            }
            if (mine && mine.to_play === seat && !mine.over) {
              const choice = await bundle.act(js);
              const move = await server.ask({ type: "go", game: ids[0] });
              assert.equal(move.type, "move", `${where}: ${JSON.stringify(move)}`);
              assert.equal(choice.label, move.action, `${where}: the JS bot's move`);
              if (PROBS_BOT) {
                const withProbs = await server.ask({ type: "go", game: ids[1], probs: true });
                assert.ok(withProbs.probs, `${where}: bot ${PROBS_BOT} gives no probs`);
                assert.deepEqual(Object.keys(withProbs.probs).sort(), Object.keys(choice.legal).sort(), `${where}: legal labels`);
                for (const [label, p] of Object.entries(withProbs.probs)) {
                  assert.ok(Math.abs(choice.legal[label] - p) <= 1e-5 + 5e-7, `${where}: P(${label}) ${choice.legal[label]} vs ${p}`);
                }
              }
              decisions++;
            }
          }
          assert.ok(js.isOver(), `${deal.name}, S${seat}: the deal ends`);
          for (const id of ids) assert.equal((await server.ask({ type: "close", game: id })).type, "closed");
        }
      }
      assert.ok(decisions > 0);
      console.log(`# ${game}: ${games} seat sessions, ${decisions} decisions equal to mazzo serve's${PROBS_BOT ? ` (probs vs bot ${PROBS_BOT})` : ""}`);
      console.log(`# ${game}: ${refused} refused inputs refused alike (the server's error codes, the tracker unchanged)`);
    });
  });
}
