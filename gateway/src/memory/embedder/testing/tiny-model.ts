/**
 * Writes a TINY BERT-like sentence-embedding model, laid out like a transformers.js model
 * repository, so tests can drive the real loading path (transformers' pipeline +
 * onnxruntime-node) without any download:
 *
 *   <modelDir>/<org>/<name>/config.json
 *   <modelDir>/<org>/<name>/tokenizer.json          (WordPiece over a small vocabulary)
 *   <modelDir>/<org>/<name>/tokenizer_config.json
 *   <modelDir>/<org>/<name>/onnx/model.onnx         (or model_quantized.onnx, see `fileDtype`)
 *
 * The ONNX graph (opset 13, IR version 8) takes `input_ids`, `attention_mask` and
 * `token_type_ids` (int64 [batch, seq]) and returns `last_hidden_state` (float32
 * [batch, seq, dims]) = (word_embeddings[input_ids] + type_embeddings[token_type_ids]) *
 * attention_mask. Word vectors are fixed pseudo-random values from a seed, special tokens
 * are zero, so mean-pooled sentence vectors are close when sentences share words.
 *
 * Test support only: nothing in the gateway imports this file.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ProtoWriter } from './protobuf-writer.ts';

export const TINY_MODEL_ID = 'hearth-test/tiny-bert';

const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'] as const;

/** Lower-case words (and two WordPiece continuations) the tiny tokenizer knows. */
export const TINY_VOCABULARY: readonly string[] = [
  'the',
  'a',
  'cat',
  'dog',
  'sat',
  'ran',
  'on',
  'in',
  'mat',
  'rug',
  'park',
  'garden',
  'quantum',
  'physics',
  'lecture',
  'notes',
  'about',
  'memory',
  'gateway',
  'local',
  'model',
  'embedding',
  'search',
  'coffee',
  'morning',
  'train',
  'station',
  'is',
  'my',
  'favourite',
  'blue',
  'red',
  '##s',
  '##ing',
  '.',
  ',',
  '?',
  '!',
];

export interface TinyModelOptions {
  /** The model cache root (production passes `{data_dir}/models`). */
  modelDir: string;
  /** `org/name`; defaults to TINY_MODEL_ID. */
  modelId?: string;
  /** Width of `last_hidden_state`; small on purpose. */
  dimensions?: number;
  /** Which file name the graph is written as: `model.onnx` (fp32) or `model_quantized.onnx` (q8). */
  fileDtype?: 'fp32' | 'q8';
  /** Seed of the word vectors. */
  seed?: number;
}

export interface TinyModel {
  modelDir: string;
  modelId: string;
  /** `<modelDir>/<org>/<name>`. */
  folder: string;
  dimensions: number;
  vocabulary: readonly string[];
}

/** Writes the model files; returns where they are. */
export async function writeTinyModel(options: TinyModelOptions): Promise<TinyModel> {
  const modelId = options.modelId ?? TINY_MODEL_ID;
  const dimensions = options.dimensions ?? 16;
  const vocabulary = [...SPECIAL_TOKENS, ...TINY_VOCABULARY];
  const folder = path.join(options.modelDir, ...modelId.split('/'));
  await mkdir(path.join(folder, 'onnx'), { recursive: true });

  const onnx = buildTinyBertOnnx({
    vocabularySize: vocabulary.length,
    dimensions,
    wordEmbeddings: wordEmbeddings(vocabulary, dimensions, options.seed ?? 42),
  });
  const onnxName = options.fileDtype === 'q8' ? 'model_quantized.onnx' : 'model.onnx';
  await writeFile(path.join(folder, 'onnx', onnxName), onnx);
  await writeFile(
    path.join(folder, 'config.json'),
    json(bertConfig(vocabulary.length, dimensions)),
  );
  await writeFile(path.join(folder, 'tokenizer.json'), json(wordPieceTokenizer(vocabulary)));
  await writeFile(path.join(folder, 'tokenizer_config.json'), json(tokenizerConfig()));
  return { modelDir: options.modelDir, modelId, folder, dimensions, vocabulary };
}

// ---------------------------------------------------------------------------------------
// ONNX graph

// onnx.proto: TensorProto.DataType
const FLOAT = 1;
const INT64 = 7;
// onnx.proto: AttributeProto.AttributeType
const ATTRIBUTE_INT = 2;

interface TinyBertGraph {
  vocabularySize: number;
  dimensions: number;
  /** Row-major [vocabularySize, dimensions]. */
  wordEmbeddings: Float32Array;
}

/** Serialises the ModelProto (field numbers from the public onnx.proto). */
export function buildTinyBertOnnx(graph: TinyBertGraph): Uint8Array {
  const { vocabularySize, dimensions } = graph;
  const typeEmbeddings = new Float32Array(2 * dimensions);
  // Segment B gets a small constant offset; every single-sentence input is segment A (zero).
  typeEmbeddings.fill(0.01, dimensions);

  return new ProtoWriter()
    .varint(1, 8) // ir_version
    .string(2, 'hearth-tiny-model') // producer_name
    .string(3, '1') // producer_version
    .message(7, (g) => {
      g.message(1, node('Gather', ['word_embeddings', 'input_ids'], ['words'], { axis: 0 }));
      g.message(1, node('Gather', ['type_embeddings', 'token_type_ids'], ['types'], { axis: 0 }));
      g.message(1, node('Add', ['words', 'types'], ['summed']));
      g.message(1, node('Cast', ['attention_mask'], ['mask_float'], { to: FLOAT }));
      g.message(1, node('Unsqueeze', ['mask_float', 'last_axis'], ['mask_3d']));
      g.message(1, node('Mul', ['summed', 'mask_3d'], ['last_hidden_state']));
      g.string(2, 'tiny_bert'); // name
      g.message(
        5,
        floatTensor('word_embeddings', [vocabularySize, dimensions], graph.wordEmbeddings),
      );
      g.message(5, floatTensor('type_embeddings', [2, dimensions], typeEmbeddings));
      g.message(5, int64Tensor('last_axis', [1], [-1n]));
      for (const input of ['input_ids', 'attention_mask', 'token_type_ids']) {
        g.message(11, valueInfo(input, INT64, ['batch_size', 'sequence_length']));
      }
      g.message(
        12,
        valueInfo('last_hidden_state', FLOAT, ['batch_size', 'sequence_length', dimensions]),
      );
    })
    .message(8, (opset) => opset.string(1, '').varint(2, 13)) // opset_import: default domain, 13
    .finish();
}

function node(
  opType: string,
  inputs: readonly string[],
  outputs: readonly string[],
  intAttributes: Record<string, number> = {},
): (writer: ProtoWriter) => void {
  return (n) => {
    for (const input of inputs) n.string(1, input);
    for (const output of outputs) n.string(2, output);
    n.string(3, `${opType.toLowerCase()}_${outputs[0] ?? ''}`);
    n.string(4, opType);
    for (const [name, value] of Object.entries(intAttributes)) {
      n.message(5, (a) => a.string(1, name).varint(3, value).varint(20, ATTRIBUTE_INT));
    }
  };
}

function floatTensor(
  name: string,
  dims: readonly number[],
  values: Float32Array,
): (writer: ProtoWriter) => void {
  const raw = new Uint8Array(values.length * 4);
  const view = new DataView(raw.buffer);
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return (t) => t.packedVarints(1, dims).varint(2, FLOAT).string(8, name).bytes(9, raw);
}

function int64Tensor(
  name: string,
  dims: readonly number[],
  values: readonly bigint[],
): (writer: ProtoWriter) => void {
  const raw = new Uint8Array(values.length * 8);
  const view = new DataView(raw.buffer);
  values.forEach((value, index) => view.setBigInt64(index * 8, value, true));
  return (t) => t.packedVarints(1, dims).varint(2, INT64).string(8, name).bytes(9, raw);
}

/** ValueInfoProto { name, type: TypeProto { tensor_type { elem_type, shape } } }. */
function valueInfo(
  name: string,
  elemType: number,
  dims: readonly (number | string)[],
): (writer: ProtoWriter) => void {
  return (v) =>
    v.string(1, name).message(2, (type) =>
      type.message(1, (tensor) =>
        tensor.varint(1, elemType).message(2, (shape) => {
          for (const dim of dims) {
            shape.message(1, (d) =>
              typeof dim === 'number' ? d.varint(1, dim) : d.string(2, dim),
            );
          }
        }),
      ),
    );
}

/** Deterministic vectors: zero for special tokens except [UNK], seeded uniform values otherwise. */
function wordEmbeddings(
  vocabulary: readonly string[],
  dimensions: number,
  seed: number,
): Float32Array {
  const random = mulberry32(seed);
  const out = new Float32Array(vocabulary.length * dimensions);
  vocabulary.forEach((token, row) => {
    const special = (SPECIAL_TOKENS as readonly string[]).includes(token) && token !== '[UNK]';
    for (let column = 0; column < dimensions; column += 1) {
      out[row * dimensions + column] = special ? 0 : random() * 2 - 1;
    }
  });
  return out;
}

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// ---------------------------------------------------------------------------------------
// Model repository JSON files

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function bertConfig(vocabularySize: number, dimensions: number): Record<string, unknown> {
  return {
    architectures: ['BertModel'],
    model_type: 'bert',
    hidden_size: dimensions,
    intermediate_size: dimensions * 2,
    num_attention_heads: 1,
    num_hidden_layers: 1,
    max_position_embeddings: 512,
    type_vocab_size: 2,
    vocab_size: vocabularySize,
    pad_token_id: 0,
  };
}

function tokenizerConfig(): Record<string, unknown> {
  return {
    tokenizer_class: 'BertTokenizer',
    do_lower_case: true,
    model_max_length: 512,
    clean_up_tokenization_spaces: true,
    cls_token: '[CLS]',
    sep_token: '[SEP]',
    pad_token: '[PAD]',
    unk_token: '[UNK]',
    mask_token: '[MASK]',
  };
}

/** A Hugging Face `tokenizers` JSON file: BERT normaliser, pre-tokeniser and post-processor. */
function wordPieceTokenizer(vocabulary: readonly string[]): Record<string, unknown> {
  const ids = Object.fromEntries(vocabulary.map((token, index) => [token, index]));
  const special = (token: string) => ({ id: token, type_id: 0 });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: SPECIAL_TOKENS.map((token) => ({
      id: ids[token],
      content: token,
      single_word: false,
      lstrip: false,
      rstrip: false,
      normalized: false,
      special: true,
    })),
    normalizer: {
      type: 'BertNormalizer',
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    post_processor: {
      type: 'TemplateProcessing',
      single: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
      ],
      pair: [
        { SpecialToken: special('[CLS]') },
        { Sequence: { id: 'A', type_id: 0 } },
        { SpecialToken: special('[SEP]') },
        { Sequence: { id: 'B', type_id: 1 } },
        { SpecialToken: { id: '[SEP]', type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ['[CLS]', '[SEP]'].map((token) => [
          token,
          { id: token, ids: [ids[token]], tokens: [token] },
        ]),
      ),
    },
    decoder: { type: 'WordPiece', prefix: '##', cleanup: true },
    model: {
      type: 'WordPiece',
      unk_token: '[UNK]',
      continuing_subword_prefix: '##',
      max_input_chars_per_word: 100,
      vocab: ids,
    },
  };
}
