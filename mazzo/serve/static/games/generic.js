/* The fallback renderer for a game the page has no file for: card codes, labels and the result
   shown as they come. */
"use strict";

Games.generic = {
  title: "",
  unit: "Score",
  trickSize: (M) => M.n,
  sortKey: (code) => String(code).charCodeAt(0),
  endHtml: (M, result) => `<pre class="raw">${esc(JSON.stringify(result, null, 1))}</pre>`,
};

/** Shared helpers of the game renderers. */
const GameUtil = {
  cap: (s) => (s ? s[0].toUpperCase() + s.slice(1) : s),
  list: (x) => (Array.isArray(x) ? x : x === null || x === undefined || x === -1 ? [] : [x]),
  code: (x) => (typeof x === "string" ? x : null),
  kv: (rows) => `<table class="kv">${rows.filter((r) => r).map(([k, v]) => `<tr><th>${k}</th><td>${v}</td></tr>`).join("")}</table>`,
};
