// Plays deals at the local table with random bots and a client seat that moves at random, and
// writes each as one JSON line: the flags, the seats, the dealer, the dealing order, every
// action in full and every message the client got. tests/js/test_local_table.py replays them
// with mazzo's own engine and checks each message against what `mazzo serve` would send.
//
//   node js/table/dump_deals.mjs [game] <deals> <seed> '<flags json>' ...   > deals.jsonl
//
// `game`: calabresella (the default) or minchiate.

import { LocalTableServer } from "./local_server.js";
import { seededRandom } from "./calabresella_referee.js";

const argv = process.argv.slice(2);
const game = ["calabresella", "minchiate"].includes(argv[0]) ? argv.shift() : "calabresella";
const [deals, seed0, ...flagSets] = argv;
const server = new LocalTableServer({ bots: { [game]: [{ name: "random", help: "random", rules: null }] } });
const random = seededRandom(Number(seed0));
for (const flagText of flagSets.length ? flagSets : ["{}"]) {
  const flags = JSON.parse(flagText);
  const n = game === "minchiate" ? 4 : flags.players ?? 3;
  for (let k = 0; k < Number(deals); k++) {
    const seed = Number(seed0) * 1000 + k;
    const me = Math.floor(random() * n);
    const seats = Array.from({ length: n }, (_, s) => (s === me ? "client" : "random"));
    const got = [];
    const push = (m) => got.push(m);
    await server.handle({ type: "open", mode: "table", game, flags, seats, seed }, push);
    const gid = got[0].game;
    for (let i = 0; i < 300; i++) {
      const last = got[got.length - 1];
      if (last.type !== "turn") break;
      // the client keeps the Matto while it may (so that it falls in the last trick at times)
      const kept = last.legal.length > 1 ? last.legal.filter((l) => l !== "play M") : last.legal;
      const label = kept[Math.floor(random() * kept.length)];
      await server.handle({ type: "move", game: gid, action: label }, push);
    }
    const ref = server.sessions.get(gid).ref;
    process.stdout.write(JSON.stringify({ flags, seats, dealer: ref.dealer, order: ref.order, actions: ref.actions, messages: got }) + "\n");
    server.sessions.delete(gid);
  }
}
