/**
 * Test support: a TINY Whisper-shaped model in the transformers.js layout
 * (`<org>/<name>/config.json`, `generation_config.json`, `preprocessor_config.json`,
 * `tokenizer.json`, `tokenizer_config.json`, `onnx/encoder_model.onnx`,
 * `onnx/decoder_model_merged.onnx`), so the Whisper adapter's real path — the files checked in
 * the cache, transformers' ASR pipeline, the log-mel feature extractor, both ONNX sessions on
 * onnxruntime-node, generation and the tokenizer's decoding — runs without a download.
 *
 * The encoder passes the 80 mel bins through (`[1, 3000, 80]`); the decoder has no layers and
 * answers from a transition table on the last token: after the prompt it says "hello", then
 * "hearth", then end of text. So it always transcribes " hello hearth": it proves the
 * loading and decoding path, not recognition.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { buildOnnxGraph, FLOAT, INT64 } from './onnx-graph.ts';

export const TINY_WHISPER_ID = 'hearth-test/tiny-whisper';
export const TINY_WHISPER_TEXT = 'hello hearth';

const VOCAB = ['Ġhello', 'Ġhearth', '<|endoftext|>', '<|startoftranscript|>', '<|notimestamps|>'];
const [HELLO, HEARTH, EOT, SOT, NO_TIMESTAMPS] = [0, 1, 2, 3, 4];
const NEXT: Record<number, number> = {
  [NO_TIMESTAMPS]: HELLO,
  [SOT]: HELLO,
  [HELLO]: HEARTH,
  [HEARTH]: EOT,
  [EOT]: EOT,
};

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export async function writeTinyWhisper(
  modelDir: string,
  modelId = TINY_WHISPER_ID,
): Promise<string> {
  const folder = path.join(modelDir, ...modelId.split('/'));
  await mkdir(path.join(folder, 'onnx'), { recursive: true });
  const size = VOCAB.length;
  const table: number[] = [];
  for (let row = 0; row < size; row += 1)
    for (let column = 0; column < size; column += 1) table.push(NEXT[row] === column ? 10 : 0);

  await writeFile(
    path.join(folder, 'onnx', 'encoder_model.onnx'),
    buildOnnxGraph({
      name: 'tiny_whisper_encoder',
      nodes: [
        {
          op: 'Transpose',
          inputs: ['input_features'],
          outputs: ['last_hidden_state'],
          intLists: { perm: [0, 2, 1] },
        },
      ],
      initializers: [],
      inputs: [{ name: 'input_features', type: FLOAT, dims: ['batch', 80, 3000] }],
      outputs: [{ name: 'last_hidden_state', type: FLOAT, dims: ['batch', 3000, 80] }],
    }),
  );
  await writeFile(
    path.join(folder, 'onnx', 'decoder_model_merged.onnx'),
    buildOnnxGraph({
      name: 'tiny_whisper_decoder',
      nodes: [
        { op: 'Gather', inputs: ['table', 'input_ids'], outputs: ['logits'], ints: { axis: 0 } },
      ],
      initializers: [{ name: 'table', type: FLOAT, dims: [size, size], values: table }],
      inputs: [
        { name: 'input_ids', type: INT64, dims: ['batch', 'tokens'] },
        { name: 'encoder_hidden_states', type: FLOAT, dims: ['batch', 'frames', 80] },
      ],
      outputs: [{ name: 'logits', type: FLOAT, dims: ['batch', 'tokens', size] }],
    }),
  );
  const ids = {
    decoder_start_token_id: SOT,
    eos_token_id: EOT,
    pad_token_id: EOT,
    bos_token_id: EOT,
  };
  await writeFile(
    path.join(folder, 'config.json'),
    json({
      architectures: ['WhisperForConditionalGeneration'],
      model_type: 'whisper',
      is_encoder_decoder: true,
      use_cache: false,
      d_model: 80,
      encoder_layers: 0,
      decoder_layers: 0,
      encoder_attention_heads: 1,
      decoder_attention_heads: 1,
      num_mel_bins: 80,
      vocab_size: size,
      max_source_positions: 1500,
      max_target_positions: 448,
      ...ids,
    }),
  );
  await writeFile(
    path.join(folder, 'generation_config.json'),
    json({
      ...ids,
      no_timestamps_token_id: NO_TIMESTAMPS,
      is_multilingual: false,
      max_length: 16,
      begin_suppress_tokens: [],
      suppress_tokens: [],
      forced_decoder_ids: null,
    }),
  );
  await writeFile(
    path.join(folder, 'preprocessor_config.json'),
    json({
      feature_extractor_type: 'WhisperFeatureExtractor',
      processor_class: 'WhisperProcessor',
      feature_size: 80,
      sampling_rate: 16_000,
      hop_length: 160,
      chunk_length: 30,
      n_fft: 400,
      n_samples: 480_000,
      nb_max_frames: 3_000,
      padding_side: 'right',
      padding_value: 0,
      return_attention_mask: false,
    }),
  );
  await writeFile(
    path.join(folder, 'tokenizer.json'),
    json({
      version: '1.0',
      truncation: null,
      padding: null,
      added_tokens: VOCAB.slice(EOT).map((content, index) => ({
        id: EOT + index,
        content,
        single_word: false,
        lstrip: false,
        rstrip: false,
        normalized: false,
        special: true,
      })),
      normalizer: null,
      pre_tokenizer: {
        type: 'ByteLevel',
        add_prefix_space: false,
        trim_offsets: true,
        use_regex: true,
      },
      post_processor: null,
      decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
      model: {
        type: 'BPE',
        dropout: null,
        unk_token: null,
        continuing_subword_prefix: '',
        end_of_word_suffix: '',
        fuse_unk: false,
        vocab: Object.fromEntries(VOCAB.map((token, index) => [token, index])),
        merges: [],
      },
    }),
  );
  await writeFile(
    path.join(folder, 'tokenizer_config.json'),
    json({
      tokenizer_class: 'WhisperTokenizer',
      bos_token: '<|endoftext|>',
      eos_token: '<|endoftext|>',
      unk_token: '<|endoftext|>',
      pad_token: '<|endoftext|>',
      model_max_length: 1024,
      clean_up_tokenization_spaces: true,
    }),
  );
  return modelId;
}
