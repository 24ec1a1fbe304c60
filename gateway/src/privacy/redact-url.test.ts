import { describe, expect, it } from 'vitest';
import { isSecretParameter, redactUrl } from './redact-url.ts';

describe('redactUrl', () => {
  it.each([
    [
      'https://generativelanguage.googleapis.com/v1/models?key=abc',
      'https://generativelanguage.googleapis.com/v1/models?key=REDACTED',
    ],
    [
      'https://api.example.com/x?q=weather&api_key=s3cr3t&lang=en',
      'https://api.example.com/x?q=weather&api_key=REDACTED&lang=en',
    ],
    [
      'https://api.example.com/x?APIKEY=1&Token=2&access_token=3',
      'https://api.example.com/x?APIKEY=REDACTED&Token=REDACTED&access_token=REDACTED',
    ],
    [
      'https://api.example.com/x?secret=1&password=2&sig=3&signature=4',
      'https://api.example.com/x?secret=REDACTED&password=REDACTED&sig=REDACTED&signature=REDACTED',
    ],
    [
      'https://b.s3.amazonaws.com/o?X-Amz-Credential=AKIA%2F1&X-Amz-Signature=ff&versionId=7',
      'https://b.s3.amazonaws.com/o?X-Amz-Credential=REDACTED&X-Amz-Signature=REDACTED&versionId=7',
    ],
    [
      'https://api.example.com/x?auth=1&authorization=2&auth_token=3',
      'https://api.example.com/x?auth=REDACTED&authorization=REDACTED&auth_token=REDACTED',
    ],
    [
      'https://api.example.com/x?client_secret=1&refresh_token=2&subscription-key=3',
      'https://api.example.com/x?client_secret=REDACTED&refresh_token=REDACTED&subscription-key=REDACTED',
    ],
    ['https://api.example.com/x?%6Bey=encoded-name', 'https://api.example.com/x?%6Bey=REDACTED'],
    ['https://api.example.com/x?key=', 'https://api.example.com/x?key=REDACTED'],
    ['https://api.example.com/x?key&flag', 'https://api.example.com/x?key&flag'],
    [
      'https://api.example.com/x?keyboard=qwerty&monkey=1&q=a%20b',
      'https://api.example.com/x?keyboard=qwerty&monkey=1&q=a%20b',
    ],
    ['https://user:pass@api.example.com:8443/x?a=1', 'https://api.example.com:8443/x?a=1'],
    ['https://api.example.com/x?token=t#frag', 'https://api.example.com/x?token=REDACTED'],
    [
      'https://api.telegram.org/bot123456:AAH-x_yZ/sendMessage',
      'https://api.telegram.org/botREDACTED/sendMessage',
    ],
    [
      'https://api.telegram.org/file/bot123456:AAHxyz/photos/1.jpg',
      'https://api.telegram.org/file/botREDACTED/photos/1.jpg',
    ],
    [
      'https://discord.com/api/v10/webhooks/111/tok-en?wait=true',
      'https://discord.com/api/v10/webhooks/111/REDACTED?wait=true',
    ],
    [
      'https://hooks.slack.com/services/T0/B0/XXXXSECRET',
      'https://hooks.slack.com/services/T0/B0/REDACTED',
    ],
    ['https://example.com/services/a/b/c', 'https://example.com/services/a/b/c'],
    ['http://[2001:db8::1]:8080/p?x=1', 'http://[2001:db8::1]:8080/p?x=1'],
    ['/relative?key=abc', '/relative?key=REDACTED'],
  ])('%s → %s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });

  it('never throws, even on malformed percent-encoding', () => {
    expect(redactUrl('https://h/x?%E0%A4%A=1&key=2')).toBe('https://h/x?%E0%A4%A=1&key=REDACTED');
  });
});

describe('isSecretParameter', () => {
  it.each([
    'key',
    'KEY',
    'api_key',
    'apikey',
    'token',
    'access_token',
    'secret',
    'password',
    'sig',
    'signature',
    'x-amz-date',
    'X-Amz-Security-Token',
    'x-goog-signature',
    'auth',
    'Authorization',
  ])('%s is secret', (name) => expect(isSecretParameter(name)).toBe(true));

  it.each(['q', 'model', 'page', 'keyboard', 'monkey', 'session_id'])(
    '%s is not secret',
    (name) => {
      expect(isSecretParameter(name)).toBe(false);
    },
  );
});
