// Rule flags of the games mazzo-bot knows: their defaults (RULES.md C.3 / M.3, as mazzo's
// `Rules` dataclasses resolve them), resolving a page's partial flags, and the Python-style
// rendering of values used in the messages of the rules check (mirroring mazzo's `!r`).

/** @typedef {boolean|number|string|Array<string|number>} FlagValue */

/** Every flag of each game with its default value (`resolved_flags(game.rules({}))`). */
export const DEFAULT_FLAGS = Object.freeze({
  calabresella: Object.freeze({
    players: 3, auction: "single_round",
    allowed_contracts: ["chiamo", "solo", "solissimo", "dividete", "scegliete"],
    all_pass: "redeal_same_dealer", chiamo_monte_exposed: false, chiamo_return_public: false,
    allow_call_own_card: false, solissimo_view_monte: false, scegliete_splits: "all16",
    first_lead: "eldest", cappotto_mult: 2, stramazzo: true, stramazzo_mult: 3,
    stramazzo_def: "truncated", contract_values: [1, 2, 4, 8, 16], payout_mode: "fixed",
    reward_mode: "pairwise", match_rule: "individual", target: 21, aperta: false,
    aperta_payout_factor: 1.0,
  }),
  minchiate: Object.freeze({
    faceup_21st: "all", dealer_takes: "counters_and_29", score_taken_cards: false,
    discard_rule: "zero_not_29", impossible_discard: "redeal", declarations: "agent",
    declare_timing: "before_first_lead", diecine: "merge_four", matto_bonus_in_own_combo: false,
    matto_bonus_at_end: true, end_recount_combos: true, declaration_score_timing: "immediate",
    fola_exposure: "after_declarations", king_rule: true, must_overtrump: false,
    matto_payment: "auto", matto_last_trick_lost: false, matto_death_bonus: false,
    capture_bonus: true, rob_cap: 13, resti_unit: 60, surplus_base: 42, last_trick_bonus: 10,
  }),
});

/** Flags whose values are floats in mazzo (written `1.0`, not `1`, by Python). */
const FLOAT_FLAGS = new Set(["aperta_payout_factor"]);

/** The values a string (or small int) flag may take, first the default. */
const CHOICES = {
  calabresella: {
    players: [3, 2, 4], auction: ["single_round", "until_two_passes"],
    all_pass: ["redeal_same_dealer", "redeal_next_dealer", "next_deal_no_chiamo",
      "forced_chiamo_eldest"],
    scegliete_splits: ["all16", "only_2_2"], first_lead: ["eldest", "soloist", "dealer_left"],
    stramazzo_def: ["truncated", "raw_zero"], payout_mode: ["fixed", "difference"],
    reward_mode: ["pairwise", "raw"], match_rule: ["individual", "seed_sum"],
  },
  minchiate: {
    faceup_21st: ["all", "dealer_only"], dealer_takes: ["counters_and_29", "counters_only"],
    discard_rule: ["zero_not_29", "any"], impossible_discard: ["redeal", "relax"],
    declarations: ["agent", "auto_all"], declare_timing: ["before_first_lead", "with_first_card"],
    diecine: ["merge_four", "two_triples", "any_three"],
    declaration_score_timing: ["immediate", "end"], fola_exposure: ["after_declarations", "never"],
    matto_payment: ["auto", "agent"],
  },
};

/**
 * Every flag of `game` with its value: the page's `flags` over the defaults.
 * @param {string} game
 * @param {Record<string, FlagValue>} [flags]
 * @returns {Record<string, FlagValue>}
 * @throws {Error} an unknown game or flag, or a value of the wrong type or outside its choices
 */
export function resolveFlags(game, flags = {}) {
  const defaults = DEFAULT_FLAGS[game];
  if (!defaults) throw new Error(`unknown game ${pyRepr(game)}; games: ${Object.keys(DEFAULT_FLAGS).join(", ")}`);
  /** @type {Record<string, FlagValue>} */
  const out = {};
  for (const [k, v] of Object.entries(defaults)) out[k] = Array.isArray(v) ? [...v] : v;
  for (const [k, v] of Object.entries(flags ?? {})) {
    if (!(k in defaults)) throw new Error(`unknown ${game} flag ${pyRepr(k)}`);
    const want = defaults[k];
    const ok = Array.isArray(want) ? Array.isArray(v)
      : typeof want === "number" ? typeof v === "number" && Number.isFinite(v)
        : typeof v === typeof want;
    if (!ok) throw new Error(`${game} flag ${pyRepr(k)} must be like ${pyRepr(want, k)}, got ${JSON.stringify(v)}`);
    const choices = CHOICES[game]?.[k];
    if (choices && !choices.includes(/** @type {any} */ (v))) {
      throw new Error(`${game} flag ${pyRepr(k)} must be one of ${choices.map((c) => pyRepr(c)).join(", ")}, got ${pyRepr(v)}`);
    }
    out[k] = Array.isArray(v) ? [...v] : v;
  }
  return out;
}

/**
 * A value as Python's `repr` writes it (`True`, `'single_round'`, `['chiamo', 'solo']`, `1.0`
 * for a float flag): the messages of the rules check name values as mazzo does.
 * @param {unknown} value
 * @param {string} [flag] the flag the value belongs to (floats print with a `.0`)
 * @returns {string}
 */
export function pyRepr(value, flag) {
  if (value === true) return "True";
  if (value === false) return "False";
  if (value === null || value === undefined) return "None";
  if (typeof value === "string") return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (typeof value === "number") {
    if (flag && FLOAT_FLAGS.has(flag) && Number.isInteger(value)) return `${value}.0`;
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map((v) => pyRepr(v)).join(", ")}]`;
  if (typeof value === "object") {
    return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${pyRepr(v)}`).join(", ")}}`;
  }
  return String(value);
}

/**
 * Whether two flag values are equal (lists element by element).
 * @param {unknown} a
 * @param {unknown} b
 */
export function sameValue(a, b) {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameValue(x, b[i]));
  }
  return a === b;
}

/**
 * `[flag, first's value, second's value]` for every flag, in name order, whose values differ
 * (`undefined` where a table lacks the flag): mazzo's `flag_differences`.
 * @param {Record<string, unknown>} first
 * @param {Record<string, unknown>} second
 * @returns {Array<[string, unknown, unknown]>}
 */
export function flagDifferences(first, second) {
  const keys = [...new Set([...Object.keys(first), ...Object.keys(second)])].sort();
  /** @type {Array<[string, unknown, unknown]>} */
  const out = [];
  for (const k of keys) if (!sameValue(first[k], second[k])) out.push([k, first[k], second[k]]);
  return out;
}
