import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const manifest = require('../package.json') as { version: string };

/** The running software version, reported by /health and /api/v1/status. */
export const VERSION: string = manifest.version;
