import { channelSchema, type ChannelConfig } from '../../config/schema.ts';
import type { MailServers } from './mail-servers.ts';

export type EmailConfig = Extract<ChannelConfig, { type: 'email' }>;

/**
 * The email channel of `user`'s mailbox on the test mail servers' plain ports (no TLS), with
 * `overrides` on top (as `[channels.<name>]` keys).
 */
export function plainEmailChannel(
  mail: Pick<MailServers, 'imapPort' | 'smtpPort' | 'address' | 'password'>,
  user: string,
  overrides: Record<string, unknown> = {},
): EmailConfig {
  const config = channelSchema.parse({
    type: 'email',
    imap_host: '127.0.0.1',
    imap_port: mail.imapPort,
    imap_tls: 'none',
    smtp_host: '127.0.0.1',
    smtp_port: mail.smtpPort,
    smtp_tls: 'none',
    username: mail.address(user),
    password_secret: mail.password(user),
    address: mail.address(user),
    ...overrides,
  });
  if (config.type !== 'email') throw new Error('unreachable');
  return config;
}
