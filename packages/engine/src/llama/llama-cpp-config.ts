import { z } from 'zod';
import { engineCalibrationSchema } from '../calibrated-engine.js';

/**
 * A prompt layout: how one model wants a state and a question framed. The prompt is
 * `open` · state section · question section · `close`; the answer label follows `close` directly,
 * preceded by `labelPrefix`. `open` and `close` are operator configuration, so the model's control
 * tokens written in them (`<|im_start|>`) are read as control tokens; the state and the questions
 * are untrusted and are always tokenised as plain text.
 */
export const promptLayoutSchema = z.strictObject({
  /** Text before the state; `{system}` is replaced by `system`. */
  open: z.string(),
  /** Text after the question, up to where the model writes its answer. */
  close: z.string().min(1, 'close must end the prompt where the answer starts'),
  /** Instructions to the judge, inserted at `{system}`. */
  system: z.string().optional(),
  /** Written before each label, e.g. a space when `close` ends with `Answer:`. */
  labelPrefix: z.string().default(''),
  /** The words a Noul is answered with. */
  noulLabels: z
    .strictObject({ true: z.string().min(1), false: z.string().min(1) })
    .refine((labels) => labels.true !== labels.false, 'the two Noul labels must differ')
    .default({ true: 'yes', false: 'no' }),
});
export type PromptLayout = z.infer<typeof promptLayoutSchema>;
export type PromptLayoutInput = z.input<typeof promptLayoutSchema>;

/** Names of the built-in layouts (see `PROMPT_LAYOUTS` in prompt-layouts.ts). */
export const promptLayoutNameSchema = z.enum(['plain', 'chatml']);
export type PromptLayoutName = z.infer<typeof promptLayoutNameSchema>;

/**
 * Where the GGUF file comes from: a path, or the name of a model in the local model cache
 * (`arbiter models pull`: a recommended name or `owner/name[@commit]`), resolved when the model
 * first loads.
 */
export const llamaModelSourceSchema = z.union([
  z.string().min(1),
  z.strictObject({
    /** Absolute path, or relative to the process's working directory. */
    path: z.string().min(1),
  }),
]);
export type LlamaModelSource = z.infer<typeof llamaModelSourceSchema>;

/** A catalog entry of kind `llama-cpp`: a GGUF model run in process by llama.cpp. */
export const llamaCppEngineConfigSchema = z.strictObject({
  kind: z.literal('llama-cpp'),
  /**
   * Temperatures per question type applied to the answers (`arbiter calibrate`), after any
   * temperatures a System One model declares for its own labels.
   */
  calibration: engineCalibrationSchema.optional(),
  model: llamaModelSourceSchema,
  /** Tokens one sequence holds: the state, the longest question and its longest label. */
  contextSize: z.number().int().min(256).max(131_072).default(4096),
  /** Requests evaluated at once; each holds one sequence (and its cached state) of the context. */
  sequences: z.number().int().min(1).max(64).default(1),
  /**
   * Sequences one request reads its questions on at once. Each lane gets a copy of the state's
   * evaluated prefix, and the lanes' question suffixes are decoded together in one batch, so the
   * model's weights are read once for several questions. Costs `contextSize` tokens of KV cache per
   * lane and sequence. One is the default because on a CPU it is faster at every state length
   * measured (docs/benchmarks.md): the batch attends over every lane's copy of the state. With more than one lane, an answer can differ slightly (by about 1e-4 on the
   * test model) with the questions it was batched with, since a batch sums in another order.
   */
  lanes: z.number().int().min(1).max(16).default(1),
  /** CPU threads; 0 lets llama.cpp choose. */
  threads: z.number().int().min(0).max(1024).default(0),
  /** Tokens per decode batch. */
  batchSize: z.number().int().min(1).max(65_536).default(512),
  /** `auto` uses a GPU backend when node-llama-cpp's prebuilt binary for it loads; `false` forces CPU. */
  gpu: z.union([z.literal('auto'), z.literal(false), z.enum(['cuda', 'vulkan', 'metal'])]).default('auto'),
  /** Layers offloaded to the GPU: `auto`, `max`, or a count. */
  gpuLayers: z.union([z.literal('auto'), z.literal('max'), z.number().int().min(0)]).default('auto'),
  layout: z.union([promptLayoutNameSchema, promptLayoutSchema]).default('plain'),
  /**
   * A GGUF that declares itself a System One decision model (`<architecture>.decision.type`, see
   * decision-model-metadata.ts). `use` (the default): a type answered with label tokens (lev, openjev,
   * nimble) is read with its own template, labels and temperatures, and `layout` is not used; a type
   * answered by a decision head of its own (kev, laya, clef) or an unknown type is refused. `ignore`:
   * the file is read as a plain language model with `layout`.
   */
  decisionMetadata: z.enum(['use', 'ignore']).default('use'),
  /**
   * Replaces parts of the file's System One declaration: `type` (which also makes a file that
   * declares nothing a System One model), `template` (the `systemone` Jinja template) and
   * `temperatures` (by `<question type>[.<bucket>]`). With `decisionMetadata: ignore`, only these
   * count.
   */
  systemOne: z
    .strictObject({
      type: z.string().min(1).optional(),
      template: z.string().min(1).optional(),
      temperatures: z.record(z.string(), z.number().positive().finite()).optional(),
    })
    .optional(),
  /**
   * Choice options in the prompt: `canonical` sorts them by name, so the order a request lists them
   * in cannot change their probabilities; `as-given` keeps the request's order.
   */
  optionOrder: z.enum(['canonical', 'as-given']).default('canonical'),
  /**
   * Orders each Choice is read in, averaged: 1 reads once; r > 1 also reads r − 1 rotations of the
   * option list (evenly spaced), which evens out the model's bias for early or late positions.
   */
  orderRotations: z.number().int().min(1).max(16).default(1),
  /** Budget of one `evaluate` call: waiting for a free sequence (and loading the model, the first time) included. */
  timeoutMs: z.number().int().min(1).max(600_000).default(30_000),
  /** Free-form descriptive labels for operators; never read by the engine. */
  labels: z.record(z.string(), z.string()).optional(),
});
export type LlamaCppEngineConfig = z.infer<typeof llamaCppEngineConfigSchema>;
export type LlamaCppEngineConfigInput = z.input<typeof llamaCppEngineConfigSchema>;
