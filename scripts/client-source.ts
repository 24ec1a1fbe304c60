/**
 * The source of `client/src/openapi.ts`: the gateway's OpenAPI document (built in process, no
 * server, no network) turned into TypeScript types by openapi-typescript.
 */
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { openApiDocument } from '../gateway/src/openapi-document.ts';

export const CLIENT_TYPES_FILE = 'client/src/openapi.ts';

const HEADER = `/**
 * The gateway's REST interface as types, generated from its OpenAPI document (GET /openapi.json)
 * by scripts/generate-client.ts. Do not edit: run \`npm run generate:client\` after changing a
 * route; import the helpers of client/src/index.ts instead of this file.
 */

`;

export async function clientSource(): Promise<string> {
  const document = (await openApiDocument()) as unknown as OpenAPI3;
  return HEADER + astToString(await openapiTS(document, { alphabetize: true }));
}
