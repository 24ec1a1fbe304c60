/**
 * Loads a compiled hub address policy (dist/gateway/src/hub/address-policy.js) and runs the
 * policy's test cases against it, so the build fails when the compiled gateway would accept
 * an address the sources refuse (e.g. because it loads another ipaddr.js).
 */
import { pathToFileURL } from 'node:url';
import { addressPolicyMismatches } from '../../gateway/src/hub/testing/address-cases.ts';

interface AddressPolicy {
  addressProblem: (address: string, allowPrivate: boolean) => string | undefined;
}

/** Where the module at `path` disagrees with the policy's cases; empty when it agrees. */
export async function checkAddressPolicy(path: string): Promise<string[]> {
  const policy = (await import(pathToFileURL(path).href)) as AddressPolicy;
  return addressPolicyMismatches(policy.addressProblem);
}
