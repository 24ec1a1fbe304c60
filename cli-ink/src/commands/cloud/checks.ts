import { lookup } from 'node:dns/promises';
import { createServer } from 'node:net';
import type { RunProgram } from '../../deps.ts';

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

/** Can this user bind `port` on all interfaces? (Caddy needs 80 and 443 for TLS.) */
export function portFree(port: number): Promise<CheckResult> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) =>
      resolve({
        name: `port ${port}`,
        ok: false,
        detail:
          error.code === 'EADDRINUSE'
            ? 'in use by another program'
            : error.code === 'EACCES'
              ? 'this user may not bind it (Docker can)'
              : (error.code ?? error.message),
      }),
    );
    server.listen(port, '0.0.0.0', () =>
      server.close(() => resolve({ name: `port ${port}`, ok: true, detail: 'free' })),
    );
  });
}

export async function dockerChecks(run: RunProgram): Promise<CheckResult[]> {
  const docker = await run('docker', ['version', '--format', '{{.Server.Version}}'], {
    timeoutMs: 10_000,
  });
  const compose = await run('docker', ['compose', 'version', '--short'], { timeoutMs: 10_000 });
  const says = (r: Awaited<ReturnType<RunProgram>>) =>
    r.error ? `not found (${r.error})` : r.stderr.trim().split('\n')[0] || `exit ${r.code}`;
  return [
    {
      name: 'docker',
      ok: docker.code === 0,
      detail: docker.code === 0 ? `engine ${docker.stdout.trim()}` : says(docker),
    },
    {
      name: 'docker compose',
      ok: compose.code === 0,
      detail: compose.code === 0 ? `v${compose.stdout.trim().replace(/^v/, '')}` : says(compose),
    },
  ];
}

/** TLS readiness: the domain resolves (Caddy's ACME challenge needs it to reach this host). */
export async function dnsCheck(
  domain: string,
  resolve: (name: string) => Promise<{ address: string }[]> = (name) => lookup(name, { all: true }),
): Promise<CheckResult> {
  try {
    const addresses = (await resolve(domain)).map((a) => a.address);
    return {
      name: `dns ${domain}`,
      ok: addresses.length > 0,
      detail: addresses.join(', ') || 'no address',
    };
  } catch (error) {
    return {
      name: `dns ${domain}`,
      ok: false,
      detail: (error as NodeJS.ErrnoException).code ?? 'lookup failed',
    };
  }
}
