/**
 * Writes the clients' REST types (`@hearth/client`) from the gateway's own route schemas.
 * `npm run build` runs it; run it by hand (`npm run generate:client`) after changing a route,
 * and the clients' typecheck then shows what the change broke. `--check` only says whether the
 * committed file is up to date (exit 1 when it is not), generating it in full.
 *
 * The build passes `--compiled <dist>`: the document is then built by the compiled gateway
 * (~3 s less than loading the sources), and the file is left as it is when its header says it
 * was generated from that document (scripts/client-source.ts).
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CLIENT_TYPES_FILE,
  clientSource,
  isGeneratedFrom,
  sourceDocument,
  type OpenApiDocument,
} from './client-source.ts';

const check = process.argv.includes('--check');
const compiledAt = process.argv.indexOf('--compiled');
const compiled = compiledAt === -1 ? undefined : process.argv[compiledAt + 1];
if (compiledAt !== -1 && compiled === undefined) {
  process.stderr.write('--compiled needs the compiled tree (dist)\n');
  process.exit(2);
}

const document = compiled === undefined ? await sourceDocument() : await compiledDocument(compiled);
const current = await readFile(CLIENT_TYPES_FILE, 'utf8').catch(() => '');
if (check) {
  if (current !== (await clientSource(document))) {
    process.stderr.write(`${CLIENT_TYPES_FILE} is stale: run npm run generate:client\n`);
    process.exit(1);
  }
} else if (!isGeneratedFrom(current, document)) {
  const source = await clientSource(document);
  if (current !== source) {
    await writeFile(CLIENT_TYPES_FILE, source);
    process.stdout.write(`wrote ${CLIENT_TYPES_FILE}\n`);
  }
}

async function compiledDocument(dist: string): Promise<OpenApiDocument> {
  const module = pathToFileURL(resolve(join(dist, 'gateway/src/openapi-document.js'))).href;
  const { openApiDocument } = (await import(module)) as {
    openApiDocument: () => Promise<OpenApiDocument>;
  };
  return openApiDocument();
}
