/**
 * What a scan learned about a module, language-neutral: where it touches the network, the
 * environment, sensitive files, the shell, decoders… The combination rules (`combine.ts`)
 * turn co-occurring facts into findings, so each language pass only records what it sees.
 */
import type { MarkerHit } from './markers.ts';

export interface MarkerAt extends MarkerHit {
  line: number;
  /** Found in prose that warns or teaches about it, with nothing to run (see `advice.ts`). */
  advice?: boolean;
}

/** Text the model reads as a tool's description (JSDoc, docstring, `description:`). */
export interface DescriptionAt {
  text: string;
  line: number;
  /** Only checked for hidden characters and commands (the raw text of a JSDoc block). */
  hiddenOnly?: boolean;
}

export interface ModuleFacts {
  network: number[];
  /** The whole environment read (serialised, spread, iterated, indexed by a variable). */
  envWhole: number[];
  /** One variable whose name looks like a credential (`…_TOKEN`, `AWS_…`, `…KEY`). */
  envSecret: number[];
  fileRead: number[];
  fileWrite: number[];
  chmod: number[];
  /** Runs code or a process: eval, Function, import(<expression>), vm, child processes. */
  runsCode: number[];
  /** Decodes a long literal blob (`Buffer.from(…,'base64')`, `atob`, `b64decode`). */
  decodesBlob: number[];
  /** A string spelled out of character codes or escapes (`String.fromCharCode(…)`, `chr(…)`). */
  spelledOut: number[];
  /** A long encoded literal (base64 or hex) sitting in the source. */
  blob: number[];
  /** A process's standard streams wired to something (`sock.pipe(sh.stdin)`, `os.dup2`). */
  pipesStdio: number[];
  /** Facts about the machine and user (hostname, user name, network interfaces). */
  hostInfo: number[];
  /** The module reads its own code (`readFileSync(new URL(import.meta.url))`, `open(__file__)`). */
  selfRead: number[];
  /** Lists a folder or walks a tree (`readdir`, `os.listdir`, `glob`). */
  dirWalk: number[];
  /** Names a skill's code file (`skill.mjs`, `skill.py`). */
  codeTarget: number[];
  /** A code file extension on its own (`.mjs`): what a walk for code files filters on. */
  codeExtension: number[];
  /** Starts a path at the user's home or profile folder (`homedir()`, `expanduser('~')`). */
  homePath: number[];
  /** An address given as bare IPv4 digits (`http://203.0.113.7/`, `'203.0.113.' + n`). */
  bareIp: number[];
  markers: MarkerAt[];
  descriptions: DescriptionAt[];
  /** The names of the module's own tools (a description may point to its siblings). */
  ownTools: string[];
}

export function emptyFacts(): ModuleFacts {
  return {
    network: [],
    envWhole: [],
    envSecret: [],
    fileRead: [],
    fileWrite: [],
    chmod: [],
    runsCode: [],
    decodesBlob: [],
    spelledOut: [],
    blob: [],
    pipesStdio: [],
    hostInfo: [],
    selfRead: [],
    dirWalk: [],
    codeTarget: [],
    codeExtension: [],
    homePath: [],
    bareIp: [],
    markers: [],
    descriptions: [],
    ownTools: [],
  };
}

const SECRET_WORDS = [
  'KEY',
  'TOKEN',
  'SECRET',
  'PASSWORD',
  'PASSWD',
  'CREDENTIAL',
  'AWS_',
  'NPM_',
  'GITHUB',
  'GH_',
  'OPENAI',
  'ANTHROPIC',
  'PRIVATE',
  'SESSION',
  'COOKIE',
  'HEARTH',
  'AUTH',
];

/** An environment variable name that looks like it holds a credential. */
export function isSecretName(name: string): boolean {
  const upper = name.toUpperCase();
  return SECRET_WORDS.some((w) => upper.includes(w));
}

const BASE64 = /^[A-Za-z0-9+/=_-]+$/;
const HEX = /^[0-9a-fA-F]+$/;

/** A literal long enough and alphabet-pure enough to be an encoded payload (no backtracking). */
export function isEncodedBlob(value: string, minLength = 120): boolean {
  if (value.length < minLength) return false;
  return HEX.test(value) || (BASE64.test(value) && hasMixedCase(value));
}

function hasMixedCase(value: string): boolean {
  let upper = false;
  let lower = false;
  for (let i = 0; i < value.length && !(upper && lower); i++) {
    const c = value.charCodeAt(i);
    if (c >= 65 && c <= 90) upper = true;
    else if (c >= 97 && c <= 122) lower = true;
  }
  return upper && lower;
}

/** How many `\x..` / `\u....` escapes the raw text of a literal holds. */
export function countEscapes(raw: string): number {
  let count = 0;
  for (let at = raw.indexOf('\\'); at >= 0; at = raw.indexOf('\\', at + 2)) {
    const next = raw[at + 1];
    if (next === 'x' || next === 'u') count++;
  }
  return count;
}

/** A skill's code file (`skill.mjs`, `…/skill.py`). */
export function namesSkillFile(value: string): boolean {
  return /(^|[\\/\s'"`])skill\.(mjs|cjs|js|py)\b/.test(value.trim().toLowerCase());
}

/** A code file extension on its own (`name.endsWith('.mjs')`). */
export function isCodeExtension(value: string): boolean {
  return ['.mjs', '.js', '.cjs', '.py', '.ts'].includes(value.trim().toLowerCase());
}

/** A string that starts with an IPv4 address or its first three parts (`203.0.113.`), URL or not. */
export function startsWithBareIp(value: string): boolean {
  return /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:\d{1,3}\.){3}(?:\d{1,3})?(?:[:/?]|$)/i.test(value.trim());
}
