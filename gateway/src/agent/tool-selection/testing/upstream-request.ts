/**
 * TEST HELPER. One chat turn on the chat test bed, and what its first upstream request to the
 * fake LLM held: its size in bytes and the tools it offered.
 */
import { INSPECTORS } from '../../../testing/fakes/fake-llm/inspect.ts';
import type { ChatTestBed } from '../../../testing/gateway/chat-gateway.ts';
import type { Tool } from '../../../tools/ports.ts';

export interface UpstreamRequest {
  bytes: number;
  tools: string[];
  /** The characters of the body past ASCII. */
  beyondAscii: string;
}

/** The upstream request of the `index`th model call recorded by the fake. */
export function upstreamRequest(bed: ChatTestBed, index = 0): UpstreamRequest {
  const request = bed.fake.requests[index];
  if (!request) throw new Error(`no upstream request #${index}`);
  return {
    bytes: Buffer.byteLength(request.rawBody),
    beyondAscii: request.rawBody.replace(/\p{ASCII}+/gu, ''),
    tools: INSPECTORS[request.wire as keyof typeof INSPECTORS].toolNames(request),
  };
}

/** Sends `message` on a fresh session (the fake answers "hi") and returns its request. */
export async function turnRequest(
  bed: ChatTestBed,
  message: string,
  session: string,
): Promise<UpstreamRequest> {
  bed.fake.reset();
  bed.fake.reply({ text: 'hi' });
  const { status } = await bed.post('/chat', { message, session_id: session });
  if (status !== 200) throw new Error(`chat answered ${status}`);
  return upstreamRequest(bed);
}

/** Registers `tools` in the bed's gateway (as installed MCP, hub and skill tools are). */
export function install(bed: ChatTestBed, tools: readonly Tool[]): void {
  for (const tool of tools) bed.gw.gateway.tools.register(tool);
}

/** Removes what `install` registered. */
export function uninstall(bed: ChatTestBed, tools: readonly Tool[]): void {
  for (const tool of tools) bed.gw.gateway.tools.unregister(tool.name);
}
