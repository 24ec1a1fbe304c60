/**
 * `hearth mcp` as a child process against a real gateway: a client that sends its requests and
 * closes its end at once still gets every answer on stdout before the server exits. The calls
 * are gated shell commands, so they are still waiting in the approval gate when stdin closes.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PendingApproval } from '../../../../gateway/src/approvals/approval-service.ts';
import { CLI_SOURCE, send } from '../../../../gateway/src/mcp/testing/mcp-test-bed.ts';
import {
  startChatTestBed,
  type ChatTestBed,
} from '../../../../gateway/src/testing/gateway/chat-gateway.ts';

const CALLS = 5;

describe('hearth mcp answers what is in flight when its input closes', { timeout: 120_000 }, () => {
  let bed: ChatTestBed;
  let home: string;

  beforeAll(async () => {
    bed = await startChatTestBed();
    home = await mkdtemp(join(tmpdir(), 'hearth-mcp-drain-'));
  }, 60_000);
  afterAll(async () => {
    await bed.close();
    await rm(home, { recursive: true, force: true });
  });

  it(`${CALLS} tools/call sent, stdin closed: all ${CALLS} responses arrive on stdout before exit`, async () => {
    const child = spawn(process.execPath, [CLI_SOURCE, 'mcp'], {
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HEARTH_HOME: home,
        HEARTH_GATEWAY_URL: bed.gw.url,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const messages: Record<string, unknown>[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => {
      messages.push(JSON.parse(line) as Record<string, unknown>);
    });
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));

    const lines = [
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2024-11-05',
          capabilities: {},
          clientInfo: { name: 'drain-test', version: '1' },
        },
      },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      ...Array.from({ length: CALLS }, (_, i) => ({
        jsonrpc: '2.0',
        id: i + 1,
        method: 'tools/call',
        params: { name: 'shell', arguments: { command: `echo drained-${i + 1}` } },
      })),
    ];
    child.stdin.end(lines.map((line) => JSON.stringify(line)).join('\n') + '\n');

    // The calls wait in the approval gate after stdin has closed; approve them as they come.
    let exitedEarly = false;
    void exited.then(() => (exitedEarly = true));
    const approved = new Set<string>();
    const deadline = Date.now() + 60_000;
    while (approved.size < CALLS && !exitedEarly && Date.now() < deadline) {
      const pending = (await send(bed, 'GET', '/approvals/pending')).body
        .pending as PendingApproval[];
      for (const approval of pending) {
        if (!approval.command.startsWith('echo drained-') || approved.has(approval.id)) continue;
        expect((await send(bed, 'POST', `/approvals/${approval.id}/approve`, {})).status).toBe(200);
        approved.add(approval.id);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }

    expect(await exited, stderr).toBe(0);
    expect(approved.size).toBe(CALLS);
    const answers = messages.filter((m) => typeof m.id === 'number' && m.id > 0);
    expect(answers.map((m) => m.id).sort()).toEqual(Array.from({ length: CALLS }, (_, i) => i + 1));
    for (const answer of answers) {
      expect(answer).toMatchObject({ result: { isError: false } });
      expect(JSON.stringify(answer.result)).toContain(`drained-${String(answer.id)}`);
    }
  });
});
