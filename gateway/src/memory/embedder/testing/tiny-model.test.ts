import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeVarint } from './protobuf-writer.ts';
import { TINY_MODEL_ID, writeTinyModel, type TinyModel } from './tiny-model.ts';
import type * as Ort from 'onnxruntime-common';
import { featureOffReason, importOptional } from '../../../models/optional-packages.ts';

let root: string;
let model: TinyModel;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'hearth-tiny-model-'));
  model = await writeTinyModel({ modelDir: root, dimensions: 8 });
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('protobuf writer', () => {
  it('encodes varints like protobuf (including negative int64 as ten bytes)', () => {
    expect(Array.from(encodeVarint(1))).toEqual([1]);
    expect(Array.from(encodeVarint(300))).toEqual([0xac, 0x02]);
    expect(Array.from(encodeVarint(-1))).toEqual([...Array<number>(9).fill(0xff), 0x01]);
  });
});

/** Without the optional embeddings feature (`hearth features add embeddings`) there is no ONNX Runtime. */
const embeddingsOff = featureOffReason('embeddings') ?? undefined;
const skipped = embeddingsOff ? ` (skipped: ${embeddingsOff})` : '';

describe('tiny BERT-like model', () => {
  it('is laid out like a transformers.js model repository', async () => {
    expect(model.modelId).toBe(TINY_MODEL_ID);
    expect(model.folder).toBe(path.join(root, 'hearth-test', 'tiny-bert'));
    const config = JSON.parse(
      await readFile(path.join(model.folder, 'config.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(config).toMatchObject({ model_type: 'bert', hidden_size: 8 });
    const tokenizer = JSON.parse(
      await readFile(path.join(model.folder, 'tokenizer.json'), 'utf8'),
    ) as {
      model: { type: string; vocab: Record<string, number> };
    };
    expect(tokenizer.model.type).toBe('WordPiece');
    expect(tokenizer.model.vocab['[CLS]']).toBe(2);
    await expect(readFile(path.join(model.folder, 'tokenizer_config.json'))).resolves.toBeTruthy();
  });

  it.skipIf(embeddingsOff !== undefined)(
    `is a valid ONNX graph that onnxruntime runs: masked embedding lookup, [batch, seq, dims]${skipped}`,
    async () => {
      const ort = await importOptional<typeof Ort>('onnxruntime-node', 'embeddings');
      const session = await ort.InferenceSession.create(
        path.join(model.folder, 'onnx', 'model.onnx'),
      );
      expect(session.inputNames).toEqual(['input_ids', 'attention_mask', 'token_type_ids']);
      expect(session.outputNames).toEqual(['last_hidden_state']);

      const cat = BigInt(model.vocabulary.indexOf('cat'));
      const ids = new ort.Tensor('int64', BigInt64Array.from([2n, cat, 3n, 2n, cat, 0n]), [2, 3]);
      const mask = new ort.Tensor('int64', BigInt64Array.from([1n, 1n, 1n, 1n, 1n, 0n]), [2, 3]);
      const types = new ort.Tensor('int64', new BigInt64Array(6), [2, 3]);
      const { last_hidden_state: hidden } = await session.run({
        input_ids: ids,
        attention_mask: mask,
        token_type_ids: types,
      });
      expect(hidden?.dims).toEqual([2, 3, 8]);
      const data = hidden!.data as Float32Array;
      const row = (batch: number, position: number) =>
        Array.from(data.slice((batch * 3 + position) * 8, (batch * 3 + position + 1) * 8));
      // [CLS] is a zero vector, "cat" is the same vector in both rows, the padded slot is zero.
      expect(row(0, 0)).toEqual(Array<number>(8).fill(0));
      expect(row(0, 1)).toEqual(row(1, 1));
      expect(row(0, 1).some((value) => value !== 0)).toBe(true);
      expect(row(1, 2)).toEqual(Array<number>(8).fill(0));
      await session.release();
    },
  );
});
