import { accessSync, constants } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, DEFAULT_CHROMIUM_PATHS } from '../../config/chromium.ts';

/** The system's Chromium, or undefined (suites then skip, saying why in their title). */
export const chromiumPath = DEFAULT_CHROMIUM_PATHS.find((path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
});

/** A suite title that says why the suite would be skipped. */
export function chromiumSuiteTitle(title: string): string {
  return chromiumPath
    ? `${title} (headless Chromium at ${chromiumPath})`
    : `${title} — skipped: no Chromium at ${DEFAULT_CHROMIUM_PATHS.join(', ')} (apt-get install chromium)`;
}

export interface LaunchOptions {
  /**
   * A WAV file Chromium's fake capture device plays (in a loop) as the microphone, with the
   * permission prompt answered yes: getUserMedia works without a sound card.
   */
  fakeMicrophone?: string;
}

/** Headless Chromium with CHROMIUM_ARGS, and `extraArgs` (say, a net log) after them. */
export function launchChromium(
  extraArgs: readonly string[] = [],
  options: LaunchOptions = {},
): Promise<Browser> {
  const microphone = options.fakeMicrophone
    ? [
        '--use-fake-ui-for-media-stream',
        '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${options.fakeMicrophone}`,
      ]
    : [];
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [...CHROMIUM_ARGS, ...microphone, ...extraArgs],
  });
}

/**
 * A listener on 127.0.0.1 that records every HTTP request or upgrade it gets (`seen`) and every
 * TCP connection (`connections`): a sandboxed page that reached it by any means shows up here.
 */
export async function startEgressListener() {
  const seen: string[] = [];
  /** TCP connections, which a browser may open ahead of a request (preconnect). */
  const connections: number[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(`${req.method ?? '?'} ${req.url ?? ''}`);
    res.setHeader('access-control-allow-origin', '*');
    res.end('ok');
  });
  server.on('connection', () => connections.push(Date.now()));
  server.on('upgrade', (req, socket) => {
    seen.push(`UPGRADE ${req.url ?? ''}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    seen,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
