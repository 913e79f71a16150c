import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { engineCalibrationSchema } from '../calibrated-engine.js';

const MAX_DEFAULT_THREADS = 4;

/**
 * Catalog engine kind `nli`: an ONNX NLI cross-encoder run in process. Exactly one of `model` (a
 * model in the local cache, pulled with `arbiter models pull`) or `path` (a directory laid out like
 * a Hugging Face ONNX port: config.json, tokenizer.json, onnx/*.onnx).
 */
export const nliEngineConfigSchema = z
  .strictObject({
    kind: z.literal('nli'),
    /** A recommended name (`nli-deberta-v3-xsmall`), `owner/name` or `owner/name@commit` in the cache. */
    model: z.string().min(1).optional(),
    /** A model directory outside the cache. */
    path: z.string().min(1).optional(),
    /** The ONNX file inside the directory; default: the first of onnx/model_quantized.onnx, onnx/model.onnx, model.onnx. */
    onnxFile: z.string().min(1).optional(),
    /**
     * onnxruntime intra-op threads. Default: the machine's cores, at most 4. The engine runs one
     * onnxruntime call at a time, so these threads are its only parallelism; past 4 a model of
     * this size gains little per thread.
     */
    threads: z
      .number()
      .int()
      .min(1)
      .max(256)
      .default(() => Math.min(MAX_DEFAULT_THREADS, availableParallelism())),
    /** Premise–hypothesis pairs per onnxruntime run. */
    batchSize: z.number().int().min(1).max(512).default(16),
    /** Tokens per pair, capped by the model's own limit (max_position_embeddings, model_max_length). */
    maxLength: z.number().int().min(32).max(8192).default(512),
    /** Tokens shared by consecutive windows of a state longer than one window. */
    chunkOverlap: z.number().int().min(0).max(4096).default(64),
    /** Windows read per state; a longer state is read up to here and the answer says so. */
    maxChunks: z.number().int().min(1).max(256).default(8),
    /** A Choice with more options than this runs the model on the lexically closest ones only. */
    shortlist: z.number().int().min(2).max(1000).default(24),
    /** Hypothesis of a Choice option without a description; `{option}` is the option's name. */
    choiceTemplate: z.string().min(1).max(500).default('This example is {option}.'),
    /** Hypothesis of a Score level without a description; `{level}` and `{max}` are numbers. */
    scoreTemplate: z.string().min(1).max(500).default('On a scale from 0 to {max}, this is a {level}.'),
    /** Temperatures per question type for the model's answers (never a pack analyser's). */
    calibration: engineCalibrationSchema.optional(),
  })
  .refine((config) => (config.model === undefined) !== (config.path === undefined), {
    message: 'an `nli` engine names exactly one of `model` (in the model cache) or `path` (a directory)',
  });

export type NliEngineConfig = z.infer<typeof nliEngineConfigSchema>;
export type NliEngineConfigInput = z.input<typeof nliEngineConfigSchema>;
