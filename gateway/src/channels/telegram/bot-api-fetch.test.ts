import { describe, expect, it } from 'vitest';
import { excerpt } from './bot-api-fetch.ts';

describe('an excerpt of what the Bot API answered', () => {
  it('is one printable line of at most 120 characters', () => {
    expect(excerpt('<html>\r\n  <body>\u0007\u202ebad\u200b</body>', 'tok')).toBe(
      '<html> <body> bad </body>',
    );
    expect(excerpt('x'.repeat(500), 'tok')).toBe(`${'x'.repeat(120)}…`);
  });

  it('never repeats the bot token (a proxy echoing the path)', () => {
    const token = '123456:secret-token';
    expect(excerpt(`Cannot POST /bot${token}/getUpdates`, token)).toBe(
      'Cannot POST /bot<bot token>/getUpdates',
    );
  });
});
