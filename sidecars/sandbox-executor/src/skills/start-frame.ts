/**
 * The first message of a `GET /skills/host` socket: what to run and with which files.
 *
 *   { "name": "weather", "kind": "mjs" | "py", "network": false,
 *     "files":   { "skill.mjs": "<base64>", "data/cities.json": "<base64>", … },
 *     "runtime": { "runtime.mjs": "<base64>", "skill-api.mjs": "<base64>", "runtime.py": "<base64>" },
 *     "max_old_space_mb": 128 }
 *
 * `files` is the skill's folder (read-only for the skill); `runtime` is the gateway's skill
 * runtime, sent by the gateway so the protocol spoken on the lines is always its own. Every
 * name is checked (relative, plain segments, no `.` or `..`, no empty segment, bounded depth
 * and length); sizes and counts are capped; unknown fields are refused.
 */

export interface SkillFile {
  /** Relative path with `/` separators, already checked. */
  path: string;
  bytes: Buffer;
}

export interface SkillStart {
  name: string;
  kind: 'mjs' | 'py';
  /**
   * Accepted for older gateways and logged, never honoured: no skill host gets a network (the
   * gateway makes a skill's requests itself and records them).
   */
  network: boolean;
  files: SkillFile[];
  runtime: SkillFile[];
  maxOldSpaceMb: number;
}

export interface StartFrameLimits {
  /** Total decoded bytes of `files` and `runtime`. */
  maxTotalBytes: number;
  maxFiles: number;
}

export const DEFAULT_START_LIMITS: StartFrameLimits = {
  maxTotalBytes: 4 * 1024 * 1024,
  maxFiles: 256,
};

export const SKILL_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/;
const MAX_DEPTH = 8;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const RUNTIME_FILES = new Set(['runtime.mjs', 'skill-api.mjs', 'runtime.py']);
const FIELDS = new Set(['name', 'kind', 'network', 'files', 'runtime', 'max_old_space_mb']);
const ENTRY_FILES = { mjs: ['skill.mjs', 'skill.js'], py: ['skill.py'] } as const;

export type StartFrameResult = { ok: true; start: SkillStart } | { ok: false; detail: string };

/** A relative path made of plain segments, or why not. */
export function checkPath(path: string): string | null {
  if (path.length === 0 || path.length > 512) return 'must be 1 to 512 characters';
  const segments = path.split('/');
  if (segments.length > MAX_DEPTH) return `is nested deeper than ${MAX_DEPTH} folders`;
  for (const segment of segments) {
    if (segment === '..' || segment === '.') return 'may not contain . or .. segments';
    if (!SEGMENT.test(segment))
      return 'must be relative, made of letters, digits, ".", "_" and "-" (no leading dot)';
  }
  return null;
}

function decodeFiles(
  field: string,
  value: unknown,
  budget: { bytes: number; files: number },
): SkillFile[] | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return `${field} must be an object of path → base64`;
  const files: SkillFile[] = [];
  for (const [path, content] of Object.entries(value as Record<string, unknown>)) {
    budget.files -= 1;
    if (budget.files < 0) return 'too many files';
    const problem = checkPath(path);
    if (problem) return `${field}: the name ${JSON.stringify(path.slice(0, 80))} ${problem}`;
    if (typeof content !== 'string' || !BASE64.test(content))
      return `${field}: ${path} must be base64`;
    const bytes = Buffer.from(content, 'base64');
    budget.bytes -= bytes.length;
    if (budget.bytes < 0) return 'the files are larger than allowed';
    files.push({ path, bytes });
  }
  return files;
}

export function parseStartFrame(
  text: string,
  limits: StartFrameLimits = DEFAULT_START_LIMITS,
): StartFrameResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { ok: false, detail: 'the first message must be a JSON object (the skill to start)' };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return { ok: false, detail: 'the first message must be a JSON object (the skill to start)' };
  const frame = body as Record<string, unknown>;
  const unknown = Object.keys(frame).filter((key) => !FIELDS.has(key));
  if (unknown.length > 0)
    return { ok: false, detail: `unknown field ${JSON.stringify(unknown[0]!.slice(0, 64))}` };
  if (typeof frame.name !== 'string' || !SKILL_NAME.test(frame.name))
    return { ok: false, detail: 'name must be 1 to 64 of a-z, 0-9, _ and -' };
  if (frame.kind !== 'mjs' && frame.kind !== 'py')
    return { ok: false, detail: 'kind must be "mjs" or "py"' };
  if (frame.network !== undefined && typeof frame.network !== 'boolean')
    return { ok: false, detail: 'network must be a boolean' };
  const heap = frame.max_old_space_mb ?? 128;
  if (typeof heap !== 'number' || !Number.isInteger(heap) || heap < 16 || heap > 4096)
    return { ok: false, detail: 'max_old_space_mb must be an integer from 16 to 4096' };
  const budget = { bytes: limits.maxTotalBytes, files: limits.maxFiles };
  const files = decodeFiles('files', frame.files, budget);
  if (typeof files === 'string') return { ok: false, detail: files };
  const runtime = decodeFiles('runtime', frame.runtime, budget);
  if (typeof runtime === 'string') return { ok: false, detail: runtime };
  const stray = runtime.find((file) => !RUNTIME_FILES.has(file.path));
  if (stray) return { ok: false, detail: `runtime: ${stray.path} is not a runtime file` };
  const entry = frame.kind === 'py' ? 'runtime.py' : 'runtime.mjs';
  if (!runtime.some((file) => file.path === entry))
    return { ok: false, detail: `runtime: ${entry} is missing` };
  if (
    !files.some((file) =>
      (ENTRY_FILES[frame.kind as 'mjs' | 'py'] as readonly string[]).includes(file.path),
    )
  )
    return {
      ok: false,
      detail: `files: ${ENTRY_FILES[frame.kind].join(' or ')} is missing`,
    };
  return {
    ok: true,
    start: {
      name: frame.name,
      kind: frame.kind,
      network: frame.network === true,
      files,
      runtime,
      maxOldSpaceMb: heap,
    },
  };
}
