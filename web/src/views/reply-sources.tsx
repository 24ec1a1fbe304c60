import type { ChatMessage } from '../chat-state.ts';

/**
 * Under a reply: the pages web search cited and the memories the turn recalled, each a
 * collapsed list ("3 sources", "2 memories used") that opens from the keyboard.
 */
export function ReplySources(props: Pick<ChatMessage, 'sources' | 'memories'>) {
  const { sources, memories } = props;
  if (!sources?.length && !memories?.length) return null;
  return (
    <div class="reply-sources">
      {sources?.length ? (
        <details class="sources">
          <summary>
            {sources.length} {sources.length === 1 ? 'source' : 'sources'}
          </summary>
          <ul>
            {sources.map((source) => (
              <li key={source.url}>
                <a href={source.url} target="_blank" rel="noopener noreferrer">
                  {source.title ?? source.url}
                </a>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {memories?.length ? (
        <details class="sources memories">
          <summary>
            {memories.length} {memories.length === 1 ? 'memory' : 'memories'} used
          </summary>
          <ul>
            {memories.map((memory, i) => (
              <li key={i}>
                <span class="memory-tier">{memory.source}</span>
                {memory.untrusted ? <span class="memory-untrusted">untrusted</span> : null}{' '}
                {memory.content}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}
