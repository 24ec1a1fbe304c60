import type { RunningGateway } from '@hearth/gateway';
import { Option, type Command } from 'commander';
import { CliError, errorMessage } from '../cli-error.ts';
import type { CommandContext } from '../deps.ts';
import { gatewayUrl } from '@hearth/gateway/reachable-url';
import { parsePort, VOICE_MODES, type VoiceMode } from '../options.ts';

export interface StartOptions {
  bind?: string;
  port?: number;
  background?: boolean;
  voiceMode?: VoiceMode;
}

/**
 * `hearth start`: run the gateway in this process (handed over to its own entry point), or
 * detached with --background.
 */
export function registerStart(program: Command, ctx: CommandContext): void {
  program
    .command('start')
    .description('start the gateway (in the foreground unless --background)')
    .option('--bind <host>', 'address to bind (overrides [gateway] host)')
    .option('--port <n>', 'port to listen on (overrides [gateway] port)', parsePort)
    .option('--background', 'run detached; logs go to {home}/gateway.log')
    .addOption(new Option('--voice-mode <mode>', 'voice input mode').choices(VOICE_MODES))
    .action(async (options: StartOptions) => {
      // Loaded only when used: the foreground start loads as little as it can before
      // tuneRuntime re-executes the process.
      if (options.background)
        await (await import('./start-background.ts')).startBackground(ctx, options);
      else await startForeground(ctx, options);
    });
}

/**
 * Runs the gateway in this process until a signal stops it. Resolves once start-up has
 * finished; a failed start-up stops the gateway and throws (exit 1).
 */
export async function startForeground(ctx: CommandContext, options: StartOptions): Promise<void> {
  const { deps } = ctx;
  // The gateway's entry point starts it as `npm start` does (the bundle, the port bound at once);
  // host audio (--voice-mode) is this command's own, so it keeps the gateway in this process.
  if (deps.handOverToGateway !== undefined && (options.voiceMode ?? 'off') === 'off')
    await deps.handOverToGateway(gatewayArgs(ctx, options));
  const runtime = deps.tuneRuntime();
  let running: RunningGateway;
  try {
    running = await deps.runGateway({
      runtime,
      env: deps.env,
      configPath: ctx.configPath(),
      host: options.bind,
      port: options.port,
      pretty: deps.isTTY,
      // `POST /mcp/spawn` starts `hearth mcp` with this very CLI.
      mcpServerCommand: { command: deps.execPath, args: [deps.binPath, 'mcp'] },
    });
  } catch (error) {
    throw new CliError(`could not start the gateway: ${errorMessage(error)}`);
  }
  deps.installSignalHandlers(running);
  const url = gatewayUrl(running.address.host, running.address.port);

  try {
    await running.gateway.whenReady();
  } catch (error) {
    await running.stop();
    const reason = running.gateway.startup.failure ?? errorMessage(error);
    throw new CliError(`start-up failed: ${reason}`);
  }
  deps.output.out(`Hearth is ready at ${url}${deps.isTTY ? ' (Ctrl+C to stop)' : ''}`);
  if (options.voiceMode !== undefined && options.voiceMode !== 'off')
    deps.output.out(await startVoiceMode(running, options.voiceMode));
}

/** main.ts's flags for this start (see its header). */
export function gatewayArgs(ctx: CommandContext, options: StartOptions): string[] {
  const args = ['--config', ctx.configPath(), '--announce'];
  if (options.bind !== undefined) args.push('--bind', options.bind);
  if (options.port !== undefined) args.push('--port', String(options.port));
  return args;
}

/**
 * `--voice-mode`: host audio. `continuous` and `wake` start listening on the host microphone;
 * `ptt` reports whether push-to-talk is ready (`hearth voice listen`, the web client, or POST
 * /voice/ptt/start). The gateway runs on without voice when the host has none, and says why.
 */
async function startVoiceMode(running: RunningGateway, mode: VoiceMode): Promise<string> {
  const voice = running.gateway.voice;
  try {
    // Voice engines are built on first use: this is the first.
    await voice.ready();
  } catch (error) {
    return `note: voice mode ${mode} is unavailable: ${errorMessage(error)}`;
  }
  const status = voice.status();
  if (mode === 'ptt')
    return status.ptt_available
      ? 'voice: push-to-talk is ready (hearth voice listen, or POST /api/v1/voice/ptt/start)'
      : 'note: voice mode ptt: push-to-talk is unavailable (no speech-to-text; run `hearth voice models pull`)';
  try {
    const { started, reason } = await voice.continuousStart({ wake: mode === 'wake' });
    // No microphone or speech-to-text is an answer (started: false, with the reason).
    if (!started)
      return `note: voice mode ${mode} is unavailable: ${reason ?? 'it could not start'}`;
    return mode === 'wake'
      ? 'voice: listening on the host microphone for the wake word'
      : 'voice: listening continuously on the host microphone';
  } catch (error) {
    return `note: voice mode ${mode} is unavailable: ${errorMessage(error)}`;
  }
}
