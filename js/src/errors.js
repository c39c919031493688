// Errors of mazzo-bot. A TrackerError carries the code the `mazzo-bot/1` server would answer
// for the same input (`bad_field`, `impossible`), so a page can treat both alike.

export class TrackerError extends Error {
  /**
   * @param {"bad_field"|"impossible"|"not_implemented"} code
   * @param {string} message
   */
  constructor(code, message) {
    super(message);
    this.name = "TrackerError";
    this.code = code;
  }
}

/** A bundle that cannot be read or does not fit the game and rules here. */
export class BundleError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "BundleError";
  }
}
