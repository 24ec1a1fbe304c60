/**
 * `hearth:skill`: the one module Hearth gives a skill. The runtime resolves the specifier
 * `hearth:skill` to this file (a module hook registered before the skill loads), so
 *   import { Plugin, shell, browser } from 'hearth:skill';
 * works under the permission model and inside bubblewrap without reading anything else.
 *
 *   Plugin                       the base class of a default-exported plugin: the runtime makes
 *                                one instance and serves its public methods as tools
 *   shell(command, options?)     runs a command through the gateway's own `shell` tool (approval
 *                                gate, allowlist, executor); only for a skill that declares
 *                                `export const capabilities = ['shell']`
 *   browser(args)                the same for the gateway's `browser` tool (`capabilities`
 *                                holding 'browser'); args as the browser tool takes them
 * Both resolve to the tool's text answer ("Command denied by user approval gate." when the user
 * says no) and reject when the skill did not declare the capability. The gateway decides, not
 * this file: a skill writing the protocol itself gains nothing.
 */

/** The base class of a plugin (`export default class Weather extends Plugin { … }`). */
export class Plugin {}

let hostCall;

/** Called once by the runtime before the skill loads; any later call throws. */
export function _connectHost(call) {
  if (hostCall) throw new Error('the skill host is already connected');
  hostCall = call;
}

function request(method, params) {
  if (!hostCall) return Promise.reject(new Error('hearth:skill is not connected to a host'));
  return hostCall(method, params);
}

/**
 * Runs a command line through the gateway's gated shell tool.
 * @param {string} command
 * @param {{ timeout?: number, workdir?: string }} [options]
 * @returns {Promise<string>} the tool's answer (exit code, stdout, stderr) or the gate's refusal
 */
export function shell(command, options = {}) {
  return request('shell', { ...options, command });
}

/**
 * Drives the gateway's gated browser tool.
 * @param {{ action: string, url?: string, selector?: string, value?: string }} args
 * @returns {Promise<string>}
 */
export function browser(args) {
  return request('browser', { ...args });
}
