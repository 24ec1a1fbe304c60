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
