/**
 * `hearth:skill`: the one module Hearth gives a skill. The runtime resolves the specifier
 * `hearth:skill` to this file (a module hook registered before the skill loads), so
 *   import { Plugin, shell, browser, fetch } from 'hearth:skill';
 * works under the permission model and inside bubblewrap without reading anything else.
 *
 *   Plugin                       the base class of a default-exported plugin: the runtime makes
 *                                one instance and serves its public methods as tools
 *   shell(command, options?)     runs a command through the gateway's own `shell` tool (approval
 *                                gate, allowlist, executor); only for a skill that declares
 *                                `export const capabilities = ['shell']`
 *   browser(args)                the same for the gateway's `browser` tool (`capabilities`
 *                                holding 'browser'); args as the browser tool takes them
 *   fetch(input, init?)          the Fetch API, made by the gateway (also the global `fetch`):
 *                                only https URLs of the hosts skill.json declares (`hosts`,
 *                                written from a `// hearth:hosts a.example, b.example` header),
 *                                at public addresses; bodies and time are capped. A refusal
 *                                rejects with a TypeError naming why. The skill's host itself
 *                                has no network (raw sockets, node:http, fail).
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

function requestHost(method, params) {
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
  return requestHost('shell', { ...options, command });
}

/**
 * Drives the gateway's gated browser tool.
 * @param {{ action: string, url?: string, selector?: string, value?: string }} args
 * @returns {Promise<string>}
 */
export function browser(args) {
  return requestHost('browser', { ...args });
}

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

/**
 * The Fetch API over the gateway: the request is normalised by the platform's Request, sent to
 * the gateway, and its answer returned as a Response (`url` and `redirected` as the gateway saw).
 * @param {string | URL | Request} input
 * @param {RequestInit} [init]
 * @returns {Promise<Response>}
 */
export async function fetch(input, init = undefined) {
  const request = new Request(input, init);
  if (request.signal.aborted) throw request.signal.reason;
  const body =
    request.method === 'GET' || request.method === 'HEAD'
      ? undefined
      : Buffer.from(await request.arrayBuffer()).toString('base64');
  let text;
  try {
    text = await requestHost('fetch', {
      url: request.url,
      method: request.method,
      headers: [...request.headers],
      ...(body ? { body } : {}),
      redirect: request.redirect,
    });
  } catch (error) {
    throw new TypeError(error instanceof Error ? error.message : String(error), {
      cause: error,
    });
  }
  const answer = JSON.parse(text);
  const response = new Response(
    NULL_BODY_STATUSES.has(answer.status) ? null : Buffer.from(answer.body ?? '', 'base64'),
    { status: answer.status, statusText: answer.statusText ?? '', headers: answer.headers ?? [] },
  );
  Object.defineProperty(response, 'url', { value: answer.url });
  Object.defineProperty(response, 'redirected', { value: answer.redirected === true });
  return response;
}
