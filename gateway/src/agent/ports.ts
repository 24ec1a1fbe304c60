/**
 * The agent area's public face: the live sessions of this process (the event bus announces
 * their presence to other gateways). Other areas import only this file.
 */
export type {
  ConversationStore,
  PresenceListener,
  SessionConnection,
  SessionState,
} from './conversations.ts';
