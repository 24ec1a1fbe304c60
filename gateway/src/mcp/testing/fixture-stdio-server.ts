/**
 * The fixture MCP server over stdio (run by Node as a child process in the client tests).
 * `--garbage-first` writes non-JSON lines before serving; `--poisoned-tools` adds tools whose
 * descriptions instruct the model.
 */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { fixtureServer } from './fixture-tools.ts';

const server = fixtureServer({
  crash: () => setTimeout(() => process.exit(3), 10),
  // The fixture reports the environment it was started with (what the gateway gave it).
  // eslint-disable-next-line no-restricted-properties -- a test fixture's own process
  env: () => ({ ...process.env }),
  raw: (text) => void process.stdout.write(text),
  poisoned: process.argv.includes('--poisoned-tools'),
});
if (process.argv.includes('--garbage-first')) process.stdout.write('hello, I am not JSON-RPC\n');
await server.connect(new StdioServerTransport());
process.stderr.write('fixture server ready\n');
