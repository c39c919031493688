// Types of mazzo-bot (hand-written; the code is plain ES modules with JSDoc in src/).

/** A rule flag's value (`players: 3`, `aperta: false`, `allowed_contracts: ["chiamo", ...]`). */
export type FlagValue = boolean | number | string | Array<string | number>;
export type Flags = Record<string, FlagValue>;

/** A `mazzo-bot/1` message as the seat-session client sends it (docs/protocol.md). */
export type ProtocolMessage =
  | { type: "deal"; game?: string; dealer: number; private: Record<string, unknown>; id?: string | number }
  | { type: "event"; game?: string; seat: number; verb: string; arg: string | number | null; id?: string | number }
  | ({ type: "reveal"; game?: string; id?: string | number } & Record<string, unknown>)
  | { type: string; [key: string]: unknown };

/** What the server's `tracked` answer says after a message. */
export interface Tracked {
  step: number;
  /** the seat on turn, -1 after the end, null while a reveal is due */
  to_play: number | null;
  /** the reveal keys owed before the next event */
  due: string[];
  over: boolean;
}

export class TrackerError extends Error {
  code: "bad_field" | "impossible" | "not_implemented";
  constructor(code: TrackerError["code"], message: string);
}

export class BundleError extends Error {
  constructor(message: string);
}

export const BUNDLE_FORMAT: "mazzo-bundle/1";
export const DEFAULT_FLAGS: Readonly<Record<string, Readonly<Flags>>>;
export const GAMES: Readonly<Record<string, Readonly<{ encoding_version: number; obs_size: number; num_actions: number; tracker: boolean }>>>;

/** Every flag of `game` with its value: `flags` over the defaults. Throws on an unknown flag or a bad value. */
export function resolveFlags(game: string, flags?: Flags): Flags;
/** A value as Python's `repr` writes it (`True`, `'x'`, `[1, 2]`). */
export function pyRepr(value: unknown, flag?: string): string;
/** `[flag, first, second]` for every flag whose values differ, in name order. */
export function flagDifferences(first: Record<string, unknown>, second: Record<string, unknown>): Array<[string, unknown, unknown]>;
/** The hex sha256 of `bytes` (WebCrypto). */
export function sha256(bytes: Uint8Array | ArrayBuffer): Promise<string>;
/** Check a manifest's format and required fields; returns it. */
export function checkManifest(manifest: unknown, where: string): Record<string, any>;
/** A reader of a bundle folder's files (fetch, or the file system under Node). */
export function folderReader(location: string | URL, fetchFn?: typeof fetch): (name: string) => Promise<Uint8Array>;

export interface LoadOptions {
  /** sha256 of the files read (true, the default), of every listed file ("all"), or none (false) */
  verify?: boolean | "all";
  /** how to read a file of the bundle (default: fetch relative to the location; fs under Node) */
  read?: (name: string) => Promise<Uint8Array>;
  fetch?: typeof fetch;
  /** the onnxruntime-web module (default: `import("onnxruntime-web")`) */
  ort?: unknown;
  /** extra options of `InferenceSession.create` */
  sessionOptions?: Record<string, unknown>;
}

/** Load the bundle in folder `location`: manifest, sha256, the ONNX model. */
export function loadBundle(location: string | URL, options?: LoadOptions): Promise<Bundle>;

/** What a tracker gives the bundle to act on. */
export interface Actor {
  game?: string;
  encode(): { obs: Float32Array; mask: Int8Array };
  label(id: number): string;
  triple(id: number): { verb: string; arg: string | number };
}

export interface Choice {
  /** the action id */
  action: number;
  /** its protocol label now (`play Ac`, `bid solo`, `pass`, `split 9`) */
  label: string;
  /** the manifest's label of the id (`card Ac`) */
  actionLabel: string;
  /** the D.3 verb and arg to send back as the seat's event */
  event: { verb: string; arg: string | number };
  /** the policy's probabilities over every action id (0 on illegal ones) */
  probs: Float32Array;
  /** the masked logits */
  logits: Float32Array;
  /** each legal label's probability */
  legal: Record<string, number>;
}

export class Bundle {
  constructor(location: string, manifest: Record<string, any>, session: unknown, ort: unknown, read: (name: string) => Promise<Uint8Array>);
  readonly location: string;
  readonly manifest: Record<string, any>;
  readonly session: any;
  readonly game: string;
  readonly flags: Flags;
  /** The rules check (mazzo's `Bundle.check`): throws a BundleError naming each difference. */
  check(game: string, flags?: Flags): void;
  /** The raw model on one observation and mask. */
  run(obs: Float32Array, mask: Int8Array): Promise<{ probs: Float32Array; logits: Float32Array }>;
  /** The bot's move for the tracked seat (on turn): argmax of the logits, or sampled. */
  act(tracker: Actor, options?: { sample?: boolean; random?: () => number }): Promise<Choice>;
  /** The bundle's test vectors. */
  testVectors(): Promise<Array<Record<string, any>>>;
}

export interface CalabresellaView {
  seat: number;
  position: number;
  nPlayers: number;
  dealer: number;
  seatOf: number[];
  phase: number;
  toPlay: number;
  legal: number[];
  hand: number[];
  partnerHand: number[];
  bids: Array<[number, number]>;
  noChiamo: boolean;
  contract: number;
  soloist: number;
  called: number;
  giver: number;
  returned: number;
  knownMonte: number[];
  discards: number[];
  splitD1: number[];
  splitD2: number[];
  trick: number[];
  leader: number;
  playedBy: number[][];
  void: number[];
  piles: number[][];
  tricksWon: number[];
  nTricks: number;
  totals: number[];
  target: number;
}

/** One seat's knowledge of a Calabresella deal, fed with seat-session messages. */
export class CalabresellaTracker implements Actor {
  constructor(options: { seat: number; flags?: Flags; totals?: number[] });
  readonly game: "calabresella";
  readonly seat: number;
  readonly flags: Flags;
  readonly step: number;
  readonly due: Set<string>;
  /** Feed a message (object or JSON line); null for a type it ignores. */
  feed(message: ProtocolMessage | string): Tracked | null;
  tracked(): Tracked;
  deal(dealer: number, priv: { hands: string[][]; no_chiamo?: boolean }): void;
  event(seat: number, verb: string, arg: string | number | null): void;
  reveal(fields: Record<string, unknown>): void;
  isOver(): boolean;
  toPlay(): number;
  legalMask(): Int8Array;
  legalActions(): number[];
  label(id: number): string;
  triple(id: number): { verb: string; arg: string | number };
  view(): CalabresellaView;
  encode(): { obs: Float32Array; mask: Int8Array };
}

export type Tracker = CalabresellaTracker | MinchiateTracker;

/**
 * A seat tracker of `game`: Calabresella (`totals`: match totals per seat) or Minchiate
 * (`seriesResti`: team A's banked resti in a series).
 */
export function createTracker(game: "calabresella", options: { seat: number; flags?: Flags; totals?: number[] }): CalabresellaTracker;
export function createTracker(game: "minchiate", options: { seat: number; flags?: Flags; seriesResti?: number }): MinchiateTracker;
export function createTracker(game: string, options: { seat: number; flags?: Flags; totals?: number[]; seriesResti?: number }): Tracker;

export namespace calabresella {
  const GAME: "calabresella";
  const ENCODING_VERSION: 1;
  const OBS_SIZE: 720;
  const NUM_ACTIONS: 62;
  const CARDS: readonly string[];
  const PHASES: readonly string[];
  const CONTRACTS: readonly string[];
  function parseCard(code: unknown): number;
  function actionLabel(id: number, phase?: number): string;
  function encode(view: CalabresellaView): { obs: Float32Array; mask: Int8Array };
  export { CalabresellaTracker };
}

export interface MinchiateView {
  seat: number;
  phase: number;
  toPlay: number;
  dealer: number;
  cutter: number;
  hand: number[];
  discards: number[];
  robbed: number[];
  stopCard: number;
  faceup: number[];
  dealerRobbed: number[];
  dealerTaken: number[];
  declared: Array<{ seat: number; kind: number; members: number[] }>;
  folaKnown: number[];
  folaExposed: boolean;
  offered: { kind: number; members: number[] } | null;
  trick: number[];
  leader: number;
  led: number;
  playedBy: number[][];
  suitsLed: number;
  piles: number[][];
  mattoOwner: number;
  mattoDebt: boolean;
  D: number;
  R: number;
  nTricks: number;
  seriesResti: number;
  restiUnit: number;
  legal: number[];
}

/** A Minchiate combination (RULES.md M-9): kind (an index of `minchiate.COMBOS`), members, points, the Matto's bonus. */
export interface MinchiateCombo {
  kind: number;
  members: number[];
  points: number;
  bonus: number;
}

/** One seat's knowledge of a Minchiate deal, fed with seat-session messages. */
export class MinchiateTracker implements Actor {
  constructor(options: { seat: number; flags?: Flags; seriesResti?: number });
  readonly game: "minchiate";
  readonly seat: number;
  readonly flags: Flags;
  readonly step: number;
  readonly due: Set<string>;
  /** Feed a message (object or JSON line); null for a type it ignores. */
  feed(message: ProtocolMessage | string): Tracked | null;
  tracked(): Tracked;
  /** `private`: hand, robbed, stop, faceup, dealer_robbed, dealer_taken (and fola for the dealer). */
  deal(dealer: number, priv: { hand: string[]; robbed: string[]; stop: string; faceup: Array<string | null>; dealer_robbed: string[]; dealer_taken: string[]; fola?: string[] }): void;
  /** `arg` null for another seat's discard; `declare`/`skip` for a declaration. */
  event(seat: number, verb: string, arg: string | null): void;
  /** `declaring` (`"S<n>"` or null), `declared` (combinations), `void` (boolean), `fola` (13 codes). */
  reveal(fields: Record<string, unknown>): void;
  isOver(): boolean;
  toPlay(): number;
  legalMask(): Int8Array;
  legalActions(): number[];
  label(id: number): string;
  triple(id: number): { verb: string; arg: string };
  /** The combination the seat is offered on its DECLARE turn, else null. */
  offered(): MinchiateCombo | null;
  view(): MinchiateView;
  encode(): { obs: Float32Array; mask: Int8Array };
}

/** Minchiate: the cards, labels, combinations, the seat tracker and the encoder of encoding.md 3. */
export namespace minchiate {
  const GAME: "minchiate";
  const ENCODING_VERSION: 1;
  const OBS_SIZE: 2572;
  const NUM_ACTIONS: 99;
  const CARDS: readonly string[];
  const PHASES: readonly string[];
  const COMBOS: readonly string[];
  function parseCard(code: unknown): number;
  function actionLabel(id: number, phase?: number): string;
  /** Every combination in `holder` in M-9.7 order (`diecine`, the Matto bonus, `matto_bonus_in_own_combo`). */
  function findCombos(holder: Set<number>, diecine?: string, mattoBonus?: boolean, bonusOwn?: boolean): MinchiateCombo[];
  function encode(view: MinchiateView): { obs: Float32Array; mask: Int8Array };
  export { MinchiateTracker };
}
