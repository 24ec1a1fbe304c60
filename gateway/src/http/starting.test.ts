/**
 * While the areas start, `/api/v1/*` answers 503 naming the part in plain words ("Tools are
 * starting", "Memory is starting") with `Retry-After`; once started, the same routes answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, OpenDatabase } from '../db/ports.ts';
import { openDatabase } from '../db/open-database.ts';
import { late, STARTING_RETRY_AFTER_SECONDS } from '../lifecycle/late.ts';
import { startTestGateway, type TestGateway } from '../testing/gateway/test-gateway.ts';

/** An openDatabase that waits until the test releases it, to hold the gateway in start-up. */
function gatedOpen(): { open: OpenDatabase; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return {
    release: () => release(),
    open: async (location): Promise<Database> => {
      await gate;
      return openDatabase(location);
    },
  };
}

describe('late parts name themselves in a sentence', () => {
  it.each([
    [{ name: 'Tools', plural: true }, 'Tools are starting'],
    ['Memory', 'Memory is starting'],
    [{ name: 'The approval gate' }, 'The approval gate is starting'],
  ] as const)('%j → %s, with Retry-After', (label, detail) => {
    const part = late<number>(label);
    expect(() => part.get()).toThrow(detail);
    try {
      part.get();
    } catch (error) {
      expect(error).toMatchObject({ status: 503, retryAfterSeconds: STARTING_RETRY_AFTER_SECONDS });
    }
    part.set(1);
    expect(part.get()).toBe(1);
  });
});

describe('/api/v1 while the gateway starts', () => {
  let gw: TestGateway;
  const gate = gatedOpen();
  beforeAll(async () => {
    gw = await startTestGateway({ openDatabase: gate.open });
  });
  afterAll(async () => {
    gate.release();
    await gw.close();
  });

  const EXPECTED: [path: string, detail: string][] = [
    ['/api/v1/channels', 'Channels are starting'],
    ['/api/v1/push/subscriptions', 'Push notifications are starting'],
    ['/api/v1/skills', 'Skills are starting'],
    ['/api/v1/mcp/servers', 'External MCP servers are starting'],
    ['/api/v1/approvals/pending', 'The approval gate is starting'],
    ['/api/v1/memory/entries', 'The database is starting'],
  ];

  it('answers 503 with a human label per area and Retry-After, then serves once started', async () => {
    for (const [path, detail] of EXPECTED) {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.status, path).toBe(503);
      expect(res.headers.get('retry-after'), path).toBe(String(STARTING_RETRY_AFTER_SECONDS));
      expect(await res.json(), path).toEqual({ detail });
    }
    gate.release();
    await gw.gateway.whenReady();
    for (const [path] of EXPECTED) {
      const res = await fetch(`${gw.url}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('retry-after'), path).toBeNull();
    }
  });
});

describe('every GET of the API while starting', () => {
  let gw: TestGateway;
  const gate = gatedOpen();
  beforeAll(async () => {
    gw = await startTestGateway({ openDatabase: gate.open });
  });
  afterAll(async () => {
    gate.release();
    await gw.close();
  });

  it('each 503 is a grammatical "… is/are starting" with Retry-After', async () => {
    const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, unknown>>;
    };
    const starting: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      if (!('get' in operations) || path.includes('{') || !path.startsWith('/api/v1/')) continue;
      const res = await fetch(`${gw.url}${path}`);
      if (res.status !== 503) continue;
      const { detail } = (await res.json()) as { detail: string };
      starting.push(path);
      expect(detail, path).toMatch(/^[A-Z][A-Za-z -]* (is|are) starting$/);
      // "The tools is starting": a plural label with a singular verb.
      expect(detail, path).not.toMatch(/\b(tools|channels|skills|servers|notifications) is /i);
      expect(res.headers.get('retry-after'), path).toBe(String(STARTING_RETRY_AFTER_SECONDS));
    }
    expect(starting.length).toBeGreaterThanOrEqual(6);
  });
});
