// mazzo-bot: run an exported mazzo bot bundle in a web page (or Node), no Python.
//
//   const bundle = await loadBundle("bundles/calabresella/");   // manifest, sha256, ONNX
//   bundle.check("calabresella", flags);                        // the rules check
//   const seat = createTracker("calabresella", { seat: 0, flags });
//   for (const message of messages) seat.feed(message);         // deal, event, reveal
//   const choice = await bundle.act(seat);                      // {action, label, probs, ...}

export { BUNDLE_FORMAT, Bundle, checkManifest, folderReader, loadBundle, sha256 } from "./bundle.js";
export { BundleError, TrackerError } from "./errors.js";
export { DEFAULT_FLAGS, flagDifferences, pyRepr, resolveFlags } from "./flags.js";
export { GAMES, createTracker } from "./games.js";
export * as calabresella from "./calabresella.js";
export { CalabresellaTracker } from "./calabresella.js";
export * as minchiate from "./minchiate.js";
export { MinchiateTracker } from "./minchiate.js";
