/** The hub's address policy is the gateway's outbound one (kernel: http/outbound). */
export { addressProblem } from '../http/outbound/address-policy.ts';
