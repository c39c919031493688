/* Card codes of RULES.md D.1/D.2 drawn as readable cards: suit cards (rank, suit icon in its
   colour), Minchiate trumps (their number) and the Matto. Shared by both games' renderers. */
"use strict";

const Cards = (() => {
  const SUITS = {
    c: { name: "Coppe", color: "#c62828" },
    d: { name: "Denari", color: "#b7791f" },
    s: { name: "Spade", color: "#1e4fa3" },
    b: { name: "Bastoni", color: "#2e7d32" },
  };
  const RANK_NAMES = {
    A: "Asso", J: "Fante", N: "Cavallo", Q: "Regina", K: "Re",
  };
  const ICONS = {
    c: '<path d="M4.5 3h15c0 5.2-3.2 8.3-6.3 8.8V18h3.3v2.6H7.5V18h3.3v-6.2C7.7 11.3 4.5 8.2 4.5 3z"/>',
    d: '<circle cx="12" cy="12" r="9.5"/><circle cx="12" cy="12" r="5.2" fill="#fff6dc"/>' +
       '<circle cx="12" cy="12" r="2.4"/>',
    s: '<path d="M12 1l2.2 3.4V15h-4.4V4.4z"/><rect x="5.5" y="15" width="13" height="2.4" rx="1"/>' +
       '<rect x="10.8" y="17.4" width="2.4" height="4"/><circle cx="12" cy="22.3" r="1.5"/>',
    b: '<path d="M8.4 21.6l8-17.8" stroke-width="4.2" stroke-linecap="round" fill="none"/>' +
       '<circle cx="10.3" cy="17.2" r="1.9"/><circle cx="13.7" cy="9.9" r="1.9"/>',
  };

  /** Parse a code: {kind: "suit"|"trump"|"matto", rank, suit, n} or null. */
  function parse(code) {
    if (typeof code !== "string") return null;
    if (code === "M") return { kind: "matto" };
    let m = /^T([1-9]|[1-3][0-9]|40)$/.exec(code);
    if (m) return { kind: "trump", n: Number(m[1]) };
    m = /^(A|[2-9]|10|J|N|Q|K)([cdsb])$/.exec(code);
    if (m) return { kind: "suit", rank: m[1], suit: m[2] };
    return null;
  }

  function isCard(code) { return parse(code) !== null; }

  function icon(suit, size) {
    const s = SUITS[suit];
    return `<svg class="suit-icon" viewBox="0 0 24 24" width="${size}" height="${size}" ` +
      `fill="${s.color}" stroke="${s.color}" aria-hidden="true">${ICONS[suit]}</svg>`;
  }

  /** A person's name of the card: "Re di Coppe", "Trump 17", "Il Matto". */
  function title(code) {
    const p = parse(code);
    if (!p) return String(code);
    if (p.kind === "matto") return "Il Matto (the Fool)";
    if (p.kind === "trump") return `Trump ${p.n}`;
    return `${RANK_NAMES[p.rank] || p.rank} di ${SUITS[p.suit].name}`;
  }

  /** HTML of one card face; size "" (hand), "small" or "tiny". */
  function html(code, opts = {}) {
    const p = parse(code);
    const cls = ["card", opts.size || ""];
    if (opts.extra) cls.push(opts.extra);
    const attrs = opts.attrs || "";
    const tip = `${title(code)} (${code})`;
    if (!p) return `<div class="${cls.join(" ")} unknown" title="${tip}" ${attrs}>?</div>`;
    if (p.kind === "matto") {
      cls.push("matto");
      return `<div class="${cls.join(" ")}" data-code="M" title="${tip}" ${attrs}>` +
        `<span class="corner">M</span><span class="pip">&#9733;</span>` +
        `<span class="caption">Matto</span></div>`;
    }
    if (p.kind === "trump") {
      cls.push("trump");
      return `<div class="${cls.join(" ")}" data-code="${code}" title="${tip}" ${attrs}>` +
        `<span class="corner">${p.n}</span><span class="pip">${p.n}</span>` +
        `<span class="caption">${code}</span></div>`;
    }
    cls.push("suit-" + p.suit);
    const color = SUITS[p.suit].color;
    return `<div class="${cls.join(" ")}" data-code="${code}" title="${tip}" ${attrs} ` +
      `style="color:${color}"><span class="corner">${p.rank}${icon(p.suit, 14)}</span>` +
      `<span class="pip">${icon(p.suit, 30)}</span><span class="caption">${code}</span></div>`;
  }

  /** A face-down card. */
  function back(size) { return `<div class="card back ${size || ""}"></div>`; }

  /** A row of cards (or "none"). */
  function row(codes, size) {
    if (!codes || !codes.length) return '<span class="none">none</span>';
    return `<span class="card-row">${codes.map((c) => html(c, { size: size || "tiny" })).join("")}</span>`;
  }

  /** Inline text form "K♦"-like chip for logs: rank + icon, trump number, M. */
  function chip(code) {
    const p = parse(code);
    if (!p) return `<b>${code}</b>`;
    if (p.kind === "matto") return `<span class="chip matto" title="${title(code)}">M</span>`;
    if (p.kind === "trump") return `<span class="chip trump" title="${title(code)}">T${p.n}</span>`;
    return `<span class="chip" style="color:${SUITS[p.suit].color}" title="${title(code)}">` +
      `${p.rank}${icon(p.suit, 12)}</span>`;
  }

  function legend() {
    return Object.entries(SUITS).map(([k, s]) => `<span class="legend-item">${icon(k, 14)} ${s.name}</span>`)
      .join(" ");
  }

  return { SUITS, parse, isCard, html, back, row, chip, title, icon, legend };
})();
