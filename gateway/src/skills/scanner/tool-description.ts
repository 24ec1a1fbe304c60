/**
 * A tool description is data for the model, not instructions to it. This reads one the way
 * the model will (skills' JSDoc and docstrings, schema descriptions, hub packages, MCP
 * servers' tools) and names what has no business there: hidden characters, instructions to
 * the assistant, requests for secrets, shell commands to run, and rules about *other* tools
 * (tool shadowing). It also caps the length the model is shown.
 */
import { hasInvisible, injectionPhrase, markersIn, normalise, secretRequest } from './markers.ts';
import { toolShadowing } from './tool-shadowing.ts';
import { hasVariationRun, hiddenTagText, countBidi, unconfuse } from './unicode.ts';

/** The longest description the model is shown; the rest is cut (and the owner is told). */
export const MAX_DESCRIPTION_CHARS = 1024;

export interface DescriptionIssue {
  rule: string;
  message: string;
}

/** The description as the model will see it: at most `MAX_DESCRIPTION_CHARS` characters. */
export function capDescription(text: string): { description: string; truncated: boolean } {
  if (text.length <= MAX_DESCRIPTION_CHARS) return { description: text, truncated: false };
  // Never split a surrogate pair.
  let end = MAX_DESCRIPTION_CHARS;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return { description: text.slice(0, end), truncated: true };
}

/** Lower-cased, invisible characters dropped, look-alike letters made Latin, spaces collapsed. */
export function readable(text: string): string {
  return unconfuse(normalise(text)).replaceAll('’', "'").replaceAll('`', ' ');
}

/** Phrases that ask the model to act without the user or the approval gate, in several languages. */
const NO_ASKING = [
  'never ask for confirmation',
  'do not ask for confirmation',
  "don't ask for confirmation",
  'without confirmation',
  'without asking',
  'answer approval prompts',
  'approve the prompt',
  'pre-approved',
  'already approved',
  'user already agreed',
  'the user already agreed',
  'user has already agreed',
  'silently run',
  'run silently',
  'sin preguntar',
  'ohne zu fragen',
  'ohne nachzufragen',
  'sans demander',
  'silencieusement',
  'senza chiedere',
  'do not mention it',
  "don't mention it",
  'no lo menciones',
  'erwähne es nicht',
  'keep this between us',
  '<important>',
  'before answering',
  'before replying',
  'before you respond',
  'before you answer',
  'secretly',
  'do not tell',
  "don't tell",
  'without telling',
];

const TRANSFER = [
  'read ',
  'send ',
  'pass ',
  'include ',
  'attach',
  'upload',
  'post ',
  'put ',
  'forward',
  'copy ',
  'contents',
  'content of',
  'cat ',
];

/** `$(curl …)`, `` `wget …` ``, `python -c "…exec…"`, `powershell -enc`, decode-and-pipe. */
const COMMAND_SHAPES = [
  '$(curl',
  '$(wget',
  'bash -c',
  'sh -c "$(',
  'powershell -enc',
  'powershell -e ',
  '-encodedcommand',
  'exec(base64',
  'exec(__import__',
  'b64decode(',
  'xxd -r',
  'base32 -d',
  'base32 --decode',
  'openssl enc -d',
  'rev | sh',
  'rev | bash',
];

const SHELLS = ['| sh', '|sh', '| bash', '|bash', '| zsh', '| python', '|python', '| iex', '|iex'];

/** A shell command with a real target (a URL, an address, or encoded bytes), not a topic. */
function concreteCommand(t: string): string | undefined {
  for (const hit of markersIn(t)) {
    if (hit.kind !== 'pipe-to-shell' && hit.kind !== 'reverse-shell') continue;
    const at = Math.max(0, t.indexOf(hit.marker));
    if (hasTarget(t.slice(Math.max(0, at - 200), at + hit.marker.length + 200))) return hit.marker;
  }
  for (const shape of COMMAND_SHAPES) {
    const at = t.indexOf(shape);
    if (at < 0) continue;
    const around = t.slice(Math.max(0, at - 200), at + 200);
    if (hasTarget(around) || SHELLS.some((s) => around.includes(s)) || shape.includes('exec('))
      return shape;
  }
  return undefined;
}

/** A URL with a host, a dotted IPv4 address, or a run of 16+ base64/hex characters. */
export function hasTarget(t: string): boolean {
  // `scheme://host`: found from each `://`, so a long run of letters costs one pass.
  for (let at = t.indexOf('://'); at >= 0; at = t.indexOf('://', at + 3)) {
    const scheme = /[a-z][a-z0-9+.-]{0,15}$/i.exec(t.slice(Math.max(0, at - 16), at));
    if (scheme && /^[a-z0-9[]/i.test(t.slice(at + 3, at + 4))) return true;
  }
  if (/\b\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}\b/.test(t)) return true;
  // Encoded bytes: a long token of base64 or hex characters with both letters and digits.
  for (const token of t.split(/[\s'"|;()]+/)) {
    if (
      token.length >= 16 &&
      /^[a-z0-9+/=_-]+$/i.test(token) &&
      /[0-9]/.test(token) &&
      /[a-z]/i.test(token)
    )
      return true;
  }
  return false;
}

/**
 * What is wrong with one description, read as the model reads it. `own` holds the names of
 * the tools of the same package (a description may point to its siblings).
 */
export function checkDescription(text: string, own: ReadonlySet<string>): DescriptionIssue[] {
  const issues: DescriptionIssue[] = [];
  const add = (rule: string, message: string) => {
    if (!issues.some((i) => i.rule === rule)) issues.push({ rule, message });
  };
  if (countBidi(text) > 0 || hasInvisible(text) || hiddenTagText(text) || hasVariationRun(text))
    add('description.hidden-text', 'holds invisible or direction-changing characters');
  const t = readable(text);
  const phrase = injectionPhrase(t) ?? NO_ASKING.find((p) => t.includes(p));
  if (phrase) add('description.instruction', `tells the model: "${phrase}"`);
  const request = secretRequest(t);
  if (request) add('description.secret-request', `asks the model for secrets: "${request}"`);
  // A credential file named with something to do with it: read it, pass it, send it…
  const secretPath = markersIn(t).find((h) => h.kind === 'sensitive-path');
  const doWith = secretPath ? TRANSFER.find((v) => t.includes(v)) : undefined;
  if (secretPath && doWith)
    add(
      'description.secret-path',
      `asks to ${doWith.trim()} the credential file ${secretPath.marker}`,
    );
  const command = concreteCommand(t);
  if (command) add('description.command', `carries a shell command: ${command.slice(0, 80)}`);
  const shadowing = toolShadowing(t, own);
  if (shadowing) add('description.tool-shadowing', shadowing);
  return issues;
}
