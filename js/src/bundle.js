// Reading an exported mazzo bundle (docs/export.md): the manifest and its checks, the sha256 of
// its files (WebCrypto), the rules check against the game a page plays (mirroring
// mazzo.agents.bundle.format: the same checks, the same messages), and the ONNX policy run with
// onnxruntime-web.

import { BundleError } from "./errors.js";
import { GAMES } from "./games.js";
import { flagDifferences, pyRepr, resolveFlags } from "./flags.js";

export const BUNDLE_FORMAT = "mazzo-bundle/1";
export const MANIFEST = "manifest.json";
/** @type {Record<string, "string"|"integer"|"object">} */
const REQUIRED = {
  format: "string", game: "string", encoding_version: "integer", obs_size: "integer",
  num_actions: "integer", flags: "object", onnx: "object", files: "object",
};
const KINDS = { string: "a string", integer: "an integer", object: "a JSON object" };

/**
 * The hex sha256 of `bytes` (WebCrypto: browsers, and Node 20's `globalThis.crypto`).
 * @param {Uint8Array|ArrayBuffer} bytes
 * @returns {Promise<string>}
 */
export async function sha256(bytes) {
  if (!globalThis.crypto?.subtle) {
    throw new BundleError("sha256 needs WebCrypto (crypto.subtle: a secure context, https or localhost); load with verify: false to skip the checksums");
  }
  const digest = await globalThis.crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Check a manifest's format and required fields (`_read_manifest` of the Python runtime).
 * @param {unknown} manifest
 * @param {string} where the bundle's location, for the messages
 * @returns {Record<string, any>}
 * @throws {BundleError}
 */
export function checkManifest(manifest, where) {
  const m = /** @type {any} */ (manifest);
  const isObject = m !== null && typeof m === "object" && !Array.isArray(m);
  if (!isObject || m.format !== BUNDLE_FORMAT) {
    const got = isObject ? m.format : m;
    throw new BundleError(`${where}: ${MANIFEST} format ${pyRepr(got)}, expected ${pyRepr(BUNDLE_FORMAT)}`);
  }
  for (const [key, kind] of Object.entries(REQUIRED)) {
    const v = m[key];
    const ok = kind === "string" ? typeof v === "string"
      : kind === "integer" ? Number.isInteger(v)
        : v !== null && typeof v === "object" && !Array.isArray(v);
    if (!ok) throw new BundleError(`${where}: ${MANIFEST} field ${pyRepr(key)} must be ${KINDS[kind]}, got ${pyRepr(v)}`);
  }
  return m;
}

/**
 * A reader of a bundle folder's files: `fetch` relative to `location` (a URL), or the file
 * system under Node for a path or a `file:` URL.
 * @param {string|URL} location
 * @param {typeof fetch} [fetchFn]
 * @returns {(name: string) => Promise<Uint8Array>}
 */
export function folderReader(location, fetchFn) {
  const text = String(location);
  const isNode = typeof process !== "undefined" && !!process.versions?.node;
  const remote = /^(https?|blob|data):/i.test(text) || (typeof location !== "string" && !text.startsWith("file:"));
  if (isNode && !remote && !fetchFn) {
    return async (name) => {
      const fs = await import("node:fs/promises");
      const path = await import("node:path");
      const url = await import("node:url");
      const dir = text.startsWith("file:") ? url.fileURLToPath(text) : text;
      return new Uint8Array(await fs.readFile(path.join(dir, name)));
    };
  }
  const base = text.endsWith("/") ? text : `${text}/`;
  const get = fetchFn ?? globalThis.fetch.bind(globalThis);
  return async (name) => {
    const url = /^[a-z][a-z0-9+.-]*:/i.test(base) ? new URL(name, base).href
      : new URL(name, new URL(base, globalThis.location?.href ?? "http://localhost/")).href;
    const response = await get(url);
    if (!response.ok) {
      const error = new Error(`HTTP ${response.status} for ${url}`);
      /** @type {any} */ (error).code = response.status === 404 ? "ENOENT" : "EHTTP";
      throw error;
    }
    return new Uint8Array(await response.arrayBuffer());
  };
}

/**
 * @typedef {object} LoadOptions
 * @property {boolean|"all"} [verify] check the sha256 of the files read (true, the default), of
 *   every file the manifest lists ("all", as mazzo's `load_bundle`), or of none (false)
 * @property {(name: string) => Promise<Uint8Array>} [read] how to read a file of the bundle
 * @property {typeof fetch} [fetch] the fetch to use (browsers: the default)
 * @property {any} [ort] the onnxruntime-web module (default: `import("onnxruntime-web")`)
 * @property {Record<string, any>} [sessionOptions] extra `InferenceSession.create` options
 */

/**
 * Load the bundle in folder `location`: its manifest (format and fields), the sha256 of its
 * files, then the ONNX model and its input and output names.
 * @param {string|URL} location a URL (relative to the page) or, under Node, a path
 * @param {LoadOptions} [options]
 * @returns {Promise<Bundle>}
 * @throws {BundleError} no manifest, another format, a missing field, a missing or changed file,
 *   a model onnxruntime cannot open or whose inputs and outputs are not the manifest's
 */
export async function loadBundle(location, options = {}) {
  const where = String(location).replace(/\/$/, "");
  const read = options.read ?? folderReader(location, options.fetch);
  const verify = options.verify ?? true;
  let manifest;
  try {
    manifest = JSON.parse(new TextDecoder().decode(await read(MANIFEST)));
  } catch (e) {
    const err = /** @type {any} */ (e);
    if (err?.code === "ENOENT") throw new BundleError(`${where}: no ${MANIFEST} (not a mazzo bundle)`);
    throw new BundleError(`${where}: unreadable ${MANIFEST} (${err?.message ?? err})`);
  }
  checkManifest(manifest, where);
  const files = /** @type {Record<string, string>} */ (manifest.files);
  for (const name of Object.keys(files)) {
    if (!name || name.includes("/") || name.includes("\\") || name === "." || name === "..") {
      throw new BundleError(`${where}: ${MANIFEST} lists ${pyRepr(name)}, not a file name of the bundle`);
    }
  }
  /** @type {Map<string, Uint8Array>} */
  const cache = new Map();
  const readChecked = async (/** @type {string} */ name) => {
    if (cache.has(name)) return /** @type {Uint8Array} */ (cache.get(name));
    let bytes;
    try {
      bytes = await read(name);
    } catch (e) {
      throw new BundleError(`${where}: missing ${name} (listed in ${MANIFEST}): ${/** @type {Error} */ (e).message}`);
    }
    if (verify && name in files && (await sha256(bytes)) !== files[name]) {
      throw new BundleError(`${where}/${name}: sha256 differs from ${MANIFEST}'s: the file was changed`);
    }
    cache.set(name, bytes);
    return bytes;
  };
  if (verify === "all") for (const name of Object.keys(files)) await readChecked(name);
  const onnxFile = manifest.onnx.file;
  if (!(onnxFile in files)) throw new BundleError(`${where}: ${MANIFEST} names no checksummed ONNX file (${pyRepr(onnxFile)})`);
  const ort = options.ort ?? (await import("onnxruntime-web"));
  let session;
  try {
    session = await ort.InferenceSession.create(await readChecked(onnxFile), {
      executionProviders: ["wasm"], ...(options.sessionOptions ?? {}),
    });
  } catch (e) {
    if (e instanceof BundleError) throw e;
    throw new BundleError(`${where}/${onnxFile}: onnxruntime cannot open it (${/** @type {Error} */ (e).message})`);
  }
  const got = [session.inputNames, session.outputNames];
  const want = [(manifest.onnx.inputs ?? []).map((/** @type {any} */ i) => i.name),
    (manifest.onnx.outputs ?? []).map((/** @type {any} */ o) => o.name)];
  const same = JSON.stringify(got) === JSON.stringify(want)
    && JSON.stringify([...got[0]].sort()) === JSON.stringify(["mask", "obs"])
    && JSON.stringify([...got[1]].sort()) === JSON.stringify(["logits", "probs"]);
  if (!same) throw new BundleError(`${where}/${onnxFile}: inputs and outputs ${JSON.stringify(got)}, the manifest says ${JSON.stringify(want)}`);
  return new Bundle(where, manifest, session, ort, readChecked);
}

/**
 * @typedef {object} Choice
 * @property {number} action the action id
 * @property {string} label its protocol label now (`play Ac`, `bid solo`, `split 9`)
 * @property {string} actionLabel the manifest's label of the id (`card Ac`)
 * @property {{verb: string, arg: string|number}} event the D.3 verb and arg to send back
 * @property {Float32Array} probs the policy's probabilities over every action id
 * @property {Float32Array} logits the masked logits
 * @property {Record<string, number>} legal each legal label's probability
 */

/** A loaded bundle: its location, manifest and ONNX session. */
export class Bundle {
  /**
   * @param {string} location
   * @param {Record<string, any>} manifest
   * @param {any} session an onnxruntime-web InferenceSession
   * @param {any} ort the onnxruntime-web module
   * @param {(name: string) => Promise<Uint8Array>} read
   */
  constructor(location, manifest, session, ort, read) {
    this.location = location;
    this.manifest = manifest;
    this.session = session;
    this.ort = ort;
    this.read = read;
  }

  /** The game the bundle plays. */
  get game() { return /** @type {string} */ (this.manifest.game); }

  /** The rules flags the policy was trained for (every flag, resolved). */
  get flags() { return { ...this.manifest.flags }; }

  /**
   * The rules check: refuse unless the bundle fits `game` as this package encodes it and, when
   * given, the rules `flags` the page plays (defaults filled in). Mirrors `Bundle.check` of the
   * Python runtime, message for message.
   * @param {string} game
   * @param {Record<string, any>} [flags]
   * @throws {BundleError} naming each difference (bundle vs here)
   */
  check(game, flags) {
    const m = this.manifest;
    const info = /** @type {Record<string, any>|undefined} */ (GAMES[/** @type {keyof GAMES} */ (game)]);
    if (!info) throw new BundleError(`unknown game ${pyRepr(game)}; games: ${Object.keys(GAMES).join(", ")}`);
    if (m.game !== game) throw new BundleError(`${this.location} is a bundle for ${m.game}, not for ${game}`);
    const diffs = ["encoding_version", "obs_size", "num_actions"]
      .filter((key) => m[key] !== info[key])
      .map((key) => `${key} ${m[key]} (here ${info[key]})`);
    if (flags !== undefined) {
      const here = resolveFlags(game, flags);
      for (const [k] of flagDifferences(m.flags, here)) {
        diffs.push(`flag ${pyRepr(k)} ${k in m.flags ? pyRepr(m.flags[k], k) : pyRepr("absent")} (here ${k in here ? pyRepr(here[k], k) : pyRepr("absent")})`);
      }
    }
    if (diffs.length) throw new BundleError(`${this.location} does not fit this ${game}: ${diffs.join("; ")}`);
  }

  /**
   * The raw model: probabilities and masked logits for one observation and mask.
   * @param {Float32Array} obs
   * @param {Int8Array} mask
   * @returns {Promise<{probs: Float32Array, logits: Float32Array}>}
   */
  async run(obs, mask) {
    const { Tensor } = this.ort;
    const out = await this.session.run({
      obs: new Tensor("float32", obs, [1, obs.length]),
      mask: new Tensor("int8", mask, [1, mask.length]),
    });
    return { probs: /** @type {Float32Array} */ (out.probs.data), logits: /** @type {Float32Array} */ (out.logits.data) };
  }

  /**
   * The bot's move for the seat a tracker follows (it must be on turn): the most probable legal
   * action (the argmax of the logits, as the `onnx:` agent), or one drawn from the policy with
   * `sample: true`.
   * @param {{encode(): {obs: Float32Array, mask: Int8Array}, label(id: number): string, triple(id: number): {verb: string, arg: string|number}, game?: string}} tracker
   * @param {{sample?: boolean, random?: () => number}} [options]
   * @returns {Promise<Choice>}
   */
  async act(tracker, options = {}) {
    if (tracker.game && tracker.game !== this.game) throw new BundleError(`${this.location} is a bundle for ${this.game}, not for ${tracker.game}`);
    const { obs, mask } = tracker.encode();
    if (!mask.some((x) => x)) throw new BundleError("the tracked seat has no legal action now (not on turn, a reveal due, or the deal is over)");
    const { probs, logits } = await this.run(obs, mask);
    let action = 0;
    if (options.sample) {
      const random = options.random ?? Math.random;
      let total = 0;
      for (const p of probs) total += p;
      const u = random() * total;
      let cum = 0;
      action = probs.length - 1;
      for (let a = 0; a < probs.length; a++) {
        cum += probs[a];
        if (cum >= u && probs[a] > 0) { action = a; break; }
      }
    } else {
      for (let a = 1; a < logits.length; a++) if (logits[a] > logits[action]) action = a;
    }
    /** @type {Record<string, number>} */
    const legal = {};
    mask.forEach((x, a) => { if (x) legal[tracker.label(a)] = probs[a]; });
    return {
      action,
      label: tracker.label(action),
      actionLabel: this.manifest.action_labels?.[action] ?? tracker.label(action),
      event: tracker.triple(action),
      probs,
      logits,
      legal,
    };
  }

  /**
   * The bundle's test vectors (`test_vectors.jsonl`), parsed.
   * @returns {Promise<Array<Record<string, any>>>}
   */
  async testVectors() {
    const name = this.manifest.test_vectors?.file ?? "test_vectors.jsonl";
    const text = new TextDecoder().decode(await this.read(name));
    return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  }
}
