/**
 * How important a turn is, 0 to 1, from its text alone. Turns at or above
 * LONG_TERM_THRESHOLD are persisted to the long-term store; all turns go to short-term.
 *
 * - base 0.3;
 * - +0.35 when the user states something about themselves or asks to remember it
 *   ("remember", "my name is", "I prefer", "I'm allergic", "my birthday", "don't forget", …);
 * - +0.1 when the turn carries concrete facts (numbers, dates, e-mail addresses, URLs);
 * - +0.1 when the user's message is long (over 200 characters);
 * - −0.25 for small talk (greetings, thanks, "ok") that carries nothing to remember.
 */
export const LONG_TERM_THRESHOLD = 0.5;

const PERSONAL =
  /\b(remember|don'?t forget|note that|keep in mind|my name is|call me|i am|i'm|i live|i work|my (wife|husband|partner|son|daughter|kid|dog|cat|birthday|address|phone|email|job|boss|favou?rite)|i (like|love|hate|prefer|need|want|use|own)|i'?m allergic|allergic to|always|never)\b/i;
// Only whether a fact is present matters, so each alternative matches as little as proves it:
// an e-mail address is `x@host.t`, a URL `http://x`. Unbounded runs before the `@` (the old
// `[\w.+-]+@…`) made a long word without one take quadratic time.
const FACTS = /\d{2}|\b\d{1,2}[./-]\d{1,2}\b|[\w.+-]@[\w-]+\.[\w.]|https?:\/\/\S/;
const SMALL_TALK =
  /^(hi|hello|hey|yo|thanks?( you)?|thx|ok(ay)?|cool|nice|great|bye|good (morning|night|evening)|lol|sure|yes|no)[.!?\s]*$/i;

export function importanceOf(userText: string, assistantText = ''): number {
  const user = userText.trim();
  let score = 0.3;
  if (PERSONAL.test(user)) score += 0.35;
  if (FACTS.test(user) || FACTS.test(assistantText)) score += 0.1;
  if (user.length > 200) score += 0.1;
  if (SMALL_TALK.test(user)) score -= 0.25;
  return Math.round(Math.min(1, Math.max(0, score)) * 100) / 100;
}
