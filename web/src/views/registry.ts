import type { ComponentType } from 'preact';
import type { ApprovalsState } from '../approvals-state.ts';
import type { ChatState } from '../chat-state.ts';
import type { SessionsState } from '../sessions-state.ts';
import { ChatPage } from './chat-page.tsx';

/** What the shell hands every view (a view takes the parts it needs, or none). */
export interface ViewProps {
  chat: ChatState;
  approvals: ApprovalsState;
  conversations: ConversationsProps;
}

/** The conversations beside the chat: the list, the one shown, switching and starting one. */
export interface ConversationsProps {
  sessions: SessionsState;
  current: string;
  onSwitch: (id: string) => void;
  onNew: () => void;
}

/** The navigation's groups, in the order they are shown. */
export const GROUPS = ['Chat', 'Decide', 'Watch', 'Configure'] as const;
export type ViewGroup = (typeof GROUPS)[number];

export type ViewComponent = ComponentType<ViewProps>;

/**
 * One view: its address (`#id`), its link's label, its group, its `g` shortcut letter and its
 * component — `component` for the one view the page opens on, `load` (a dynamic import, its
 * own chunk) for every other. `badge` is a count shown on the link (none when 0).
 */
export interface ViewEntry {
  id: string;
  label: string;
  group: ViewGroup;
  key?: string;
  component?: ViewComponent;
  load?: () => Promise<ViewComponent>;
  badge?: (props: ViewProps) => number;
}

/**
 * Every view, one line each, in navigation order within its group. Adding a view is adding
 * its line here: the navigation, the `g` shortcuts, the shortcuts dialog and
 * `npm run screenshots` all follow this list.
 */
// prettier-ignore
const ENTRIES: ViewEntry[] = [
  { id: 'chat', label: 'Chat', group: 'Chat', key: 'c', component: ChatPage },
  { id: 'canvas', label: 'Canvas', group: 'Chat', key: 'v', load: () => import('./canvas.tsx').then((m) => m.CanvasView) },
  { id: 'approvals', label: 'Approvals', group: 'Decide', key: 'a', load: () => import('./approvals.tsx').then((m) => m.ApprovalsView), badge: (p) => p.approvals.pending.length },
  { id: 'skills', label: 'Skills', group: 'Decide', key: 'k', load: () => import('./skills.tsx').then((m) => m.SkillsView) },
  { id: 'hub', label: 'Hub', group: 'Decide', key: 'h', load: () => import('./hub.tsx').then((m) => m.HubView) },
  { id: 'status', label: 'Status', group: 'Watch', key: 's', load: () => import('./status.tsx').then((m) => m.StatusView) },
  { id: 'usage', label: 'Usage', group: 'Watch', key: 'g', load: () => import('./usage.tsx').then((m) => m.UsageView) },
  { id: 'privacy', label: 'Privacy', group: 'Watch', key: 'y', load: () => import('./privacy.tsx').then((m) => m.PrivacyView) },
  { id: 'logs', label: 'Live log', group: 'Watch', key: 'l', load: () => import('./logs.tsx').then((m) => m.LogsView) },
  { id: 'settings', label: 'Settings', group: 'Configure', key: 't', load: () => import('./settings.tsx').then((m) => m.SettingsView) },
  { id: 'setup', label: 'Setup', group: 'Configure', key: 'u', load: () => import('./setup.tsx').then((m) => m.SetupView) },
  { id: 'memory', label: 'Memory', group: 'Configure', key: 'm', load: () => import('./memory.tsx').then((m) => m.MemoryView) },
  { id: 'plugins', label: 'Plugins', group: 'Configure', key: 'p', load: () => import('./plugins.tsx').then((m) => m.PluginsView) },
  { id: 'mcp', label: 'MCP servers', group: 'Configure', key: 'x', load: () => import('./mcp.tsx').then((m) => m.McpView) },
  { id: 'channels', label: 'Channels', group: 'Configure', key: 'n', load: () => import('./channels.tsx').then((m) => m.ChannelsView) },
  { id: 'orchestrator', label: 'Orchestrator', group: 'Configure', key: 'o', load: () => import('./orchestrator.tsx').then((m) => m.OrchestratorView) },
];

/**
 * The registry as the shell uses it, made safe against a bad line: an entry whose id repeats
 * one before it, or is not a plain lower-case word, is left out; a shortcut letter already
 * taken (or not a single lower-case letter) is dropped, the view keeping its link.
 */
export function validViews(entries: readonly ViewEntry[]): ViewEntry[] {
  const ids = new Set<string>();
  const keys = new Set<string>();
  const views: ViewEntry[] = [];
  for (const entry of entries) {
    if (!/^[a-z][a-z0-9-]*$/.test(entry.id) || ids.has(entry.id)) continue;
    if (!entry.component && !entry.load) continue;
    ids.add(entry.id);
    const key =
      entry.key && /^[a-z]$/.test(entry.key) && !keys.has(entry.key) ? entry.key : undefined;
    if (key) keys.add(key);
    views.push({ ...entry, key });
  }
  return views;
}

export const VIEWS: readonly ViewEntry[] = validViews(ENTRIES);

/** The view a location hash names (`#memory`, `#/memory`), or the first view. */
export function viewOf(hash: string): ViewEntry {
  const id = hash.replace(/^#\/?/, '');
  return VIEWS.find((view) => view.id === id) ?? VIEWS[0]!;
}
