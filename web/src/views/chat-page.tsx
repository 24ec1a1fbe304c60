import { ChatView } from './chat.tsx';
import type { ViewProps } from './registry.ts';
import { ConversationsLayout } from './sessions.tsx';

/** The Chat view: the conversations list beside the conversation shown. */
export function ChatPage(props: ViewProps) {
  const { conversations } = props;
  return (
    <ConversationsLayout
      sessions={conversations.sessions}
      current={conversations.current}
      onSwitch={conversations.onSwitch}
      onNew={conversations.onNew}
    >
      <ChatView chat={props.chat} approvals={props.approvals} />
    </ConversationsLayout>
  );
}
