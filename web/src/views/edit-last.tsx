import type { ChatMessage } from '../chat-state.ts';

/**
 * Above the composer: "Edit last message" (puts it back in the composer, to be sent in place of
 * the old exchange), or, while editing, a note with Cancel.
 */
export function EditLastBar(props: {
  messages: ChatMessage[];
  busy: boolean;
  editing: boolean;
  onEdit: (text: string) => void;
  onCancel: () => void;
}) {
  const lastUser = props.messages.findLast((m) => m.role === 'user');
  if (props.editing) {
    return (
      <p class="edit-bar" role="status">
        Editing your last message: sending it replaces that exchange.{' '}
        <button type="button" class="link" onClick={props.onCancel}>
          Cancel edit
        </button>
      </p>
    );
  }
  if (!lastUser || props.busy) return null;
  return (
    <p class="edit-bar">
      <button type="button" class="link" onClick={() => props.onEdit(lastUser.text)}>
        Edit last message
      </button>
    </p>
  );
}
