import { randomBytes } from 'node:crypto';
import { QdrantClient } from '@qdrant/js-client-rest';
import { afterAll, describe, it } from 'vitest';
import { silentLogger } from '../../observability/logger.ts';
import { runVectorStoreConformance } from './conformance.ts';
import { createQdrantVectorStore, describeQdrantUrl } from './qdrant.ts';

// Qdrant is not part of the services this machine runs, so this file needs QDRANT_URL (for
// example http://127.0.0.1:6333) and says so in the skipped title otherwise. The adapter's
// requests are also tested without a server, against a fake, in qdrant.test.ts.
const url = process.env.QDRANT_URL;

if (url === undefined || url === '') {
  describe.skip('qdrant (skipped: QDRANT_URL not set; no Qdrant server on this machine)', () => {
    it('passes the VectorStore conformance suite against a real Qdrant', () => undefined);
  });
} else {
  const run = randomBytes(4).toString('hex');
  const created: string[] = [];

  afterAll(async () => {
    const client = new QdrantClient({ url, checkCompatibility: false });
    for (const name of created) await client.deleteCollection(name);
  });

  runVectorStoreConformance(
    `qdrant (real server at ${describeQdrantUrl(url)})`,
    (dimensions) => {
      const collection = `hearth_test_${run}_${created.length + 1}`;
      created.push(collection);
      return Promise.resolve(
        createQdrantVectorStore({ url, collection, dimensions, logger: silentLogger() }),
      );
    },
    { kind: 'qdrant' },
  );
}
