/**
 * The Python pass (the seed `skill.py` format): no Python runs; the source is lexed
 * (`python-lexer.ts`) and read line by line with plain substring tests on the code, comments
 * dropped, so `# never touch ~/.ssh` is inert while `open(os.path.expanduser('~/.ssh/id_rsa'))`
 * is not.
 */
import { countEscapes, isEncodedBlob, isSecretName, type ModuleFacts } from './facts.ts';
import type { FindingSink } from './findings.ts';
import { decodeLiteral, type LiteralEncoding } from './decode-literal.ts';
import { injectionPhrase, secretRequest } from './markers.ts';
import { lexPython, type PyString } from './python-lexer.ts';
import { recordText } from './text-facts.ts';
import { hasInvisibleInName, scanUnicode } from './unicode.ts';

const BLOCKED_IMPORTS = new Set([
  'subprocess',
  'ctypes',
  'pty',
  'cffi',
  'importlib',
  'marshal',
  'code',
  'runpy',
]);
const NETWORK_IMPORTS = new Set([
  'requests',
  'urllib',
  'urllib2',
  'urllib3',
  'http',
  'httpx',
  'aiohttp',
  'smtplib',
  'ftplib',
  'paramiko',
  'websocket',
  'websockets',
  'dns',
  'telnetlib',
]);

/** Calls as they appear in code; a match needs a non-identifier character before it. */
const RUN_CALLS = [
  'pickle.loads(',
  'pickle.load(',
  'marshal.loads(',
  'dill.loads(',
  'exec(',
  'eval(',
  'compile(',
  '__import__(',
  'execfile(',
  'os.system(',
  'os.popen(',
  'os.execv',
  'os.execl',
  'os.spawn',
  'os.posix_spawn',
  'pty.spawn(',
  'os.startfile(',
];
// `import socket` alone is not network (gethostname); connecting is.
const NETWORK_CALLS = [
  '.connect((',
  'socket.getaddrinfo(',
  'requests.',
  'urlopen(',
  'urlretrieve(',
  'urllib.request',
  'http.client',
  'httpx.',
  'aiohttp.',
  'socket.socket(',
  'socket.create_connection(',
  'smtplib.',
  'socket.gethostbyname(',
  'dns.resolver',
];
const READ_CALLS = [
  'open(',
  '.read_text(',
  '.read_bytes(',
  'os.listdir(',
  'os.walk(',
  'glob.glob(',
  'os.scandir(',
  'shutil.copy',
  '.iterdir(',
  '.glob(',
  'sqlite3.connect(',
  'shutil.copyfile(',
];
const WRITE_CALLS = ['.write_text(', '.write_bytes(', '.write(', 'urlretrieve(', 'shutil.copy'];
const CHMOD_CALLS = ['os.chmod(', '.chmod(', 'stat.s_iexec'];
const DECODE_CALLS = [
  'b64decode(',
  'b32decode(',
  'b85decode(',
  'a85decode(',
  'bytes.fromhex(',
  'unhexlify(',
  'zlib.decompress(',
  'marshal.loads(',
  'codecs.decode(',
  'lzma.decompress(',
  'bz2.decompress(',
];
const HOST_INFO = [
  'socket.gethostname(',
  'getpass.getuser(',
  'platform.node(',
  'os.getlogin(',
  'os.uname(',
  'platform.uname(',
];
const HIDDEN_GLOBALS = [
  'builtins.__dict__',
  'getattr(builtins',
  'builtins.exec',
  'builtins.eval',
  '__builtins__',
  'globals()[',
  'vars(__builtins',
  'getattr(os,',
  'getattr(sys,',
  'getattr(builtins',
  'sys.modules[',
];

export function scanPython(source: string, facts: ModuleFacts, sink: FindingSink): void {
  const { codeLines, strings } = lexPython(source);
  const stringsByLine = new Map<number, PyString[]>();
  for (const s of strings) {
    const list = stringsByLine.get(s.line);
    if (list) list.push(s);
    else stringsByLine.set(s.line, [s]);
  }
  const identifiers: { name: string; line: number }[] = [];
  let usesChr = false;
  let usesSocket = false;
  const dup2: number[] = [];
  const numberLists: number[] = [];

  codeLines.forEach((code, index) => {
    const at = index + 1;
    const trimmed = code.trim();
    for (const mod of importedModules(trimmed)) {
      const root = mod.split('.')[0]!;
      if (BLOCKED_IMPORTS.has(root)) {
        sink.add('blocked.module', at, 'critical', `import ${mod} is blocked`);
        facts.runsCode.push(at);
      }
      if (NETWORK_IMPORTS.has(root)) facts.network.push(at);
      if (root === 'socket') usesSocket = true;
    }
    const lower = code.toLowerCase();
    for (const call of RUN_CALLS) {
      if (hasCall(code, call)) {
        sink.add(runRule(call), at, 'critical', `${call.replace('(', '')} runs code or a command`);
        facts.runsCode.push(at);
      }
    }
    if (NETWORK_CALLS.some((c) => hasCall(code, c))) facts.network.push(at);
    if (READ_CALLS.some((c) => hasCall(code, c))) facts.fileRead.push(at);
    if (
      WRITE_CALLS.some((c) => hasCall(code, c)) ||
      (hasCall(code, 'open(') && (stringsByLine.get(at) ?? []).some(isWriteMode))
    )
      facts.fileWrite.push(at);
    if (CHMOD_CALLS.some((c) => lower.includes(c))) facts.chmod.push(at);
    if (DECODE_CALLS.some((c) => hasCall(code, c))) facts.decodesBlob.push(at);
    if (HIDDEN_GLOBALS.some((c) => code.includes(c))) {
      sink.add(
        'obfuscation.computed-global',
        at,
        'high',
        'reaches builtins or modules by a computed name',
      );
    }
    if (HOST_INFO.some((c) => hasCall(code, c))) facts.hostInfo.push(at);
    if (code.includes('os.dup2(')) dup2.push(at);
    if (code.includes('.fileno()')) facts.pipesStdio.push(at);
    if (hasCall(code, 'chr(')) {
      usesChr = true;
      if (countOccurrences(code, 'chr(') >= 8) {
        sink.add('obfuscation.charcode-chain', at, 'high', 'chr() spells a string out of numbers');
        facts.spelledOut.push(at);
      }
    }
    if (countIntegers(code) >= 16) numberLists.push(at);
    envSeen(code, at);
    pathsSeen(code, at);
    // Its functions and their parameters are the module's own names (a docstring may cite them).
    const def = /^\s*(?:async\s+)?def\s+([^\s(]+)\s*\(([^)]*)/.exec(code);
    if (def) {
      facts.ownTools.push(def[1]!);
      for (const param of def[2]!.split(','))
        facts.ownTools.push(param.replace(/[*:=].*$|\*/g, '').trim());
    }
    for (const name of code.match(
      /[\p{L}_\u3164\u115f\u1160\uffa0][\p{L}\p{N}\p{Mn}_\u200c\u200d]*/gu,
    ) ?? [])
      identifiers.push({ name, line: at });
    if (hasInvisibleInName(code.replace(/\s/g, '')))
      sink.add(
        'unicode.invisible-identifier',
        at,
        'critical',
        'the code holds an invisible character',
      );
  });
  scanUnicode(
    { source, literals: strings.map((s) => ({ raw: s.raw, line: s.line })), identifiers },
    sink,
  );

  if (usesChr) {
    for (const at of numberLists) {
      sink.add(
        'obfuscation.charcode-chain',
        at,
        'high',
        'a list of character codes turned into a string',
      );
      facts.spelledOut.push(at);
    }
  }
  if (usesSocket) {
    for (const at of dup2) {
      sink.add(
        'reverse-shell.socket-dup2',
        at,
        'critical',
        'os.dup2 wires standard streams to a socket',
      );
      facts.runsCode.push(at);
    }
  }

  strings.forEach((s, k) => {
    const describes = s.triple || isDescriptionSlot(s.before, strings[k - 1]);
    recordText(facts, s.value, s.line, { description: describes });
    if (describes) facts.descriptions.push({ text: s.value, line: s.line });
    if (
      strings[k - 1]?.value.toLowerCase() === 'name' &&
      s.before.replaceAll(' ', '').endsWith(':')
    )
      facts.ownTools.push(s.value);
    const encoding = decoderBefore(s.before, strings[k + 1]);
    const decoded = encoding ? decodeLiteral(s.value, encoding) : undefined;
    if (decoded !== undefined) recordText(facts, decoded, s.line, { description: false });
    if (isEncodedBlob(s.value)) facts.blob.push(s.line);
    if (countEscapes(s.raw) >= 8) {
      sink.add(
        'obfuscation.escaped-string',
        s.line,
        'high',
        'a string literal spelled in \\x/\\u escapes',
      );
      facts.spelledOut.push(s.line);
    }
    const phrase = injectionPhrase(s.value);
    const request = describes && phrase === undefined ? secretRequest(s.value) : undefined;
    if (request)
      sink.add(
        'injection.secret-request',
        s.line,
        'high',
        `a docstring or description asks the model for secrets: "${request}"`,
      );
    if (phrase) {
      if (describes) {
        sink.add(
          'injection.tool-description',
          s.line,
          'high',
          `a docstring or description tells the model: "${phrase}"`,
        );
      } else {
        sink.add('injection.string', s.line, 'medium', `a string tells the model: "${phrase}"`);
      }
    }
  });

  /** Its own code read, folders listed, paths from the home folder. */
  function pathsSeen(code: string, at: number): void {
    if (
      code.includes('inspect.getsource(') ||
      (code.includes('__file__') &&
        !code.includes('.parent') &&
        !code.includes('dirname(') &&
        ['open(', '.read_text(', '.read_bytes(', 'shutil.copy', 'copyfile('].some((c) =>
          code.includes(c),
        ))
    )
      facts.selfRead.push(at);
    if (
      [
        'os.listdir(',
        'os.walk(',
        'os.scandir(',
        'glob.glob(',
        '.glob(',
        '.rglob(',
        '.iterdir(',
      ].some((c) => code.includes(c))
    )
      facts.dirWalk.push(at);
    if (
      [
        "expanduser('~",
        'expanduser("~',
        'Path.home(',
        '.home()',
        "getenv('LOCALAPPDATA",
        'getenv("LOCALAPPDATA',
        "getenv('APPDATA",
        'getenv("APPDATA',
        "environ['HOME",
        'environ["HOME',
        "getenv('HOME",
        'getenv("HOME',
        'USERPROFILE',
      ].some((c) => code.includes(c))
    )
      facts.homePath.push(at);
  }

  function envSeen(code: string, at: number): void {
    const lineStrings = stringsByLine.get(at) ?? [];
    const secretKey = lineStrings.some((s) => isSecretName(s.value));
    if (
      code.includes('os.getenv(') ||
      code.includes('os.environ.get(') ||
      code.includes('os.environ[')
    ) {
      if (secretKey) facts.envSecret.push(at);
    }
    for (
      let from = code.indexOf('os.environ');
      from >= 0;
      from = code.indexOf('os.environ', from + 10)
    ) {
      const next = code.slice(from + 10, from + 15);
      if (next.startsWith('[') || next.startsWith('.get(')) {
        if (!lineStrings.length && next.startsWith('[')) facts.envWhole.push(at); // indexed by a variable
        continue;
      }
      facts.envWhole.push(at);
    }
  }
}

function runRule(call: string): string {
  if (call.startsWith('os.') || call.startsWith('pty.')) return 'blocked.shell';
  if (call.includes('.load')) return 'blocked.deserialise';
  return 'blocked.eval';
}

function importedModules(trimmed: string): string[] {
  if (trimmed.startsWith('import ')) {
    return trimmed
      .slice(7)
      .split(',')
      .map((part) => part.trim().split(' ')[0]!)
      .filter(Boolean);
  }
  if (trimmed.startsWith('from ')) {
    const mod = trimmed.slice(5).trim().split(' ')[0];
    return mod ? [mod] : [];
  }
  return [];
}

function isIdentChar(c: string | undefined): boolean {
  return (
    c !== undefined &&
    ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_')
  );
}

/**
 * `needle` appears in `code` not glued to a longer name (`exec(` is not `execute(`). Method
 * forms (`base64.b64decode(`, `builtins.exec(`) count, except for names that are innocent
 * as methods: `re.compile(` is not `compile(`.
 */
function hasCall(code: string, needle: string): boolean {
  const methodIsInnocent = INNOCENT_AS_METHOD.has(needle);
  for (let at = code.indexOf(needle); at >= 0; at = code.indexOf(needle, at + 1)) {
    const before = code[at - 1];
    if (needle.startsWith('.') || (!isIdentChar(before) && !(methodIsInnocent && before === '.')))
      return true;
  }
  return false;
}

const INNOCENT_AS_METHOD = new Set(['compile(', 'open(', 'eval(']);

function countOccurrences(code: string, needle: string): number {
  let count = 0;
  for (let at = code.indexOf(needle); at >= 0; at = code.indexOf(needle, at + needle.length))
    count++;
  return count;
}

/** Integer literals in a line of code (a character-code list has many). */
function countIntegers(code: string): number {
  let count = 0;
  let inNumber = false;
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    const digit = c >= '0' && c <= '9';
    if (digit && !inNumber && !isIdentChar(code[i - 1])) count++;
    inNumber = digit || (inNumber && isIdentChar(c));
  }
  return count;
}

const WRITE_MODES = new Set(['w', 'wb', 'w+', 'a', 'ab', 'a+', 'x', 'xb', 'r+', 'rb+', 'wt', 'at']);

function isWriteMode(s: PyString): boolean {
  return WRITE_MODES.has(s.value);
}

const DESCRIPTION_SLOTS = ['description', '__doc__', 'prompt', 'instructions', 'summary'];

/** `description="…"`, `{"description": "…"}`, `__doc__ = "…"`: text the model reads. */
function isDescriptionSlot(before: string, previous: PyString | undefined): boolean {
  const t = before.replaceAll(' ', '').toLowerCase();
  if (t.endsWith('=') && DESCRIPTION_SLOTS.some((k) => t.endsWith(`${k}=`))) return true;
  return (
    (t.endsWith(`'':`) || t.endsWith('"":')) &&
    previous !== undefined &&
    DESCRIPTION_SLOTS.includes(previous.value.toLowerCase())
  );
}

const DECODERS: ReadonlyArray<[string, LiteralEncoding]> = [
  ['b64decode(', 'base64'],
  ['urlsafe_b64decode(', 'base64'],
  ['b32decode(', 'base32'],
  ['fromhex(', 'hex'],
  ['unhexlify(', 'hex'],
];

/** The encoding a literal is decoded from where it stands (`b64decode("…")`, `codecs.decode("…", "rot13")`). */
function decoderBefore(before: string, next: PyString | undefined): LiteralEncoding | undefined {
  const t = before.replaceAll(' ', '');
  for (const [call, encoding] of DECODERS)
    if (t.endsWith(call) || t.endsWith(`${call}b`)) return encoding;
  if (t.endsWith('codecs.decode(') || t.endsWith('decode(')) {
    const codec = next?.value.toLowerCase().replace('_', '');
    if (codec === 'rot13') return 'rot13';
    if (codec === 'hex') return 'hex';
    if (codec === 'base64') return 'base64';
  }
  return undefined;
}
