/**
 * The curated models `arbiter models pull <name>` knows. Every value here was read from the
 * Hugging Face pages named in `sources`; where a value could not be read (most sha256 digests),
 * it is `null` and `models pull` takes it from the Hub at pull time (`X-Linked-Etag`, the LFS
 * sha256), verifies the bytes against it and records it in the cache manifest. Never fill a
 * `null` with a guess: a wrong digest fails every pull, and an invented one defeats the check.
 */
export interface RecommendedModel {
  /** What users type: `arbiter models pull nli-deberta-v3-xsmall`. */
  readonly name: string;
  /** The catalog pin this model serves as once pulled. */
  readonly pin: string;
  /** The engine kind that runs it (`nli`; `llama-cpp` for GGUF files). */
  readonly engineKind: 'nli' | 'llama-cpp';
  readonly repo: string;
  /** A full commit hash when one was read; `null`: resolve `main` at pull time and record it. */
  readonly revision: string | null;
  readonly files: readonly RecommendedFile[];
  /** SPDX identifier of the licence, as the model card states it. */
  readonly licence: string;
  /** Where the licence was read (a port without its own licence field inherits its base model's). */
  readonly licenceSource: string;
  /** Accuracy the model's own card or repository reports; never measured by Arbiter. */
  readonly reportedAccuracy: ReportedAccuracy | null;
  /** Smaller is preferred when `arbiter-latest` picks among pulled models. */
  readonly preference: number;
  readonly description: string;
  readonly sources: readonly string[];
}

export interface RecommendedFile {
  readonly path: string;
  /** Expected sha256 when known in advance; otherwise the Hub's LFS digest is used and recorded. */
  readonly sha256: string | null;
  /** Approximate size as the Hub lists it, for `models list` before a pull. */
  readonly approximateBytes: number | null;
}

export interface ReportedAccuracy {
  /** e.g. `AllNLI dev accuracy (3-way)`. */
  readonly metric: string;
  readonly value: number;
  /** The page the figure was read from. */
  readonly source: string;
}

const NLI_FILES = (onnxBytes: number): RecommendedFile[] => [
  { path: 'config.json', sha256: null, approximateBytes: 1_040 },
  { path: 'tokenizer.json', sha256: null, approximateBytes: 8_660_000 },
  { path: 'tokenizer_config.json', sha256: null, approximateBytes: 384 },
  { path: 'onnx/model_quantized.onnx', sha256: null, approximateBytes: onnxBytes },
];

export const RECOMMENDED_MODELS: readonly RecommendedModel[] = [
  {
    name: 'nli-deberta-v3-xsmall',
    pin: 'arbiter-nli-xsmall-1.0.0',
    engineKind: 'nli',
    repo: 'Xenova/nli-deberta-v3-xsmall',
    revision: '4ce66096a56eb536b4b9e437f27ef42c24aeae51',
    files: NLI_FILES(87_200_000),
    licence: 'apache-2.0',
    licenceSource: 'cross-encoder/nli-deberta-v3-xsmall (the base model; the ONNX port states none)',
    reportedAccuracy: {
      metric: 'AllNLI dev accuracy, 3-way, of the base PyTorch model (not of this int8 ONNX port)',
      value: 0.8983,
      source:
        'https://huggingface.co/cross-encoder/nli-deberta-v3-xsmall/commit/480c0d62439c41bc70ee89fae495ed8f2d9b4557 (CESoftmaxAccuracyEvaluator_AllNLI-dev_results.csv, last row)',
    },
    preference: 20,
    description: 'DeBERTa-v3 xsmall NLI cross-encoder, int8 ONNX (about 87 MB): the small default.',
    sources: [
      'https://huggingface.co/Xenova/nli-deberta-v3-xsmall/tree/4ce66096a56eb536b4b9e437f27ef42c24aeae51',
      'https://huggingface.co/Xenova/nli-deberta-v3-xsmall/blame/main/config.json',
    ],
  },
  {
    name: 'nli-deberta-v3-base',
    pin: 'arbiter-nli-base-1.0.0',
    engineKind: 'nli',
    repo: 'Xenova/nli-deberta-v3-base',
    revision: '215b6d36e303800542e9fa6e08d4e27c0c288a28',
    files: NLI_FILES(244_000_000),
    licence: 'apache-2.0',
    licenceSource: 'cross-encoder/nli-deberta-v3-base (the base model; the ONNX port states none)',
    reportedAccuracy: {
      metric: 'AllNLI dev accuracy, 3-way, of the base PyTorch model (not of this int8 ONNX port)',
      value: 0.9153,
      source:
        'https://huggingface.co/cross-encoder/nli-deberta-v3-base/commit/07c1fa65279cc95163bc0b3e12404b37955d804f (CESoftmaxAccuracyEvaluator_AllNLI-dev_results.csv, last row)',
    },
    preference: 10,
    description: 'DeBERTa-v3 base NLI cross-encoder, int8 ONNX (about 244 MB): more accurate, slower.',
    sources: [
      'https://huggingface.co/Xenova/nli-deberta-v3-base/tree/215b6d36e303800542e9fa6e08d4e27c0c288a28/onnx',
    ],
  },
  {
    name: 'qwen2.5-0.5b-instruct',
    pin: 'arbiter-qwen2.5-0.5b-1.0.0',
    engineKind: 'llama-cpp',
    repo: 'second-state/Qwen2.5-0.5B-Instruct-GGUF',
    revision: '599ae81c60778acd1ed6cd243655c7c09d6b1449',
    files: [{ path: 'Qwen2.5-0.5B-Instruct-Q4_K_M.gguf', sha256: null, approximateBytes: 398_000_000 }],
    licence: 'apache-2.0',
    licenceSource: 'second-state/Qwen2.5-0.5B-Instruct-GGUF model card',
    reportedAccuracy: null,
    preference: 30,
    description: 'A general instruct GGUF (Qwen2.5 0.5B, Q4_K_M) for the llama-cpp engine kind.',
    sources: [
      'https://huggingface.co/second-state/Qwen2.5-0.5B-Instruct-GGUF/tree/599ae81c60778acd1ed6cd243655c7c09d6b1449',
    ],
  },
  {
    name: 'lev-q4_k_m',
    pin: 'arbiter-lev-1.0.0',
    engineKind: 'llama-cpp',
    repo: 'ggml-org/lev-GGUF',
    // No commit of this repository could be read here: `models pull` resolves `main` and records it.
    revision: null,
    files: [{ path: 'lev-Q4_K_M.gguf', sha256: null, approximateBytes: 3_011_777_440 }],
    licence: 'apache-2.0',
    licenceSource:
      "interfaze-ai/lev model card (license: apache-2.0), and the table of llama.cpp's decision-models announcement (Apache 2.0)",
    reportedAccuracy: {
      metric:
        'S1Bench macro accuracy over its 13 subsets (3,880 items), of the lev adapter on Qwen3.5-4B as its card reports (not of this Q4_K_M GGUF)',
      value: 0.689,
      source:
        'https://github.com/Abhinavexists/lev/blob/02523a471a7bc43282e4c96df5113ca77707ae9a/hf/README.md',
    },
    // A 4B model answers in seconds per question on a CPU (its card says so), so `arbiter-latest`
    // prefers the NLI models when both are pulled; pin `arbiter-lev-1.0.0` to use it.
    preference: 40,
    description:
      'lev, a System One decision model (Qwen3.5-4B with a LoRA, 4.2B parameters), Q4_K_M GGUF (about 3.0 GB); read with its own template and labels.',
    sources: [
      'https://huggingface.co/blog/ggml-org/decision-models-in-llamacpp',
      'https://huggingface.co/ggml-org/lev-GGUF',
      'https://github.com/Abhinavexists/lev/blob/02523a471a7bc43282e4c96df5113ca77707ae9a/hf/README.md',
    ],
  },
];

/** The model the first `npm start` pulls on a machine with network. */
export const DEFAULT_PULL_MODEL = 'nli-deberta-v3-xsmall';

export function findRecommendedModel(name: string): RecommendedModel | undefined {
  return RECOMMENDED_MODELS.find((model) => model.name === name);
}
