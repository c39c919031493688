/* Drawing the table from App.M: the seats around the felt, the trick, your hand with the legal
   moves highlighted, the action bar, the side panels (the game's own, the tricks, the log), the
   setup form and the end of the deal with the record to download. */
"use strict";

const CARD_W = 64; // style.css .card width
const CARD_H = 96; // style.css .card height
const MIN_STRIP = 40; // the least of a card the hand shows before it takes another row
const ROW_STEP = 64; // from one row of the hand to the next (the rows overlap by a third of a card)
const MAX_ROWS = 4;
const PHONE_ROW_STEP = 36; // a phone's rows: each shows its cards' corners (rank and suit)
const PLACES = { 2: ["bottom", "top"], 3: ["bottom", "right", "left"], 4: ["bottom", "right", "top", "left"] };

const Render = {
  init() {
    document.getElementById("new-deal").addEventListener("click", () => Render.showSetup(true));
    document.getElementById("setup-form").addEventListener("submit", (e) => {
      e.preventDefault();
      const s = Render.readSetup();
      if (s) { Render.showSetup(false); deal(s); }
    });
    document.getElementById("setup-game").addEventListener("change", () => Render.setupSeats());
    document.getElementById("setup-seat").addEventListener("change", () => Render.setupSeats());
    // the seats follow the flags as they are typed, so the form has its final size before Deal
    // is pressed (a change on leaving the field would move the button under the pointer)
    document.getElementById("setup-flags").addEventListener("input", () => Render.setupSeats());
    document.getElementById("setup-flags").addEventListener("change", () => Render.setupSeats());
    // a bot the person picks is theirs to keep; one the form picked follows the table's rules
    document.getElementById("setup-seats").addEventListener("change", (e) => { delete e.target.dataset.auto; });
    document.getElementById("setup-cancel").addEventListener("click", () => Render.showSetup(false));
    document.body.addEventListener("click", (e) => {
      if (e.target.closest("#discard-confirm")) { Discards.confirm(); return; }
      if (e.target.closest("#discard-clear")) { Discards.reset(); Render.all(); return; }
      const el = e.target.closest("[data-label]");
      if (el && el.classList.contains("legal")) {
        if (!Discards.click(el.dataset.label)) move(el.dataset.label);
        return;
      }
      // a card not offered now: queued while the page waits, explained on the person's turn
      const card = e.target.closest("#hand .card[data-code]");
      if (card) Clicks.card(card.dataset.code);
    });
    document.body.addEventListener("keydown", (e) => {
      const el = e.target.closest && e.target.closest("[data-label]");
      if (el && el.classList.contains("legal") && (e.key === "Enter" || e.key === " ")) {
        e.preventDefault();
        if (!Discards.click(el.dataset.label)) move(el.dataset.label);
      }
    });
    document.getElementById("legend").innerHTML = Cards.legend();
    document.getElementById("speed").addEventListener("change", (e) => setSpeed(e.target.value));
    // the form's speed too takes effect at once (a person may open the form mid-deal, change
    // the speed and go back to the table)
    document.getElementById("setup-speed").addEventListener("change", (e) => setSpeed(e.target.value));
    let resizing = null; // the hand's rows follow the window's width
    window.addEventListener("resize", () => {
      clearTimeout(resizing);
      resizing = setTimeout(() => Render.all(), 60);
    });
  },

  /* ----- setup ----- */
  /** The setup form once the server said hello; ``note`` (if any) is shown in it. */
  setupForm(note) {
    const sel = document.getElementById("setup-game");
    const games = App.hello.games || {};
    sel.innerHTML = Object.entries(games)
      .map(([name, g]) => `<option value="${esc(name)}">${esc(g.title || name)}</option>`).join("");
    // the person's last settings (store.js), then what the address asks for
    const saved = Store.get(Store.SETTINGS) || {};
    if (saved.game && games[saved.game]) sel.value = saved.game;
    if (saved.flags && typeof saved.flags === "object" && Object.keys(saved.flags).length) {
      document.getElementById("setup-flags").value = JSON.stringify(saved.flags);
    }
    if (SPEEDS[saved.speed]) setSpeed(saved.speed);
    const want = PARAMS.get("game");
    if (want && games[want]) sel.value = want;
    const sp = PARAMS.get("speed");
    if (sp && SPEEDS[sp]) setSpeed(sp);
    if (PARAMS.get("seed")) document.getElementById("setup-seed").value = PARAMS.get("seed");
    if (Number.isInteger(saved.seat) && saved.game === sel.value) {
      document.getElementById("setup-seat").innerHTML = `<option value="${saved.seat}">S${saved.seat}</option>`;
    }
    Render.setupSeats();
    if (Array.isArray(saved.bots) && saved.game === sel.value) {
      const names = Render.botNames(sel.value);
      document.querySelectorAll("#setup-seats select[data-seat]").forEach((el) => {
        const b = saved.bots[Number(el.dataset.seat)];
        if (names.includes(b)) { el.value = b; delete el.dataset.auto; }
      });
    }
    document.body.dataset.state = "setup";
    Render.showSetup(true, note || "");
  },

  botNames(gameName) {
    const list = (App.hello.bots || {})[gameName] || [];
    return list.map((b) => (typeof b === "string" ? b : b.name));
  },

  /** The number of seats of a game under the flags typed in the form. */
  seatCount(name) {
    const info = (App.hello.games || {})[name] || {};
    const G = Games[name] || Games.generic;
    let flags = {};
    try { flags = JSON.parse(document.getElementById("setup-flags").value.trim() || "{}"); } catch (err) { flags = {}; }
    return G.seatsFor ? G.seatsFor(flags || {}, info.seats || 4) : info.seats || 4;
  },

  /** The bot a newcomer should meet at a table of ``flags``: the trained bot where its rules
   * are the table's, else the heuristic, else the first. */
  preferredBot(name, bots, flags) {
    const info = ((App.botInfo || {})[name] || []).find((b) => b.name === "bot");
    const fits = info && (!info.rules || Object.entries(flags || {}).every(([k, v]) => JSON.stringify(info.rules[k]) === JSON.stringify(v)));
    if (bots.includes("bot") && (fits || !App.botInfo)) return "bot";
    return bots.includes("heuristic") ? "heuristic" : bots[0];
  },

  /** One line per bot saying what it is, for a person choosing opponents (no hover needed). */
  botLegend(name, bots) {
    const plain = {
      random: "plays any legal card: to learn the rules",
      heuristic: "a card player's simple rules: an easy opponent",
      bot: "the trained network: the strongest opponent here",
    };
    const info = (App.botInfo || {})[name] || [];
    return bots.map((b) => {
      const known = info.find((x) => x.name === b);
      const rules = known && known.rules ? " (trained for its rules only)" : "";
      return `<li><b>${esc(b)}</b>: ${esc(plain[b] || (known ? known.help : ""))}${b === "bot" ? esc(rules) : ""}</li>`;
    }).join("");
  },

  setupSeats(refresh) {
    const name = document.getElementById("setup-game").value;
    const n = Render.seatCount(name);
    const seatSel = document.getElementById("setup-seat");
    const seat = Math.min(Number(seatSel.value || 0), n - 1);
    seatSel.innerHTML = Array.from({ length: n }, (_, s) => `<option value="${s}">S${s}</option>`).join("");
    seatSel.value = String(seat);
    const bots = Render.botNames(name);
    let flags = {};
    try { flags = JSON.parse(document.getElementById("setup-flags").value.trim() || "{}"); } catch (err) { flags = {}; }
    const pref = PARAMS.get("bot") || Render.preferredBot(name, bots, flags);
    document.getElementById("setup-bots-help").innerHTML = Render.botLegend(name, bots);
    const G = Games[name] || Games.generic;
    document.getElementById("setup-help").textContent = (typeof G.help === "function" ? G.help(n) : G.help) || "";
    const form = document.getElementById("setup-seats");
    const key = `${name}/${n}/${seat}/${bots.join(",")}/${pref}`;
    if (form.dataset.key === key && !refresh) return; // the same seats: keep the bots chosen
    const chosen = {};
    form.querySelectorAll("select[data-seat]").forEach((el) => { if (!el.dataset.auto) chosen[el.dataset.seat] = el.value; });
    form.dataset.key = key;
    // a choice stays, but the trained bot where the table's rules are not its own
    const keep = (b) => bots.includes(b) && !(b === "bot" && pref !== "bot" && App.botInfo);
    const rows = [];
    for (let s = 0; s < n; s++) {
      if (s === seat) { rows.push(`<div class="seat-row"><span>S${s}</span><b>You</b></div>`); continue; }
      const role = G.setupRole ? G.setupRole(s, seat, n) : "";
      rows.push(`<div class="seat-row"><span>S${s}${role ? " · " + role : ""}</span>` +
        `<select data-seat="${s}"${keep(chosen[s]) ? "" : ' data-auto="1"'}>${bots.map((b) => `<option${b === (keep(chosen[s]) ? chosen[s] : pref) ? " selected" : ""}>${esc(b)}</option>`).join("")}` +
        `</select></div>`);
    }
    form.innerHTML = rows.join("");
  },

  readSetup() {
    Render.setupSeats(); // the seats of the flags as they are now
    const game = document.getElementById("setup-game").value;
    const seat = Number(document.getElementById("setup-seat").value);
    const n = Render.seatCount(game);
    const bots = [];
    for (let s = 0; s < n; s++) {
      const el = document.querySelector(`#setup-seats select[data-seat="${s}"]`);
      bots.push(el ? el.value : "client");
    }
    const seedText = document.getElementById("setup-seed").value.trim();
    const flagsText = document.getElementById("setup-flags").value.trim();
    let flags = {};
    if (flagsText) {
      try { flags = JSON.parse(flagsText); } catch (err) { flags = null; }
      if (flags === null || typeof flags !== "object" || Array.isArray(flags)) {
        Render.setupError(`Rule flags must be a JSON object, e.g. {"players": 4}; got ${flagsText}`);
        return null;
      }
    }
    const seed = seedText === "" ? null : Number(seedText);
    if (seed !== null && !(Number.isInteger(seed) && seed >= 0)) {
      Render.setupError(`The seed must be an integer >= 0 (or empty for a random deal); got ${seedText}`);
      return null;
    }
    return { game, seat, bots, seed, flags, speed: document.getElementById("setup-speed").value };
  },

  /** Show or hide the setup form; ``error`` (shown in the form) says why it is back. */
  showSetup(on, error) {
    Render.setupError(on ? error || "" : "");
    document.getElementById("setup").hidden = !on;
    document.getElementById("setup-cancel").hidden = !App.M; // nothing to go back to before a deal
    if (on && App.hello && !App.M) document.body.dataset.state = "setup";
  },

  setupError(text) {
    const el = document.getElementById("setup-error");
    el.textContent = text;
    el.hidden = !text;
  },

  /* ----- the table ----- */
  all() {
    const M = App.M;
    if (!M) return;
    const G = game();
    document.getElementById("game-title").textContent = G.title || M.game;
    Render.seats(M, G);
    Render.trick(M, G);
    Render.hand(M, G);
    Render.actions(M, G);
    Render.panels(M, G);
    Render.end(M, G);
    const mine = M.legal.length > 0;
    document.body.dataset.state = M.end ? "end" : mine ? "myturn" : "playing";
    document.body.dataset.turn = String(M.turnNo);
    document.body.dataset.legal = JSON.stringify(M.legal);
  },

  place(M, s) { return PLACES[M.n][(s - M.me + M.n) % M.n]; },

  seats(M, G) {
    const onTurn = M.end ? -1 : M.legal.length ? M.me : (M.view && M.view.to_play !== undefined ? -2 : -1);
    const html = M.seats.map((who, s) => {
      const place = Render.place(M, s);
      const badges = (G.badges ? G.badges(M, s) : []).map((b) => `<span class="badge ${b.cls || ""}">${esc(b.text)}</span>`);
      if (s === M.dealer) badges.unshift('<span class="badge dealer">Dealer</span>');
      const name = s === M.me ? "You" : `${G.seatRole ? G.seatRole(M, s) : "Bot"} · ${esc(who)}`;
      const count = M.counts[s];
      const backs = s === M.me || !count ? "" :
        `<div class="backs">${Array.from({ length: Math.min(count, 12) }, () => Cards.back("tiny")).join("")}` +
        `<span class="count">${count}</span></div>`;
      const last = M.last[s] ? `<div class="bubble">${M.last[s]}</div>` : "";
      const ret = M.end ? `<div class="seat-return ${M.end.returns[s] >= 0 ? "pos" : "neg"}">${signed(M.end.returns[s])}</div>` : "";
      return `<div class="seat ${place}${s === onTurn ? " on-turn" : ""}${s === M.me ? " me" : ""}" data-seat="${s}">` +
        `<div class="seat-name"><b>S${s}</b> ${name}</div><div class="badges">${badges.join("")}</div>` +
        `${backs}${last}${ret}</div>`;
    });
    document.getElementById("seats").innerHTML = html.join("");
  },

  trick(M, G) {
    // the last trick stays on the felt until the next card falls (at any speed: at instant the
    // bots' cards would otherwise never show)
    const lastDone = M.tricks.length ? M.tricks[M.tricks.length - 1] : null;
    const keep = !M.pending && !M.trick.length && lastDone && !M.end;
    const t = M.pending || (keep ? lastDone : { cards: M.trick, winner: null });
    const used = new Set();
    // a trick in play: who led it and who is winning it so far
    const open = !M.pending && !keep && t.cards.length > 0;
    const ahead = open && G.trickWinner ? G.trickWinner(M, t.cards) : null;
    const html = t.cards.map((p, i) => {
      const place = Render.place(M, p.seat);
      const again = used.has(place) ? " again" : ""; // a due, one seat plays two positions
      used.add(place);
      const win = t.winner === p.seat ? " winner" : "";
      const tags = open ? (i === 0 ? '<span class="tag led">led</span>' : "") +
        (ahead === p.seat && i === t.cards.findIndex((q) => q.seat === ahead) ? '<span class="tag ahead">winning</span>' : "") : "";
      return `<div class="slot ${place}${again}${win}${ahead === p.seat && open ? " ahead" : ""}${keep ? " previous" : ""}" ` +
        `data-seat="${p.seat}" style="z-index:${i + 1}">${Cards.html(p.card, { size: "" })}${tags}</div>`;
    });
    let note = "";
    const done = M.pending || (keep ? lastDone : null);
    if (done && done.winner !== null && done.winner !== undefined) {
      const who = keep ? `${seatLabel(done.winner)} took` : seatLabel(done.winner) === "You" ? "You take" : `S${done.winner} takes`;
      note = `<div class="trick-note">${who} the trick</div>`;
    } else if (!t.cards.length && !M.end && G.centerNote) {
      const text = G.centerNote(M);
      if (text) note = `<div class="trick-note">${text}</div>`;
    }
    document.getElementById("trick").innerHTML = html.join("") + note;
    Render.lastTrick(M, done ? null : lastDone);
    const sl = document.getElementById("scoreline");
    const score = G.scoreline ? G.scoreline(M) : "";
    sl.hidden = !score;
    sl.innerHTML = score || "";
  },

  /** The trick before the one on the felt, small in a corner of the felt. */
  lastTrick(M, t) {
    const el = document.getElementById("last-trick");
    if (!t || M.end) { el.hidden = true; el.innerHTML = ""; return; }
    const who = t.winner === null || t.winner === undefined ? "" : ` → ${seatLabel(t.winner)}`;
    el.hidden = false;
    el.innerHTML = `<div>Last trick${who}</div><div class="cards">` +
      t.cards.map((p) => `<span class="tp${p.seat === t.winner ? " winner" : ""}"><i>${seatLabel(p.seat)}</i>` +
        `${Cards.html(p.card, { size: "tiny" })}</span>`).join("") + "</div>";
  },

  handLabels(M) {
    const byCard = {};
    const others = [];
    for (const label of M.legal) {
      const sp = label.indexOf(" ");
      const arg = sp < 0 ? null : label.slice(sp + 1);
      if (arg && M.hand.includes(arg) && !byCard[arg]) byCard[arg] = label;
      else others.push(label);
    }
    return { byCard, others };
  },

  hand(M, G) {
    const { byCard } = Render.handLabels(M);
    const sorted = M.hand.slice().sort((a, b) => G.sortKey(a) - G.sortKey(b));
    const cardTurn = Object.keys(byCard).length > 0; // dim the others only when cards are the choice
    const html = sorted.map((c) => {
      const label = byCard[c];
      const mark = G.handMark ? G.handMark(M, c) : "";
      const queued = Clicks.queued.includes(c) ? " queued" : "";
      const picked = Discards.picked.includes(c) ? " picked" : "";
      const badge = G.handBadge ? G.handBadge(M, c) : ""; // shown whatever the turn
      const extra = (label ? "legal" : cardTurn ? "dim" : mark) + queued + picked + (badge ? ` ${badge}` : "");
      const attrs = label ? `data-label="${esc(label)}" role="button" tabindex="0"` : "";
      return Cards.html(c, { extra, attrs });
    });
    const el = document.getElementById("hand");
    // one row while each card shows at least MIN_STRIP px of itself, else as few overlapping rows
    // as that needs (a dealer may hold 25 before discarding; a phone holds 7 a row)
    const n = sorted.length;
    const room = el.clientWidth - 16;
    const per = (rows) => Math.ceil(n / rows);
    const strip = (k) => (k < 2 ? CARD_W : (room - CARD_W) / (k - 1));
    let rows = 1;
    while (rows < MAX_ROWS && strip(per(rows)) < MIN_STRIP) rows += 1;
    const k = Math.max(1, per(rows));
    const out = [];
    for (let i = 0; i < n; i += k) out.push(`<div class="hand-row">${html.slice(i, i + k).join("")}</div>`);
    el.innerHTML = out.join("");
    const gap = k < 2 ? 0 : Math.min(4, strip(k) - CARD_W);
    el.style.setProperty("--gap", `${Math.floor(gap)}px`);
    const used = Math.max(1, out.length);
    // a phone's three rows (Minchiate's 21 cards) overlap more, so the last row fits the screen
    const step = used > 2 && window.matchMedia("(max-width: 899px)").matches ? PHONE_ROW_STEP : ROW_STEP;
    el.style.setProperty("--row-step", `${step}px`);
    el.style.height = `${16 + (used - 1) * step + CARD_H + 6}px`;
    el.dataset.rows = String(used);
  },

  actions(M, G) {
    const { others, byCard } = Render.handLabels(M);
    const bar = document.getElementById("action-bar");
    let prompt = "";
    if (M.end) prompt = "The deal is over.";
    else if (!App.connected) {
      prompt = Store.deal()
        ? "Disconnected from the server: Reconnect takes the deal up where it stopped."
        : "Disconnected from the server: Reconnect, then deal a new one.";
    }
    else if (M.legal.length) prompt = G.prompt ? G.prompt(M) : "Your turn";
    else if (M.sentMove) prompt = "…";
    else prompt = (G.waitNote && G.waitNote(M)) || "Waiting for the other players…";
    const order = G.orderButtons ? G.orderButtons(M, others) : others;
    const buttons = order.map((label) => {
      const inner = G.buttonHtml ? G.buttonHtml(M, label) : esc(label);
      const tip = G.buttonTitle ? G.buttonTitle(M, label) : "";
      return `<button class="legal act" data-label="${esc(label)}"${tip ? ` title="${esc(tip)}"` : ""}>${inner}</button>`;
    });
    const picking = Discards.due(M) > 1; // the discards' own line says what to do
    const hint = Object.keys(byCard).length && !picking ? '<span class="hint">Click a highlighted card.</span>' : "";
    bar.innerHTML = `<div class="prompt${M.legal.length ? " mine" : ""}">${prompt} ${hint}${Clicks.note(M)}${Discards.note(M)}</div>` +
      `<div class="buttons">${buttons.join("")}</div>`;
  },

  panels(M, G) {
    const out = (G.panels ? G.panels(M) : []).map((p) => `<section><h3>${p.title}</h3>${p.html}</section>`);
    // every trick, the newest first (the section scrolls, on a phone too)
    const last = M.tricks.slice().reverse().map((t) => {
      const k = M.tricks.indexOf(t) + 1;
      const who = t.winner === null || t.winner === undefined ? "" : ` → ${seatLabel(t.winner)}`;
      return `<div class="trick-row"><span class="k">${k}</span>` +
        `${t.cards.map((p) => `<span class="tp"><i>${seatLabel(p.seat)}</i>${Cards.html(p.card, { size: "tiny" })}</span>`).join("")}` +
        `<span class="who">${who}</span></div>`;
    });
    out.push(`<section class="tricks"><h3>Tricks (${M.tricks.length} done)</h3>${last.join("") || '<span class="none">none yet</span>'}</section>`);
    out.push(`<section class="log"><h3>Log</h3><div id="log-lines">${M.log.slice(-40).map((l) => `<div>${l}</div>`).join("")}</div></section>`);
    const el = document.getElementById("panels");
    el.innerHTML = out.join("");
    // a short panel drops the oldest tricks shown (whole rows) rather than cut one in half
    const tricks = el.querySelector("section.tricks");
    const rows = tricks.querySelectorAll(".trick-row");
    for (let i = rows.length - 1; i > 0 && tricks.scrollHeight > tricks.clientHeight + 1; i--) rows[i].style.display = "none";
    const lines = document.getElementById("log-lines");
    lines.scrollTop = lines.scrollHeight;
    // a screen reader hears each new line of the log (the bots' plays, the tricks' winners)
    const said = document.getElementById("announce");
    const latest = M.log.length ? M.log[M.log.length - 1] : "";
    if (said && said.dataset.count !== String(M.log.length)) {
      said.dataset.count = String(M.log.length);
      const tmp = document.createElement("div");
      tmp.innerHTML = latest;
      said.textContent = tmp.textContent;
    }
  },

  end(M, G) {
    const box = document.getElementById("end");
    if (!M.end) { box.hidden = true; return; }
    box.hidden = false;
    if (box.dataset.gid === M.gid) return; // drawn once per deal (keeps the download link)
    box.dataset.gid = M.gid;
    const rec = JSON.stringify(M.end.record, null, 1);
    const url = URL.createObjectURL(new Blob([rec], { type: "application/json" }));
    const rows = M.end.returns.map((r, s) =>
      `<tr class="${s === M.me ? "me" : ""}"><td>S${s}</td><td>${s === M.me ? "You" : esc(M.seats[s])}</td>` +
      `<td class="${r > 0 ? "pos" : r < 0 ? "neg" : ""}">${signed(r)}</td></tr>`);
    box.innerHTML = `<h2>${G.endTitle ? G.endTitle(M) : "The deal is over"}</h2><div class="end-grid">` +
      `<div class="end-body">${G.endHtml ? G.endHtml(M, M.end.result) : ""}</div><div class="end-side">` +
      `<table class="returns"><tr><th>Seat</th><th>Player</th><th>${esc(G.unit || "Score")}</th></tr>${rows.join("")}</table>` +
      `<a id="download-record" href="${url}" download="${esc(M.game)}-deal.json">Download the deal<br>(D.3 record, JSON)</a>` +
      `<button id="again">New deal</button></div></div>`;
    document.getElementById("again").addEventListener("click", () => Render.showSetup(true));
  },
};
