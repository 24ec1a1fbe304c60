/**
 * The behaviour every `OrchestratorNodeStore` adapter must show, as a vitest suite. `open` must
 * return a new handle on the SAME store each time, so that durability across close and reopen
 * (a gateway restart) can be checked. Each test starts from an emptied store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NodeFields, OrchestratorNodeStore } from './ports.ts';

export interface NodeStoreHandle {
  store: OrchestratorNodeStore;
  close(): Promise<void>;
}

const coder: NodeFields = {
  name: 'coder',
  model_override: 'gpt-4o',
  enabled: true,
  priority: 5,
  keywords: ['typescript', 'unit test', 'héllo ✓'],
  channels: ['api', 'telegram'],
  task_types: ['code'],
  system_prompt: 'You write code.',
};
const writer: NodeFields = {
  name: 'writer',
  model_override: 'claude-sonnet-4-5',
  enabled: false,
  priority: -3,
  keywords: [],
  channels: [],
  task_types: [],
  system_prompt: null,
};

export function runNodeStoreConformance(name: string, open: () => Promise<NodeStoreHandle>): void {
  describe(`Orchestrator node store conformance: ${name}`, () => {
    let handles: NodeStoreHandle[] = [];
    let store: OrchestratorNodeStore;
    const openHandle = async () => {
      const handle = await open();
      handles.push(handle);
      return handle;
    };

    beforeEach(async () => {
      store = (await openHandle()).store;
      for (const node of await store.list()) await store.remove(node.name);
    });
    afterEach(async () => {
      for (const handle of handles) await handle.close();
      handles = [];
    });

    it('stores every field of a node exactly and lists nodes by name', async () => {
      const before = Math.floor(Date.now() / 1000);
      expect(await store.insert(writer)).toMatchObject(writer);
      const { created_at, updated_at, ...fields } = (await store.insert(coder))!;
      expect(fields).toEqual(coder);
      expect(created_at).toBeGreaterThanOrEqual(before);
      expect(updated_at).toBe(created_at);
      expect((await store.list()).map((n) => n.name)).toEqual(['coder', 'writer']);
      const read = (await store.get('writer'))!;
      expect({ ...read, created_at: 0, updated_at: 0 }).toEqual({
        ...writer,
        created_at: 0,
        updated_at: 0,
      });
      expect(await store.get('nobody')).toBeUndefined();
    });

    it('refuses a second node of the same name and keeps the first unchanged', async () => {
      await store.insert(coder);
      expect(await store.insert({ ...coder, model_override: 'gpt-4o-mini' })).toBeUndefined();
      expect((await store.get('coder'))?.model_override).toBe('gpt-4o');
      expect(await store.list()).toHaveLength(1);
    });

    it('updates only the fields a patch names', async () => {
      await store.insert(coder);
      const updated = await store.update('coder', { enabled: false, priority: 9, keywords: [] });
      expect(updated).toMatchObject({
        ...coder,
        enabled: false,
        priority: 9,
        keywords: [],
      });
      expect(await store.update('coder', { system_prompt: null })).toMatchObject({
        system_prompt: null,
        channels: coder.channels,
      });
      expect(await store.update('nobody', { enabled: true })).toBeUndefined();
    });

    it('removes one node and says whether there was one', async () => {
      await store.insert(coder);
      await store.insert(writer);
      expect(await store.remove('coder')).toBe(true);
      expect(await store.remove('coder')).toBe(false);
      expect((await store.list()).map((n) => n.name)).toEqual(['writer']);
    });

    it('keeps nodes across close and reopen (a restart)', async () => {
      await store.insert(coder);
      await store.update('coder', { priority: 7 });
      const first = handles.pop()!;
      await first.close();
      const reopened = (await openHandle()).store;
      expect(await reopened.get('coder')).toMatchObject({ ...coder, priority: 7 });
    });

    it('treats names as exact keys: no pattern matching, no case folding', async () => {
      await store.insert(coder);
      expect(await store.get('CODER')).toBeUndefined();
      expect(await store.get('cod%')).toBeUndefined();
      expect(await store.remove('%')).toBe(false);
      expect(await store.list()).toHaveLength(1);
    });
  });
}
