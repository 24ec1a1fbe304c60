const STOPWORDS = new Set(
  'about above after again against also among another because been before being below between both could does doing down during each either from further have having here hers herself himself into itself just more most much must myself once only other ought ours ourselves over same shall should some such than that their theirs them themselves then there these they this those through under until upon very what when where which while whom whose with within without would your yours yourself yourselves tell please know think want like make thing things something'.split(
    ' ',
  ),
);

/** The most distinctive words of a query (longest first), for the long-term substring search. */
export function keywordsOf(text: string, max = 3): string[] {
  const words = text
    .toLowerCase()
    .normalize('NFKC')
    .match(/[\p{L}\p{N}][\p{L}\p{N}'-]{3,}/gu);
  if (!words) return [];
  const unique = [...new Set(words.filter((w) => !STOPWORDS.has(w)))];
  return unique.sort((a, b) => b.length - a.length).slice(0, max);
}
