import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { InferenceSession, Tensor } from 'onnxruntime-node';
import { importOptionalRuntime } from '../optional-runtime.js';
import { type NliLabels, nliLabelsOf } from './nli-labels.js';
import { type PairTemplate, pairTemplateOf } from './pair-template.js';

const ONNX_CANDIDATES = [
  'onnx/model_quantized.onnx',
  'onnx/model.onnx',
  'model_quantized.onnx',
  'model.onnx',
];
/** RoBERTa-family position ids start after the padding index, so two positions are unusable. */
const POSITION_OFFSET: Readonly<Record<string, number>> = { roberta: 2, 'xlm-roberta': 2, camembert: 2 };

export interface CrossEncoderOptions {
  readonly onnxFile?: string | undefined;
  readonly threads: number;
  readonly maxLength: number;
}

/** A premise–hypothesis pair ready for the model. */
export interface EncodedPair {
  readonly ids: readonly number[];
  readonly typeIds: readonly number[];
}

/**
 * An ONNX sequence-pair classifier with its tokenizer: the files of a Hugging Face ONNX port
 * (config.json for the label order and limits, tokenizer.json, the .onnx graph), loaded once.
 */
export class CrossEncoder {
  private constructor(
    private readonly session: InferenceSession,
    private readonly ort: typeof import('onnxruntime-node'),
    private readonly tokenizer: import('@huggingface/tokenizers').Tokenizer,
    readonly labels: NliLabels,
    readonly template: PairTemplate,
    /** Tokens per pair: the configured length within the model's own limits. */
    readonly maxLength: number,
    readonly padId: number,
    readonly specialIds: ReadonlySet<number>,
    readonly onnxPath: string,
  ) {}

  static async load(dir: string, options: CrossEncoderOptions): Promise<CrossEncoder> {
    const file = (name: string) => path.join(dir, ...name.split('/'));
    const missing = ['config.json', 'tokenizer.json'].filter((name) => !existsSync(file(name)));
    const onnxName = options.onnxFile ?? ONNX_CANDIDATES.find((name) => existsSync(file(name)));
    if (onnxName === undefined || !existsSync(file(onnxName))) {
      missing.push(options.onnxFile ?? `an ONNX graph (${ONNX_CANDIDATES.join(', ')})`);
    }
    if (missing.length > 0) {
      throw new Error(`the model directory ${dir} lacks ${missing.join(', ')}`);
    }
    const config = readJson(file('config.json'));
    const tokenizerJson = readJson(file('tokenizer.json'));
    const tokenizerConfig = existsSync(file('tokenizer_config.json'))
      ? readJson(file('tokenizer_config.json'))
      : {};
    const labels = nliLabelsOf(config);

    const { Tokenizer } = await importOptionalRuntime(
      '@huggingface/tokenizers',
      () => import('@huggingface/tokenizers'),
    );
    const tokenizer = new Tokenizer(tokenizerJson, tokenizerConfig);
    const template = pairTemplateOf(tokenizerJson, (token) => tokenizer.token_to_id(token));
    const limits = [options.maxLength];
    if (typeof config.max_position_embeddings === 'number') {
      limits.push(config.max_position_embeddings - (POSITION_OFFSET[String(config.model_type)] ?? 0));
    }
    // Tokenizers without a limit store a huge sentinel (1e30); only a real one counts.
    if (typeof tokenizerConfig.model_max_length === 'number' && tokenizerConfig.model_max_length < 1e6) {
      limits.push(tokenizerConfig.model_max_length);
    }
    const padToken = typeof tokenizerConfig.pad_token === 'string' ? tokenizerConfig.pad_token : '[PAD]';
    const padId =
      tokenizer.token_to_id(padToken) ?? (typeof config.pad_token_id === 'number' ? config.pad_token_id : 0);
    const specialIds = new Set<number>([...tokenizer.get_added_tokens_decoder().keys()].map(Number));

    const ort = await importOptionalRuntime('onnxruntime-node', () => import('onnxruntime-node'));
    const onnxPath = file(onnxName!);
    const session = await ort.InferenceSession.create(onnxPath, {
      intraOpNumThreads: options.threads,
      interOpNumThreads: 1,
      executionMode: 'sequential',
      graphOptimizationLevel: 'all',
      // Idle intra-op threads sleep instead of spinning: the server shares its cores with HTTP work
      // and other engines, and spinning threads took a 6-option Choice from 141 to 195 ms at p50
      // when two other processes were busy (bench/nli-engine.mjs, docs/benchmarks.md).
      extra: { session: { intra_op: { allow_spinning: '0' } } },
    });
    for (const input of session.inputNames) {
      if (!['input_ids', 'attention_mask', 'token_type_ids'].includes(input)) {
        throw new Error(
          `${onnxPath}: unexpected model input \`${input}\` (a cross-encoder takes input_ids, attention_mask, token_type_ids)`,
        );
      }
    }
    return new CrossEncoder(
      session,
      ort,
      tokenizer,
      labels,
      template,
      Math.min(...limits),
      padId,
      specialIds,
      onnxPath,
    );
  }

  /**
   * Token ids of a text, never a special token: the tokenizer matches added tokens such as
   * `[SEP]` or `[CLS]` inside plain text, and a state (untrusted data) that could place a separator
   * would rewrite the pair the model reads. Only the template adds special tokens.
   */
  tokenize(text: string): number[] {
    return this.tokenizer
      .encode(text, { add_special_tokens: false })
      .ids.filter((id: number) => !this.specialIds.has(id));
  }

  /**
   * Logits of each pair, `labels.count` numbers per pair, in the pairs' order. One onnxruntime
   * run per batch of `batchSize` pairs, each batch padded to its longest pair; pairs are grouped by
   * length first so that padding stays small. Stops between batches when `signal` aborts.
   */
  async logits(
    pairs: readonly EncodedPair[],
    batchSize: number,
    signal?: AbortSignal,
  ): Promise<Float32Array[]> {
    const order = pairs
      .map((_, index) => index)
      .sort((a, b) => pairs[a]!.ids.length - pairs[b]!.ids.length || a - b);
    const results: Float32Array[] = new Array(pairs.length);
    for (let start = 0; start < order.length; start += batchSize) {
      signal?.throwIfAborted();
      const batch = order.slice(start, start + batchSize);
      const width = Math.max(...batch.map((index) => pairs[index]!.ids.length));
      const ids = new BigInt64Array(batch.length * width).fill(BigInt(this.padId));
      const mask = new BigInt64Array(batch.length * width);
      const types = new BigInt64Array(batch.length * width);
      batch.forEach((index, row) => {
        const pair = pairs[index]!;
        for (let i = 0; i < pair.ids.length; i++) {
          ids[row * width + i] = BigInt(pair.ids[i]!);
          mask[row * width + i] = 1n;
          types[row * width + i] = BigInt(pair.typeIds[i]!);
        }
      });
      const dims = [batch.length, width];
      const feeds: Record<string, Tensor> = {};
      const inputs: Record<string, BigInt64Array> = {
        input_ids: ids,
        attention_mask: mask,
        token_type_ids: types,
      };
      for (const name of this.session.inputNames)
        feeds[name] = new this.ort.Tensor('int64', inputs[name]!, dims);
      const output = await this.session.run(feeds);
      const logits =
        output[this.session.outputNames.includes('logits') ? 'logits' : this.session.outputNames[0]!]!;
      const count = this.labels.count;
      if (logits.dims.length !== 2 || logits.dims[1] !== count) {
        throw new Error(
          `${this.onnxPath}: logits of shape [${logits.dims.join(', ')}], but config.json names ${count} labels`,
        );
      }
      const data = logits.data as Float32Array;
      batch.forEach((index, row) => {
        results[index] = data.slice(row * count, (row + 1) * count);
      });
    }
    return results;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`${file}: not valid JSON (${(error as Error).message})`);
  }
}
