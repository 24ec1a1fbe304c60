/** Where the system's Chromium is looked for, in order, when no path is configured. */
export const DEFAULT_CHROMIUM_PATHS: readonly string[] = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/**
 * Flags for a headless Chromium on a machine whose network may be closed: no sandbox (we run
 * as a service user inside a container or as root in CI), no GPU, and no background traffic
 * (component updates, sync, QUIC probes, first-run pings). The fresh `--user-data-dir` is
 * Playwright's own: `chromium.launch` always makes a temporary profile and deletes it on close
 * (it refuses a `--user-data-dir` in `args`).
 */
export const CHROMIUM_ARGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
