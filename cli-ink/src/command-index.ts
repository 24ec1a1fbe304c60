import type { Command } from 'commander';
import type { CommandContext } from './deps.ts';

export type Register = (program: Command, ctx: CommandContext) => void;

/** One top-level command: what `hearth --help` lists for it, and how to load it. */
export interface CommandEntry {
  name: string;
  /** What the help lists after the name (`[options]`, the arguments). */
  usage: string;
  /** The one-line description the command registers. */
  summary: string;
  /** Registered but left out of the help. */
  hidden?: boolean;
  load: () => Promise<Register>;
}

/**
 * Every top-level command, in the order of `--help`. Only the command that runs is loaded, so
 * `hearth status` does not load the gateway, the chat client or Ink; `--help` and an unknown
 * command load none (program.ts lists them from here). command-index.test.ts checks that each
 * usage and summary is what the loaded command registers.
 */
export const COMMANDS: readonly CommandEntry[] = [
  {
    name: 'start',
    usage: '[options]',
    summary: 'start the gateway (in the foreground unless --background)',
    load: async () => (await import('./commands/start.ts')).registerStart,
  },
  {
    name: 'stop',
    usage: '[options]',
    summary: 'stop the running gateway',
    load: async () => (await import('./commands/stop.ts')).registerStop,
  },
  {
    name: 'status',
    usage: '[options]',
    summary: 'show the running gateway’s status',
    load: async () => (await import('./commands/status.ts')).registerStatus,
  },
  {
    name: 'dashboard',
    usage: '[options]',
    summary: 'live dashboard: status, approvals, usage, memory, channels, log and chat',
    load: async () => (await import('./commands/dashboard.ts')).registerDashboard,
  },
  {
    name: 'setup',
    usage: '[options]',
    summary: 'first run: pick a provider, its key and models, check it live, write config.toml',
    load: async () => (await import('./commands/setup.ts')).registerSetup,
  },
  {
    name: 'config',
    usage: '',
    summary: 'show, create or edit config.toml',
    load: async () => (await import('./commands/config/index.ts')).registerConfig,
  },
  {
    name: 'backup',
    usage: '',
    summary: 'archives of the state directory: create, list, verify, restore',
    load: async () => (await import('./commands/backup/index.ts')).registerBackup,
  },
  {
    name: 'approvals',
    usage: '',
    summary: 'the approval gate for shell and browser tools',
    load: async () => (await import('./commands/approvals.ts')).registerApprovals,
  },
  {
    name: 'channels',
    usage: '',
    summary: 'messaging channels (Telegram, WhatsApp, Discord, Slack, Matrix, Signal, webhooks)',
    load: async () => (await import('./commands/channels.ts')).registerChannels,
  },
  {
    name: 'chat',
    usage: '[options]',
    summary: 'chat with the agent (interactive, or one message with -m)',
    load: async () => (await import('./commands/chat.ts')).registerChat,
  },
  {
    name: 'hub',
    usage: '',
    summary: 'packages installed from https: or data: URLs (scanned, checksummed)',
    load: async () => (await import('./commands/hub/index.ts')).registerHub,
  },
  {
    name: 'mcp',
    usage: '',
    summary:
      'serve the running gateway’s tools as an MCP server on stdio (for editors and desktop apps)',
    load: async () => (await import('./commands/mcp/index.ts')).registerMcp,
  },
  {
    name: 'memory',
    usage: '',
    summary: 'the memory: search, prune, edit, clear, archive, the embedding model',
    load: async () => (await import('./commands/memory/index.ts')).registerMemory,
  },
  {
    name: 'migrate',
    usage: '[options] <predecessor>',
    summary: 'bring over a predecessor’s state directory (neuralcleave)',
    load: async () => (await import('./commands/migrate/index.ts')).registerMigrate,
  },
  {
    name: 'models',
    usage: '',
    summary: 'LLM providers and their status',
    load: async () => (await import('./commands/models.ts')).registerModels,
  },
  {
    name: 'orchestrate',
    usage: '',
    summary: 'orchestrator nodes that route tasks to models, each with its own memory',
    load: async () => (await import('./commands/orchestrate.ts')).registerOrchestrate,
  },
  {
    name: 'plugins',
    usage: '',
    summary: 'plugins: skills that export a Plugin class',
    load: async () => (await import('./commands/plugins/index.ts')).registerPlugins,
  },
  {
    name: 'skills',
    usage: '',
    summary: 'skills: write, review, quarantine, delete',
    load: async () => (await import('./commands/skills/index.ts')).registerSkills,
  },
  {
    name: 'tools',
    usage: '',
    summary: 'the agent’s tools',
    load: async () => (await import('./commands/tools.ts')).registerTools,
  },
  {
    name: 'usage',
    usage: '[options]',
    summary: 'tokens and estimated cost per model since the gateway started',
    load: async () => (await import('./commands/usage.ts')).registerUsage,
  },
  {
    name: 'features',
    usage: '[options]',
    summary: 'list the optional features (on/off), or add them: features add voice',
    load: async () => (await import('./commands/features.ts')).registerFeatures,
  },
  {
    name: 'version',
    usage: '[options]',
    summary: 'print the version',
    load: async () => (await import('./commands/version.ts')).registerVersion,
  },
  {
    name: 'voice',
    usage: '',
    summary: 'talk to the agent: push-to-talk, wake word, voice models',
    load: async () => (await import('./commands/voice/index.ts')).registerVoice,
  },
  {
    name: 'update',
    usage: '[options]',
    summary:
      'ask the git repository Hearth was cloned from for a newer release (never updates by itself)',
    load: async () => (await import('./commands/update.ts')).registerUpdate,
  },
  {
    name: 'open',
    usage: '[options]',
    summary: 'open the web client in the browser (prints the URL when there is no desktop)',
    load: async () => (await import('./commands/open.ts')).registerOpen,
  },
  {
    name: 'tray',
    usage: '[options]',
    summary: 'not offered: no maintained tray library (see README)',
    hidden: true,
    load: async () => (await import('./commands/tray.ts')).registerTray,
  },
  {
    name: 'cloud',
    usage: '',
    summary: 'run Hearth on a VPS: check the host, generate a compose + Caddy bundle',
    load: async () => (await import('./commands/cloud/index.ts')).registerCloud,
  },
  {
    name: 'autostart',
    usage: '',
    summary: 'start the gateway at login (systemd user unit on Linux, launchd agent on macOS)',
    load: async () => (await import('./commands/autostart/index.ts')).registerAutostart,
  },
];
