import { readFile } from 'node:fs/promises';
import type { ApiBody, ApiResponse } from '@hearth/client';
import type { Command } from 'commander';
import { showControls } from '@hearth/gateway/show-controls';
import { CliError } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import { GatewayHttpError, type GatewayClient } from '../../gateway-client.ts';
import { locateGateway } from '../../locate-gateway.ts';
import { EXIT_USAGE } from '../../usage-exit.ts';
import { printResult } from '../../print-result.ts';

/** What the gateway answers for a package (`GET /hub/{name}` and the lists). */
export type HubPackage = ApiResponse<'/hub/{name}'>;
type ScanResult = ApiResponse<'/hub/scan', 'POST'>;
type Finding = ScanResult['findings'][number];
export type Installed = ApiResponse<'/hub/packages', 'POST'>;
export type InstallRequest = ApiBody<'/hub/packages', 'POST'>;

/** Installs fetch and scan on the gateway: longer than a plain request may take. */
const INSTALL_TIMEOUT_MS = 60_000;
const CHECKSUM = /^[0-9a-fA-F]{64}$/;

const NO_GATEWAY = 'start one with hearth start';
const LOCAL_NOTE =
  'using a local instance: the package is written to this machine’s skills folder; a running gateway loads it when it starts.';

/**
 * The gateway when one answers (`/health`), else undefined. Asked before sending an install,
 * so that a slow install on a live gateway is never mistaken for no gateway and run twice.
 */
async function liveGateway(ctx: CommandContext): Promise<GatewayClient | undefined> {
  const client = await locateGateway(ctx, { timeoutMs: INSTALL_TIMEOUT_MS });
  return (await client.isAnswering()) ? client : undefined;
}

async function rest<T>(work: () => Promise<unknown>): Promise<T> {
  try {
    return (await work()) as T;
  } catch (error) {
    if (error instanceof GatewayHttpError) throw new CliError(error.detail);
    throw error;
  }
}

/** A gateway that must answer: commands other than install and remove have no local form. */
async function requireGateway(ctx: CommandContext): Promise<GatewayClient> {
  const client = await liveGateway(ctx);
  if (!client) {
    const { baseUrl } = await locateGateway(ctx);
    throw new CliError(`no gateway answering at ${baseUrl}; ${NO_GATEWAY}`);
  }
  return client;
}

const show = showControls;
export const formatPackage = (p: HubPackage): string =>
  `${show(p.name)}  ${show(p.version)}  ${p.enabled ? 'enabled' : 'disabled'}${
    p.tags.length ? `  [${p.tags.map(show).join(', ')}]` : ''
  }`;

function formatFindings(findings: readonly Finding[]): string[] {
  return findings.map(
    (f) => `  ${show(f.severity)}  line ${f.line}  ${show(f.rule)}: ${show(f.message)}`,
  );
}

function formatInstalled(p: Installed): string {
  const lines = [
    `Installed ${show(p.name)} ${show(p.version)} (${show(p.kind)}) from ${show(p.origin)}`,
    `  sha256 ${p.sha256}`,
    `  tools: ${p.tools.length ? p.tools.map(show).join(', ') : 'none'}`,
  ];
  if (p.scan.findings.length > 0) {
    lines.push(
      p.forced ? 'The scanner flagged it; installed anyway (--force):' : 'Scanner findings:',
    );
    lines.push(...formatFindings(p.scan.findings));
  }
  return lines.join('\n');
}

/** The local, process-own hub (loaded only when no gateway answers). */
async function localHub() {
  return (await import('@hearth/gateway/hub-local')).withLocalHub;
}

/** `hearth hub install|remove|list|search|scan|enable|disable`. */
export function registerHub(program: Command, ctx: CommandContext): void {
  const hub = program
    .command('hub')
    .description('packages installed from https: or data: URLs (scanned, checksummed)');
  const out = (text: string) => ctx.deps.output.out(text);
  const noteLocal = async () => {
    const { baseUrl } = await locateGateway(ctx);
    ctx.deps.output.err(`note: no gateway answering at ${baseUrl}; ${LOCAL_NOTE}`);
  };

  hub
    .command('install <url>')
    .description('fetch, verify, scan and install a package (https: or data: URLs only)')
    .option('--name <name>', 'the package name (default: from the URL)')
    .option('--force', 'install even when the scanner flags it (never overrides the checksum)')
    .option('--checksum <sha256>', "the publisher's SHA-256 of the package")
    .option('--json', 'print JSON')
    .action(
      async (
        url: string,
        options: { name?: string; force?: boolean; checksum?: string; json?: boolean },
      ) => {
        if (options.checksum !== undefined && !CHECKSUM.test(options.checksum))
          throw new CliError(
            '--checksum must be a SHA-256 digest: 64 hexadecimal digits',
            EXIT_USAGE,
          );
        const request: InstallRequest = {
          url,
          ...(options.name !== undefined ? { name: options.name } : {}),
          ...(options.force ? { force: true } : {}),
          ...(options.checksum !== undefined ? { expected_checksum: options.checksum } : {}),
        };
        const client = await liveGateway(ctx);
        let installed: Installed;
        if (client) {
          installed = await rest<Installed>(() =>
            client.sendJson('POST', '/api/v1/hub/packages', request),
          );
        } else {
          await noteLocal();
          installed = await (
            await localHub()
          )(ctx.deps.env.home, (local) => local.install(request));
        }
        out(options.json ? JSON.stringify(installed, null, 2) : formatInstalled(installed));
      },
    );

  hub
    .command('remove <name>')
    .description('uninstall a package')
    .option('--json', 'print JSON')
    .action(async (name: string, options: { json?: boolean }) => {
      const client = await liveGateway(ctx);
      if (client) {
        await rest(() => client.sendJson('DELETE', `/api/v1/hub/${encodeURIComponent(name)}`));
      } else {
        await noteLocal();
        await (
          await localHub()
        )(ctx.deps.env.home, (local) => local.remove(name));
      }
      printResult(
        ctx.deps.output,
        options,
        { name, removed: true },
        () => `Removed ${show(name)}.`,
      );
    });

  hub
    .command('list')
    .description('installed packages')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }) => {
      const client = await requireGateway(ctx);
      const { packages } = await rest<ApiResponse<'/hub/packages'>>(() =>
        client.getJson('/api/v1/hub/packages'),
      );
      if (options.json) return out(JSON.stringify(packages, null, 2));
      out(packages.length ? packages.map(formatPackage).join('\n') : 'No packages installed.');
    });

  hub
    .command('search <query>')
    .description('search the installed packages by name and tag (there is no remote catalogue)')
    .option('--json', 'print JSON')
    .action(async (query: string, options: { json?: boolean }) => {
      const client = await requireGateway(ctx);
      const { packages } = await rest<ApiResponse<'/hub/search'>>(() =>
        client.getJson(`/api/v1/hub/search?q=${encodeURIComponent(query)}`),
      );
      if (options.json) return out(JSON.stringify(packages, null, 2));
      out(
        packages.length
          ? packages.map(formatPackage).join('\n')
          : `No installed package matches "${show(query)}".`,
      );
    });

  hub
    .command('scan <file>')
    .description('run the package scanner on a file without installing it (exit 1 when flagged)')
    .option('--kind <kind>', 'mjs or py (default: from the file name)')
    .option('--json', 'print JSON')
    .action(async (file: string, options: { kind?: string; json?: boolean }) => {
      const kind = options.kind ?? (file.endsWith('.py') ? 'py' : 'mjs');
      if (kind !== 'mjs' && kind !== 'py')
        throw new CliError('--kind must be mjs or py', EXIT_USAGE);
      let code: string;
      try {
        code = await readFile(file, 'utf8');
      } catch (error) {
        throw new CliError(`cannot read ${file}: ${(error as Error).message}`);
      }
      const client = await requireGateway(ctx);
      const result = await rest<ScanResult>(() =>
        client.sendJson('POST', '/api/v1/hub/scan', {
          code,
          kind,
        } satisfies ApiBody<'/hub/scan', 'POST'>),
      );
      if (options.json) out(JSON.stringify(result, null, 2));
      else if (result.findings.length === 0) out('No findings.');
      else out(['Findings:', ...formatFindings(result.findings)].join('\n'));
      if (result.flagged)
        throw new CliError('flagged: an install would be blocked unless forced', 1);
    });

  for (const [command, enabled] of [
    ['enable', true],
    ['disable', false],
  ] as const) {
    hub
      .command(`${command} <name>`)
      .description(
        `${command} an installed package (its tools ${enabled ? 'come back' : 'go away'})`,
      )
      .option('--json', 'print JSON')
      .action(async (name: string, options: { json?: boolean }) => {
        const client = await requireGateway(ctx);
        const p = await rest<ApiResponse<'/hub/{name}', 'PATCH'>>(() =>
          client.sendJson('PATCH', `/api/v1/hub/${encodeURIComponent(name)}`, {
            enabled,
          } satisfies ApiBody<'/hub/{name}', 'PATCH'>),
        );
        printResult(
          ctx.deps.output,
          options,
          p,
          () => `${enabled ? 'Enabled' : 'Disabled'} ${show(p.name)}.`,
        );
      });
  }
}
