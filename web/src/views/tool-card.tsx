import type { ToolCard } from '../chat-state.ts';

/** The arguments as indented JSON (already text when the gateway cut them at 8 KiB). */
function argumentsText(tool: ToolCard): string {
  if (typeof tool.arguments === 'string') return tool.arguments;
  return JSON.stringify(tool.arguments ?? {}, null, 2);
}

/**
 * A tool call of the turn, collapsed to one line (its name and state) until opened: then its
 * arguments and what it returned. All of it is text: nothing the model or the tool wrote is
 * read as markup.
 */
export function ToolCallCard(props: { tool: ToolCard }) {
  const { tool } = props;
  const state = !tool.result ? 'running…' : tool.result.ok ? 'done' : 'failed';
  return (
    <details class="tool-card">
      <summary>
        Tool <code class="tool-name">{tool.name}</code>{' '}
        <span class={`tool-state ${tool.result && !tool.result.ok ? 'failed' : ''}`}>{state}</span>
      </summary>
      <p class="tool-label">Arguments{tool.argumentsTruncated ? ' (cut at 8 KiB)' : ''}</p>
      <pre class="tool-text" tabIndex={0}>
        <code>{argumentsText(tool)}</code>
      </pre>
      {tool.result ? (
        <>
          <p class="tool-label">
            {tool.result.ok ? 'Output' : 'Error'}
            {tool.result.truncated ? ' (cut at 8 KiB)' : ''}
          </p>
          <pre class="tool-text" tabIndex={0}>
            <code>{tool.result.output || '(nothing)'}</code>
          </pre>
        </>
      ) : null}
    </details>
  );
}
