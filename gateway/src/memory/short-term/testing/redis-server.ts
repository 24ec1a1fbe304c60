/**
 * Test helpers around real Redis: a throw-away `redis-server` child process on a free port,
 * and a check that fails loudly when the shared test Redis is unreachable.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { createClient } from 'redis';

export const testRedisUrl = (env: Record<string, string | undefined>): string =>
  env.HEARTH_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** Resolves when Redis answers PING; throws a message that says what to do otherwise. */
export async function requireRedis(url: string): Promise<void> {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: false },
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    throw new Error(
      `Redis is not reachable at ${url} (${error instanceof Error ? error.message : String(error)}). ` +
        'The services tests need it: start it, or point HEARTH_TEST_REDIS_URL at one.',
      { cause: error },
    );
  } finally {
    if (client.isOpen) client.destroy();
  }
}

/** Deletes every key that starts with `prefix` (SCAN, never KEYS). */
export async function deleteKeys(url: string, prefix: string): Promise<number> {
  const client = createClient({ url, socket: { reconnectStrategy: false } });
  client.on('error', () => undefined);
  await client.connect();
  let deleted = 0;
  try {
    for await (const batch of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
      if (batch.length > 0) deleted += await client.del(batch);
    }
  } finally {
    client.destroy();
  }
  return deleted;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface RedisServerProcess {
  readonly url: string;
  readonly port: number;
  /** Starts (or restarts) the server on the same port; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Kills the server (SIGKILL: an abrupt death, not a clean shutdown). */
  kill(): Promise<void>;
}

/**
 * A disposable `redis-server` without persistence, on a free port of 127.0.0.1; with
 * `password`, it requires it (`--requirepass`; the URL carries none).
 */
export async function redisServerProcess(
  options: { password?: string } = {},
): Promise<RedisServerProcess> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;

  return {
    url,
    port,
    async start() {
      if (child !== undefined) return;
      const started = spawn(
        'redis-server',
        [
          ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
          ...(options.password === undefined ? [] : ['--requirepass', options.password]),
        ],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = started;
      let output = '';
      started.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      started.stderr?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
      });
      const deadline = Date.now() + 10_000;
      while (!output.includes('Ready to accept connections')) {
        if (started.exitCode !== null || Date.now() > deadline) {
          child = undefined;
          throw new Error(`redis-server did not start on port ${port}:\n${output}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async kill() {
      const running = child;
      child = undefined;
      if (running === undefined || running.exitCode !== null) return;
      const exited = once(running, 'exit');
      running.kill('SIGKILL');
      await exited;
    },
  };
}
