import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema } from '../config/schema.ts';
import { createFakeLlmServer, type FakeLlmServer } from '../testing/fakes/fake-llm/server.ts';
import { providerSpec } from './catalog.ts';
import { generate } from './llm-call.ts';

describe('bedrock without an API key', () => {
  let fake: FakeLlmServer;
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  beforeAll(async () => {
    fake = await createFakeLlmServer();
    process.env.AWS_ACCESS_KEY_ID = 'AKIAHEARTHTEST';
    process.env.AWS_SECRET_ACCESS_KEY = 'hearth-test-secret';
  });
  afterAll(async () => {
    await fake.close();
    if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    else process.env.AWS_ACCESS_KEY_ID = saved.id;
    if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
    else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
  });

  it('signs requests with SigV4 using credentials from the AWS SDK chain', async () => {
    const models = { ...configSchema.parse({}).models, bedrock_region: 'eu-west-1' };
    const model = await providerSpec('bedrock').create(
      { apiKey: '', baseURL: fake.url, models, fetch: globalThis.fetch },
      'anthropic.claude-3-5-haiku-20241022-v1:0',
    );
    fake.reply({ text: 'signed', usage: { inputTokens: 2, outputTokens: 1 } });
    const result = await generate({
      model,
      messages: [{ role: 'user', content: 'hi' }],
      providerOptions: {},
    });
    expect(result.text).toBe('signed');
    const auth = fake.requests[0]?.headers.authorization ?? '';
    expect(auth).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIAHEARTHTEST\/\d{8}\/eu-west-1\/bedrock\/aws4_request/,
    );
    expect(auth).not.toContain('hearth-test-secret');
  });
});
