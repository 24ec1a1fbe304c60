import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startChatTestBed,
  type ChatTestBed,
} from '../../../gateway/src/testing/gateway/chat-gateway.ts';
import { createHarness, type Harness } from '../testing/cli-harness.ts';

const KEY = 'cli-socket-key-0123456789';

describe('hearth chat against a gateway with an API key', () => {
  let bed: ChatTestBed;
  let h: Harness;
  beforeAll(async () => {
    bed = await startChatTestBed(undefined, { config: { gateway: { api_key: KEY } } });
  });
  afterAll(() => bed.close());
  beforeEach(async () => {
    h = await createHarness();
    bed.fake.reset();
  });
  afterEach(() => h.cleanup());

  it('sends the key on its /ws socket (as the hearth.key subprotocol)', async () => {
    await writeFile(
      join(h.home, 'config.toml'),
      `[gateway]\nport = ${bed.gw.port}\napi_key = "${KEY}"\n`,
    );
    bed.fake.reply({ text: 'keyed hello' });
    const result = await h.run(['chat', '-m', 'hi']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toBe('keyed hello\n');
  });

  it('without the key in its config the socket is refused', async () => {
    await writeFile(join(h.home, 'config.toml'), `[gateway]\nport = ${bed.gw.port}\n`);
    const result = await h.run(['chat', '-m', 'hi']);
    expect(result.code).not.toBe(0);
    expect(bed.fake.requests).toHaveLength(0);
  });
});
