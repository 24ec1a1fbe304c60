/**
 * What a piece of text tells the combination rules, wherever it was found (a literal, a
 * concatenation, a decoded blob): markers (flagged as advice when the text only warns about
 * them), a skill's code file named, a bare IP address.
 */
import { isAdvice } from './advice.ts';
import { isCodeExtension, namesSkillFile, startsWithBareIp, type ModuleFacts } from './facts.ts';
import { markersIn } from './markers.ts';

export function recordText(
  facts: ModuleFacts,
  value: string,
  line: number,
  options: { description: boolean },
): void {
  for (const hit of markersIn(value)) {
    const advice = !options.description && isAdvice(value, hit);
    facts.markers.push({ ...hit, line, ...(advice ? { advice } : {}) });
  }
  if (namesSkillFile(value)) facts.codeTarget.push(line);
  if (isCodeExtension(value)) facts.codeExtension.push(line);
  if (startsWithBareIp(value)) facts.bareIp.push(line);
}
