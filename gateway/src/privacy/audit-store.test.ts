import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openAuditStore, type AuditStore } from './audit-store.ts';
import type { EgressEntry } from './types.ts';

const DAY = 86_400;
const NOW = 1_800_000_000;

function entry(overrides: Partial<EgressEntry> = {}): EgressEntry {
  return {
    session_id: 's1',
    method: 'POST',
    url: 'https://api.openai.com/v1/chat/completions',
    destination: 'api.openai.com',
    timestamp: NOW,
    ...overrides,
  };
}

describe('audit store', () => {
  let dir: string;
  let file: string;
  let clock: number;
  const open = (options = {}): AuditStore => openAuditStore(file, { now: () => clock, ...options });
  let store: AuditStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'hearth-audit-'));
    file = join(dir, 'nested', 'privacy_audit.db');
    clock = NOW;
    store = open();
  });
  afterEach(async () => {
    store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps who a request was made for and why it was refused', () => {
    store.record(entry({ source: 'skill:weather', refused: 'evil.example is not declared' }));
    store.record(entry({ source: 'skill:weather' }));
    expect(store.report('s1').entries.map((e) => [e.source, e.refused])).toEqual([
      // Newest first (same time: the later one first).
      ['skill:weather', null],
      ['skill:weather', 'evil.example is not declared'],
    ]);
  });

  it('adds the source and refused columns to a database written before them', () => {
    store.close();
    const old = join(dir, 'old.db');
    const db = new BetterSqlite3(old);
    db.exec(
      'CREATE TABLE egress (id INTEGER PRIMARY KEY, session_id TEXT NULL, method TEXT NOT NULL, url TEXT NOT NULL, destination TEXT NOT NULL, timestamp REAL NOT NULL)',
    );
    db.prepare(
      "INSERT INTO egress (session_id, method, url, destination, timestamp) VALUES ('s1', 'GET', 'https://a.example/', 'a.example', ?)",
    ).run(NOW);
    db.close();
    store = openAuditStore(old, { now: () => clock });
    store.record(entry({ source: 'skill:x' }));
    expect(store.report('s1').entries.map((e) => e.source)).toEqual(['skill:x', null]);
  });

  it('reports one session, newest first, with sorted unique destinations', () => {
    store.record(entry({ timestamp: NOW - 30, destination: 'api.openai.com' }));
    store.record(
      entry({
        timestamp: NOW - 10,
        destination: 'api.anthropic.com',
        url: 'https://api.anthropic.com/v1/messages',
      }),
    );
    store.record(entry({ timestamp: NOW - 20, destination: 'api.openai.com' }));
    store.record(entry({ session_id: 's2', destination: 'api.groq.com' }));

    const report = store.report('s1');
    expect(report.session_id).toBe('s1');
    expect(report.total).toBe(3);
    expect(report.unique_destinations).toEqual(['api.anthropic.com', 'api.openai.com']);
    expect(report.entries.map((e) => e.timestamp)).toEqual([NOW - 10, NOW - 20, NOW - 30]);
    expect(report.entries[0]).toEqual({
      session_id: 's1',
      method: 'POST',
      url: 'https://api.anthropic.com/v1/messages',
      destination: 'api.anthropic.com',
      timestamp: NOW - 10,
      source: null,
      refused: null,
    });
  });

  it('reports every session, unattributed requests included, with null session_id', () => {
    store.record(entry());
    store.record(entry({ session_id: 's2', destination: 'api.groq.com' }));
    store.record(entry({ session_id: null, destination: 'registry.npmjs.org' }));
    const report = store.report(null);
    expect(report.session_id).toBeNull();
    expect(report.total).toBe(3);
    expect(report.unique_destinations).toEqual([
      'api.groq.com',
      'api.openai.com',
      'registry.npmjs.org',
    ]);
  });

  it('gives a fresh session an empty report', () => {
    store.record(entry());
    expect(store.report('fresh')).toEqual({
      session_id: 'fresh',
      total: 0,
      unique_destinations: [],
      entries: [],
    });
  });

  it('caps entries but still counts and lists every destination', () => {
    store.close();
    store = open({ entryLimit: 2 });
    for (let i = 0; i < 5; i++)
      store.record(entry({ timestamp: NOW + i, destination: `h${i}.example` }));
    const report = store.report('s1');
    expect(report.total).toBe(5);
    expect(report.entries.map((e) => e.destination)).toEqual(['h4.example', 'h3.example']);
    expect(report.unique_destinations).toHaveLength(5);
  });

  it('clears one session', () => {
    store.record(entry());
    store.record(entry());
    store.record(entry({ session_id: 's2' }));
    expect(store.clear('s1')).toEqual({ cleared: 2, session_id: 's1' });
    expect(store.report('s1').total).toBe(0);
    expect(store.report('s2').total).toBe(1);
    expect(store.clear('s1')).toEqual({ cleared: 0, session_id: 's1' });
  });

  it('clears every session', () => {
    store.record(entry());
    store.record(entry({ session_id: 's2' }));
    store.record(entry({ session_id: null }));
    expect(store.clear(null)).toEqual({ cleared: 3, session_id: null });
    expect(store.report(null).total).toBe(0);
  });

  it('prunes rows older than 90 days', () => {
    store.record(entry({ timestamp: NOW - 91 * DAY, url: 'https://old.example/' }));
    store.record(entry({ timestamp: NOW - 89 * DAY, url: 'https://recent.example/' }));
    store.record(entry({ timestamp: NOW }));
    expect(store.prune()).toBe(1);
    expect(store.report(null).entries.map((e) => e.url)).not.toContain('https://old.example/');
    expect(store.report(null).total).toBe(2);
    expect(store.prune(30, NOW)).toBe(1);
    expect(store.report(null).total).toBe(1);
  });

  it('prunes on open', () => {
    store.record(entry({ timestamp: NOW - 100 * DAY }));
    store.record(entry({ timestamp: NOW }));
    store.close();
    clock = NOW + 1;
    store = open();
    expect(store.report(null).total).toBe(1);
  });

  it('prunes again on its interval', async () => {
    store.close();
    store = open({ pruneEveryMs: 10 });
    store.record(entry({ timestamp: NOW - DAY }));
    clock = NOW + 90 * DAY;
    await expect.poll(() => store.report(null).total).toBe(0);
  });

  it('persists across close and reopen', () => {
    store.record(entry({ session_id: 'kept' }));
    store.close();
    store = open();
    expect(store.report('kept').total).toBe(1);
  });

  it('keeps the file at 0600 in a 0700 folder', async () => {
    store.record(entry());
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'nested'))).mode & 0o777).toBe(0o700);
    expect((await stat(`${file}-wal`)).mode & 0o777).toBe(0o600);
  });

  it('can be closed twice', () => {
    store.close();
    expect(() => store.close()).not.toThrow();
  });

  it('opens in memory', () => {
    const memory = openAuditStore(':memory:', { now: () => NOW });
    memory.record(entry());
    expect(memory.report(null).total).toBe(1);
    memory.close();
  });
});
