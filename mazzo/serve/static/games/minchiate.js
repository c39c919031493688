/* Minchiate at the web table (RULES.md part A): partners sit opposite (team A = S0 and S2), the
   cutter's and the dealer's robbing, the face-up cards, discards to the Fola, declarations of
   combinations, 21 tricks of four cards, the count and the resti. */
"use strict";

(() => {
  const SUIT_ORDER = "cdsb";
  const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "N", "Q", "K"];
  const COMBO_NAMES = ["low run", "high run", "1-13-28", "diecine", "1-40-M", "kings"];
  const U = GameUtil;

  // M-2.2: high to low within a suit (courts first; the pips run opposite ways)
  const ROUND = ["K", "Q", "N", "J", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10"];
  const LONG = ["K", "Q", "N", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A"];
  const team = (s) => (s % 2 === 0 ? "A" : "B");
  const comboName = (k) => (typeof k === "number" ? COMBO_NAMES[k] || `combination ${k}` : k);

  function sortKey(code) {
    const p = Cards.parse(code);
    if (!p) return 999;
    if (p.kind === "trump") return 100 + p.n;
    if (p.kind === "matto") return 99;
    return 14 * SUIT_ORDER.indexOf(p.suit) + RANKS.indexOf(p.rank);
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

  function lastEvents(events) {
    const evs = U.list(events).slice(-4).reverse();
    return evs.map((e) => {
      const t = typeof e.team === "number" ? "AB"[e.team] : e.team;
      return `<div class="ev">Team ${t} +${e.points} <i>${e.cause}${e.trick ? `, trick ${e.trick}` : ""}</i></div>`;
    }).join("");
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
        play: "Your turn: play a card.",
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
      if (sl) out.push({ title: "Score", html: `<div>${sl}</div>${lastEvents(r ? r.events : v.events)}` });
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
        const row = (k, f) => `<tr><th>${k}</th><td>${f(c.A)}</td><td>${f(c.B)}</td></tr>`;
        const combos = (t) => U.list(t.combos).map((x) => `<div>${combo(x)}</div>`).join("") || "—";
        counts = `<table class="counts"><tr><th></th><th>Team A</th><th>Team B</th></tr>` +
          row("Card points", (t) => t.card_points) + row("Combinations", combos) +
          row("Cards taken", (t) => t.cards) + row("Surplus", (t) => t.surplus) +
          row("Last trick", (t) => t.last_trick) + row("Declared", (t) => t.declared) +
          row("<b>Total</b>", (t) => `<b>${t.total}</b>`) + "</table>";
      }
      const m = r.matto;
      return counts + U.kv([
        ["Point difference D", r.d_final],
        ["Resti", `${r.r_play} in play + ${r.end_resti} at the end = <b>${r.resti}</b> for team A`],
        m ? ["Matto", `${seatLabel(m.owner)}${m.paid ? `, paid ${Cards.chip(m.paid)}` : ""}${m.lost ? ", lost" : ""}`] : null,
      ]);
    },
  };
})();
