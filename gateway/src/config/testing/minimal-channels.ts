/** Config-test data shared by the README checks. */

/** The smallest valid table of each channel type: its required keys. */
export const MINIMAL_CHANNELS = [
  { type: 'webhook', signing_secret: 'x' },
  { type: 'telegram', bot_token: 'x' },
  { type: 'whatsapp', access_token: 'x', app_secret: 'x', verify_token: 'x', phone_number_id: '1' },
  { type: 'matrix', homeserver_url: 'http://x', access_token: 'x', user_id: '@x:y' },
  { type: 'signal', account: '+15551234567' },
  { type: 'discord', bot_token: 'x' },
  { type: 'slack', bot_token: 'x', app_token: 'x' },
  {
    type: 'email',
    imap_host: 'x',
    smtp_host: 'x',
    username: 'x',
    password_secret: 'x',
    address: 'a@b.example',
  },
];
