import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { writeFileAtomic } from '@hearth/gateway/atomic-write';
import type { Command } from 'commander';
import { CliError } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import { BUILD_COMMAND, bundleFiles, DOMAIN, LOCAL_IMAGE } from './bundle.ts';
import { dnsCheck, dockerChecks, portFree, type CheckResult } from './checks.ts';

const DEFAULT_DIR = 'hearth-cloud';

function domainOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!DOMAIN.test(value)) throw new CliError(`--domain: not a domain name: ${value}`, 2);
  return value;
}

/** `hearth cloud check|generate|status`: deploy Hearth on a VPS behind Caddy. */
export function registerCloud(program: Command, ctx: CommandContext): void {
  const cloud = program
    .command('cloud')
    .description('run Hearth on a VPS: check the host, generate a compose + Caddy bundle');
  const out = (text: string) => ctx.deps.output.out(text);

  cloud
    .command('check')
    .description('is this host ready? Docker, compose, ports 80/443, the domain’s DNS')
    .option('--domain <name>', 'the domain the gateway will answer on')
    .option('--json', 'print JSON')
    .action(async (options: { domain?: string; json?: boolean }) => {
      const domain = domainOf(options.domain);
      const checks: CheckResult[] = [
        ...(await dockerChecks(ctx.deps.runProgram)),
        await portFree(80),
        await portFree(443),
        ...(domain ? [await dnsCheck(domain)] : []),
      ];
      const ready = checks.every((c) => c.ok);
      if (options.json) out(JSON.stringify({ ready, checks }, null, 2));
      else
        out(
          [
            ...checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'}  ${c.name.padEnd(16)} ${c.detail}`),
            ready ? 'This host is ready.' : 'This host is not ready.',
          ].join('\n'),
        );
      if (!ready) throw new CliError('some checks failed', 1);
    });

  cloud
    .command('generate')
    .description('write docker-compose.yml, Caddyfile, config.toml and .env (a random API key)')
    .requiredOption('--domain <name>', 'the domain the gateway will answer on')
    .option('--email <address>', 'e-mail for the TLS certificate (ACME)')
    .option('--out <dir>', 'where to write the bundle', DEFAULT_DIR)
    .option(
      '--image <ref>',
      `a gateway image to pull instead of building ${LOCAL_IMAGE} on the server`,
    )
    .option('--force', 'overwrite an existing bundle')
    .option('--json', 'print JSON')
    .action(
      async (options: {
        domain: string;
        email?: string;
        out: string;
        image?: string;
        force?: boolean;
        json?: boolean;
      }) => {
        const domain = domainOf(options.domain)!;
        if (options.image !== undefined && !/^[\w./:@-]{1,200}$/.test(options.image))
          throw new CliError(`--image: not an image reference: ${options.image}`, 2);
        const image = options.image ?? LOCAL_IMAGE;
        const builtLocally = options.image === undefined;
        const dir = resolve(options.out);
        let files: ReturnType<typeof bundleFiles>;
        try {
          files = bundleFiles({
            domain,
            email: options.email,
            image,
            builtLocally,
            apiKey: randomBytes(32).toString('base64url'),
          });
        } catch (error) {
          throw new CliError((error as Error).message, 2);
        }
        await mkdir(dir, { recursive: true, mode: 0o700 });
        const present = (await readdir(dir)).filter((name) => name in files);
        if (present.length > 0 && !options.force)
          throw new CliError(
            `${dir} already has ${present.join(', ')}; --force overwrites (and makes a new API key)`,
          );
        for (const [name, file] of Object.entries(files))
          await writeFileAtomic(join(dir, name), file.text, file.mode);
        const build = builtLocally ? BUILD_COMMAND : null;
        if (options.json)
          return out(
            JSON.stringify(
              { dir, domain, files: Object.keys(files), image, build_command: build },
              null,
              2,
            ),
          );
        out(
          [
            `Wrote ${dir}: ${Object.keys(files).join(', ')}.`,
            `The API key is in ${join(dir, '.env')} (mode 0600); clients send it as X-API-Key.`,
            ...(build
              ? [
                  `The gateway image ${image} is not published anywhere: build it on the server, in a Hearth checkout:`,
                  `  ${build}`,
                  '(scripts/build-images.sh builds it too, without pulling from an image registry).',
                ]
              : [`The gateway image is ${image}; docker compose pulls it when missing.`]),
            `Next: copy the folder to the server, point ${domain} at it, then: cd ${options.out} && docker compose up -d`,
          ].join('\n'),
        );
      },
    );

  cloud
    .command('status')
    .description('the bundle’s containers (docker compose ps)')
    .option('--dir <dir>', 'the bundle folder', DEFAULT_DIR)
    .option('--json', 'print JSON')
    .action(async (options: { dir: string; json?: boolean }) => {
      const file = join(resolve(options.dir), 'docker-compose.yml');
      try {
        await readFile(file);
      } catch {
        throw new CliError(`no bundle at ${file} (hearth cloud generate writes one)`);
      }
      const result = await ctx.deps.runProgram(
        'docker',
        ['compose', '-f', file, 'ps', '--all', '--format', 'json'],
        { timeoutMs: 15_000 },
      );
      if (result.code !== 0)
        throw new CliError(
          `docker compose ps failed: ${(result.error ?? result.stderr.trim()) || `exit ${result.code}`}`,
        );
      // Compose prints one JSON object per line (or one array, depending on its version).
      const services = result.stdout
        .split('\n')
        .filter((line) => line.trim() !== '')
        .flatMap((line) => {
          try {
            const parsed = JSON.parse(line) as unknown;
            return Array.isArray(parsed) ? (parsed as unknown[]) : [parsed];
          } catch {
            return [];
          }
        })
        .map((s) => {
          const r = s as Record<string, unknown>;
          const str = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);
          return {
            service: str(r.Service, str(r.Name, '?')),
            state: str(r.State, '?'),
            status: str(r.Status, ''),
          };
        });
      if (options.json)
        return out(JSON.stringify({ dir: resolve(options.dir), services }, null, 2));
      out(
        services.length === 0
          ? 'No containers (docker compose up -d starts them).'
          : services
              .map((s) => `${s.service.padEnd(10)} ${s.state.padEnd(10)} ${s.status}`)
              .join('\n'),
      );
    });
}
