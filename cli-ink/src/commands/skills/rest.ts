import { CliError } from '../../cli-error.ts';
import type { CommandContext } from '../../deps.ts';
import { GatewayHttpError, GatewayUnreachableError } from '../../gateway-client.ts';
import { locateGateway } from '../../locate-gateway.ts';
import { EXIT_USAGE } from '../../usage-exit.ts';

export type Send = (
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
) => Promise<unknown>;

/**
 * Runs `work` against the running gateway: skills and plugins live in its process (their tools
 * in its registry), so these commands have no local form. An error answer becomes the
 * gateway's `detail`; no gateway says how to start one.
 */
export async function withGateway<T>(
  ctx: CommandContext,
  work: (send: Send) => Promise<T>,
): Promise<T> {
  const client = await locateGateway(ctx);
  try {
    return await work((method, path, body) =>
      method === 'GET'
        ? client.getJson(`/api/v1${path}`)
        : client.sendJson(method, `/api/v1${path}`, body),
    );
  } catch (error) {
    if (error instanceof GatewayHttpError) throw new CliError(error.detail);
    if (error instanceof GatewayUnreachableError)
      throw new CliError(`${error.message}; start one with hearth start`);
    throw error;
  }
}

/** `skill.py` files are the seed format; everything else is an ES module. */
export const kindOfFile = (path: string, kind?: string): 'mjs' | 'py' => {
  if (kind === 'mjs' || kind === 'py') return kind;
  if (kind !== undefined) throw new CliError(`--kind must be mjs or py, not ${kind}`, EXIT_USAGE);
  return path.endsWith('.py') ? 'py' : 'mjs';
};
