// The static web table's setup (a module the built index.html loads before app.js runs): reads
// the build's table.json (the bots and where their bundles lie), makes the local table server
// (local_server.js) and starts loading the trained bots' bundles at once, and hands app.js a
// local transport in place of the WebSocket /ws (`window.MazzoTransport`).

import { loadBundle } from "../src/index.js";
import { LocalTableServer, createLocalTransport } from "./local_server.js";

const root = new URL("../../", import.meta.url); // the folder of the built index.html

const server = fetch(new URL("table.json", root))
  .then((r) => {
    if (!r.ok) throw new Error(`table.json: HTTP ${r.status}`);
    return r.json();
  })
  .then((config) => {
    // sha256 needs WebCrypto, which browsers give secure contexts only (https, localhost)
    const verify = Boolean(globalThis.crypto && globalThis.crypto.subtle);
    /** @type {Record<string, any[]>} */
    const bots = {};
    for (const [game, list] of Object.entries(config.bots)) {
      bots[game] = list.map((/** @type {any} */ b) => ({
        name: b.name,
        help: b.help,
        rules: b.rules ?? null,
        load: b.bundle ? async () => {
          const bundle = await loadBundle(new URL(b.bundle, root).href, { verify });
          bundle.check(game, b.rules ?? undefined);
          return bundle;
        } : undefined,
      }));
    }
    const s = new LocalTableServer({ bots, version: config.version });
    s.preload();
    return s;
  });

/** @type {any} */ (window).MazzoTransport = () => createLocalTransport(server);
/** @type {any} */ (window).MazzoLocalTable = server; // for a test or the console
