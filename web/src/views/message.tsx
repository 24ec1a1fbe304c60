import { useEffect, useMemo, useRef } from 'preact/hooks';
import type { ApprovalsState } from '../approvals-state.ts';
import type { ChatMessage } from '../chat-state.ts';
import { copyFromClick, highlightBlocks } from '../code-blocks.ts';
import { renderMarkdown } from '../markdown.ts';
import '../rich-replies.css';
import { InlineApprovalCard } from './inline-approval.tsx';
import { ReplySources } from './reply-sources.tsx';
import { ToolCallCard } from './tool-card.tsx';

/** A reply: sanitised markdown, code blocks coloured once it is complete, Copy buttons live. */
function Reply(props: { message: ChatMessage }) {
  const { message } = props;
  const body = useRef<HTMLDivElement>(null);
  // Rendered again only when the text changes (the pending approvals' poll re-renders the list).
  const html = useMemo(() => renderMarkdown(message.text), [message.text]);
  useEffect(() => {
    if (!message.streaming && body.current) void highlightBlocks(body.current);
  }, [html, message.streaming]);
  return (
    <>
      <div
        class="markdown"
        ref={body}
        // Sanitised by DOMPurify in renderMarkdown; the Copy buttons are delegated here.
        dangerouslySetInnerHTML={{ __html: html }}
        onClick={(event) => void copyFromClick(event)}
      />
      <ReplySources sources={message.sources} memories={message.memories} />
    </>
  );
}

/** One entry of the conversation: a message, a reply, a tool card or an inline approval. */
export function Message(props: { message: ChatMessage; approvals?: ApprovalsState }) {
  const { message, approvals } = props;
  const role = message.role === 'approval' ? 'approval request' : message.role;
  return (
    <li class={`message ${message.role}`}>
      <span class="visually-hidden">{role}: </span>
      {message.role === 'assistant' ? (
        <Reply message={message} />
      ) : message.tool ? (
        <ToolCallCard tool={message.tool} />
      ) : message.approval ? (
        <InlineApprovalCard approval={message.approval} approvals={approvals} />
      ) : (
        <p>{message.text}</p>
      )}
    </li>
  );
}
