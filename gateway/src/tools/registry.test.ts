import { describe, expect, it } from 'vitest';
import { HearthError } from '../errors.ts';
import type { Tool } from './contract.ts';
import { createToolRegistry } from './registry.ts';

const tool = (name: string, source: string): Tool => ({
  name,
  description: name,
  parameters: { type: 'object' },
  source,
  execute: () => Promise.resolve(source),
});

function conflictOf(work: () => void): string {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(HearthError);
    expect((error as HearthError).code).toBe('conflict');
    return (error as HearthError).message;
  }
  throw new Error('expected a conflict');
}

describe('tool registry: one namespace', () => {
  it('refuses a second tool of the same name, whoever registers it', () => {
    const registry = createToolRegistry();
    registry.register(tool('echo', 'skill:a'));
    expect(conflictOf(() => registry.register(tool('echo', 'skill:a')))).toContain("'echo'");
    const message = conflictOf(() => registry.register(tool('echo', 'skill:b')));
    expect(message).toContain('skill:b');
    expect(message).toContain('skill:a');
    expect(registry.get('echo')?.source).toBe('skill:a');
  });

  it('keeps a reserved name for its origin, before and after the owner registers', () => {
    const registry = createToolRegistry();
    registry.reserve('memory_search', 'builtin');
    const message = conflictOf(() => registry.register(tool('memory_search', 'skill:memory')));
    expect(message).toContain("'memory_search'");
    expect(message).toContain('skill:memory');
    expect(message).toContain('builtin');
    registry.register(tool('memory_search', 'builtin'));
    expect(registry.get('memory_search')?.source).toBe('builtin');
    registry.unregister('memory_search');
    conflictOf(() => registry.register(tool('memory_search', 'skill:memory')));
  });

  it('refuses a reservation of a name another origin registered or reserved', () => {
    const registry = createToolRegistry();
    registry.register(tool('write_skill', 'skill:write'));
    conflictOf(() => registry.reserve('write_skill', 'builtin'));
    registry.reserve('shell', 'builtin');
    registry.reserve('shell', 'builtin');
    conflictOf(() => registry.reserve('shell', 'plugin:x'));
  });

  it('keeps a reserved prefix for its origin', () => {
    const registry = createToolRegistry();
    registry.reservePrefix('files__', 'mcp:files');
    const message = conflictOf(() => registry.register(tool('files__read', 'skill:files_')));
    expect(message).toContain("'files__read'");
    expect(message).toContain('skill:files_');
    expect(message).toContain('mcp:files');
    registry.register(tool('files__read', 'mcp:files'));
    registry.register(tool('files_read', 'skill:files'));
    expect(registry.list().map((t) => t.source)).toEqual(['mcp:files', 'skill:files']);
  });

  it('refuses a prefix holding another origin’s tool, name or overlapping prefix', () => {
    const registry = createToolRegistry();
    registry.register(tool('files__read', 'skill:files_'));
    expect(conflictOf(() => registry.reservePrefix('files__', 'mcp:files'))).toContain(
      'skill:files_',
    );
    registry.reserve('git__status', 'builtin');
    conflictOf(() => registry.reservePrefix('git__', 'mcp:git'));
    registry.reservePrefix('web__', 'mcp:web');
    conflictOf(() => registry.reservePrefix('web__x', 'mcp:other'));
    conflictOf(() => registry.reservePrefix('we', 'mcp:other'));
    registry.reservePrefix('web__', 'mcp:web');
  });

  it('gives a prefix back only for its origin', () => {
    const registry = createToolRegistry();
    registry.reservePrefix('files__', 'mcp:files');
    registry.releasePrefix('files__', 'mcp:other');
    conflictOf(() => registry.register(tool('files__read', 'skill:files_')));
    registry.releasePrefix('files__', 'mcp:files');
    registry.register(tool('files__read', 'skill:files_'));
  });

  it('conflict() answers without registering, and an origin’s own tool does not count', () => {
    const registry = createToolRegistry();
    registry.reserve('current_time', 'builtin');
    registry.register(tool('weather_now', 'skill:weather'));
    expect(registry.conflict('current_time', 'skill:current')).toContain('builtin');
    expect(registry.conflict('weather_now', 'skill:weather')).toBeNull();
    expect(registry.conflict('weather_now', 'skill:other')).toContain('skill:weather');
    expect(registry.conflict('free', 'skill:x')).toBeNull();
    expect(registry.list()).toHaveLength(1);
  });
});
