import type { HearthEnvironment, RunningGateway, RunOptions, RuntimeReport } from '@hearth/gateway';
import type { GatewayFetch } from './gateway-client.ts';
import type { Output } from './output.ts';

/** Everything the commands take from outside; main.ts passes the real ones, tests fakes. */
export interface CliDeps {
  env: HearthEnvironment;
  output: Output;
  /** stdout is a terminal: human-readable gateway logs in the foreground. */
  isTTY: boolean;
  /** The Node binary and this CLI's bin script, to spawn `start --background`'s gateway. */
  execPath: string;
  binPath: string;
  fetch: typeof fetch;
  /**
   * The gateway client's HTTP (main.ts: node:http, which a short command loads much faster
   * than fetch); `fetch` when absent.
   */
  gatewayFetch?: GatewayFetch;
  /** Where interactive commands read lines from, and write their prompts to. */
  input: NodeJS.ReadableStream;
  promptOutput: NodeJS.WritableStream;
  /**
   * Before a foreground gateway starts: re-executes this process once with the gateway's
   * memory set-up (does not return then), or says what is in effect.
   */
  tuneRuntime: () => RuntimeReport;
  /**
   * `hearth start` in the foreground: replaces this process with the gateway's own entry point
   * run with these flags (gateway lifecycle/hand-over.ts; does not settle then), or says why it
   * could not. Absent (tests): the gateway runs in this process.
   */
  handOverToGateway?: (args: readonly string[]) => Promise<string>;
  runGateway: (options: RunOptions) => Promise<RunningGateway>;
  installSignalHandlers: (running: RunningGateway) => void;
  /** The operating system (`open`, `tray`, `autostart` differ by it). */
  platform: NodeJS.Platform;
  /** Runs a program (xdg-open, systemctl, launchctl, docker) and waits for it; tests fake it. */
  runProgram: RunProgram;
}

export interface ProgramResult {
  /** Exit code; null when the program could not be started (`error` says why). */
  code: number | null;
  stdout: string;
  stderr: string;
  error?: string;
}

export type RunProgram = (
  command: string,
  args: readonly string[],
  options?: {
    timeoutMs?: number;
    detached?: boolean;
    /** The program's whole environment; this process's when absent. */
    env?: Record<string, string | undefined>;
  },
) => Promise<ProgramResult>;

/** What a command needs: the dependencies and the global `-c/--config` path. */
export interface CommandContext {
  deps: CliDeps;
  /** The absolute config.toml path (`-c/--config`, else the environment's default). */
  configPath(): string;
}
