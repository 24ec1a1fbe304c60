export const SUMMARY_PROMPT =
  'You write concise, factual summaries of conversations for long-term memory. Keep names, ' +
  'facts, preferences, decisions and open tasks; drop small talk. Write plain prose, at most ' +
  '200 words, in the language of the conversation.';

/** What the summariser asks of the model router (providers/router.ts `generate`). */
export interface SummaryModel {
  generate(request: {
    system: string;
    messages: { role: 'user'; content: string }[];
    complexity: 'simple';
    maxOutputTokens: number;
  }): Promise<{ text: string }>;
}

/** Summarises a transcript for long-term memory with a simple-tier model (up to 800 tokens). */
export function createSummariser(model: SummaryModel): (text: string) => Promise<string> {
  return async (text) =>
    (
      await model.generate({
        system: SUMMARY_PROMPT,
        messages: [{ role: 'user', content: text }],
        complexity: 'simple',
        maxOutputTokens: 800,
      })
    ).text;
}
