// Shared helpers of the tests: the fixtures written by tests/js/make_fixtures.py (folder named
// by MAZZO_JS_FIXTURES) and feeding a case's messages to a tracker.

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

export const FIXTURES = process.env.MAZZO_JS_FIXTURES ?? "";

/**
 * The fixture of `game`, or null when no fixture folder is named (the fixture tests then skip;
 * a named folder without the file is an error).
 * @param {string} game
 */
export function fixture(game) {
  if (!FIXTURES) return null;
  const path = join(FIXTURES, `${game}.json`);
  if (!existsSync(path)) return null;
  return JSON.parse(readFileSync(path, "utf8"));
}

/**
 * Where `obs` and `want` differ (at most `limit` entries): `[index, got, want]`.
 * @param {Float32Array} obs
 * @param {ArrayLike<number>} want
 */
export function obsDiff(obs, want, limit = 8) {
  const out = [];
  for (let i = 0; i < Math.max(obs.length, want.length) && out.length < limit; i++) {
    if (obs[i] !== Math.fround(want[i])) out.push([i, obs[i], want[i]]);
  }
  return out;
}

/**
 * A dense vector from the fixtures' sparse `[[index, value], ...]`.
 * @param {Array<[number, number]>} pairs
 * @param {number} size
 */
export function dense(pairs, size) {
  const out = new Float32Array(size);
  for (const [i, v] of pairs) out[i] = v;
  return out;
}

/** @param {Int8Array} mask */
export const maskIds = (mask) => [...mask.keys()].filter((a) => mask[a]);
