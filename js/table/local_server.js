// The local table server: answers the messages of mazzo-bot/1 *table sessions*
// (docs/protocol.md "Table sessions") as `mazzo serve` does (mazzo/serve/server.py, table.py),
// with no server: the referee (calabresella_referee.js, minchiate_referee.js) deals and keeps the state in the page,
// and the bots play their seats with mazzo-bot (`bundle.act` on the seat's own tracker) or at
// random. `createLocalTransport` gives the web table (mazzo/serve/static/app.js) a WebSocket-like
// object to talk to it (`window.MazzoTransport`).

import { flagDifferences, pyRepr, resolveFlags } from "../src/index.js";
import { CalabresellaReferee, MoveError, seededRandom } from "./calabresella_referee.js";
import { MinchiateReferee } from "./minchiate_referee.js";

export const PROTOCOL = "mazzo-bot/1";

/** The games the local table referees: their referee and what `hello` says of them. */
const GAMES = {
  calabresella: {
    title: "Calabresella",
    Referee: CalabresellaReferee,
    num_actions: 62,
    encoding_version: 1,
    record_format: "calabresella-deal/1",
    seats: (/** @type {Record<string, any>} */ flags) => /** @type {number} */ (flags.players),
  },
  minchiate: {
    title: "Minchiate",
    Referee: MinchiateReferee,
    num_actions: 99,
    encoding_version: 1,
    record_format: "minchiate-deal/1",
    seats: () => 4,
  },
};

const LIMITS = { max_bytes: 65536, max_games: 16, max_server_games: 256, max_connections: 64, idle_timeout: 300.0 };
const TABLE_FIELDS = new Set(["type", "id", "protocol", "mode", "game", "flags", "seats", "seed", "deal"]);

class ProtocolError extends Error {
  /**
   * @param {string} code
   * @param {string} message
   * @param {string|null} [game]
   * @param {Record<string, any>} [extra]
   */
  constructor(code, message, game = null, extra = {}) {
    super(message);
    this.code = code;
    this.game = game;
    this.extra = extra;
  }

  toJSON() {
    /** @type {Record<string, any>} */
    const out = { type: "error", code: this.code, message: this.message };
    if (this.game !== null) out.game = this.game;
    return { ...out, ...this.extra };
  }
}

/**
 * @typedef {object} BotSpec
 * @property {string} name the name a seat gives (`bot`, `random`)
 * @property {string} help what it is
 * @property {Record<string, any>|null} rules the flags it was trained for (every flag), null for any rules
 * @property {() => Promise<any>} [load] the mazzo-bot Bundle (loaded once)
 */

export class LocalTableServer {
  /**
   * @param {{bots?: Record<string, BotSpec[]>, version?: string}} options `bots`: per game, the
   *   bots the tables offer (a trained bot with `load`, which gives its mazzo-bot Bundle).
   */
  constructor({ bots = {}, version = "mazzo-bot local table" } = {}) {
    this.bots = bots;
    this.version = version;
    this.nextGame = 1;
    /** @type {Map<string, any>} */
    this.sessions = new Map();
    /** @type {Map<string, Promise<any>>} */
    this.loaded = new Map();
  }

  hello() {
    /** @type {Record<string, any>} */
    const games = {};
    for (const [name, g] of Object.entries(GAMES)) {
      const flags = resolveFlags(name, {});
      games[name] = {
        title: g.title, seats: g.seats(flags), flags, num_actions: g.num_actions,
        encoding_version: g.encoding_version, record_format: g.record_format,
      };
    }
    /** @type {Record<string, string[]>} */
    const bots = {};
    for (const name of Object.keys(GAMES)) bots[name] = (this.bots[name] ?? []).map((b) => b.name);
    return { type: "hello", protocol: PROTOCOL, server: this.version, games, bots, limits: { ...LIMITS } };
  }

  describeBots() {
    /** @type {Record<string, any[]>} */
    const out = {};
    for (const name of Object.keys(GAMES)) {
      out[name] = (this.bots[name] ?? []).map((b) => ({
        name: b.name, spec: b.name, help: b.help, rules: b.rules, foreign_rules: false, other_rules: [],
      }));
    }
    return out;
  }

  /**
   * The bundle of a trained bot, loaded once (a page may start it early: `preload`).
   * @param {string} game
   * @param {BotSpec} bot
   */
  bundle(game, bot) {
    const key = `${game}/${bot.name}`;
    if (!this.loaded.has(key)) {
      const p = /** @type {() => Promise<any>} */ (bot.load)();
      p.catch(() => this.loaded.delete(key)); // a failed load is tried again at the next deal
      this.loaded.set(key, p);
    }
    return /** @type {Promise<any>} */ (this.loaded.get(key));
  }

  /**
   * Start loading every trained bot's bundle now (the page's first deal then waits less), one
   * after the other in the order of `bots` (the first game's bundle does not share the network
   * with the others'); a deal opened meanwhile loads its own at once.
   */
  preload() {
    let chain = Promise.resolve();
    for (const [game, list] of Object.entries(this.bots)) {
      for (const b of list) {
        if (b.load) chain = chain.then(() => this.bundle(game, b)).catch(() => {});
      }
    }
  }

  /**
   * Answer one client message (an object or a JSON text); `push` gets every reply, in order.
   * Resolves when the replies are all pushed (bots that think push their moves as they come).
   * @param {string|Record<string, any>} data
   * @param {(msg: Record<string, any>) => void} push
   */
  async handle(data, push) {
    /** @type {any} */
    let ident;
    const send = (/** @type {Record<string, any>} */ m) => { if (ident !== undefined) m.id = ident; push(m); };
    try {
      let msg;
      try {
        msg = typeof data === "string" ? JSON.parse(data) : data;
      } catch (err) {
        throw new ProtocolError("bad_json", `the message is not valid JSON: ${/** @type {Error} */ (err).message}`);
      }
      if (!msg || typeof msg !== "object" || Array.isArray(msg)) throw new ProtocolError("bad_json", "a message must be a JSON object");
      ident = msg.id;
      const kind = msg.type;
      if (kind === "hello") { send(this.hello()); return; }
      if (kind === "bots") { send({ type: "bots", bots: this.describeBots() }); return; }
      if (kind === "open") { await this.#open(msg, send); return; }
      const gid = msg.game;
      const session = typeof gid === "string" ? this.sessions.get(gid) : undefined;
      if (!session) {
        throw new ProtocolError("unknown_session", `no game ${pyRepr(gid ?? null)} on this connection; open games: ${[...this.sessions.keys()].join(", ") || "none"}`, typeof gid === "string" ? gid : null);
      }
      if (kind === "close") { this.sessions.delete(gid); send({ type: "closed", game: gid }); return; }
      if (kind === "move") { await this.#move(session, msg, send); return; }
      if (kind === "view") { send(this.#viewMessage(session, msg.seat)); return; }
      if (kind === "legal") {
        const seat = session.ref.toPlay();
        send({ type: "legal", game: gid, seat, legal: session.clients.includes(seat) ? session.ref.legalLabels() : [] });
        return;
      }
      throw new ProtocolError("unknown_type", `a table session takes move, view, legal and close, not ${pyRepr(kind)}`, gid);
    } catch (err) {
      if (err instanceof ProtocolError) { send(err.toJSON()); return; }
      console.error(err);
      send(new ProtocolError("internal", `internal error (${/** @type {Error} */ (err).message})`).toJSON());
    }
  }

  /**
   * @param {Record<string, any>} msg
   * @param {(m: Record<string, any>) => void} send
   */
  async #open(msg, send) {
    if (msg.mode !== "table") throw new ProtocolError("bad_field", `open: unknown mode ${pyRepr(msg.mode ?? null)}; this page's local table only opens table sessions`);
    const extra = Object.keys(msg).filter((k) => !TABLE_FIELDS.has(k)).sort();
    if (extra.length) throw new ProtocolError("bad_field", `open: a table session does not take ${pyRepr(extra[0])}; fields: ${[...TABLE_FIELDS].sort().join(", ")}`);
    const name = msg.game;
    const G = /** @type {any} */ (GAMES)[name];
    if (!G) throw new ProtocolError("unknown_game", `unknown game ${pyRepr(name ?? null)}; games (this page): ${Object.keys(GAMES).join(", ")}`);
    let flags;
    try {
      flags = resolveFlags(name, msg.flags ?? {});
    } catch (err) {
      throw new ProtocolError("bad_flags", `${name} flags ${JSON.stringify(msg.flags)}: ${/** @type {Error} */ (err).message}`);
    }
    if (msg.deal !== undefined && msg.deal !== null) throw new ProtocolError("bad_field", "open: this page's local table deals from a seed, not from a 'deal' record");
    const seed = msg.seed ?? null;
    if (seed !== null && !(Number.isInteger(seed) && seed >= 0)) throw new ProtocolError("bad_field", `open: 'seed' must be an integer >= 0, got ${JSON.stringify(seed)}`);
    const n = G.seats(flags);
    const seats = msg.seats;
    const list = this.bots[name] ?? [];
    const names = list.map((b) => b.name);
    if (!Array.isArray(seats) || seats.length !== n || !seats.every((s) => typeof s === "string")) {
      throw new ProtocolError("bad_field", `open: 'seats' must list ${n} seats for ${name} with these flags, each 'client' or a bot name (${names.join(", ")}); got ${JSON.stringify(seats)}`);
    }
    for (const s of seats) {
      if (s !== "client" && !names.includes(s)) throw new ProtocolError("unknown_bot", `open: unknown ${name} bot ${pyRepr(s)}; bots: ${names.join(", ")} (or 'client' for a seat the client plays)`);
    }
    for (const s of new Set(seats)) {
      const bot = list.find((b) => b.name === s);
      if (!bot || !bot.rules) continue;
      const diff = flagDifferences(bot.rules, flags);
      if (diff.length) {
        const words = diff.map(([k, a, b]) => `${k} ${plain(a)} (trained) vs ${plain(b)} (here)`).join(", ");
        throw new ProtocolError("foreign_rules", `open: bot ${pyRepr(s)} was trained for other ${name} rules: ${words} (this page's local table plays a trained bot under its own rules only)`);
      }
    }
    /** @type {any[]} per seat: null (the client), {bundle} or {random} */
    const players = [];
    for (let s = 0; s < n; s++) {
      const bot = list.find((b) => b.name === seats[s]);
      if (!bot) { players.push(null); continue; }
      if (bot.load) {
        let bundle;
        try {
          bundle = await this.bundle(name, bot);
        } catch (err) {
          throw new ProtocolError("internal", `open: bot ${pyRepr(bot.name)} could not be loaded: ${/** @type {Error} */ (err).message}`);
        }
        players.push({ bundle });
      } else {
        players.push({ random: seededRandom(((seed ?? Math.floor(Math.random() * 2 ** 31)) * 31 + s + 1) >>> 0) });
      }
    }
    const gid = `g${this.nextGame++}`;
    const ref = new G.Referee({ flags, seed });
    const clients = seats.map((s, i) => (s === "client" ? i : -1)).filter((i) => i >= 0);
    const session = { id: gid, name, ref, seats: [...seats], players, clients, finished: false };
    this.sessions.set(gid, session);
    send({ type: "opened", game: gid, mode: "table", name, flags, seats: [...seats], dealer: ref.dealer });
    await this.#advance(session, send);
  }

  /**
   * @param {any} session
   * @param {Record<string, any>} msg
   * @param {(m: Record<string, any>) => void} send
   */
  async #move(session, msg, send) {
    const { ref, id } = session;
    if (session.finished) throw new ProtocolError("over", `game ${id} has ended; no more moves`, id);
    const seat = ref.toPlay();
    if (msg.seat !== undefined && msg.seat !== null && msg.seat !== seat) {
      throw new ProtocolError("not_your_turn", `move for S${msg.seat} in game ${id}, but S${seat} is to play`, id);
    }
    if (!session.clients.includes(seat)) {
      throw new ProtocolError("not_your_turn", `S${seat} (${session.seats[seat]}) is to play in game ${id}, not a client seat (the client holds ${session.clients.map((/** @type {number} */ s) => `S${s}`).join(", ") || "no seat"})`, id);
    }
    if (session.busy) throw new ProtocolError("not_your_turn", `the bots are playing in game ${id}`, id);
    let action;
    try {
      action = ref.parse(String(msg.action));
    } catch (err) {
      if (err instanceof MoveError) throw new ProtocolError(err.code, `move ${pyRepr(String(msg.action))} in game ${id}: ${err.message}`, id, err.extra);
      throw err;
    }
    send(this.#event(session, action));
    await this.#advance(session, send);
  }

  /** @param {any} session @param {number} action */
  #event(session, action) {
    const clients = session.clients;
    const ev = session.ref.apply(action);
    // the arg is shown where a client seat may see it (every seat's when no seat is a client)
    const shown = clients.length ? clients.some((/** @type {number} */ s) => ev.visible[s]) : ev.visible.every(Boolean);
    return { type: "event", game: session.id, step: ev.step, seat: ev.seat, verb: ev.verb, arg: shown ? ev.arg : null };
  }

  /**
   * Let the bots play until a client seat is on turn (a `turn`) or the end (`end`).
   * @param {any} session
   * @param {(m: Record<string, any>) => void} send
   */
  async #advance(session, send) {
    const ref = session.ref;
    session.busy = true;
    try {
      while (!ref.isOver()) {
        if (!this.sessions.has(session.id)) return; // closed meanwhile
        const seat = ref.toPlay();
        const player = session.players[seat];
        if (!player) {
          const view = ref.view(seat);
          send({ type: "turn", game: session.id, seat, legal: view.legal, view });
          return;
        }
        const tracker = ref.trackers[seat];
        let action;
        if (player.bundle) action = (await player.bundle.act(tracker)).action;
        else {
          const legal = tracker.legalActions();
          action = legal[Math.floor(player.random() * legal.length)];
        }
        if (!this.sessions.has(session.id)) return;
        send(this.#event(session, action));
      }
      session.finished = true;
      send({ type: "end", game: session.id, returns: ref.returns(), result: ref.result(), record: ref.record() });
    } finally {
      session.busy = false;
    }
  }

  /** @param {any} session @param {number|undefined|null} seat */
  #viewMessage(session, seat) {
    const ref = session.ref;
    const clients = session.clients;
    let s = seat;
    if (s === undefined || s === null) s = clients.includes(ref.toPlay()) ? ref.toPlay() : clients[0];
    if (!clients.includes(s)) {
      throw new ProtocolError("bad_field", `view: seat ${pyRepr(s ?? null)} is not a client seat of game ${session.id}; client seats: ${clients.map((/** @type {number} */ c) => `S${c}`).join(", ") || "no seat"}`, session.id);
    }
    return { type: "view", game: session.id, seat: s, view: ref.view(s) };
  }
}

/** A flag value as mazzo's `describe` writes it (`true`, `3`, `single_round`). @param {unknown} v */
function plain(v) {
  return v === undefined ? "(none)" : typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * A WebSocket-like connection to `server` for the web table (app.js uses `send`, `onopen`,
 * `onmessage`, `onclose`, `readyState`): it opens once `server` (or the promise of it) is
 * there, delivers each reply as a `{data}` event, and answers one message at a time, in order.
 * @param {LocalTableServer|Promise<LocalTableServer>} serverOrPromise
 */
export function createLocalTransport(serverOrPromise) {
  /** @type {LocalTableServer} */
  let server;
  /** @type {any} */
  const ws = {
    readyState: 0, // CONNECTING, OPEN = 1, CLOSED = 3 (WebSocket's values)
    onopen: null, onmessage: null, onclose: null, onerror: null,
    url: "local:",
    send(/** @type {string} */ text) {
      if (ws.readyState !== 1) throw new Error("the local table is not open");
      chain = chain.then(() => server.handle(text, (m) => {
        if (ws.readyState === 1 && ws.onmessage) ws.onmessage({ data: JSON.stringify(m) });
      }));
    },
    close() {
      if (ws.readyState === 3) return;
      ws.readyState = 3;
      setTimeout(() => ws.onclose && ws.onclose({ code: 1000, reason: "" }), 0);
    },
  };
  let chain = Promise.resolve();
  Promise.resolve(serverOrPromise).then((got) => {
    server = got;
    if (ws.readyState !== 0) return;
    ws.readyState = 1;
    if (ws.onopen) ws.onopen({});
  }, (err) => {
    console.error(err);
    ws.readyState = 3;
    if (ws.onclose) ws.onclose({ code: 1011, reason: String(err) });
  });
  return ws;
}
