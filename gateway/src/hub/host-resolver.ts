import { isIP } from 'node:net';
import { HearthError, validationError } from '../errors.ts';
import { addressProblem } from '../http/outbound/address-policy.ts';
import type { CheckedAddress, HostResolver } from '../http/outbound/resolver.ts';

export {
  systemResolver,
  type CheckedAddress,
  type HostResolver,
} from '../http/outbound/resolver.ts';

const PRIVATE_OPT_IN = 'private hosts need [security] hub_allow_private_hosts = true';

/**
 * The one address a download of `url` may connect to. An IP literal (the URL parser has already
 * turned decimal, octal and hex IPv4 spellings into dotted quads) is judged as it is; a name is
 * resolved once and refused when ANY of its addresses is refused (a name with a private address
 * among public ones could be steered to it), then the first is used. A refusal is a 422 naming
 * the host and the address; a name that does not resolve is a 502.
 */
export async function checkHost(
  url: URL,
  options: { resolve: HostResolver; allowPrivateHosts: boolean },
): Promise<CheckedAddress> {
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const literal = isIP(hostname);
  let addresses: { address: string; family: number }[];
  if (literal !== 0) {
    addresses = [{ address: hostname, family: literal }];
  } else {
    try {
      addresses = await options.resolve(hostname);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'failed';
      throw new HearthError('upstream', `${url.host} could not be resolved (${code})`);
    }
    if (addresses.length === 0)
      throw new HearthError('upstream', `${url.host} could not be resolved (no address)`);
  }
  for (const { address } of addresses) {
    const problem = addressProblem(address, options.allowPrivateHosts);
    if (problem !== undefined)
      throw validationError(
        `url: ${url.host} is ${literal === 0 ? 'a name for ' : ''}${problem}; hub downloads go to public hosts only (${PRIVATE_OPT_IN})`,
      );
  }
  const first = addresses[0]!;
  return { address: first.address, family: isIP(first.address) === 6 ? 6 : 4 };
}
