/* Calabresella at the web table (RULES.md part B): the auction, the call and the exchanges with
   the monte, three cards a trick won by the highest card of the led suit, the settlement. */
"use strict";

(() => {
  const STRENGTH = "4567JNKA23"; // C-2.2, low to high
  const RANK_INDEX = "A234567JNK"; // D.2 index order
  const SUIT_ORDER = "cdsb";
  const U = GameUtil;

  const rank = (code) => code.slice(0, -1);
  const suit = (code) => code.slice(-1);
  const index = (code) => 10 * SUIT_ORDER.indexOf(suit(code)) + RANK_INDEX.indexOf(rank(code));

  function monte(M) {
    const v = M.view || {};
    return U.list(v.known_monte).slice().sort((a, b) => index(a) - index(b));
  }

  function splitCards(M, mask) {
    const cards = monte(M);
    const mine = [];
    const other = [];
    cards.forEach((c, i) => ((mask >> i) & 1 ? mine : other).push(c));
    return { mine, other, known: cards.length === 4 };
  }

  /** The seats of D1 and D2 (B.5: D1 is the first defender after the soloist), or null. */
  function defenders(M) {
    const v = M.view || {};
    const sol = M.g.soloist;
    if (!Array.isArray(v.seat_of) || sol === null || sol === undefined) return null;
    const p = v.seat_of.indexOf(sol);
    return p < 0 ? null : [v.seat_of[(p + 1) % 3], v.seat_of[(p + 2) % 3]];
  }

  /** The seat holds two positions (2 players: the dealer's seat plays both defenders' hands). */
  function aDue(M) {
    const v = M.view || {};
    return Array.isArray(v.seat_of) && v.seat_of.filter((s) => s === M.me).length === 2;
  }

  /** Who takes which part of the split: D1's and D2's names as the person reads them. */
  function splitNames(M) {
    const d = defenders(M);
    const v = M.view || {};
    if (aDue(M) && d) {
      const p = v.seat_of.indexOf(M.g.soloist);
      return [`Your A${(p + 1) % 3} hand`, `your A${(p + 2) % 3} hand`];
    }
    return ["You", d ? seatLabel(d[1]) : "your partner"];
  }

  /** The auction is over: a step after it came (a call, an exchange, a card), a view past it,
      the end, or (single round, C-4.2) every active player has spoken; 2 players: the soloist
      names the contract alone (CA-19). Until then the highest bid is only the high bid. */
  function auctionOver(M) {
    const g = M.g;
    if (g.auctionDone || M.end || M.tricks.length || M.trick.length || g.called) return true;
    if (M.view && M.view.phase && M.view.phase !== "bid") return true;
    if (M.n === 2) return g.bids.some((b) => b.bid !== "pass");
    return (M.flags.auction || "single_round") === "single_round" && g.bids.length >= 3;
  }

  // what each contract means (C-4.1 values, C-5 procedures), the bid buttons' tooltips
  const CONTRACT_HELP = {
    pass: "Pass: no contract for you; if another player bids, you defend with the third player.",
    chiamo: "Chiamo (value 1): call a card you do not hold; its holder hands it to you and gets a card of your choice back; then you take the 4 monte cards and discard 4.",
    solo: "Solo (value 2): take the 4 monte cards and discard 4, then play alone against the other two.",
    solissimo: "Solissimo (value 4): play your 12 cards alone; nobody sees the monte (it goes to the winner of the last trick).",
    dividete: "Solissimo dividete (value 8): play your 12 cards alone; the defenders get 2 monte cards each and each discards 2.",
    scegliete: "Solissimo scegliete (value 16): play your 12 cards alone; the monte is turned face up, the defenders share it as they choose and discard as many as they took.",
  };
  const NEED = "The soloist needs 6 of the 11 points: each side's thirds are cut to whole points, and the last trick is worth 1 point more (its winner also takes the 4 set-aside cards).";

  /** Card thirds (C-2.3): an ace 3, each 3, 2, K, N, J 1, the rest 0. */
  const thirds = (code) => (rank(code) === "A" ? 3 : "32KNJ".includes(rank(code)) ? 1 : 0);
  /** Thirds as points: 7 -> "2⅓". */
  const asPoints = (t) => (t < 3 && t > 0 ? "" : `${Math.floor(t / 3)}`) + ["", "⅓", "⅔"][t % 3];

  /** The soloist's and the defenders' card thirds and tricks so far, from the tricks on the
      table (every card of a finished trick is known, and its winner). */
  function sideCounts(M) {
    const sol = M.g.soloist;
    const c = { sol: 0, def: 0, solTricks: 0, defTricks: 0 };
    const done = M.tricks.concat(M.pending ? [M.pending] : []);
    for (const t of done) {
      if (t.winner === null || t.winner === undefined) continue;
      const k = t.cards.reduce((a, p) => a + thirds(p.card), 0);
      if (t.winner === sol) { c.sol += k; c.solTricks += 1; } else { c.def += k; c.defTricks += 1; }
    }
    return c;
  }

  const plural = (k, word) => `${k} ${word}${k === 1 ? "" : "s"}`;

  function discardPrompt(M) {
    const k = M.hand.length - 12; // every active hand holds 12 cards at the first lead (C-5.6)
    if (k > 1) return `Choose ${k} cards to discard face down (they go to the last trick's winner).`;
    return "Discard a card face down: the discards go to whoever wins the last trick.";
  }

  function returnPrompt(M) {
    const v = M.view || {};
    const who = typeof v.giver === "number" ? seatLabel(v.giver) : "the giver";
    const called = M.g.called ? ` ${who} handed you ${Cards.chip(M.g.called)};` : "";
    return `${called} give ${who} one of your cards back, face down (it may be the called card).`;
  }

  Games.calabresella = {
    title: "Calabresella",
    unit: "Game points",
    help: (n) => ({
      2: "Two players: one is the soloist (the seats take turns), naming a contract without an auction; the other plays both defenders' hands.",
      4: "Four players: the dealer sits out each deal; the other three, each for himself, bid for a contract, and the highest bidder plays it alone against the other two.",
    })[n] || "Three players, each for himself: bid for a contract, then play it alone against the other two.",
    trickSize: () => 3,
    sortKey: (code) => 10 * SUIT_ORDER.indexOf(suit(code)) + 9 - STRENGTH.indexOf(rank(code)), // high to low

    trickWinner(M, trick) {
      const led = suit(trick[0].card);
      let best = trick[0];
      for (const p of trick) {
        if (suit(p.card) === led && STRENGTH.indexOf(rank(p.card)) > STRENGTH.indexOf(rank(best.card))) best = p;
      }
      return best.seat;
    },

    init(M) {
      M.g = { bids: [], contract: null, soloist: null, called: null, split: null, handed: false };
      // 12 cards a hand (C-3.1): the idle dealer of 4 holds none, the dealer of 2 holds two hands
      M.counts = M.seats.map((_, s) => (s !== M.dealer ? 12 : M.n === 4 ? 0 : M.n === 2 ? 24 : 12));
    },

    onEvent(M, ev) {
      const g = M.g;
      const s = ev.seat;
      if (ev.verb !== "bid") g.auctionDone = true;
      if (ev.verb === "bid") {
        g.bids.push({ seat: s, bid: ev.arg });
        if (ev.arg !== "pass") { g.contract = ev.arg; g.soloist = s; }
        M.last[s] = ev.arg === "pass" ? "Pass" : U.cap(ev.arg);
        return ev.arg === "pass" ? act(s, "pass") : act(s, `bid <b>${ev.arg}</b>`);
      }
      if (ev.verb === "call") {
        g.called = ev.arg;
        M.last[s] = `Calls ${ev.arg}`;
        return act(s, `call ${Cards.chip(ev.arg)}`);
      }
      // a discard only gives back a card taken from the monte (or the called card's hand-over),
      // which no event shows: the hand keeps its size
      if (ev.verb === "discard" && M.counts[s] !== null) M.counts[s] += 1;
      if (ev.verb === "return") return act(s, `give back ${ev.arg ? Cards.chip(ev.arg) : "a card"}`);
      if (ev.verb === "split") {
        g.split = Number(ev.arg);
        return act(s, "split the monte");
      }
      if (ev.verb === "play" && M.tricks.length === 0 && M.trick.length === 1) M.last = M.last.map(() => "");
      return null;
    },

    onView(M, v) {
      const g = M.g;
      if (!g.handed && g.soloist === M.me && g.called && v.giver !== null && v.giver !== undefined) {
        g.handed = true; // the hand-over of the called card is no action: the view tells it
        if (typeof v.giver === "number") M.log.push(`${seatLabel(v.giver)} hands you ${Cards.chip(g.called)}`);
        else if (v.giver === "monte") M.log.push(`${Cards.chip(g.called)} lies in the monte: you take it with the monte`);
      }
      if (Array.isArray(v.hand_sizes) && Array.isArray(v.seat_of)) {
        const counts = M.seats.map(() => 0);
        v.hand_sizes.forEach((k, p) => { counts[v.seat_of[p]] += k; });
        M.counts = counts;
      }
    },

    badges(M, s) {
      const g = M.g;
      const out = [];
      const over = auctionOver(M);
      const played = M.tricks.length > 0 || M.trick.length > 0 || g.called;
      if (g.soloist === s) out.push(over ? { text: `Soloist · ${g.contract}`, cls: "soloist" } : { text: `High bid · ${g.contract}`, cls: "highbid" });
      else if (g.soloist !== null && played && !(M.n === 4 && s === M.dealer)) {
        out.push({ text: M.n === 2 ? "Defender · both hands" : "Defender", cls: "defender" });
      }
      if (M.n === 4 && s === M.dealer) out.push({ text: "Sits out", cls: "idle" });
      return out;
    },

    seatRole: () => "Bot",
    seatsFor: (flags, n) => (Number.isInteger(flags.players) ? flags.players : n),

    prompt(M) {
      const verb = M.legal[0].split(" ")[0];
      const v = M.view || {};
      const due = aDue(M) && typeof v.position === "number";
      const led = M.trick.length ? Cards.SUITS[suit(M.trick[0].card)].name : null;
      if (due && verb === "play") return `Your A${v.position} hand: ${led ? `${led} led, follow ${led} if you can.` : "lead any card."}`;
      const hand = due ? `Your A${v.position} hand: ` : "";
      const other = splitNames(M)[1];
      const text = {
        pass: "Your bid: pass, or bid a contract higher than the last one.",
        bid: "Your bid: a contract higher than the last one.",
        call: "Call a card you do not hold: whoever holds it gives it to you (if it lies in the monte, you get it with the monte).",
        return: returnPrompt(M),
        discard: discardPrompt(M),
        split: aDue(M) ?
          `Split the open monte between your two hands: choose the cards ${splitNames(M)[0]} takes, ${other} takes the rest; each hand then discards as many as it took.` :
          `Split the open monte: choose the cards you take, ${other} takes the rest; each of you then discards as many as he took.`,
        play: led ? `${led} led: follow ${led} if you can, else any card.` : "Your lead: any card.",
      }[verb] || "Your turn";
      return hand + text;
    },

    /** The discards this turn begins: every active hand holds 12 cards at the first lead. */
    discardsDue(M) { return Math.max(0, M.hand.length - 12); },

    /** The cards taken from the monte, marked in the hand until they are played or discarded. */
    handBadge(M, code) {
      return monte(M).includes(code) ? "monte" : "";
    },

    waitNote(M) {
      if (M.n === 4 && M.me === M.dealer) return "You dealt this one and sit out: the other three play it.";
      return "";
    },

    /** The split buttons from 4-0 to 0-4 (the cards D1 takes, most first), then mask order. */
    orderButtons(M, labels) {
      const size = (lb) => (lb.startsWith("split ") ? splitCards(M, Number(lb.slice(6))).mine.length : 0);
      return labels.slice().sort((a, b) => size(b) - size(a));
    },

    buttonHtml(M, label) {
      if (label === "pass") return "Pass";
      const [verb, arg] = label.split(" ");
      if (verb === "bid") return U.cap(arg);
      if (Cards.isCard(arg)) return Cards.html(arg, { size: "small" });
      if (verb === "split") {
        const sp = splitCards(M, Number(arg));
        if (!sp.known) return esc(label);
        const [mine, other] = splitNames(M);
        const rest = sp.other.length ? sp.other.map(Cards.title).join(", ") : "nothing";
        return `<span class="split" title="${esc(`${mine} take${mine === "You" ? "" : "s"} ${sp.mine.map(Cards.title).join(", ") || "nothing"}; ${other} takes ${rest}`)}">` +
          `${Cards.row(sp.mine)}</span>`;
      }
      return esc(label);
    },

    buttonTitle(M, label) {
      if (label === "pass") return CONTRACT_HELP.pass;
      return label.startsWith("bid ") ? CONTRACT_HELP[label.slice(4)] || "" : "";
    },

    /** The running count of the card points (C-7), top left of the felt, once play began. */
    scoreline(M) {
      const g = M.g;
      if (g.soloist === null || g.soloist === undefined || !auctionOver(M)) return "";
      const r = M.end ? M.end.result : null;
      if (r && r.void) return "";
      if (!r && !M.tricks.length && !M.pending && !(M.view && M.view.phase === "play")) return "";
      const sol = seatLabel(g.soloist);
      if (r && r.points) {
        return `<div class="points" data-sol="${r.thirds.soloist}" data-def="${r.thirds.defenders}" data-sol-points="${r.points.soloist}" data-def-points="${r.points.defenders}">` +
          `<div><b>Soloist</b> ${sol}: <b>${r.points.soloist}</b> of 11 points (${r.thirds.soloist} thirds${r.last_trick === "soloist" ? ", last trick +1" : ""})</div>` +
          `<div><b>Defenders</b>: <b>${r.points.defenders}</b> points (${r.thirds.defenders} thirds${r.last_trick === "defenders" ? ", last trick +1" : ""})</div>` +
          `<div class="need">${r.success ? "Made: 6 or more" : "Lost: fewer than 6"} of the 11 points.</div></div>`;
      }
      const c = sideCounts(M);
      return `<div class="points" data-sol="${c.sol}" data-def="${c.def}">` +
        `<div><b>Soloist</b> ${sol}: <b>${asPoints(c.sol)}</b> points, ${plural(c.solTricks, "trick")}</div>` +
        `<div><b>Defenders</b>: <b>${asPoints(c.def)}</b> points, ${plural(c.defTricks, "trick")}</div>` +
        `<div class="need" title="${esc(NEED)}">Soloist needs 6 of 11 · last trick +1</div></div>`;
    },

    centerNote(M) {
      const g = M.g;
      if (!g.soloist && g.soloist !== 0) return g.bids.length ? "Auction" : "";
      if (!auctionOver(M)) return `Auction: high bid <b>${g.contract}</b> (${seatLabel(g.soloist)})`;
      const called = g.called ? `, calling ${Cards.chip(g.called)}` : "";
      return `${act(g.soloist, `play <b>${g.contract}</b>`)}${called}`;
    },

    panels(M) {
      const g = M.g;
      const v = M.view || {};
      const r = M.end ? M.end.result : null;
      const bids = g.bids.map((b) => `<span class="bid">${seatLabel(b.seat)}: <b>${b.bid}</b></span>`).join(" ");
      let from = "";
      if (v.giver === "monte") from = " (it lay in the monte)";
      else if (v.giver === "own") from = " (the soloist held it)";
      else if (typeof v.giver === "number") from = ` (given by ${seatLabel(v.giver)})`;
      else if (r && r.called_from) from = ` (from ${r.called_from})`;
      const m = monte(M);
      const d = defenders(M);
      const split = Array.isArray(v.split) && (v.split[0].length || v.split[1].length) ?
        `${d ? seatLabel(d[0]) + " " : ""}${Cards.row(v.split[0])} · ${d ? seatLabel(d[1]) + " " : ""}${Cards.row(v.split[1])}` : null;
      const won = r && r.tricks ? r.tricks : v.tricks_won;
      const rows = [
        ["Auction", bids || '<span class="none">no bids yet</span>'],
        auctionOver(M) || !g.contract ? ["Contract", g.contract ? `<b>${g.contract}</b> by ${seatLabel(g.soloist)}` : "—"] :
          ["High bid", `<b>${g.contract}</b> by ${seatLabel(g.soloist)} (the auction goes on)`],
        g.called ? ["Called", `${Cards.chip(g.called)}${from}`] : null,
        ["Monte", m.length ? Cards.row(m) : "4 cards face down"],
        split ? ["Split", split] : null,
        U.list(v.discards).length ? ["Your discards", Cards.row(U.list(v.discards))] : null,
        U.code(v.returned) ? ["Returned", Cards.chip(v.returned)] : null,
        U.list(v.partner_hand).length ? [aDue(M) ? "Your other hand" : "Partner's hand", Cards.row(U.list(v.partner_hand))] : null,
        won && g.contract && auctionOver(M) ? ["Tricks won", `soloist ${won.soloist} · defenders ${won.defenders}`] : null,
        g.contract && auctionOver(M) && !r ? ["Card points", (() => {
          const c = sideCounts(M);
          return `soloist ${asPoints(c.sol)} · defenders ${asPoints(c.def)} <span class="none">(needs 6 of 11)</span>`;
        })()] : null,
      ];
      return [{ title: "Contract", html: U.kv(rows) }];
    },

    endTitle(M) {
      const r = M.end.result;
      if (r.void) return "All passed: the deal is void";
      return `${seatLabel(r.soloist)} ${r.success ? "made" : "lost"} the ${r.contract}`;
    },

    endHtml(M, r) {
      if (r.void) {
        const next = {
          redeal_same_dealer: "the same dealer shuffles and deals again",
          redeal_next_dealer: "the next dealer deals",
          next_deal_no_chiamo: "the next deal is played without Chiamo",
        }[M.flags.all_pass] || "the cards are dealt again";
        return `<p>Nobody bid: no contract, nobody pays.<br>Under the rules ${next}: press <b>New deal</b>.</p>`;
      }
      const side = (k) => (r[k] ? `${r[k].soloist} – ${r[k].defenders}` : "—");
      return U.kv([
        ["Contract", `<b>${r.contract}</b> by ${seatLabel(r.soloist)}, defenders ${(r.defenders || []).map(seatLabel).join(" and ")}`],
        r.called ? ["Called", `${Cards.chip(r.called)}${r.called_from ? ` from ${r.called_from}` : ""}`] : null,
        ["Thirds (soloist – defenders)", side("thirds")],
        ["Points", side("points")],
        ["Tricks", side("tricks")],
        ["Last trick", r.last_trick || "—"],
        ["Outcome", `${r.success ? "made" : "lost"}${r.bonus ? `, ${r.bonus}` : ""} (×${r.multiplier}, value ${r.value}, unit ${r.unit})`],
      ]);
    },
  };
})();
