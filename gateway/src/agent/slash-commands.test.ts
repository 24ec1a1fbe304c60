import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { parseForgetArgument } from './slash-commands.ts';

describe('slash commands in chat', () => {
  let bed: ChatTestBed;
  const say = async (message: string, session_id = 'slash') =>
    (await bed.post('/chat', { message, session_id })).body as {
      reply: string;
      provider: string;
      model: string;
      tokens_in: number;
    };
  beforeAll(async () => {
    bed = await startChatTestBed();
  });
  afterAll(() => bed.close());

  it('answers without calling any model', async () => {
    bed.fake.reset();
    const reply = await say('/help');
    expect(reply).toMatchObject({ provider: 'hearth', model: 'command', tokens_in: 0 });
    expect(reply.reply).toContain('/forget <keyword>');
    expect(bed.fake.requests).toHaveLength(0);
  });

  it('/model <provider> forces a provider, /model auto restores routing', async () => {
    expect((await say('/model claude')).reply).toMatch(/^Model: anthropic;/);
    expect((await bed.get('/settings')).body.runtime).toMatchObject({ provider: 'anthropic' });
    expect((await say('/model skynet')).reply).toMatch(/unknown provider 'skynet'/);
    expect((await say('/model auto')).reply).toMatch(/^Model: automatic routing;/);
  });

  it('/think <level> sets the reasoning effort', async () => {
    expect((await say('/think medium')).reply).toContain('thinking: medium');
    expect((await say('/think extreme')).reply).toMatch(
      /must be one of off, low, medium, high, xhigh, max/,
    );
    await say('/think off');
  });

  it('/privacy on|off toggles privacy mode; bare /privacy shows it', async () => {
    expect((await say('/privacy on')).reply).toBe(
      'Privacy mode is on: every request goes to the local model.',
    );
    expect((await say('/privacy')).reply).toBe(
      'Privacy mode is on: every request goes to the local model.',
    );
    expect((await say('/privacy off')).reply).toBe('Privacy mode is off.');
  });

  it('/compact summarises the conversation and stores the summary', async () => {
    bed.fake.reset();
    expect((await say('/compact', 'compact')).reply).toBe('Nothing to compact yet.');
    bed.fake.reply({ text: 'Sure.' }, { text: 'The user planned a trip to Oslo.' });
    await say('Plan a trip to Oslo', 'compact');
    expect((await say('/compact', 'compact')).reply).toBe(
      'Done: the conversation so far is summarised and saved to memory.',
    );
    const rows = (await bed.get('/memory?session_id=compact&type=summary')).body as {
      entries: { content: string }[];
    };
    expect(rows.entries.map((e) => e.content)).toEqual(['The user planned a trip to Oslo.']);
  });

  it('/forget previews, then deletes with confirm', async () => {
    await bed.post('/memory', {
      content: 'The spare key is under the blue pot',
      session_id: 'forget',
    });
    await bed.post('/memory', { content: 'Likes blue cheese', session_id: 'forget' });
    const preview = (await say('/forget blue', 'forget')).reply;
    expect(preview).toMatch(/^2 memories match "blue":/);
    expect(preview).toContain('Send /forget blue confirm to delete them.');
    expect((await bed.get('/memory?session_id=forget')).body.count as number).toBe(2);
    expect((await say('/forget blue confirm', 'forget')).reply).toBe(
      'Forgot 2 memories matching "blue".',
    );
    expect((await bed.get('/memory?session_id=forget')).body.count as number).toBe(0);
  });

  it('/forget reads confirm only as the last word after whitespace', async () => {
    await bed.post('/memory', { content: 'Parked on level confirm', session_id: 'forget-word' });
    expect((await say('/forget confirm', 'forget-word')).reply).toMatch(/^1 memory matches/);
    expect((await say('/forget level\tCONFIRM', 'forget-word')).reply).toBe(
      'Forgot 1 memory matching "level".',
    );
  });

  // `/\s+confirm$/` took 0.85 s on one such message; twelve at once stalled /health for 9.5 s.
  it('/forget answers a 32 KB message of blanks at once', async () => {
    const started = performance.now();
    const reply = await say(`/forget x${' '.repeat(31_000)}y`, 'forget-blanks');
    expect(reply.reply).toMatch(/^No memories match "x +y"\.$/);
    expect(performance.now() - started).toBeLessThan(1_500);
  });

  it('/forget reads its argument in linear time', () => {
    const started = performance.now();
    expect(parseForgetArgument(`x${' '.repeat(32_768)}y`)).toEqual({
      keyword: `x${' '.repeat(32_768)}y`,
      confirm: false,
    });
    expect(parseForgetArgument(`${'\t '.repeat(16_384)}confirm`)).toEqual({
      keyword: '',
      confirm: true,
    });
    expect(performance.now() - started).toBeLessThan(50);
  });

  it('/tag and /tags attach and list tags on the session’s memories', async () => {
    await bed.post('/memory', { content: 'Garden needs watering on Fridays', session_id: 'tags' });
    expect((await say('/tags', 'tags')).reply).toBe('No tags yet. Use /tag <name>.');
    expect((await say('/tag garden', 'tags')).reply).toBe('Tagged 1 memory with "garden".');
    expect((await say('/tags', 'tags')).reply).toBe('garden (1)');
    const tagged = (await bed.get('/memory?tag=garden')).body as { count: number };
    expect(tagged.count).toBe(1);
  });

  it('answers an unknown command with the list of commands', async () => {
    const reply = (await say('/frobnicate now')).reply;
    expect(reply).toMatch(/^Unknown command \/frobnicate\.\nCommands:/);
  });

  it('treats text that merely starts with a slash as a message', async () => {
    bed.fake.reset();
    bed.fake.reply({ text: 'That is a system file.' });
    expect((await say('/etc/hosts is what?')).reply).toBe('That is a system file.');
  });
});
