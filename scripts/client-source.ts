/**
 * The source of `client/src/openapi.ts`: the gateway's OpenAPI document (built in process, no
 * server, no network) turned into TypeScript types by openapi-typescript.
 *
 * The file's header records what it was generated from: a hash of the document and of the
 * generator's version (openapi-typescript, and TypeScript, whose printer writes the text), and a
 * hash of the types below the header. When both still hold, generating again would write the
 * same file, so the build skips it: loading openapi-typescript and generating take ~10 s, most
 * of the build's time once dist/ is compiled by esbuild.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { OpenAPI3 } from 'openapi-typescript';

export const CLIENT_TYPES_FILE = 'client/src/openapi.ts';

/** The packages whose versions shape the generated text. */
const GENERATOR_PACKAGES = ['openapi-typescript', 'typescript'];

const header = (document: string, types: string): string => `/**
 * The gateway's REST interface as types, generated from its OpenAPI document (GET /openapi.json)
 * by scripts/generate-client.ts. Do not edit: run \`npm run generate:client\` after changing a
 * route; import the helpers of client/src/index.ts instead of this file.
 *
 * Generated from: ${document}
 * Types: ${types}
 */

`;
const RECORD = /^ \* Generated from: ([0-9a-f]{64})\n \* Types: ([0-9a-f]{64})\n \*\/\n\n/m;

export type OpenApiDocument = Record<string, unknown>;

/** The document as the gateway's sources build it. */
export async function sourceDocument(): Promise<OpenApiDocument> {
  const { openApiDocument } = await import('../gateway/src/openapi-document.ts');
  return openApiDocument();
}

/** The file for `document`, generated. */
export async function clientSource(document?: OpenApiDocument): Promise<string> {
  const input = document ?? (await sourceDocument());
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const types = astToString(await openapiTS(input as unknown as OpenAPI3, { alphabetize: true }));
  return header(documentHash(input), sha256(types)) + types;
}

/**
 * Whether `text` (the file as it is) is what `clientSource(document)` would write: its header
 * names this document and generator, and the types below it are unchanged.
 */
export function isGeneratedFrom(text: string, document: OpenApiDocument): boolean {
  const record = RECORD.exec(text);
  if (record === null) return false;
  const [whole, documentRecorded, typesRecorded] = record;
  const types = text.slice(record.index + whole.length);
  return (
    documentRecorded === documentHash(document) &&
    typesRecorded === sha256(types) &&
    text === header(documentRecorded, typesRecorded) + types
  );
}

function documentHash(document: OpenApiDocument): string {
  const require = createRequire(import.meta.url);
  const versions = GENERATOR_PACKAGES.map((name) => {
    const manifest = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')) as {
      version: string;
    };
    return `${name}@${manifest.version}`;
  });
  return sha256(`${versions.join(' ')}\n${JSON.stringify(document)}`);
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
