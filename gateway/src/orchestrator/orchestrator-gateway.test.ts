/**
 * Spec rule 19 over a real gateway: nodes in the real SQLite store, routed generations through
 * the real providers router against the fake LLM (which records what was sent), usage and
 * metrics, memory namespaces in the real memory tiers, and a restart on the same state dir.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startChatTestBed, type ChatTestBed } from '../testing/gateway/chat-gateway.ts';
import { INSPECTORS } from '../testing/fakes/fake-llm/inspect.ts';
import type { RecordedRequest } from '../testing/fakes/fake-llm/wire.ts';

const inspect = (request: RecordedRequest) => INSPECTORS[request.wire as keyof typeof INSPECTORS];
const models = { primary: 'gpt-4o', fallback: '', fast: '', local: 'ollama/llama3.2' };

describe('the orchestrator in a running gateway', () => {
  let bed: ChatTestBed;

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${bed.gw.url}/api/v1${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  }
  const add = (node: Record<string, unknown>) => call('POST', '/orchestrator/nodes', node);

  beforeAll(async () => {
    bed = await startChatTestBed(models);
  });
  afterAll(() => bed.close());
  beforeEach(async () => {
    const { body } = await call('GET', '/orchestrator/nodes');
    for (const node of body.nodes as { name: string }[])
      await call('DELETE', `/orchestrator/nodes/${node.name}`);
    await call('POST', '/settings/model', { provider: null, privacy_mode: false });
    bed.fake.reset();
  });

  it('registers, lists, reads, updates and removes nodes', async () => {
    const created = await add({
      name: 'coder',
      model_override: 'claude-sonnet-4-5',
      priority: 3,
      keywords: ['TypeScript', ' unit   test ', 'typescript'],
      channels: ['API'],
      task_types: ['code'],
      system_prompt: 'You write code.',
    });
    expect(created).toEqual({
      status: 200,
      body: {
        name: 'coder',
        model_override: 'claude-sonnet-4-5',
        provider: 'anthropic',
        enabled: true,
        priority: 3,
        keywords: ['typescript', 'unit test'],
        channels: ['api'],
        task_types: ['code'],
        system_prompt: 'You write code.',
        namespace: 'orchestrator/coder',
        created_at: expect.any(Number),
        updated_at: expect.any(Number),
      },
    });
    await add({ name: 'general', model_override: 'gpt-4o' });

    const listed = await call('GET', '/orchestrator/nodes');
    expect(listed.status).toBe(200);
    expect(listed.body.count).toBe(2);
    expect((listed.body.nodes as { name: string }[]).map((n) => n.name)).toEqual([
      'coder',
      'general',
    ]);
    expect((await call('GET', '/orchestrator/nodes/general')).body).toMatchObject({
      enabled: true,
      priority: 0,
      keywords: [],
      channels: [],
      task_types: [],
      system_prompt: null,
    });

    const patched = await call('PATCH', '/orchestrator/nodes/coder', {
      enabled: false,
      priority: 7,
      model_override: 'ollama/qwen3',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      enabled: false,
      priority: 7,
      model_override: 'ollama/qwen3',
      provider: 'ollama',
      keywords: ['typescript', 'unit test'],
    });

    expect(await call('DELETE', '/orchestrator/nodes/coder')).toEqual({
      status: 200,
      body: { name: 'coder', removed: true, memory_cleared: 0 },
    });
    expect((await call('GET', '/orchestrator/nodes/coder')).status).toBe(404);
  });

  describe('errors', () => {
    it('404 for an unknown node on every per-node route', async () => {
      for (const [method, path, body] of [
        ['GET', '/orchestrator/nodes/ghost', undefined],
        ['PATCH', '/orchestrator/nodes/ghost', { enabled: true }],
        ['DELETE', '/orchestrator/nodes/ghost', undefined],
        ['GET', '/orchestrator/nodes/ghost/memory', undefined],
        ['DELETE', '/orchestrator/nodes/ghost/memory', undefined],
      ] as const) {
        expect(await call(method, path, body)).toEqual({
          status: 404,
          body: { detail: "No orchestrator node named 'ghost'" },
        });
      }
    });

    it('409 for a duplicate name, and the first node is unchanged', async () => {
      await add({ name: 'twin', model_override: 'gpt-4o' });
      expect(await add({ name: 'twin', model_override: 'gpt-4o-mini' })).toEqual({
        status: 409,
        body: { detail: "body.name: an orchestrator node named 'twin' already exists" },
      });
      expect((await call('GET', '/orchestrator/nodes/twin')).body.model_override).toBe('gpt-4o');
    });

    const ok = { name: 'x', model_override: 'gpt-4o' };
    it.each([
      [
        'an unknown model id',
        { name: 'x', model_override: 'nope-9000' },
        /^body\.model_override: no provider for model id 'nope-9000'/,
      ],
      [
        'an empty model id',
        { name: 'x', model_override: '' },
        /^body\.model_override: must not be empty/,
      ],
      [
        'a model id with CR/LF',
        { name: 'x', model_override: 'gpt-4o\r\nX: 1' },
        /^body\.model_override: must not contain control characters/,
      ],
      ['no name', { model_override: 'gpt-4o' }, /^body\.name: /],
      ['an upper-case name', { ...ok, name: 'Upper' }, /^body\.name: must be 1 to 64 characters/],
      ['a traversing name', { ...ok, name: '../etc' }, /^body\.name: must be 1 to 64 characters/],
      ['a 65-character name', { ...ok, name: 'x'.repeat(65) }, /^body\.name: /],
      ['a fractional priority', { ...ok, priority: 1.5 }, /^body\.priority: must be an integer/],
      ['a huge priority', { ...ok, priority: 1e9 }, /^body\.priority: /],
      ['a string for enabled', { ...ok, enabled: 'yes' }, /^body\.enabled: /],
      ['a blank keyword', { ...ok, keywords: ['  '] }, /^body\.keywords\.0: must not be blank/],
      [
        '51 keywords',
        { ...ok, keywords: Array<string>(51).fill('k') },
        /^body\.keywords: at most 50 keywords/,
      ],
      ['a channel with a space', { ...ok, channels: ['no spaces'] }, /^body\.channels\.0: /],
      [
        'a task type with NUL',
        { ...ok, task_types: ['a\u0000b'] },
        /^body\.task_types\.0: must not contain control characters/,
      ],
      [
        'an 8001-character system prompt',
        { ...ok, system_prompt: 'p'.repeat(8001) },
        /^body\.system_prompt: must be at most 8000/,
      ],
      ['an unknown field', { ...ok, owner: 'me' }, /^body: unknown field\(s\) owner/],
    ] as const)('422 naming the field for %s', async (_label, body, detail) => {
      const res = await add(body);
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(detail);
      expect((await call('GET', '/orchestrator/nodes')).body.count).toBe(0);
    });

    it('422 for an empty or invalid patch, and the node is unchanged', async () => {
      await add({ name: 'p', model_override: 'gpt-4o' });
      expect(await call('PATCH', '/orchestrator/nodes/p', {})).toEqual({
        status: 422,
        body: { detail: 'body: at least one field to change is required' },
      });
      expect(
        (await call('PATCH', '/orchestrator/nodes/p', { model_override: 'zzz/x' })).body.detail,
      ).toMatch(/^body\.model_override: no provider for model id 'zzz\/x'/);
      expect((await call('PATCH', '/orchestrator/nodes/p', { name: 'q' })).body.detail).toMatch(
        /^body: unknown field\(s\) name/,
      );
      expect((await call('GET', '/orchestrator/nodes/p')).body.model_override).toBe('gpt-4o');
    });

    it('422 for a path name that could never be a node (traversal, case, length)', async () => {
      for (const name of ['..%2F..%2Fetc', 'UPPER', '%00', 'x'.repeat(65)]) {
        const res = await call('GET', `/orchestrator/nodes/${name}`);
        expect(res.status).toBe(422);
        expect(res.body.detail).toMatch(/^path\.name: /);
      }
    });

    it('422 for bad route bodies', async () => {
      for (const [body, detail] of [
        [{ task_type: 'has space' }, /^body\.task_type: /],
        [{ channel: 'x'.repeat(33) }, /^body\.channel: /],
        [{ content: 'a\u0007b' }, /^body\.content: must not contain control characters/],
        [{ content: 'x'.repeat(32_001) }, /^body\.content: must be at most 32000 characters/],
        [{ content: 'x', model: 'gpt-4o' }, /^body: unknown field\(s\) model/],
        [{ content: 42 }, /^body\.content: /],
      ] as const) {
        const res = await call('POST', '/orchestrator/route', body);
        expect(res.status).toBe(422);
        expect(res.body.detail).toMatch(detail);
      }
      expect(bed.fake.requests).toHaveLength(0);
    });

    it('rejects malformed and oversized JSON without losing nodes', async () => {
      await add({ name: 'keep', model_override: 'gpt-4o' });
      const bad = await fetch(`${bed.gw.url}/api/v1/orchestrator/nodes`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name": "x", "model_override": ',
      });
      expect(bad.status).toBe(422);
      expect(await bad.json()).toEqual({ detail: expect.any(String) });
      const huge = await fetch(`${bed.gw.url}/api/v1/orchestrator/route`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'x'.repeat(5_000_000) }),
      });
      expect(huge.status).toBe(413);
      expect((await call('GET', '/orchestrator/nodes')).body.count).toBe(1);
    });

    it('404 listing why when no node matches', async () => {
      await add({ name: 'coder', model_override: 'gpt-4o', task_types: ['code'] });
      await add({ name: 'mail', model_override: 'gpt-4o', channels: ['email'] });
      await add({ name: 'off', model_override: 'gpt-4o', enabled: false });
      expect(
        await call('POST', '/orchestrator/route', {
          task_type: 'chat',
          channel: 'api',
          content: 'hi',
        }),
      ).toEqual({
        status: 404,
        body: {
          detail:
            "No orchestrator node matches task type 'chat' and channel 'api': coder takes task types code, not 'chat'; mail serves channels email, not 'api'; off disabled",
        },
      });
      expect(bed.fake.requests).toHaveLength(0);
      expect(
        (await call('GET', '/orchestrator/status')).body.no_match_total,
      ).toBeGreaterThanOrEqual(1);
    });

    it('404 saying no node is registered', async () => {
      const res = await call('POST', '/orchestrator/route', { task_type: 'code' });
      expect(res.status).toBe(404);
      expect(res.body.detail).toMatch(/no nodes are registered/);
    });
  });

  it('a routed task gets a real one-shot reply through the node model: no tools, no memory block, usage counted', async () => {
    // Main memory that a chat turn would retrieve: it must not reach the routed prompt.
    await bed.post('/chat', {
      message: 'My secret word is pomegranate and I love TypeScript',
      session_id: 'main',
    });
    await add({
      name: 'coder',
      model_override: 'claude-sonnet-4-5',
      task_types: ['code'],
      keywords: ['typescript'],
      system_prompt: 'You are the coder node.',
    });
    await add({ name: 'general', model_override: 'gpt-4o', priority: 10 });
    bed.fake.reset();
    bed.fake.reply({
      text: 'Use a generic constraint.',
      usage: { inputTokens: 120, outputTokens: 30 },
    });
    const usageBefore = (await bed.get('/usage')).body as {
      models: Record<string, { input_tokens: number }>;
    };

    const res = await call('POST', '/orchestrator/route', {
      task_type: 'code',
      channel: 'api',
      content: 'How do I type this TypeScript function? (pomegranate)',
    });
    expect(res).toEqual({
      status: 200,
      body: {
        node: 'coder',
        model: 'claude-sonnet-4-5',
        provider: 'anthropic',
        text: 'Use a generic constraint.',
        generated: true,
        usage: { input_tokens: 120, output_tokens: 30, total_tokens: 150 },
        cost_usd: expect.any(Number),
        latency_ms: expect.any(Number),
        score: 1,
        matched_keywords: ['typescript'],
        candidates: ['coder', 'general'],
        task_type: 'code',
        channel: 'api',
      },
    });
    expect(res.body.cost_usd).toBeCloseTo((120 * 3 + 30 * 15) / 1_000_000, 8);

    // Exactly one model request, to the node's model, with no tools and no memory block.
    expect(bed.fake.requests).toHaveLength(1);
    const [sent] = bed.fake.requests as [RecordedRequest];
    expect(sent.wire).toBe('anthropic-messages');
    const wire = inspect(sent);
    expect(wire.model(sent)).toBe('claude-sonnet-4-5');
    expect(wire.toolNames(sent)).toEqual([]);
    expect((sent.body as Record<string, unknown>).tools).toBeUndefined();
    expect(wire.system(sent)).toBe('You are the coder node.');
    expect(sent.rawBody).not.toContain('<memory>');
    expect(sent.rawBody).not.toContain('secret word');
    const messages = (sent.body as { messages: unknown[] }).messages;
    expect(messages).toHaveLength(1);

    // Usage and cost like any generation, plus the node's own counters and metrics.
    const usageAfter = (await bed.get('/usage')).body as {
      models: Record<string, { input_tokens: number; output_tokens: number; cost_usd: number }>;
    };
    expect(usageAfter.models['claude-sonnet-4-5']).toMatchObject({
      input_tokens: 120,
      output_tokens: 30,
    });
    expect(usageBefore.models['claude-sonnet-4-5']).toBeUndefined();
    const status = await call('GET', '/orchestrator/status');
    expect(status.body).toMatchObject({
      healthy: true,
      router_available: true,
      nodes_total: 2,
      nodes_enabled: 2,
      requests_total: 1,
      errors_total: 0,
    });
    expect(
      (status.body.nodes as Record<string, unknown>[]).find((n) => n.name === 'coder'),
    ).toMatchObject({
      requests: 1,
      errors: 0,
      input_tokens: 120,
      output_tokens: 30,
      last_routed_at: expect.any(Number),
    });
    const snapshot = (await bed.get('/metrics/snapshot')).body as Record<
      string,
      { values: Record<string, number> }
    >;
    expect(snapshot.orchestrator_requests_total?.values['node=coder']).toBe(1);
    expect(snapshot.orchestrator_tokens_total?.values['node=coder,direction=input']).toBe(120);
    expect(snapshot.orchestrator_tokens_total?.values['node=coder,direction=output']).toBe(30);
    expect(
      snapshot.generation_requests_total?.values['model=claude-sonnet-4-5'],
    ).toBeGreaterThanOrEqual(1);
    const text = await (await fetch(`${bed.gw.url}/api/v1/metrics`)).text();
    expect(text).toContain('orchestrator_requests_total{node="coder"} 1');
  });

  it('uses only the node model: a failure is a 502 and an error count, never another model', async () => {
    await add({ name: 'solo', model_override: 'claude-sonnet-4-5' });
    bed.fake.reply({ error: { status: 400, message: 'bad request from the fake' } });
    const res = await call('POST', '/orchestrator/route', { content: 'hello' });
    expect(res.status).toBe(502);
    expect(res.body.detail).toMatch(/claude-sonnet-4-5/);
    expect(bed.fake.requests).toHaveLength(1);
    expect(bed.fake.requests[0]?.wire).toBe('anthropic-messages');
    const status = await call('GET', '/orchestrator/status');
    expect((status.body.nodes as Record<string, unknown>[])[0]).toMatchObject({
      requests: 1,
      errors: 1,
    });
    const snapshot = (await bed.get('/metrics/snapshot')).body as Record<
      string,
      { values: Record<string, number> }
    >;
    expect(snapshot.orchestrator_errors_total?.values['node=solo']).toBe(1);
  });

  it('a forced provider does not override the node model; privacy mode does', async () => {
    await add({ name: 'n', model_override: 'claude-sonnet-4-5' });
    await bed.post('/settings/model', { provider: 'openai' });
    await call('POST', '/orchestrator/route', { content: 'one' });
    expect(bed.fake.requests.at(-1)?.wire).toBe('anthropic-messages');
    await bed.post('/settings/model', { provider: null, privacy_mode: true });
    const res = await call('POST', '/orchestrator/route', { content: 'two' });
    expect(bed.fake.requests.at(-1)?.wire).toBe('ollama');
    expect(res.body).toMatchObject({
      provider: 'ollama',
      model: 'ollama/llama3.2',
      generated: true,
    });
  });

  it("the spec's body {task_type, channel} generates through the node model, from a prompt built of both", async () => {
    await add({ name: 'n', model_override: 'gpt-4o', task_types: ['summarise'] });
    bed.fake.reply({
      text: 'Send me the text to summarise.',
      usage: { inputTokens: 40, outputTokens: 8 },
    });
    const res = await call('POST', '/orchestrator/route', {
      task_type: 'summarise',
      channel: 'email',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      node: 'n',
      generated: true,
      text: 'Send me the text to summarise.',
      usage: { input_tokens: 40, output_tokens: 8, total_tokens: 48 },
      model: 'gpt-4o',
      provider: 'openai',
      task_type: 'summarise',
      channel: 'email',
    });
    expect(res.body.text).not.toMatch(/placeholder/);
    expect(bed.fake.requests).toHaveLength(1);
    const [sent] = bed.fake.requests as [RecordedRequest];
    expect(inspect(sent).model(sent)).toBe('gpt-4o');
    const messages = (sent.body as { messages: { role: string; content: unknown }[] }).messages;
    const user = messages.filter((m) => m.role === 'user');
    expect(user).toHaveLength(1);
    const content = user[0]!.content;
    const prompt =
      typeof content === 'string'
        ? content
        : (content as { text?: string }[]).map((part) => part.text ?? '').join('');
    expect(prompt).toMatch(
      /^A "summarise" task came in on the "email" channel with no further text\./,
    );
  });

  it('with only a task type or only a channel the prompt names that one', async () => {
    await add({ name: 'n', model_override: 'gpt-4o' });
    bed.fake.reply({ text: 'one' }, { text: 'two' });
    expect((await call('POST', '/orchestrator/route', { task_type: 'code' })).body).toMatchObject({
      generated: true,
      text: 'one',
    });
    expect((await call('POST', '/orchestrator/route', { channel: 'slack' })).body).toMatchObject({
      generated: true,
      text: 'two',
    });
    const prompts = bed.fake.requests.map((r) => r.rawBody);
    expect(prompts[0]).toContain('A \\"code\\" task came in with no further text');
    expect(prompts[1]).toContain('A task came in on the \\"slack\\" channel');
  });

  it('422 when there is nothing to build a prompt from (no content, task type or channel)', async () => {
    await add({ name: 'n', model_override: 'gpt-4o' });
    for (const body of [{}, { content: '   \n\t ' }]) {
      const res = await call('POST', '/orchestrator/route', body);
      expect(res.status).toBe(422);
      expect(res.body.detail).toMatch(/^body: give content, or a task_type or channel/);
    }
    expect(bed.fake.requests).toHaveLength(0);
  });

  it('/node <name> <message> in chat hands the message to that node: its model only, no tools, no memory', async () => {
    await add({
      name: 'poet',
      model_override: 'claude-sonnet-4-5',
      system_prompt: 'You write haiku.',
    });
    await add({ name: 'sleepy', model_override: 'gpt-4o', enabled: false });
    await bed.post('/chat', {
      message: 'I adore autumn leaves, remember that',
      session_id: 'delegator',
    });
    bed.fake.reset();
    bed.fake.reply({ text: 'Leaves fall, quiet red', usage: { inputTokens: 9, outputTokens: 5 } });

    const res = await bed.post('/chat', {
      message: '/node poet a haiku about autumn leaves',
      session_id: 'delegator',
    });
    expect(res.status).toBe(200);
    expect(res.body.reply).toBe('Leaves fall, quiet red\n\n(node poet, claude-sonnet-4-5)');
    expect(bed.fake.requests).toHaveLength(1);
    const [sent] = bed.fake.requests as [RecordedRequest];
    expect(sent.wire).toBe('anthropic-messages');
    expect(inspect(sent).toolNames(sent)).toEqual([]);
    expect(inspect(sent).system(sent)).toBe('You write haiku.');
    expect(sent.rawBody).not.toContain('<memory>');
    expect(sent.rawBody).toContain('a haiku about autumn leaves');
    expect((await call('GET', '/orchestrator/nodes/poet/memory')).body).toMatchObject({
      entries: 1,
    });
    const status = await call('GET', '/orchestrator/status');
    expect(
      (status.body.nodes as Record<string, unknown>[]).find((n) => n.name === 'poet'),
    ).toMatchObject({
      requests: 1,
      input_tokens: 9,
    });

    for (const [message, reply] of [
      ['/node ghost hello', "No orchestrator node named 'ghost'."],
      ['/node sleepy hello', "Orchestrator node 'sleepy' is disabled."],
      ['/node poet', 'Use /node <name> <message>.'],
    ]) {
      expect((await bed.post('/chat', { message, session_id: 'delegator' })).body.reply).toBe(
        reply,
      );
    }
    expect(bed.fake.requests).toHaveLength(1);
  });

  describe('namespaces', () => {
    it('each routed exchange lands in the node namespace; clearing one never touches another or the main memory', async () => {
      await add({ name: 'alpha', model_override: 'gpt-4o', keywords: ['alpha'] });
      await add({ name: 'beta', model_override: 'gpt-4o', keywords: ['beta'] });
      await bed.post('/chat', {
        message: 'Main memory: my cat is called Miso',
        session_id: 'ns-main',
      });
      const mainBefore = (await bed.get('/memory?session_id=ns-main')).body.count as number;
      expect(mainBefore).toBeGreaterThan(0);

      bed.fake.reply({ text: 'alpha one' }, { text: 'alpha two' }, { text: 'beta one' });
      await call('POST', '/orchestrator/route', { content: 'alpha task 1' });
      await call('POST', '/orchestrator/route', { content: 'alpha task 2' });
      await call('POST', '/orchestrator/route', { content: 'beta task' });

      const alpha = await call('GET', '/orchestrator/nodes/alpha/memory');
      expect(alpha).toEqual({
        status: 200,
        body: {
          node: 'alpha',
          namespace: 'orchestrator/alpha',
          entries: 2,
          last_active: expect.any(Number),
        },
      });
      const all = await call('GET', '/orchestrator/namespaces');
      expect(all.body).toEqual({
        namespaces: [
          {
            node: 'alpha',
            namespace: 'orchestrator/alpha',
            entries: 2,
            last_active: expect.any(Number),
          },
          {
            node: 'beta',
            namespace: 'orchestrator/beta',
            entries: 1,
            last_active: expect.any(Number),
          },
        ],
        count: 2,
        total_entries: 3,
        non_empty: 2,
      });
      // The rows are tagged with the namespace.
      const tagged = await bed.get('/memory?tag=orchestrator%2Falpha');
      expect(tagged.body.count).toBe(2);

      expect(await call('DELETE', '/orchestrator/nodes/alpha/memory')).toEqual({
        status: 200,
        body: { node: 'alpha', namespace: 'orchestrator/alpha', cleared: 2 },
      });
      expect((await call('GET', '/orchestrator/nodes/alpha/memory')).body).toMatchObject({
        entries: 0,
        last_active: null,
      });
      expect((await call('GET', '/orchestrator/nodes/beta/memory')).body).toMatchObject({
        entries: 1,
      });
      expect((await bed.get('/memory?session_id=ns-main')).body.count).toBe(mainBefore);

      // Removing a node takes its namespace with it, nothing else.
      expect((await call('DELETE', '/orchestrator/nodes/beta')).body).toEqual({
        name: 'beta',
        removed: true,
        memory_cleared: 1,
      });
      expect((await bed.get('/memory?session_id=ns-main')).body.count).toBe(mainBefore);
    });

    it('a chat turn never retrieves a namespace row, and no chat session can name one', async () => {
      await add({ name: 'vault', model_override: 'gpt-4o' });
      bed.fake.reply({ text: 'the launch code is zebra-42' });
      await call('POST', '/orchestrator/route', { content: 'remember the launch code zebra-42' });
      bed.fake.reset();
      await bed.post('/chat', {
        message: 'what is the launch code zebra-42?',
        session_id: 'curious',
      });
      const system = inspect(bed.fake.requests[0]!).system(bed.fake.requests[0]!);
      expect(system).not.toContain('zebra-42');
      const forged = await bed.post('/chat', {
        message: 'launch code?',
        session_id: 'orchestrator/vault',
      });
      expect(forged.status).toBe(422);
      const cleared = await fetch(`${bed.gw.url}/api/v1/memory/session/orchestrator%2Fvault`, {
        method: 'DELETE',
      });
      expect(cleared.status).not.toBe(200);
      expect((await call('GET', '/orchestrator/nodes/vault/memory')).body).toMatchObject({
        entries: 1,
      });
    });
  });
});

describe('the orchestrator across a restart', () => {
  it('keeps nodes and namespaces on the same state directory; counters start again', async () => {
    const first = await startChatTestBed(models);
    const home = first.gw.home;
    await first.post('/orchestrator/nodes', {
      name: 'durable',
      model_override: 'gpt-4o',
      priority: 4,
      keywords: ['x'],
    });
    first.fake.reply({ text: 'kept' });
    await first.post('/orchestrator/route', { content: 'x marks it' });
    await first.gw.gateway.close();
    await first.fake.close();

    const second = await startChatTestBed(models, { home });
    try {
      const node = await second.get('/orchestrator/nodes/durable');
      expect(node.body).toMatchObject({
        name: 'durable',
        model_override: 'gpt-4o',
        priority: 4,
        keywords: ['x'],
      });
      expect((await second.get('/orchestrator/nodes/durable/memory')).body).toMatchObject({
        entries: 1,
      });
      expect((await second.get('/orchestrator/status')).body).toMatchObject({
        requests_total: 0,
        nodes_total: 1,
      });
    } finally {
      await second.close();
    }
  });
});
