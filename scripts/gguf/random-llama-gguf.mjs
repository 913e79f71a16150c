#!/usr/bin/env node
// Makes a random-weight GGUF model of the llama architecture with a real byte-level BPE
// tokenizer (GPT-2 style: 256 byte tokens, merges learned from a small built-in text, and
// ChatML control tokens). The weights are random, so the model knows nothing: it exists to run
// llama.cpp's real code path in tests and benchmarks without downloading weights.
//
//   node scripts/gguf/random-llama-gguf.mjs --shape tiny --out packages/engine/src/llama/fixtures/tiny-random-llama.gguf
//   node scripts/gguf/random-llama-gguf.mjs --shape qwen2-0.5b --type q8_0 --out /tmp/random-0.5b.gguf
//   node scripts/gguf/random-llama-gguf.mjs --decision-type lev --decision-template t.jinja --out /tmp/d.gguf
//
// `--decision-type` adds the key `llama.decision.type`, by which llama.cpp (from release v0.6.0)
// recognises a System One decision model, and `--decision-template` its prompt template
// (`tokenizer.chat_template.systemone`); the `decision` option can also add fitted temperatures
// (`llama.decision.temperature.<key>`). No decision head is added: the file stays a plain language
// model, which is what a decision type answered with label tokens is.
//
// Output is deterministic for a given shape, type and seed.
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { encodeTensor, TensorType, ValueType, writeGguf } from './gguf-writer.mjs';

/** Model shapes. `qwen2-0.5b` copies Qwen2-0.5B's published dimensions into a llama graph. */
export const SHAPES = {
  tiny: { embd: 64, layers: 2, heads: 4, kvHeads: 2, ff: 128, vocab: 0, context: 2048, merges: 160 },
  'qwen2-0.5b': {
    embd: 896,
    layers: 24,
    heads: 14,
    kvHeads: 2,
    ff: 4864,
    vocab: 151_936,
    context: 32_768,
    merges: 2_000,
  },
};

/** Control tokens of the ChatML layout, so prompt layouts with chat markers can be tested. */
export const CONTROL_TOKENS = ['<|endoftext|>', '<|im_start|>', '<|im_end|>'];

// Text the merges are learned from: English words, option letters, digits and prompt words.
const TRAINING_TEXT = [
  'You are a careful, impartial judge. You read a state and answer exactly one question about it.',
  'Reply with only the label of your answer: no other words, punctuation or explanation.',
  'Is the statement true of the state? Reply with only yes or no. Answer: yes. Answer: no.',
  'Options: A B C D E F G H I J K L M N O P Q R S T. Levels, lowest first: 0 1 2 3 4 5 6 7 8 9.',
  'The customer says production is down and all API calls return 500 errors since this morning.',
  'Please refund my order, the parcel arrived damaged and the support team has not answered.',
  'state question statement options levels choice score urgent toxic positive negative neutral',
  'the of and to in is that for it with as was on be at by this have from or one had not but',
].join('\n');

// GPT-2's pre-tokenizer: words with their leading space, numbers, punctuation runs, spaces.
const PRE_TOKENIZE = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

/** GPT-2's reversible map from bytes to printable characters. */
function byteToUnicode() {
  const printable = [];
  for (let b = 33; b <= 126; b++) printable.push(b);
  for (let b = 161; b <= 172; b++) printable.push(b);
  for (let b = 174; b <= 255; b++) printable.push(b);
  const map = new Map();
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    if (printable.includes(b)) map.set(b, String.fromCodePoint(b));
    else map.set(b, String.fromCodePoint(256 + extra++));
  }
  return map;
}

/** Learns `count` BPE merges from the training text (most frequent pair first, ties by text). */
function learnMerges(count) {
  const bytes = byteToUnicode();
  const words = new Map();
  for (const piece of TRAINING_TEXT.match(PRE_TOKENIZE) ?? []) {
    const symbols = [...Buffer.from(piece, 'utf8')].map((b) => bytes.get(b)).join('\u0000');
    words.set(symbols, (words.get(symbols) ?? 0) + 1);
  }
  let corpus = [...words.entries()].map(([symbols, frequency]) => ({
    symbols: symbols.split('\u0000'),
    frequency,
  }));
  const merges = [];
  while (merges.length < count) {
    const pairs = new Map();
    for (const { symbols, frequency } of corpus) {
      for (let i = 0; i + 1 < symbols.length; i++) {
        const pair = `${symbols[i]} ${symbols[i + 1]}`;
        pairs.set(pair, (pairs.get(pair) ?? 0) + frequency);
      }
    }
    if (pairs.size === 0) break;
    const [best] = [...pairs.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0];
    merges.push(best);
    const [left, right] = best.split(' ');
    corpus = corpus.map(({ symbols, frequency }) => {
      const merged = [];
      for (let i = 0; i < symbols.length; i++) {
        if (i + 1 < symbols.length && symbols[i] === left && symbols[i + 1] === right) {
          merged.push(left + right);
          i++;
        } else merged.push(symbols[i]);
      }
      return { symbols: merged, frequency };
    });
  }
  return { merges, byteTokens: [...bytes.values()] };
}

/** The vocabulary: byte tokens, merged tokens, control tokens, then unused filler up to `size`. */
export function buildVocabulary(mergeCount, size) {
  const { merges, byteTokens } = learnMerges(mergeCount);
  const tokens = [...byteTokens, ...merges.map((merge) => merge.replace(' ', ''))];
  const types = tokens.map(() => 1); // NORMAL
  for (const control of CONTROL_TOKENS) {
    tokens.push(control);
    types.push(3); // CONTROL
  }
  // Filler no merge can produce, so a large vocabulary has the real output-layer shape.
  for (let i = 0; tokens.length < size; i++) {
    tokens.push(`<|unused_${i}|>`);
    types.push(5); // UNUSED
  }
  return { tokens, types, merges };
}

/** xorshift128+ in 32-bit halves: fast, deterministic, good enough for random weights. */
function randomSource(seed) {
  let a = seed >>> 0 || 1;
  let b = 0x9e3779b9;
  let c = 0x85ebca6b;
  let d = 0xc2b2ae35;
  return () => {
    const t = a ^ (a << 11);
    a = b;
    b = c;
    c = d;
    d = d ^ (d >>> 19) ^ (t ^ (t >>> 8));
    return (d >>> 0) / 4294967296;
  };
}

const CHUNK_VALUES = 1 << 20;

function randomTensor(name, dims, type, random, scale) {
  const elements = dims.reduce((product, dim) => product * dim, 1);
  return {
    name,
    dims,
    type,
    write(sink) {
      for (let start = 0; start < elements; start += CHUNK_VALUES) {
        const values = new Float32Array(Math.min(CHUNK_VALUES, elements - start));
        for (let i = 0; i < values.length; i++) values[i] = (random() * 2 - 1) * scale;
        sink(encodeTensor(type, values));
      }
    },
  };
}

function onesTensor(name, length) {
  return {
    name,
    dims: [length],
    type: TensorType.F32,
    write: (sink) => sink(encodeTensor(TensorType.F32, new Float32Array(length).fill(1))),
  };
}

const FILE_TYPE = { f32: 0, f16: 1, q8_0: 7 };
const TENSOR_TYPE = { f32: TensorType.F32, f16: TensorType.F16, q8_0: TensorType.Q8_0 };

/** Writes the model; returns its parameter count and vocabulary size. */
export function writeRandomLlamaGguf({ out, shape: shapeName, type = 'f32', seed = 1, decision }) {
  const shape = SHAPES[shapeName];
  if (!shape) throw new Error(`unknown shape ${shapeName}; known: ${Object.keys(SHAPES).join(', ')}`);
  const tensorType = TENSOR_TYPE[type];
  if (tensorType === undefined)
    throw new Error(`unknown type ${type}; known: ${Object.keys(TENSOR_TYPE).join(', ')}`);
  const { tokens, types, merges } = buildVocabulary(shape.merges, shape.vocab);
  const vocab = tokens.length;
  const headDim = shape.embd / shape.heads;
  const kv = headDim * shape.kvHeads;
  const endOfText = tokens.indexOf('<|endoftext|>');
  const imEnd = tokens.indexOf('<|im_end|>');
  const metadata = [
    { key: 'general.architecture', type: ValueType.STRING, value: 'llama' },
    { key: 'general.name', type: ValueType.STRING, value: `random-llama-${shapeName}` },
    { key: 'general.file_type', type: ValueType.UINT32, value: FILE_TYPE[type] },
    { key: 'general.alignment', type: ValueType.UINT32, value: 32 },
    { key: 'llama.context_length', type: ValueType.UINT32, value: shape.context },
    { key: 'llama.embedding_length', type: ValueType.UINT32, value: shape.embd },
    { key: 'llama.block_count', type: ValueType.UINT32, value: shape.layers },
    { key: 'llama.feed_forward_length', type: ValueType.UINT32, value: shape.ff },
    { key: 'llama.attention.head_count', type: ValueType.UINT32, value: shape.heads },
    { key: 'llama.attention.head_count_kv', type: ValueType.UINT32, value: shape.kvHeads },
    { key: 'llama.attention.layer_norm_rms_epsilon', type: ValueType.FLOAT32, value: 1e-6 },
    { key: 'llama.rope.dimension_count', type: ValueType.UINT32, value: headDim },
    { key: 'llama.rope.freq_base', type: ValueType.FLOAT32, value: 1_000_000 },
    { key: 'llama.vocab_size', type: ValueType.UINT32, value: vocab },
    { key: 'tokenizer.ggml.model', type: ValueType.STRING, value: 'gpt2' },
    { key: 'tokenizer.ggml.pre', type: ValueType.STRING, value: 'gpt-2' },
    { key: 'tokenizer.ggml.tokens', type: ValueType.ARRAY, itemType: ValueType.STRING, value: tokens },
    { key: 'tokenizer.ggml.token_type', type: ValueType.ARRAY, itemType: ValueType.INT32, value: types },
    { key: 'tokenizer.ggml.merges', type: ValueType.ARRAY, itemType: ValueType.STRING, value: merges },
    { key: 'tokenizer.ggml.bos_token_id', type: ValueType.UINT32, value: endOfText },
    { key: 'tokenizer.ggml.eos_token_id', type: ValueType.UINT32, value: imEnd },
    { key: 'tokenizer.ggml.add_bos_token', type: ValueType.BOOL, value: false },
  ];
  if (decision !== undefined) {
    metadata.push({ key: 'llama.decision.type', type: ValueType.STRING, value: decision.type });
    for (const [key, value] of Object.entries(decision.temperatures ?? {})) {
      metadata.push({ key: `llama.decision.temperature.${key}`, type: ValueType.FLOAT32, value });
    }
    if (decision.template !== undefined) {
      metadata.push({
        key: 'tokenizer.chat_template.systemone',
        type: ValueType.STRING,
        value: decision.template,
      });
    }
  }
  const random = randomSource(seed);
  // Small weights keep activations finite through the random layers; the embedding scale makes the
  // (tied) output logits spread by about 1 whatever the width, so no label's probability underflows.
  const scale = 0.5 / Math.sqrt(shape.embd);
  const tensors = [
    randomTensor('token_embd.weight', [shape.embd, vocab], tensorType, random, 2 / Math.sqrt(shape.embd)),
    onesTensor('output_norm.weight', shape.embd),
  ];
  for (let layer = 0; layer < shape.layers; layer++) {
    const blk = `blk.${layer}`;
    tensors.push(
      onesTensor(`${blk}.attn_norm.weight`, shape.embd),
      randomTensor(`${blk}.attn_q.weight`, [shape.embd, shape.embd], tensorType, random, scale),
      randomTensor(`${blk}.attn_k.weight`, [shape.embd, kv], tensorType, random, scale),
      randomTensor(`${blk}.attn_v.weight`, [shape.embd, kv], tensorType, random, scale),
      randomTensor(`${blk}.attn_output.weight`, [shape.embd, shape.embd], tensorType, random, scale),
      onesTensor(`${blk}.ffn_norm.weight`, shape.embd),
      randomTensor(`${blk}.ffn_gate.weight`, [shape.embd, shape.ff], tensorType, random, scale),
      randomTensor(`${blk}.ffn_up.weight`, [shape.embd, shape.ff], tensorType, random, scale),
      randomTensor(`${blk}.ffn_down.weight`, [shape.ff, shape.embd], tensorType, random, scale),
    );
  }
  // No `output.weight`: llama.cpp ties the output layer to the token embedding, as Qwen2-0.5B does.
  writeGguf(out, metadata, tensors);
  const parameters = tensors.reduce((sum, t) => sum + t.dims.reduce((p, d) => p * d, 1), 0);
  return { parameters, vocab };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({
    options: {
      shape: { type: 'string', default: 'tiny' },
      type: { type: 'string', default: 'f32' },
      seed: { type: 'string', default: '1' },
      out: { type: 'string' },
      'decision-type': { type: 'string' },
      'decision-template': { type: 'string' },
    },
  });
  if (!values.out) {
    console.error(
      'usage: random-llama-gguf.mjs --out FILE [--shape tiny|qwen2-0.5b] [--type f32|f16|q8_0] [--seed N] [--decision-type NAME [--decision-template FILE]]',
    );
    process.exit(2);
  }
  const { parameters, vocab } = writeRandomLlamaGguf({
    out: values.out,
    shape: values.shape,
    type: values.type,
    seed: Number(values.seed),
    decision:
      values['decision-type'] === undefined
        ? undefined
        : {
            type: values['decision-type'],
            template:
              values['decision-template'] === undefined
                ? undefined
                : readFileSync(values['decision-template'], 'utf8'),
          },
  });
  console.log(
    `${values.out}: ${values.shape}, ${values.type}, ${parameters} parameters, vocabulary ${vocab}`,
  );
}
