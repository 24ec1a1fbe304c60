/**
 * Writes the clients' REST types (`@hearth/client`) from the gateway's own route schemas.
 * `npm run build` runs it; run it by hand (`npm run generate:client`) after changing a route,
 * and the clients' typecheck then shows what the change broke. `--check` only says whether the
 * committed file is up to date (exit 1 when it is not).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { CLIENT_TYPES_FILE, clientSource } from './client-source.ts';

const source = await clientSource();
const current = await readFile(CLIENT_TYPES_FILE, 'utf8').catch(() => '');
if (process.argv.includes('--check')) {
  if (current !== source) {
    process.stderr.write(`${CLIENT_TYPES_FILE} is stale: run npm run generate:client\n`);
    process.exit(1);
  }
} else if (current !== source) {
  await writeFile(CLIENT_TYPES_FILE, source);
  process.stdout.write(`wrote ${CLIENT_TYPES_FILE}\n`);
}
