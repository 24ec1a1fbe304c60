import { describe, expect, it } from 'vitest';
import { classifyReceive, SIGNAL_INBOUND_LIMIT } from './signal-envelope.ts';

const ACCOUNT = '+15550001111';
const event = (envelope: Record<string, unknown>) => JSON.stringify({ envelope, account: ACCOUNT });
const data = (dataMessage: Record<string, unknown>, from = '+15550002222') =>
  event({ source: from, sourceNumber: from, sourceName: 'Ann', timestamp: 10, dataMessage });

describe('classifyReceive: what a signal-cli receive event means', () => {
  it('a direct text message, with its sender as the chat', () => {
    expect(classifyReceive(data({ timestamp: 10, message: 'hi' }), ACCOUNT)).toEqual({
      kind: 'message',
      at: 10,
      message: {
        id: '+15550002222:10',
        chatId: '+15550002222',
        senderId: '+15550002222',
        senderName: 'Ann',
        text: 'hi',
        direct: true,
        mentioned: false,
      },
    });
  });

  it('a group message names the group; a mention of the account is spelled out and counts', () => {
    const result = classifyReceive(
      data({
        timestamp: 11,
        message: 'hey \uFFFC and \uFFFC!',
        groupInfo: { groupId: 'R3JvdXA=', type: 'DELIVER' },
        mentions: [
          { name: 'Bob', number: '+15550003333', start: 10, length: 1 },
          { name: 'Hearth', number: ACCOUNT, start: 4, length: 1 },
        ],
      }),
      ACCOUNT,
    );
    expect(result).toMatchObject({
      kind: 'message',
      message: {
        chatId: 'group:R3JvdXA=',
        direct: false,
        mentioned: true,
        text: 'hey @Hearth and @Bob!',
      },
    });
  });

  it('a quote of the bot’s message counts as a mention; a mention of someone else does not', () => {
    const quoted = data({
      message: 'yes',
      groupInfo: { groupId: 'Zw==' },
      quote: { authorNumber: ACCOUNT },
    });
    expect(classifyReceive(quoted, ACCOUNT)).toMatchObject({ message: { mentioned: true } });
    const other = data({
      message: '\uFFFC?',
      groupInfo: { groupId: 'Zw==' },
      mentions: [{ number: '+15550003333', start: 0, length: 1 }],
    });
    expect(classifyReceive(other, ACCOUNT)).toMatchObject({ message: { mentioned: false } });
  });

  it('ignores quietly: its own messages, receipts, typing, sync from linked devices, no text', () => {
    expect(classifyReceive(data({ message: 'echo' }, ACCOUNT), ACCOUNT)).toEqual({
      kind: 'ignored',
    });
    for (const kind of ['receiptMessage', 'typingMessage', 'syncMessage'])
      expect(
        classifyReceive(event({ source: '+1555', timestamp: 1, [kind]: {} }), ACCOUNT),
      ).toEqual({
        kind: 'ignored',
      });
    expect(classifyReceive(data({ attachments: [{}] }), ACCOUNT)).toEqual({ kind: 'ignored' });
  });

  it('refuses broken JSON, wrong shapes, unknown kinds, a missing sender and oversized text', () => {
    const refused = [
      '{"envelope":',
      '[]',
      JSON.stringify({ envelope: { source: '+1', timestamp: 'yesterday' } }),
      event({ source: '+1', timestamp: 1, somethingNew: {} }),
      event({ timestamp: 1, dataMessage: { message: 'who?' } }),
      data({ message: 'x'.repeat(SIGNAL_INBOUND_LIMIT + 1) }),
      data({ message: 'hi', mentions: [{ start: -1, length: 1 }] }),
    ];
    for (const raw of refused)
      expect(classifyReceive(raw, ACCOUNT).kind, raw.slice(0, 80)).toBe('refused');
  });
});
