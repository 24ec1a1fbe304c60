/**
 * Words for the tool keyword index: lower-cased, split at anything but letters and digits and
 * at camelCase humps (`create_issue`, `parseConfig`), common words left out, each reduced to a
 * rough stem so that `emails`, `emailed` and `email` meet.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again all also am an and any are as at be been before being below between ' +
    'both but by can could did do does doing done down during each either for from further had has ' +
    'have having he her here hers him his how i if in into is it its itself just me more most much ' +
    'must my myself no nor not now of off on once only or other our ours out over own please same ' +
    'shall she should so some such than that the their theirs them then there these they this those ' +
    'through to too under until up upon us very was we were what when where which while who whom ' +
    'whose why will with within without would you your yours hi hello hey thanks thank ok okay yes ' +
    'tell know think want like need thing things something e g eg i.e'
  ).split(' '),
);

/** A rough stem: plural, -ing and -ed endings and a final e dropped, a doubled end undone. */
export function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.length > 5 && w.endsWith('ing')) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith('ed')) w = w.slice(0, -2);
  if (w.length > 3 && w.endsWith('e')) w = w.slice(0, -1);
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

/** The index words of `text`, in order, repeats kept (term frequency counts them). */
export function tokensOf(text: string): string[] {
  const words = text
    .normalize('NFKC')
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .toLowerCase()
    .match(/[\p{L}\p{N}]+/gu);
  if (!words) return [];
  const tokens: string[] = [];
  for (const word of words) {
    if (word.length < 2 || STOP_WORDS.has(word)) continue;
    tokens.push(stem(word));
  }
  return tokens;
}
