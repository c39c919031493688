/* Minchiate at the web table (RULES.md part A): partners sit opposite (team A = S0 and S2), the
   cutter's and the dealer's robbing, the face-up cards, discards to the Fola, declarations of
   combinations, 21 tricks of four cards, the count and the resti. */
"use strict";

(() => {
  const SUIT_ORDER = "cdsb";
  const COMBO_NAMES = ["low run", "high run", "1-13-28", "diecine", "1-40-M", "kings"];
  const U = GameUtil;

  // M-2.2: high to low within a suit (courts first; the pips run opposite ways)
  const ROUND = ["K", "Q", "N", "J", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10"];
  const LONG = ["K", "Q", "N", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"];
  const team = (s) => (s % 2 === 0 ? "A" : "B");
  const comboName = (k) => (typeof k === "number" ? COMBO_NAMES[k] || `combination ${k}` : k);

  // a hand in the game's order, as the terminal shows it: trumps high to low, the Matto, then
  // each suit (c d s b) high to low as its cards take tricks (M-2.2: 9 ranks below 5 in cups
  // and coins)
  function sortKey(code) {
    const p = Cards.parse(code);
    if (!p) return 999;
    if (p.kind === "trump") return 40 - p.n;
    if (p.kind === "matto") return 40;
    const order = p.suit === "c" || p.suit === "d" ? ROUND : LONG;
    return 41 + 14 * SUIT_ORDER.indexOf(p.suit) + order.indexOf(p.rank);
  }

  /** A combination in any of the shapes a view or a result may give: {kind, cards|members, ...}. */
  function combo(c) {
    if (!c) return "";
    const cards = U.list(c.cards || c.members);
    const score = c.score !== undefined ? c.score : (c.points || 0) + (c.bonus || 0);
    return `${comboName(c.combo !== undefined ? c.combo : c.kind)} ${Cards.row(cards)} <b>${score} ${score === 1 ? "point" : "points"}</b>`;
  }

  function declarations(list) {
    return U.list(list).map((d) => `<div>${seatLabel(d.seat)}: ${combo(d)}</div>`).join("");
  }

  function scoreLine(D, R) {
    if (typeof D !== "number") return null;
    const lead = D > 0 ? `team A ahead by ${D}` : D < 0 ? `team B ahead by ${-D}` : "level";
    return `D = ${D} (${lead}); resti R = ${R ?? 0}`;
  }

  const CAUSES = {
    cutter_rob: "the cutter's robbing", faceup: "a face-up 21st card", dealer_rob: "the dealer's robbing",
    dealer_take: "the dealer's take from the Fola", declare: "a declaration", capture: "captured counters",
    matto_death: "the Matto's payment", final: "the end count",
  };
  // the causes grouped as the settlement reads them (M-14.5's order)
  const GROUPS = [
    ["Robbing and face-up cards", ["cutter_rob", "faceup", "dealer_rob", "dealer_take"]],
    ["Declarations", ["declare"]],
    ["Captured counters", ["capture"]],
    ["The Matto's payment", ["matto_death"]],
  ];
  const teamOf = (e) => (typeof e.team === "number" ? "AB"[e.team] : e.team);

  /** The events' points per team: {A, B}; ``causes`` (if given) keeps only those. */
  function sums(events, causes) {
    const out = { A: 0, B: 0 };
    for (const e of events) if (!causes || causes.includes(e.cause)) out[teamOf(e)] += e.points;
    return out;
  }

  function eventText(e) {
    const who = e.seat >= 0 ? ` (${seatLabel(e.seat)})` : "";
    return `${U.cap(CAUSES[e.cause] || e.cause)}${e.trick ? `, trick ${e.trick}` : ""}${who}`;
  }

  /** The running score of the panel: each team's points so far, then every event, newest
      first (the list scrolls). */
  function runningScore(events) {
    const evs = U.list(events).filter((e) => e.cause !== "final");
    if (!evs.length) return "";
    const t = sums(evs);
    const all = evs.slice().reverse().map((e) =>
      `<div class="ev">Team ${teamOf(e)} +${e.points} <i>${eventText(e)}</i></div>`).join("");
    return `<div class="so-far" data-a="${t.A}" data-b="${t.B}">Scored so far: team A ${t.A} · team B ${t.B}</div>` +
      `<div class="events">${all}</div>`;
  }

  /** The count as RULES.md settles it (M-12 to M-14), every line with its numbers in data
      attributes: each scoring event of the deal, their sums by cause, the resti banked as the
      deal went (every full unit of lead, M-14.2), the lead carried to the end, the end count
      T_A - T_B (M-13.2), the end rounding (M-14.3) and the net resti. */
  function ledger(M, r) {
    const unit = Number(M.flags.resti_unit) || 60;
    const evs = U.list(r.events).filter((e) => e.cause !== "final");
    const rows = evs.map((e, i) => {
      const t = teamOf(e);
      return `<tr class="event" data-team="${t}" data-points="${e.points}" data-d="${e.D}" data-r="${e.R}">` +
        `<td>${i + 1}</td><td>${eventText(e)}</td><td>${t === "A" ? e.points : ""}</td>` +
        `<td>${t === "B" ? e.points : ""}</td><td>${e.D}</td><td>${e.R}</td></tr>`;
    });
    const groups = GROUPS.map(([name, causes]) => [name, sums(evs, causes)])
      .map(([name, t]) => `<tr class="group" data-a="${t.A}" data-b="${t.B}"><th colspan="2">${name}</th>` +
        `<td>${t.A}</td><td>${t.B}</td><td colspan="2"></td></tr>`);
    const all = sums(evs);
    const lead = all.A - all.B;
    const carried = lead - unit * r.r_play;
    const c = r.end_counts;
    const tA = c ? c.A.total : 0, tB = c ? c.B.total : 0;
    const d = r.d_final;
    const sign = d > 0 ? "+" : d < 0 ? "−" : "";
    const rounding = d === 0 ? "D = 0: no resto" : `${sign}ceil(${Math.abs(d)} / ${unit}) = ${signed(r.end_resti)}`;
    const line = (k, label, formula, v) =>
      `<tr data-k="${k}" data-v="${v}"><th>${label}</th><td>${formula}</td><td><b>${v}</b></td></tr>`;
    const resti = (k) => `${k} ${Math.abs(k) === 1 ? "resto" : "resti"}`;
    return `<h3>Every scoring event</h3><div class="ledger-box"><table class="ledger">` +
      `<tr><th>#</th><th>Event</th><th>Team A</th><th>Team B</th><th title="A's lead after the event">D</th>` +
      `<th title="Net resti after the event (+ for team A)">R</th></tr>${rows.join("")}` +
      `${groups.join("")}<tr class="sum" data-a="${all.A}" data-b="${all.B}"><th colspan="2">Scored during the deal</th>` +
      `<td><b>${all.A}</b></td><td><b>${all.B}</b></td><td colspan="2"></td></tr></table></div>` +
      `<h3>The settlement (RULES.md M-13, M-14)</h3><table class="kv settle">` +
      line("lead", "A's lead during the deal", `${all.A} − ${all.B}`, lead) +
      line("banked", `Resti banked as it went (each full ${unit} of lead, M-14.2)`,
        `${signed(r.r_play)} × ${unit} points`, r.r_play) +
      line("carried", "Lead carried to the end", `${lead} − ${unit} × ${r.r_play < 0 ? `(${r.r_play})` : r.r_play}`, carried) +
      line("net", "End count T<sub>A</sub> − T<sub>B</sub> (M-13.2, below)", `${tA} − ${tB}`, tA - tB) +
      line("d", "Point difference D", `${carried} + ${tA - tB}`, d) +
      line("rounding", `End rounding (M-14.3): sign(D) × ceil(|D| / ${unit})`, rounding, r.end_resti) +
      line("resti", "Net resti R (+ for team A)", `${r.r_play} + ${r.end_resti}`, r.resti) +
      `</table><p class="verdict">${r.resti === 0 ? "A draw." :
        `Team ${r.resti > 0 ? "A" : "B"} wins ${resti(Math.abs(r.resti))}: each of its players +${Math.abs(r.resti)}, ` +
        `each opponent −${Math.abs(r.resti)}.`}</p>`;
  }

  /** M-11.2, M-11.3: the led suit named, and what a void hand must do. */
  function playPrompt(M) {
    const first = M.trick.map((p) => Cards.parse(p.card)).find((c) => c && c.kind !== "matto");
    if (!first) {
      return M.trick.length ? "The Matto was led: any card, yours sets the suit." : "Your lead: any card.";
    }
    if (first.kind === "trump") return "Trumps led: play a trump if you hold one, else any card (the Matto always may).";
    const name = Cards.SUITS[first.suit].name;
    return `${name} led: follow ${name}; with none you must play a trump, with no trump any card (the Matto always may).`;
  }

  Games.minchiate = {
    title: "Minchiate",
    unit: "Resti",
    help: "Four players, partners opposite: you and S2 (team A) against S1 and S3 (team B).",
    trickSize: () => 4,
    sortKey,
    setupRole: (s, seat) => ((s - seat + 4) % 4 === 2 ? "partner" : "opponent"),
    seatRole: (M, s) => ((s - M.me + 4) % 4 === 2 ? "Partner" : "Opponent"),

    badges(M, s) {
      const out = [{ text: `Team ${team(s)}`, cls: `team-${team(s)}` }];
      if (s === (M.dealer + 3) % 4) out.push({ text: "Cutter", cls: "cutter" });
      const v = M.view;
      if (v && Array.isArray(v.faceup) && Cards.isCard(v.faceup[s])) {
        out.push({ text: `face-up ${v.faceup[s]}`, cls: "faceup" });
      }
      const m = M.end ? M.end.result.matto : null;
      if (m && m.owner === s) out.push({ text: m.paid ? `Matto · paid ${m.paid}` : "played the Matto", cls: "matto" });
      else if (!M.end && v && v.matto_owner === s) out.push({ text: v.matto_debt ? "Matto · owes a card" : "played the Matto", cls: "matto" });
      return out;
    },

    onEvent(M, ev) {
      const s = ev.seat;
      if (ev.verb === "declare") {
        const yes = ev.arg === "declare";
        M.last[s] = yes ? "Declares" : "Skips";
        return act(s, yes ? "declare a combination" : "skip a combination");
      }
      if (ev.verb === "pay") return act(s, `pay ${ev.arg ? Cards.chip(ev.arg) : "a card"} for the Matto`);
      if (ev.verb === "play" && M.tricks.length === 0 && M.trick.length === 1) M.last = M.last.map(() => "");
      return null;
    },

    /** M-11.4: the highest trump, else the highest card of the led suit; never the Matto. */
    trickWinner(M, trick) {
      const cards = trick.map((p) => ({ seat: p.seat, c: Cards.parse(p.card) })).filter((x) => x.c && x.c.kind !== "matto");
      if (!cards.length) return null;
      const trumps = cards.filter((x) => x.c.kind === "trump");
      if (trumps.length) return trumps.reduce((a, b) => (b.c.n > a.c.n ? b : a)).seat;
      const led = cards[0].c.suit;
      const order = led === "c" || led === "d" ? ROUND : LONG;
      const rank = (x) => order.indexOf(x.c.rank);
      return cards.filter((x) => x.c.suit === led).reduce((a, b) => (rank(b) < rank(a) ? b : a)).seat;
    },

    centerNote(M) {
      const phase = M.view ? M.view.phase : "";
      if (String(phase).startsWith("discard")) return "The cutter and the dealer discard to the Fola";
      if (phase === "declare") return "Declarations";
      if (phase === "play" && M.legal.length && !M.tricks.length) return "You lead the first trick";
      return "";
    },

    lastWinner(M, result) {
      const w = result && result.trick_winners;
      return Array.isArray(w) && w.length ? w[w.length - 1] : null;
    },

    prompt(M) {
      const verb = M.legal[0].split(" ")[0];
      if (verb === "declare" || verb === "skip") {
        return "Declare this combination (its cards, marked in your hand, are shown to everyone)?";
      }
      return {
        discard: "Discard a card to the Fola (no counters, not T29).",
        play: playPrompt(M),
        pay: "The opponents won the trick of your Matto, which stays with your team: pay them one card of your team's pile for it.",
      }[verb] || "Your turn";
    },

    /** The offered combination's cards, marked in the hand while it is offered. */
    handMark(M, code) {
      const offered = M.view && M.view.offered;
      if (!offered || !M.legal.includes("declare")) return "";
      return U.list(offered.cards).includes(code) ? "offer" : "dim";
    },

    buttonHtml(M, label) {
      const offered = M.view && M.view.offered;
      if (label === "declare") return `Declare ${offered ? combo(offered) : ""}`;
      if (label === "skip") return "Skip";
      const arg = label.split(" ")[1];
      if (Cards.isCard(arg)) return Cards.html(arg, { size: "small" });
      return esc(label);
    },

    panels(M) {
      const v = M.view || {};
      const faceup = U.list(v.faceup).map((c, s) => (Cards.isCard(c) ? `${seatLabel(s)} ${Cards.chip(c)}` : null))
        .filter((x) => x).join(" · ");
      const setup = [
        ["Dealer · cutter", `${seatLabel(M.dealer)} · ${seatLabel((M.dealer + 3) % 4)}`],
        v.robbed !== undefined ? ["Cutter robbed", `${Cards.row(U.list(v.robbed))}${Cards.isCard(v.stop_card) ? ` stop ${Cards.chip(v.stop_card)}` : ""}`] : null,
        faceup ? ["Face-up", faceup] : null,
        U.list(v.dealer_robbed).length ? ["Dealer robbed", Cards.row(U.list(v.dealer_robbed))] : null,
        U.list(v.dealer_taken).length ? ["Dealer took", Cards.row(U.list(v.dealer_taken))] : null,
        U.list(v.discards).length ? ["Your discards", Cards.row(U.list(v.discards))] : null,
        U.list(v.fola_known).length ? [v.fola_exposed ? "Fola" : "Fola (known)", Cards.row(U.list(v.fola_known))] : null,
      ];
      const out = [{ title: "The deal", html: U.kv(setup) }];
      const r = M.end ? M.end.result : null;
      const decl = declarations(r ? r.declared : v.declared);
      if (decl) out.push({ title: "Declarations", html: decl });
      const sl = r ? scoreLine(r.d_final, r.resti) : scoreLine(v.D, v.R);
      if (sl) out.push({ title: "Score", html: `<div>${sl}</div>${runningScore(r ? r.events : v.events)}` });
      return out;
    },

    endTitle(M) {
      const r = M.end.result;
      if (r.void) return "The deal is void";
      const mine = team(M.me);
      const res = r.returns[M.me];
      const resti = (k) => `${k} ${k === 1 ? "resto" : "resti"}`;
      return res > 0 ? `Team ${mine} wins ${resti(res)}` : res < 0 ? `Team ${mine} loses ${resti(-res)}` : "A drawn deal";
    },

    endHtml(M, r) {
      if (r.void) return "<p>The deal was voided.</p>";
      const c = r.end_counts;
      let counts = "";
      if (c) {
        const row = (k, key, f) => `<tr data-k="${key}" data-a="${f === null ? c.A[key] : ""}" data-b="${f === null ? c.B[key] : ""}">` +
          `<th>${k}</th><td>${f ? f(c.A) : c.A[key]}</td><td>${f ? f(c.B) : c.B[key]}</td></tr>`;
        const combos = (t) => U.list(t.combos).map((x) => `<div>${combo(x)}</div>`).join("") || "—";
        const atEnd = M.flags.declaration_score_timing === "end";
        counts = `<h3>The end count of each team's pile (M-13.2)</h3><table class="counts">` +
          `<tr><th></th><th>Team A</th><th>Team B</th></tr>` +
          row("Card points", "card_points", null) + row("Combinations found in the pile", "combo_points", null) +
          `<tr class="combos"><th></th><td>${combos(c.A)}</td><td>${combos(c.B)}</td></tr>` +
          row(`Cards taken (over 42 score 1 each)`, "cards", (t) => `${t.cards}`) +
          row("Surplus", "surplus", null) + row("Last trick", "last_trick", null) +
          (atEnd ? row("Declarations, counted at the end", "declared", null) : "") +
          row("<b>Total T</b>", "total", null) + "</table>" +
          (atEnd ? "" : `<p class="note">Declarations scored when they were made (in the events above: ` +
            `team A ${sums(U.list(r.events), ["declare"]).A}, team B ${sums(U.list(r.events), ["declare"]).B}), not in this count.</p>`);
      }
      const m = r.matto;
      return ledger(M, r) + counts + U.kv([
        m ? ["Matto", `${seatLabel(m.owner)}${m.paid ? `, paid ${Cards.chip(m.paid)}` : ""}${m.lost ? ", lost" : ""}`] : null,
      ]);
    },
  };
})();
