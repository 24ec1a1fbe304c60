import { describe, expect, it } from 'vitest';
import { channelSchema } from '../config/schema.ts';
import { channelCaveat } from './caveats.ts';

const email = {
  type: 'email',
  imap_host: 'imap.example.test',
  smtp_host: 'smtp.example.test',
  username: 'bot@example.test',
  password_secret: 'x',
  address: 'bot@example.test',
};

describe('channel caveats (shown in /status backends)', () => {
  it('an email channel that trusts any From says so; a verifying one, or another network, says nothing', () => {
    expect(channelCaveat(channelSchema.parse({ ...email, verify_sender: 'off' }))).toBe(
      'senders not verified: verify_sender = "off" trusts any From',
    );
    expect(channelCaveat(channelSchema.parse(email))).toBeUndefined();
    expect(
      channelCaveat(channelSchema.parse({ type: 'telegram', bot_token: 'x' })),
    ).toBeUndefined();
  });
});
