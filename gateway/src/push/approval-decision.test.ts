import { Agent } from 'node:https';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasOpenssl, selfSignedCertificate } from '../hub/testing/https-fixture.ts';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import { rawRequest } from '../testing/fakes/raw-request.ts';
import { startFakePushService } from './testing/fake-push-service.ts';

const KEY = 'decision-token-test-key';
type Json = Record<string, unknown>;
interface ApprovalPush {
  approval_id: string;
  decision_tokens: { approve: string; deny: string };
}

describe.runIf(hasOpenssl())(
  'approval pushes carry decision tokens the gateway accepts without the API key (skipped without openssl)',
  { timeout: 60_000 },
  () => {
    let certificate: { key: string; cert: string };
    let service: Awaited<ReturnType<typeof startFakePushService>>;
    let agent: Agent;
    let bed: ChatTestBed;
    const call = async (method: string, path: string, body?: unknown, key?: string) => {
      const response = await fetch(`${bed.gw.url}/api/v1${path}`, {
        method,
        headers: { 'content-type': 'application/json', ...(key ? { 'x-api-key': key } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as Json };
    };
    const decide = (id: string, body: unknown) => call('POST', `/approvals/${id}/decide`, body);
    const pending = async () =>
      (
        (await call('GET', '/approvals/pending', undefined, KEY)).body.pending as { id: string }[]
      ).map((p) => p.id);

    /**
     * Starts a turn whose shell call waits for approval; resolves with the push it raised. The
     * model's answer after the call is queued by the caller, once every turn has asked.
     */
    async function gatedTurn(command: string, session: string) {
      const before = service.received.length;
      bed.fake.reply({ toolCalls: [{ name: 'shell', arguments: { command } }] });
      const turn = call('POST', '/chat', { message: 'run it', session_id: session }, KEY);
      await expect.poll(() => service.received.length, { timeout: 20_000 }).toBe(before + 1);
      return { turn, push: service.received.at(-1)!.payload as ApprovalPush };
    }

    beforeAll(async () => {
      certificate = selfSignedCertificate();
      service = await startFakePushService(certificate);
      agent = new Agent({ ca: certificate.cert });
      bed = await startChatTestBed(undefined, {
        pushAgent: agent,
        config: { gateway: { api_key: KEY } },
      });
      const subscribed = await call('POST', '/push/subscribe', service.subscribe(), KEY);
      expect(subscribed.status).toBe(200);
    });
    afterAll(async () => {
      await bed?.close();
      await service?.close();
      agent?.destroy();
    });

    it('approves with the push’s approve token, no key: the command runs; the token then is spent', async () => {
      bed.fake.reset();
      const { turn, push } = await gatedTurn('echo by-token', 'token-approve');
      bed.fake.reply({ text: 'ok' });
      expect(push.decision_tokens.approve).toMatch(/^\d{13}\.[\w-]{43}$/);
      expect(push.decision_tokens.deny).not.toBe(push.decision_tokens.approve);
      // The plain route still needs the key.
      expect((await call('POST', `/approvals/${push.approval_id}/approve`, {})).status).toBe(401);
      const decided = await decide(push.approval_id, {
        decision: 'approve',
        token: push.decision_tokens.approve,
      });
      expect(decided).toEqual({
        status: 200,
        body: { approved: true, id: push.approval_id, always_allowed: false },
      });
      expect((await turn).status).toBe(200);
      const outputs = INSPECTORS['openai-chat']
        .toolResults(bed.fake.requests[1]!)
        .map((r) => r.output);
      expect(outputs).toEqual(['exit code 0\nstdout:\nby-token\n']);
      // Replayed: refused, whatever the approval's state.
      const replay = await decide(push.approval_id, {
        decision: 'approve',
        token: push.decision_tokens.approve,
      });
      expect(replay.status).toBe(403);
      expect(String(replay.body.detail)).toMatch(/already used/);
    });

    it('refuses forged, swapped and other-approval tokens with 403, leaving the approval pending; its deny token denies', async () => {
      bed.fake.reset();
      const first = await gatedTurn('echo first', 'token-hostile-1');
      const second = await gatedTurn('echo second', 'token-hostile-2');
      bed.fake.reply({ text: 'ok' }, { text: 'ok' });
      const id = first.push.approval_id;
      const [at, mac] = first.push.decision_tokens.approve.split('.') as [string, string];
      const forged = [
        `${at}.${Buffer.alloc(32, 7).toString('base64url')}`,
        `${Number(at) + 60_000}.${mac}`,
        `${at}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`,
      ];
      for (const token of forged)
        expect((await decide(id, { decision: 'approve', token })).status).toBe(403);
      // The deny token does not approve, nor another approval's token.
      expect(
        (await decide(id, { decision: 'approve', token: first.push.decision_tokens.deny })).status,
      ).toBe(403);
      expect(
        (await decide(id, { decision: 'approve', token: second.push.decision_tokens.approve }))
          .status,
      ).toBe(403);
      expect(await pending()).toEqual(expect.arrayContaining([id, second.push.approval_id]));
      expect(
        await decide(id, { decision: 'deny', token: first.push.decision_tokens.deny }),
      ).toEqual({ status: 200, body: { denied: true, id } });
      expect(
        await decide(second.push.approval_id, {
          decision: 'deny',
          token: second.push.decision_tokens.deny,
        }),
      ).toMatchObject({ status: 200 });
      expect((await first.turn).status).toBe(200);
      expect((await second.turn).status).toBe(200);
      expect(await pending()).toEqual([]);
    });

    it.each([
      ['malformed JSON', '{"decision":', 422, /Malformed JSON/],
      ['an unknown decision', JSON.stringify({ decision: 'always', token: 'x' }), 422, /decision/],
      ['an extra field', JSON.stringify({ decision: 'deny', token: 'x', key: KEY }), 422, /key/],
      ['no token', JSON.stringify({ decision: 'deny' }), 422, /token/],
      [
        'an oversized body',
        JSON.stringify({ decision: 'deny', token: 'x'.repeat(5000) }),
        413,
        /limit/,
      ],
      [
        'a token for no approval',
        JSON.stringify({ decision: 'deny', token: '1'.repeat(13) }),
        403,
        /not valid/,
      ],
      [
        'a form post (text/plain, as a cross-site page could send)',
        JSON.stringify({ decision: 'deny', token: 'x' }),
        422,
        /Content-Type/,
        'text/plain',
      ],
    ])('answers %s with %i and a detail', async (_what, body, status, detail, type?: string) => {
      const response = await rawRequest(bed.gw.port, '/api/v1/approvals/nope/decide', {
        method: 'POST',
        headers: { 'content-type': type ?? 'application/json' },
        body,
      });
      expect(response.status).toBe(status);
      expect(String((JSON.parse(response.body) as Json).detail)).toMatch(detail);
    });
  },
);

describe.runIf(hasOpenssl())(
  'a decision token expires with its approval (skipped without openssl)',
  { timeout: 60_000 },
  () => {
    it('refuses the token of an approval that expired with 403, and nothing runs', async () => {
      const certificate = selfSignedCertificate();
      const service = await startFakePushService(certificate);
      const agent = new Agent({ ca: certificate.cert });
      const bed = await startChatTestBed(undefined, {
        pushAgent: agent,
        approvalExpiryMs: 2_000,
        config: { gateway: { api_key: KEY } },
      });
      try {
        const headers = { 'content-type': 'application/json', 'x-api-key': KEY };
        const post = (path: string, body: unknown, withKey = true) =>
          fetch(`${bed.gw.url}/api/v1${path}`, {
            method: 'POST',
            headers: withKey ? headers : { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          });
        expect((await post('/push/subscribe', service.subscribe())).status).toBe(200);
        bed.fake.reply(
          { toolCalls: [{ name: 'shell', arguments: { command: 'echo too-late' } }] },
          { text: 'It expired.' },
        );
        const turn = await post('/chat', { message: 'run it', session_id: 'expiring' });
        // The turn ends when the approval expires (denied); the push went out before.
        expect(turn.status).toBe(200);
        const push = service.received.at(-1)!.payload as ApprovalPush;
        const late = await post(
          `/approvals/${push.approval_id}/decide`,
          { decision: 'approve', token: push.decision_tokens.approve },
          false,
        );
        expect(late.status).toBe(403);
        expect(((await late.json()) as Json).detail).toMatch(/expired/);
        const outputs = INSPECTORS['openai-chat']
          .toolResults(bed.fake.requests[1]!)
          .map((r) => r.output);
        expect(outputs).not.toContain('exit code 0\nstdout:\ntoo-late\n');
      } finally {
        await bed.close();
        await service.close();
        agent.destroy();
      }
    });
  },
);
