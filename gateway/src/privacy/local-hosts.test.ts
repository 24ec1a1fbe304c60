import { describe, expect, it } from 'vitest';
import { createIsLocal, isLoopback, parseLocalHost } from './local-hosts.ts';

describe('isLoopback', () => {
  it.each([
    'localhost',
    'LOCALHOST',
    'localhost.',
    'api.localhost',
    '127.0.0.1',
    '127.8.9.10',
    '::1',
    '[::1]',
    '0:0:0:0:0:0:0:1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '0.0.0.0',
    '::',
  ])('%s is loopback', (host) => expect(isLoopback(host)).toBe(true));

  it.each([
    'example.com',
    '10.0.0.1',
    '192.168.1.2',
    '128.0.0.1',
    '::2',
    'localhost.example.com',
    'ollama',
  ])('%s is not loopback', (host) => expect(isLoopback(host)).toBe(false));
});

describe('createIsLocal', () => {
  const isLocal = createIsLocal([
    'http://ollama:11434',
    'qdrant',
    'sandbox:8080',
    '[fd00::5]:9000',
    'web:80',
  ]);

  it('always counts loopback as local', () => {
    expect(createIsLocal([])({ hostname: '127.0.0.1', port: 1234 })).toBe(true);
  });

  it('matches a URL or host:port entry on host and port', () => {
    expect(isLocal({ hostname: 'ollama', port: 11434 })).toBe(true);
    expect(isLocal({ hostname: 'OLLAMA', port: 11434 })).toBe(true);
    expect(isLocal({ hostname: 'ollama', port: 80 })).toBe(false);
    expect(isLocal({ hostname: 'sandbox', port: 8080 })).toBe(true);
    expect(isLocal({ hostname: 'sandbox', port: 8081 })).toBe(false);
    expect(isLocal({ hostname: 'fd00::5', port: 9000 })).toBe(true);
    expect(isLocal({ hostname: 'web', port: 80 })).toBe(true);
    expect(isLocal({ hostname: 'web', port: 443 })).toBe(false);
  });

  it('matches a bare host on any port', () => {
    expect(isLocal({ hostname: 'qdrant', port: 6333 })).toBe(true);
    expect(isLocal({ hostname: 'qdrant', port: 443 })).toBe(true);
  });

  it('does not count other hosts', () => {
    expect(isLocal({ hostname: 'api.openai.com', port: 443 })).toBe(false);
  });

  it('gives a URL entry without a port the scheme default', () => {
    expect(parseLocalHost('https://runtime.lan')).toEqual({ hostname: 'runtime.lan', port: 443 });
    expect(parseLocalHost('http://runtime.lan')).toEqual({ hostname: 'runtime.lan', port: 80 });
  });

  it('reads host, host:port and [v6]:port entries', () => {
    expect(parseLocalHost('Qdrant')).toEqual({ hostname: 'qdrant', port: null });
    expect(parseLocalHost('web:80')).toEqual({ hostname: 'web', port: 80 });
    expect(parseLocalHost('[fd00::5]:9000')).toEqual({ hostname: 'fd00::5', port: 9000 });
    expect(parseLocalHost('[fd00::5]')).toEqual({ hostname: 'fd00::5', port: null });
  });

  it('rejects an entry that is not a host', () => {
    expect(() => parseLocalHost('http://')).toThrow(/Not a host/);
  });
});
