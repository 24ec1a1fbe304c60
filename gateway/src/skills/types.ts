/**
 * The skills area's port types (ports.ts, its public face, re-exports them): layer 1 (validation at write/proposal time), layer 2 (the hub
 * scanner), layer 3 (the isolated skill host), and the store the hub installs through.
 * Types only; each adapter lives in its own folder (validate/, scanner/, host/, store/).
 */

/** `skill.mjs` (or `skill.js`): an ES module; `skill.py`: the seed format, run out of process. */
export type SkillKind = 'mjs' | 'py';

/**
 * The gateway tools a skill may ask for while one of its calls runs (`shell()` / `browser()` of
 * `hearth:skill`), declared in its code and recorded in its manifest. Each request runs the
 * gateway's own tool, behind its approval gate.
 */
export const SKILL_CAPABILITIES = ['shell', 'browser'] as const;
export type SkillCapability = (typeof SKILL_CAPABILITIES)[number];

/**
 * Runs one of the gateway's gated tools for the call in progress; rejects when the skill did
 * not declare it. Given per call by the store, which knows the turn (session, signal).
 */
export type HostToolCall = (method: string, params: Record<string, unknown>) => Promise<string>;

/** A tool a skill exports, as the model sees it. */
export interface SkillToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

/** A blocked module or construct, with where it is: the 422 `detail` names both. */
export interface SkillProblem {
  /** e.g. `import 'child_process'`, `eval`, `new Function`, `import(<expression>)`. */
  construct: string;
  line: number;
  message: string;
}

export interface ValidationResult {
  ok: boolean;
  problems: SkillProblem[];
  /** The tools the module would export (empty when it does not parse). */
  tools: SkillToolSpec[];
  /** What it declares (`export const capabilities = […]`, `CAPABILITIES = […]`); none when absent. */
  capabilities?: SkillCapability[];
}

/** Layer 1: parse and reject blocked modules and constructs. Cannot be overridden. */
export type ValidateSkill = (source: string, kind: SkillKind) => Promise<ValidationResult>;

export type ScanSeverity = 'low' | 'medium' | 'high' | 'critical';

export interface ScanFinding {
  /** A stable rule id, e.g. `exfil.env-to-network`, `obfuscation.charcode-chain`. */
  rule: string;
  line: number;
  severity: ScanSeverity;
  message: string;
}

export interface ScanResult {
  /** True when any finding is high or critical: the install is blocked unless forced. */
  flagged: boolean;
  findings: ScanFinding[];
}

/** Layer 2: the package scanner (hub installs, `POST /hub/scan`). */
export type ScanPackage = (source: string, kind: SkillKind) => ScanResult;

/** A scanner that may load itself first (checks.ts imports the scanner on its first call). */
export type ScanPackageOrLoad = (
  source: string,
  kind: SkillKind,
) => ScanResult | Promise<ScanResult>;

/** Where a skill's code lives and what it may touch. */
export interface SkillHostOptions {
  name: string;
  kind: SkillKind;
  /** `{data_dir}/skills/<name>`: read-only for the skill. */
  dir: string;
  /** The only folder the skill may write: `{data_dir}/skill-data/<name>`. */
  dataDir: string;
  /**
   * The skill's manifest grants network access: then the gateway fetches for it (skill-fetch.ts),
   * and only https URLs of the `hosts` it declares; its host itself never has a network.
   */
  network: boolean;
  /**
   * The owner set `"without_wall": true` in the skill's skill.json by hand: where no wall
   * exists, this one skill is hosted anyway (loudly). Never set by an install or a review.
   */
  withoutWall?: boolean;
  /** The host names (optionally `name:port`) its manifest declares; empty or absent: no network. */
  hosts?: readonly string[];
  /** Told why, when a host of the skill is stopped for going over a resource limit. */
  onLimit?: (reason: string) => void;
}

/** Layer 3: a skill running outside the gateway process behind the isolation walls. */
export interface SkillHost {
  readonly tools: readonly SkillToolSpec[];
  /** Calls a tool; a crash, timeout or oversized output rejects with a tool error. */
  call(
    tool: string,
    args: Record<string, unknown>,
    options?: {
      signal?: AbortSignal;
      timeoutMs?: number;
      /** Answers the skill's requests for gateway tools during this call (none: all refused). */
      hostTools?: HostToolCall;
    },
  ): Promise<string>;
  close(): Promise<void>;
}

export interface SkillIsolation {
  /** e.g. `bubblewrap+permission`, `permission`, `sidecar`: shown in `/status` backends. */
  readonly description: string;
  /** Skill host processes running now (idle ones are stopped): shown in `/status`. */
  running?(): number;
  /** The resource limits hosts run under, or `unavailable: <why>`: `/status` `skill_limits`. */
  readonly resources?: string;
  start(options: SkillHostOptions): Promise<SkillHost>;
}

export type SkillState = 'active' | 'quarantined' | 'disabled' | 'error';

export interface InstalledSkill {
  name: string;
  kind: SkillKind;
  state: SkillState;
  tools: string[];
  /** Why it did not load, when `state` is `error`. */
  load_error: string | null;
  /** `trusted` (POST /skills, CLI), `review` (an approved proposal), or the hub URL. */
  origin: string;
  version: string;
  tags: string[];
}

/** The skills store as the hub and the plugins routes use it. */
export interface SkillCatalog {
  list(): InstalledSkill[];
  get(name: string): InstalledSkill | undefined;
  /** Validates (layer 1), writes, and hot-loads; throws HearthError('validation') on a rejection. */
  install(input: {
    name: string;
    kind: SkillKind;
    source: string;
    origin: string;
    version?: string;
    tags?: string[];
  }): Promise<InstalledSkill>;
  setEnabled(name: string, enabled: boolean): Promise<InstalledSkill>;
  remove(name: string): Promise<boolean>;
  reload(name?: string): Promise<InstalledSkill[]>;
}
