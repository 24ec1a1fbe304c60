/**
 * A hostile signal-cli daemon cannot make the gateway hold more than a cap of what it sends: an
 * event without end is cut at MAX_EVENT_CHARS, an answer without end at MAX_RPC_ANSWER_BYTES,
 * a message over the inbound caps is refused — each counted in the channel's errors, and the
 * channel goes on.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChatTestBed } from '../../testing/gateway/chat-gateway.ts';
import { INBOUND_CAPS } from '../inbound-caps.ts';
import { gatewayApi, startChannelTestBed } from '../testing/channel-test-kit.ts';
import { startFakeSignalCli, type FakeSignalCli } from '../testing/fake-signal-cli.ts';
import { MAX_EVENT_CHARS } from './signal-adapter.ts';
import { MAX_RPC_ANSWER_BYTES } from './signal-rpc.ts';

const ACCOUNT = '+15550009999';
const OWNER = '+15550001001';

describe('Signal: what a hostile daemon sends is capped', () => {
  let bed: ChatTestBed;
  let signal: FakeSignalCli;
  const api = gatewayApi(() => bed.gw.url);
  const errorsTotal = () => api.errorsTotal('sig');
  const stored = async () =>
    ((await api.call('GET', '/channels/sig/messages')).body.messages as { text: string }[]).map(
      (m) => m.text,
    );

  beforeAll(async () => {
    signal = await startFakeSignalCli(ACCOUNT);
    bed = await startChannelTestBed('sig', {
      type: 'signal',
      account: ACCOUNT,
      rpc_url: signal.rpcUrl,
      allow_from: [OWNER],
    });
    for (let tries = 0; (await api.channelStatus('sig')) !== 'connected'; tries += 1) {
      if (tries > 150) throw new Error('the Signal channel did not connect');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  });
  afterAll(async () => {
    await bed.close();
    await signal.close();
  });
  afterEach(() => {
    bed.fake.reset();
    signal.skipSent();
  });

  it('an event without end is cut at the cap; the stream is reopened and the next message answered', async () => {
    const before = await errorsTotal();
    const written = await signal.endlessEvent();
    // Cut near the cap (plus what sockets and streams hold), not after gigabytes.
    expect(written).toBeGreaterThan(MAX_EVENT_CHARS / 2);
    expect(written).toBeLessThan(16 * MAX_EVENT_CHARS);
    await expect.poll(errorsTotal).toBe(before + 1);
    await expect.poll(() => signal.subscribers(), { timeout: 15_000 }).toBe(1);

    bed.fake.reply({ text: 'Still here.' });
    signal.message({ from: OWNER, text: 'hello after the flood' });
    expect(await signal.nextSent()).toEqual([{ chatId: OWNER, text: 'Still here.' }]);
  });

  it('an answer without end is cut at the cap: the reply fails, counted', async () => {
    const before = await errorsTotal();
    signal.endlessAnswerNext('send');
    bed.fake.reply({ text: 'This reply meets an endless answer.' });
    signal.message({ from: OWNER, text: 'answer me' });
    await expect.poll(errorsTotal, { timeout: 5_000 }).toBe(before + 1);
    await expect.poll(() => signal.cuts.length).toBe(1);
    expect(signal.cuts[0]).toBeLessThan(16 * MAX_RPC_ANSWER_BYTES);
  });

  it('a message whose sender id is over the inbound cap is refused before it is stored', async () => {
    const before = await errorsTotal();
    const forged = `+1${'5'.repeat(INBOUND_CAPS.idChars)}`;
    signal.message({ from: forged, text: 'from a forged number' });
    await expect.poll(errorsTotal).toBe(before + 1);
    expect(await stored()).not.toContain('from a forged number');
    expect(bed.fake.requests).toHaveLength(0);
  });
});
