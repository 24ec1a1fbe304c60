import { parseJsDoc } from '../../validate/jsdoc.ts';
import { injectionPhrase } from '../markers.ts';
import type { ScanRule } from './contract.ts';

/** Block comments read like instructions to the model (line comments are inert). */
export const commentInjection: ScanRule<'injection.comment'> = {
  meta: {
    name: 'comment-injection',
    description: 'a block comment tells the model what to do',
    findings: { 'injection.comment': 'high' },
  },
  create(context) {
    return {
      Program() {
        for (const comment of context.comments) {
          if (comment.type !== 'Block') continue;
          // A JSDoc block becomes a tool's description: the model reads it.
          if (comment.value.startsWith('*')) {
            const line = comment.loc?.start.line ?? 1;
            const doc = parseJsDoc(comment.value);
            context.facts.descriptions.push({ text: doc.description, line });
            for (const [name, schema] of Object.entries(doc.parameters.properties)) {
              context.facts.ownTools.push(name);
              const text = (schema as { description?: unknown }).description;
              if (typeof text === 'string') context.facts.descriptions.push({ text, line });
            }
            // What parseJsDoc leaves out (`@example`, other tags) is still shown to a reader.
            context.facts.descriptions.push({ text: comment.value, line, hiddenOnly: true });
          }
          const phrase = injectionPhrase(comment.value);
          if (phrase)
            context.report(
              'injection.comment',
              comment.loc?.start.line ?? 1,
              `a block comment tells the model: "${phrase}"`,
            );
        }
      },
    };
  },
};
