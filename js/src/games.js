// The games mazzo-bot knows: what its encoders build (checked against a bundle's manifest) and
// their seat trackers.

import * as calabresella from "./calabresella.js";
import * as minchiate from "./minchiate.js";
import { TrackerError } from "./errors.js";

/**
 * Per game: the observation encoding's version, the observation size and the action count
 * this package implements (encoding.md), and whether it has a tracker for it.
 */
export const GAMES = Object.freeze({
  calabresella: Object.freeze({ encoding_version: 1, obs_size: 720, num_actions: 62, tracker: true }),
  minchiate: Object.freeze({ encoding_version: 1, obs_size: 2572, num_actions: 99, tracker: true }),
});

/**
 * A seat tracker of `game` for `seat` under `flags` (the table's rules; defaults filled in).
 * @param {string} game
 * @param {{seat: number, flags?: Record<string, any>, totals?: number[], seriesResti?: number}} options
 *   `totals`: Calabresella's match totals per seat; `seriesResti`: Minchiate's series standing
 * @returns {calabresella.CalabresellaTracker|minchiate.MinchiateTracker}
 */
export function createTracker(game, options) {
  if (game === "calabresella") return new calabresella.CalabresellaTracker(options);
  if (game === "minchiate") return new minchiate.MinchiateTracker(options);
  throw new TrackerError("bad_field", `unknown game ${JSON.stringify(game)}; games: ${Object.keys(GAMES).join(", ")}`);
}
