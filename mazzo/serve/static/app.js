/* The web table: speaks mazzo-bot/1 table sessions over the WebSocket /ws, keeps a model of the
   deal from the pushes (events, turns, views, the end), and draws it with render.js and the
   game's own renderer (games/<name>.js registers itself in Games). */
"use strict";

const Games = {};
const PARAMS = new URLSearchParams(location.search);
const SPEEDS = { slow: [900, 1800], normal: [450, 1100], fast: [150, 500], instant: [0, 0] };

const App = {
  ws: null, hello: null, nextId: 1, queue: [], busy: false, M: null, settings: null,
  openId: null, keepAlive: null, connected: false, timer: null,
  record: null, // the deal kept in the browser's storage (store.js)
  resume: null, // while a kept deal is replayed: {moves, next}
};

/** The speed now: the header's control (the setup form's choice when a deal starts). */
function speed() {
  const sel = document.getElementById("speed");
  return sel && SPEEDS[sel.value] ? sel.value : "normal";
}

/** Set the speed from either control; it takes effect at once, mid-deal too: a push on show
    waits no longer than the new speed asks. */
function setSpeed(value) {
  if (!SPEEDS[value]) return;
  document.getElementById("speed").value = value;
  document.getElementById("setup-speed").value = value;
  if (App.settings) App.settings.speed = value;
  Store.saveSpeed(value);
  if (App.busy) {
    clearTimeout(App.timer);
    App.busy = false;
    pump();
  }
}

/* ---------- the connection ---------- */

/** The WebSocket /ws of the server; a page that defines ``window.MazzoTransport`` (a function
    returning an object with a WebSocket's ``send``, ``readyState``, ``onopen``, ``onmessage``
    and ``onclose``) talks to that instead: the static table of js/table/ referees in the page. */
function connect() {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = typeof window.MazzoTransport === "function" ? window.MazzoTransport() : new WebSocket(`${proto}//${location.host}/ws`);
  App.ws = ws;
  ws.onopen = () => {
    App.connected = true;
    hideNotice();
    send({ type: "hello", protocol: "mazzo-bot/1" });
    // the server closes a connection silent for its idle timeout (300 s by default): a person
    // may think longer, so the page says something harmless every 100 s
    clearInterval(App.keepAlive);
    App.keepAlive = setInterval(() => { if (ws.readyState === WebSocket.OPEN) send({ type: "bots" }); }, 100000);
  };
  ws.onmessage = (e) => onMessage(JSON.parse(e.data));
  ws.onclose = () => { if (App.ws === ws) onDisconnect(); };
}

/** The server went away (stopped, restarted, the network): say so, stop offering moves and
    offer to connect again. Nothing of a deal in progress survives on the server. */
function onDisconnect() {
  const was = App.connected;
  App.connected = false;
  clearInterval(App.keepAlive);
  const M = App.M;
  const midDeal = M && !M.end;
  if (M) { M.legal = []; M.sentMove = null; App.queue = []; Render.all(); }
  document.body.dataset.state = "closed";
  const what = !was ? "Cannot reach the mazzo server." :
    midDeal ? "The connection to the server was lost in the middle of the deal." : "The connection to the server was lost.";
  const then = Store.deal() ? "reconnect to take the deal up where it stopped" : "reconnect to start a new deal";
  showNotice(`${what} Check that the server (mazzo serve --web) is running, then ${then}.`, "error", true);
}

function reconnect() {
  showNotice("Connecting to the server…", "", false);
  App.hello = null;
  connect();
}

function send(msg) {
  msg.id = App.nextId++;
  if (App.ws && App.ws.readyState === WebSocket.CONNECTING) {
    showNotice("Still connecting to the server: try again in a moment.", "", false);
    return msg.id;
  }
  if (!App.ws || App.ws.readyState !== WebSocket.OPEN) { onDisconnect(); return msg.id; }
  App.ws.send(JSON.stringify(msg));
  return msg.id;
}

function onMessage(msg) {
  if (msg.type === "hello") {
    App.hello = msg;
    send({ type: "bots" }); // what each bot is and the rules it was trained for (the setup form)
    const kept = Store.deal();
    if (kept) { resume(kept); return; }
    const lost = App.M && !App.M.end;
    if (lost) { App.M = null; App.queue = []; }
    Render.setupForm(lost ? "Connected again. The server no longer has the deal you were playing: deal a new one." : "");
    return;
  }
  if (msg.type === "bots") {
    App.botInfo = msg.bots || {};
    if (document.body.dataset.state === "setup") Render.setupSeats(true);
    return;
  }
  if (msg.type === "error") { onError(msg); return; }
  if (msg.type === "opened") { startModel(msg); return; }
  if (msg.type === "closed" || msg.type === "bots") return;
  if (!App.M || msg.game !== App.M.gid) return; // a push of a deal we have left
  App.queue.push(msg);
  pump();
}

function onError(msg) {
  if (Clicks.answer(msg)) return; // the reason a clicked card may not be played
  const text = `The server refused (${msg.code}): ${msg.message}`;
  if (msg.id !== undefined && msg.id === App.openId) { // the deal could not be opened
    App.openId = null;
    if (App.resume) { resumeFailed(text); return; }
    Store.dropDeal();
    App.record = null;
    Render.showSetup(true, text);
    return;
  }
  if (App.resume) { resumeFailed(text); return; }
  showNotice(text, "error", false);
  const M = App.M;
  if (M && M.sentMove && (msg.code === "illegal" || msg.code === "not_your_turn")) {
    M.legal = M.sentMove.legal; // the state is unchanged: offer the same moves again
    M.sentMove = null;
    Render.all();
  }
}

/* ---------- the deal's model ---------- */

function startModel(msg) {
  App.openId = null;
  hideNotice();
  const seats = msg.seats;
  const me = seats.indexOf("client");
  App.queue = [];
  Clicks.reset();
  App.M = {
    game: msg.name, gid: msg.game, flags: msg.flags || {}, seats, me, n: seats.length,
    dealer: msg.dealer, view: null, legal: [], turnNo: 0, hand: [], counts: seats.map(() => null),
    trick: [], pending: null, tricks: [], log: [], last: seats.map(() => ""), end: null,
    sentMove: null, step: 0, g: {},
  };
  const G = game();
  if (G.init) G.init(App.M);
  document.body.dataset.state = "playing";
  Render.all();
}

function game() { return Games[App.M.game] || Games.generic; }

/** Apply the queued pushes, each shown for the time apply() asks; the ones to be shown for no
    time (all of them at the instant speed) are drawn together. */
function pump() {
  if (App.busy || !App.queue.length) return;
  let wait = 0;
  while (App.queue.length && wait === 0) wait = apply(App.queue.shift());
  Render.all();
  if (wait === 0) return;
  App.busy = true;
  App.timer = setTimeout(() => { App.busy = false; pump(); }, wait);
}

/** Apply one push to the model; returns how long to show the result (ms). */
function apply(msg) {
  const M = App.M;
  const [delay, pause] = App.resume ? [0, 0] : SPEEDS[speed()];
  if (msg.type === "event") return applyEvent(M, msg) ? pause : delay;
  if (msg.type === "turn") {
    M.legal = msg.legal;
    M.turnNo += 1;
    takeView(M, msg.view);
    if (App.resume) replayNext(M);
    else Clicks.onTurn(M);
    return 0;
  }
  if (msg.type === "view") { takeView(M, msg.view); return 0; }
  if (msg.type === "end") {
    M.end = msg;
    Store.dropDeal();
    if (App.resume) resumeDone();
    M.legal = [];
    if (M.pending) finishTrick(M, game().lastWinner ? game().lastWinner(M, msg.result) : null);
    if (game().onEnd) game().onEnd(M, msg);
    M.log.push(`The deal is over: ${msg.returns.map((r, s) => `${seatLabel(s)} ${signed(r)}`).join(", ")}.`);
    document.body.dataset.state = "end";
    return 0;
  }
  return 0;
}

/** An event; returns true when it completed a trick (shown a little longer). */
function applyEvent(M, ev) {
  const G = game();
  M.step = ev.step ?? M.step + 1;
  if (ev.seat === M.me) M.sentMove = null; // the move was taken: now the others play
  let text = null;
  if (ev.verb === "play") {
    if (M.pending) finishTrick(M, ev.seat); // the winner of a trick leads the next one
    M.trick.push({ seat: ev.seat, card: ev.arg });
    if (ev.seat === M.me) M.hand = M.hand.filter((c) => c !== ev.arg);
    if (M.counts[ev.seat] !== null) M.counts[ev.seat] -= 1;
    M.last[ev.seat] = "";
    text = act(ev.seat, `play ${Cards.chip(ev.arg)}`);
  } else if (ev.verb === "discard") {
    if (ev.seat === M.me && ev.arg) M.hand = M.hand.filter((c) => c !== ev.arg);
    if (M.counts[ev.seat] !== null) M.counts[ev.seat] -= 1;
    text = act(ev.seat, `discard ${ev.arg ? Cards.chip(ev.arg) : "a card"}`);
    M.last[ev.seat] = "Discards";
  }
  const own = G.onEvent ? G.onEvent(M, ev) : null;
  if (own) text = own;
  if (!text) text = `${seatLabel(ev.seat)}: ${ev.verb} ${ev.arg === null ? "(hidden)" : ev.arg}`;
  M.log.push(text);
  if (ev.verb === "play" && M.trick.length === G.trickSize(M)) {
    M.pending = { leader: M.trick[0].seat, cards: M.trick, winner: null };
    if (G.trickWinner) M.pending.winner = G.trickWinner(M, M.trick);
    return true;
  }
  return false;
}

function finishTrick(M, winner) {
  const t = M.pending;
  if (winner !== null && winner !== undefined) t.winner = winner; // the next leader settles it
  M.tricks.push(t);
  M.pending = null;
  M.trick = [];
}

function takeView(M, view) {
  if (!view) return;
  M.view = view;
  // the first lead: the bubbles of the auction, the exchanges and the declarations are done
  if (view.phase === "play" && !M.tricks.length && !M.trick.length && !M.pending) M.last = M.seats.map(() => "");
  if (Array.isArray(view.hand)) M.hand = view.hand.slice();
  if (Array.isArray(view.hand_sizes) && view.hand_sizes.length === M.n) M.counts = view.hand_sizes.slice();
  // The view is the state now (every earlier push is applied): it settles the tricks.
  if (Array.isArray(view.tricks) && Array.isArray(view.trick)) {
    M.tricks = view.tricks.map((t) => ({ leader: t.cards[0].seat, cards: t.cards, winner: t.winner }));
    M.trick = view.trick.slice();
    M.pending = null;
  }
  if (game().onView) game().onView(M, view);
}

/* ---------- moves ---------- */

function move(label) {
  const M = App.M;
  if (!M || !M.legal.includes(label)) return;
  M.sentMove = { label, legal: M.legal };
  M.legal = [];
  Clicks.why = null;
  if (App.record) Store.addMove(App.record, label);
  send({ type: "move", game: M.gid, action: label });
  Render.all();
}

/* ---------- a kept deal taken up again (store.js) ---------- */

/** Open the kept deal again; its turns then replay the person's moves (replayNext). */
function resume(rec) {
  App.M = null;
  App.queue = [];
  App.record = rec;
  App.resume = { moves: rec.moves.slice(), next: 0 };
  const saved = Store.get(Store.SETTINGS);
  if (saved) { App.settings = saved; if (SPEEDS[saved.speed]) setSpeed(saved.speed); }
  Render.showSetup(false);
  showNotice("Taking up the deal you were playing…", "", false);
  App.openId = send(Object.assign({}, rec.open));
}

/** A turn of the replay: send the person's next kept move, or end the replay at the turn the
    person had reached. */
function replayNext(M) {
  const R = App.resume;
  if (R.next >= R.moves.length) { resumeDone(); return; }
  const label = R.moves[R.next];
  if (!M.legal.includes(label)) {
    resumeFailed(`your move ${label} (move ${R.next + 1}) is not legal there: the server deals or plays differently now`);
    return;
  }
  R.next += 1;
  M.sentMove = { label, legal: M.legal };
  M.legal = [];
  send({ type: "move", game: M.gid, action: label });
}

function resumeDone() {
  const n = App.resume.moves.length;
  App.resume = null;
  showNotice(`The deal is back as you left it (${n} ${n === 1 ? "move" : "moves"} of yours replayed).`, "", false);
}

function resumeFailed(why) {
  App.resume = null;
  App.record = null;
  Store.dropDeal();
  if (App.M && !App.M.end) send({ type: "close", game: App.M.gid });
  App.M = null;
  App.queue = [];
  hideNotice();
  Render.setupForm(`The deal you were playing could not be taken up again (${why}): deal a new one.`);
}

function deal(settings) {
  App.settings = settings;
  App.resume = null;
  setSpeed(settings.speed);
  Store.saveSettings(settings);
  if (App.M && !App.M.end) send({ type: "close", game: App.M.gid });
  const seats = [];
  for (let s = 0; s < settings.bots.length; s++) seats.push(s === settings.seat ? "client" : settings.bots[s]);
  // always a seed (a random one unless the person typed one): the kept deal can be dealt again
  const seed = settings.seed !== null ? settings.seed : Math.floor(Math.random() * 2 ** 31);
  const msg = { type: "open", mode: "table", game: settings.game, flags: settings.flags, seats, seed };
  App.record = Store.startDeal(Object.assign({}, msg));
  App.M = null;
  App.openId = send(msg);
}

/* ---------- small helpers ---------- */

/** "You play" / "S1 plays": a seat and a verb phrase in the right person. */
function act(s, phrase) {
  if (App.M && s === App.M.me) return `You ${phrase}`;
  const sp = phrase.indexOf(" ");
  const verb = sp < 0 ? phrase : phrase.slice(0, sp);
  const rest = sp < 0 ? "" : phrase.slice(sp);
  return `S${s} ${/(s|sh|ch|x)$/.test(verb) ? verb + "es" : verb + "s"}${rest}`;
}

function seatLabel(s) {
  const M = App.M;
  if (M && s === M.me) return "You";
  return `S${s}`;
}

function signed(x) { return x > 0 ? `+${x}` : `${x}`; }

/** The notice under the header: an error or a state of the connection, with a button to close
    it or to reconnect. */
function showNotice(text, kind, offerReconnect) {
  const el = document.getElementById("notice");
  el.className = kind || "";
  el.hidden = false;
  el.innerHTML = `<span class="text">${esc(text)}</span>` +
    (offerReconnect ? '<button id="reconnect" type="button">Reconnect</button>' :
      '<button id="notice-close" type="button" aria-label="close" title="close">×</button>');
  const btn = document.getElementById(offerReconnect ? "reconnect" : "notice-close");
  btn.addEventListener("click", offerReconnect ? reconnect : hideNotice);
}

function hideNotice() {
  const el = document.getElementById("notice");
  el.hidden = true;
  el.innerHTML = "";
}

function esc(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
}

window.addEventListener("DOMContentLoaded", () => {
  Render.init();
  connect();
});
