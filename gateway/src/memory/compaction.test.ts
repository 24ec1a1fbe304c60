import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../providers/messages.ts';
import {
  COMPACTION_THRESHOLD,
  conversationTokens,
  createCompactor,
  type CompactorDeps,
  type Conversation,
} from './compaction.ts';
import { contentHash } from './content-hash.ts';
import type { MemoryOrigin } from './origin.ts';
import type { HistoryMessage, MemoryEntry, NewMemoryEntry } from './ports.ts';
import { capturingLogger } from '../observability/testing/log-capture.ts';

type Stored = Omit<NewMemoryEntry, 'embedding'>;

/** A promise the test settles by hand. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function storedEntry(entry: Stored, id: number): MemoryEntry {
  return {
    id,
    session_id: entry.session_id,
    content: entry.content,
    content_hash: 'hash',
    importance_score: entry.importance_score,
    tags: entry.tags ?? [],
    type: entry.type ?? 'turn',
    created_at: 0,
    updated_at: 0,
    origin: entry.origin ?? { trust: 'hearth', sources: [] },
  };
}

/** A compactor over a scripted summariser and an in-array store, recording the order of calls. */
function rig(
  options: {
    summarise?: (text: string) => Promise<string>;
    store?: (entry: Stored) => Promise<MemoryEntry>;
    originsOf?: CompactorDeps['originsOf'];
  } = {},
) {
  const capture = capturingLogger();
  const events: string[] = [];
  const summarised: string[] = [];
  const stored: Stored[] = [];
  const compactor = createCompactor({
    summarise: (text) => {
      events.push('summarise');
      summarised.push(text);
      return options.summarise?.(text) ?? Promise.resolve('Ada lives in Leeds and drinks tea.');
    },
    store: (entry) => {
      events.push('store');
      if (options.store) return options.store(entry);
      stored.push(entry);
      return Promise.resolve(storedEntry(entry, stored.length));
    },
    originsOf: options.originsOf,
    logger: capture.logger,
  });
  return { compactor, events, summarised, stored, capture };
}

const turn = (user: string, assistant: string): ChatMessage[] => [
  { role: 'user', content: user },
  { role: 'assistant', content: assistant },
];

function conversation(...messages: HistoryMessage[]): Conversation {
  return { history: messages, summary: null };
}

/** A conversation whose history estimates to exactly `tokens` tokens (4 characters each). */
function conversationOfTokens(tokens: number): Conversation {
  const characters = tokens * 4;
  // The two messages are joined by one newline for the estimate.
  const first = Math.floor((characters - 1) / 2);
  return conversation(
    { role: 'user', content: 'u'.repeat(first) },
    { role: 'assistant', content: 'a'.repeat(characters - 1 - first) },
  );
}

describe('auto-compaction threshold', () => {
  const WINDOW = 100; // tokens; compaction starts above 50

  it('is 50% of the context window', () => {
    expect(COMPACTION_THRESHOLD).toBe(0.5);
    const atHalf = conversationOfTokens(50);
    expect(conversationTokens(atHalf)).toBe(50);
    const { compactor } = rig();
    expect(compactor.needsCompaction(atHalf, WINDOW)).toBe(false);
    const justAbove = conversationOfTokens(50);
    justAbove.history[0]!.content += 'x';
    expect(conversationTokens(justAbove)).toBe(51);
    expect(compactor.needsCompaction(justAbove, WINDOW)).toBe(true);
  });

  it('counts the existing summary towards the estimate', () => {
    const { compactor } = rig();
    const short = conversation(...turn('hi', 'hello'));
    expect(compactor.needsCompaction(short, WINDOW)).toBe(false);
    short.summary = 's'.repeat(200);
    expect(compactor.needsCompaction(short, WINDOW)).toBe(true);
  });

  it('does nothing in the background at or below the threshold', async () => {
    const { compactor, events } = rig();
    const atHalf = conversationOfTokens(50);
    const before = structuredClone(atHalf);
    compactor.compactInBackground('s', atHalf, WINDOW);
    await compactor.idle();
    expect(events).toEqual([]);
    expect(atHalf).toEqual(before);
  });

  it('above the threshold, summarises in the background without delaying the caller', async () => {
    const gate = deferred<string>();
    const { compactor, events, stored, summarised } = rig({ summarise: () => gate.promise });
    const long = conversation(
      ...turn('My name is Ada and I live in Leeds. '.repeat(4), 'Nice to meet you, Ada.'),
      ...turn('I drink green tea every morning.', 'Noted: green tea.'),
    );
    expect(compactor.needsCompaction(long, WINDOW)).toBe(true);

    // Returns at once, while the summary is still being written.
    expect(compactor.compactInBackground('s', long, WINDOW)).toBeUndefined();
    expect(events).toEqual(['summarise']);
    expect(long.history).toHaveLength(4);

    gate.resolve('  Ada lives in Leeds and drinks green tea.  ');
    await compactor.idle();
    expect(summarised).toEqual([
      [
        `user: ${'My name is Ada and I live in Leeds. '.repeat(4)}`,
        'assistant: Nice to meet you, Ada.',
        'user: I drink green tea every morning.',
        'assistant: Noted: green tea.',
      ].join('\n'),
    ]);
    expect(stored).toEqual([
      {
        session_id: 's',
        content: 'Ada lives in Leeds and drinks green tea.',
        importance_score: 0.8,
        type: 'summary',
        origin: { trust: 'hearth', sources: [] },
      },
    ]);
    expect(long).toEqual({ history: [], summary: 'Ada lives in Leeds and drinks green tea.' });
  });
});

describe('compact', () => {
  it('stores the summary before it replaces the history', async () => {
    const history = turn('My name is Ada', 'Hello Ada');
    const live = conversation(...history);
    const seenAtStore: { history: number; summary: string | null }[] = [];
    const { compactor, events } = rig({
      store: (entry) => {
        seenAtStore.push({ history: live.history.length, summary: live.summary });
        return Promise.resolve(storedEntry(entry, 1));
      },
    });
    await expect(compactor.compact('s', live)).resolves.toBe(true);
    expect(events).toEqual(['summarise', 'store']);
    // When the summary was being stored, the originals were all still there.
    expect(seenAtStore).toEqual([{ history: 2, summary: null }]);
    expect(live).toEqual({ history: [], summary: 'Ada lives in Leeds and drinks tea.' });
  });

  it('keeps the history when storing the summary fails, and the error reaches compact()', async () => {
    const { compactor } = rig({ store: () => Promise.reject(new Error('database is locked')) });
    const live = conversation(...turn('My name is Ada', 'Hello Ada'));
    const before = structuredClone(live);
    await expect(compactor.compact('s', live)).rejects.toThrow('database is locked');
    expect(live).toEqual(before);
  });

  it('in the background, swallows that failure and logs it', async () => {
    const { compactor, capture } = rig({
      store: () => Promise.reject(new Error('database is locked')),
    });
    const live = conversationOfTokens(60);
    const before = structuredClone(live);
    expect(() => compactor.compactInBackground('s', live, 100)).not.toThrow();
    await compactor.idle();
    expect(live).toEqual(before);
    expect(capture.warnings()).toEqual([
      expect.objectContaining({
        msg: 'compaction failed; history kept',
        sessionId: 's',
        err: 'database is locked',
      }),
    ]);
  });

  it('keeps the history when the summary fails or comes back empty', async () => {
    const failing = rig({ summarise: () => Promise.reject(new Error('provider down')) });
    const live = conversation(...turn('a', 'b'));
    await expect(failing.compactor.compact('s', live)).rejects.toThrow('provider down');
    expect(failing.stored).toEqual([]);

    const empty = rig({ summarise: () => Promise.resolve('   ') });
    await expect(empty.compactor.compact('s', live)).rejects.toThrow('the summary came back empty');
    expect(empty.stored).toEqual([]);
    expect(live).toEqual(conversation(...turn('a', 'b')));
  });

  it('keeps turns appended while the summary is being generated', async () => {
    const gate = deferred<string>();
    const { compactor } = rig({ summarise: () => gate.promise });
    const live = conversation(...turn('My name is Ada', 'Hello Ada'));
    const job = compactor.compact('s', live);
    live.history.push(...turn('I live in Leeds', 'Leeds, noted.'));
    gate.resolve('Ada introduced herself.');
    await expect(job).resolves.toBe(true);
    expect(live).toEqual({
      history: turn('I live in Leeds', 'Leeds, noted.'),
      summary: 'Ada introduced herself.',
    });
  });

  it('folds an earlier summary into the next one', async () => {
    const { compactor, summarised } = rig();
    const live: Conversation = {
      history: turn('I moved to York', 'York, noted.'),
      summary: 'Ada lived in Leeds.',
    };
    await compactor.compact('s', live);
    expect(summarised).toEqual([
      'Earlier summary: Ada lived in Leeds.\nuser: I moved to York\nassistant: York, noted.',
    ]);
  });

  it('does nothing for fewer than two messages', async () => {
    const { compactor, events } = rig();
    await expect(compactor.compact('s', conversation())).resolves.toBe(false);
    await expect(
      compactor.compact('s', conversation({ role: 'user', content: 'hi' })),
    ).resolves.toBe(false);
    expect(events).toEqual([]);
  });

  it('shares one job between concurrent calls for the same session', async () => {
    const gate = deferred<string>();
    const { compactor, events, stored } = rig({ summarise: () => gate.promise });
    const live = conversationOfTokens(60);
    const first = compactor.compact('s', live);
    const second = compactor.compact('s', live);
    expect(second).toBe(first);
    // The background trigger sees the running job and starts nothing either.
    compactor.compactInBackground('s', live, 100);
    gate.resolve('One summary.');
    await expect(Promise.all([first, second])).resolves.toEqual([true, true]);
    expect(events).toEqual(['summarise', 'store']);
    expect(stored).toHaveLength(1);

    // Once settled, a new call is a new job.
    live.history.push(...turn('more', 'text'));
    const third = compactor.compact('s', live);
    expect(third).not.toBe(first);
    await third;
    expect(events).toEqual(['summarise', 'store', 'summarise', 'store']);
  });

  it('runs separate sessions independently', async () => {
    const gate = deferred<string>();
    const { compactor } = rig({ summarise: () => gate.promise });
    const a = compactor.compact('a', conversation(...turn('a1', 'a2')));
    const b = compactor.compact('b', conversation(...turn('b1', 'b2')));
    expect(b).not.toBe(a);
    gate.resolve('both');
    await expect(Promise.all([a, b])).resolves.toEqual([true, true]);
  });
});

describe('compaction and provenance', () => {
  const PAGE: MemoryOrigin = {
    trust: 'untrusted',
    sources: [{ kind: 'browser', name: 'evil.example' }],
  };
  const SHELL: MemoryOrigin = {
    trust: 'untrusted',
    sources: [{ kind: 'shell', name: 'curl' }],
  };

  it('a summary of trusted turns is Hearth’s, and leaves the conversation’s origin unset', async () => {
    const { compactor, stored } = rig({ originsOf: () => Promise.resolve([]) });
    const live = conversation(...turn('My name is Ada', 'Hello Ada'));
    await compactor.compact('s', live);
    expect(stored.map((e) => e.origin)).toEqual([{ trust: 'hearth', sources: [] }]);
    expect(live.origin).toBeUndefined();
  });

  it('a summary inherits the conversation’s untrusted origin and keeps it on the conversation', async () => {
    const { compactor, stored } = rig();
    const live: Conversation = {
      ...conversation(...turn('Read the page', 'It says…')),
      origin: PAGE,
    };
    await compactor.compact('s', live);
    expect(stored.map((e) => e.origin)).toEqual([PAGE]);
    expect(live.origin).toEqual(PAGE);
  });

  it('a summary takes the least trusted origin memory holds for the summarised messages', async () => {
    const asked: { sessionId: string; hashes: string[] }[] = [];
    const { compactor, stored } = rig({
      originsOf: (sessionId, hashes) => {
        asked.push({ sessionId, hashes: [...hashes].sort() });
        return Promise.resolve([{ trust: 'owner', sources: [] }, SHELL]);
      },
    });
    const live: Conversation = {
      ...conversation(...turn('Run the fetch', 'The output says…')),
      origin: PAGE,
    };
    await compactor.compact('s', live);
    expect(asked).toEqual([
      {
        sessionId: 's',
        hashes: [contentHash('Run the fetch'), contentHash('The output says…')].sort(),
      },
    ]);
    // Untrusted wins; the sources of every untrusted piece are joined.
    const expected = { trust: 'untrusted', sources: [...PAGE.sources, ...SHELL.sources] };
    expect(stored.map((e) => e.origin)).toEqual([expected]);
    expect(live.origin).toEqual(expected);
  });

  it('a summary takes the untrusted origins of the history messages it summarises, and tells the stored history', async () => {
    const told: { sessionId: string; summary: string | null; summarised: string[] }[] = [];
    const capture = capturingLogger();
    const compactor = createCompactor({
      summarise: () => Promise.resolve('They read a page.'),
      store: (entry) => Promise.resolve(storedEntry(entry, 1)),
      history: {
        summarised: (sessionId, live, summarised) => {
          told.push({
            sessionId,
            summary: live.summary,
            summarised: summarised.map((m) => m.content),
          });
          return Promise.resolve();
        },
      },
      logger: capture.logger,
    });
    const live = conversation(
      { role: 'user', content: 'Read the page' },
      {
        role: 'assistant',
        content: 'It says run x.',
        origin: PAGE,
      },
    );
    await compactor.compact('s', live);
    expect(live).toEqual({ history: [], summary: 'They read a page.', origin: PAGE });
    expect(told).toEqual([
      {
        sessionId: 's',
        summary: 'They read a page.',
        summarised: ['Read the page', 'It says run x.'],
      },
    ]);
  });

  it('fails closed: when the origins cannot be looked up, the summary is untrusted', async () => {
    const { compactor, stored, capture } = rig({
      originsOf: () => Promise.reject(new Error('redis down')),
    });
    const live = conversation(...turn('hi', 'hello'));
    await compactor.compact('s', live);
    expect(stored.map((e) => e.origin)).toEqual([
      { trust: 'untrusted', sources: [{ kind: 'memory', name: 'origin lookup failed' }] },
    ]);
    expect(capture.warnings()).toEqual([
      expect.objectContaining({ sessionId: 's', err: 'redis down' }),
    ]);
  });
});
