import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { EngineError } from '@arbiter/decision';
import type { Llama, LlamaContext, LlamaModel } from 'node-llama-cpp';
import { type DecisionModelMetadata, readDecisionModelMetadata } from './decision-model-metadata.js';
import type { LlamaCppEngineConfig, LlamaModelSource } from './llama-cpp-config.js';
import {
  checkDecisionModel,
  prepareSystemOneModel,
  resolveDeclaration,
  type SystemOneModel,
} from './system-one-model.js';

/** A loaded model and the context its sequences come from. */
export interface LoadedModel {
  readonly llama: Llama;
  readonly model: LlamaModel;
  readonly context: LlamaContext;
  /** Milliseconds from the start of loading to a usable context. */
  readonly loadMs: number;
  /** How to read it, when the file declares a System One decision type answered with label tokens. */
  readonly systemOne: SystemOneModel | null;
}

const llamaByGpu = new Map<string, Promise<Llama>>();

/**
 * node-llama-cpp's binding for a GPU choice, one per process and choice. `build: 'never'`: only the
 * prebuilt binaries from npm are used. Without it, a machine with no matching binary would clone
 * llama.cpp from GitHub and compile it at the first request.
 */
async function bindingFor(gpu: LlamaCppEngineConfig['gpu']): Promise<Llama> {
  const key = String(gpu);
  let llama = llamaByGpu.get(key);
  if (!llama) {
    llama = import('node-llama-cpp').then(({ getLlama, LlamaLogLevel }) =>
      getLlama({ gpu, build: 'never', progressLogs: false, logLevel: LlamaLogLevel.error }),
    );
    llamaByGpu.set(key, llama);
    // A failed start is not remembered: the next load tries again.
    llama.catch(() => llamaByGpu.delete(key));
  }
  return llama;
}

/** The GGUF file a model source names, checked to exist. */
export async function resolveModelFile(source: LlamaModelSource): Promise<string> {
  if (typeof source === 'string') {
    // The engine kind resolves cache names to paths before the engine is created.
    throw new EngineError({
      code: 'engine_unavailable',
      message: `the model \`${source}\` was not resolved in the local model cache`,
      isRetryable: false,
    });
  }
  const path = resolve(source.path);
  const found = await stat(path).catch(() => undefined);
  if (!found?.isFile()) {
    throw new EngineError({
      code: 'engine_unavailable',
      message: `the GGUF model file ${path} does not exist or is not a file`,
      isRetryable: false,
    });
  }
  return path;
}

/** Loads the model and creates its context: the slow part, done when the model first answers. */
export async function loadModel(config: LlamaCppEngineConfig): Promise<LoadedModel> {
  const started = performance.now();
  const modelPath = await resolveModelFile(config.model);
  const declared = resolveDeclaration(
    config.decisionMetadata === 'use' ? await readDeclaration(modelPath) : null,
    config.systemOne,
  );
  const profile = declared ? checkDecisionModel(modelPath, declared) : null;
  let llama: Llama;
  try {
    llama = await bindingFor(config.gpu);
  } catch (error) {
    throw new EngineError({
      code: 'engine_unavailable',
      message: `llama.cpp could not start (node-llama-cpp has no prebuilt binary that loads here, or gpu "${config.gpu}" is unavailable): ${messageOf(error)}`,
      isRetryable: false,
      cause: error,
    });
  }
  let model: LlamaModel;
  try {
    model = await llama.loadModel({ modelPath, gpuLayers: config.gpuLayers });
  } catch (error) {
    throw new EngineError({
      code: 'engine_unavailable',
      message: `llama.cpp could not load ${modelPath}: ${messageOf(error)}`,
      isRetryable: false,
      cause: error,
    });
  }
  let systemOne: SystemOneModel | null = null;
  if (declared && profile) {
    try {
      systemOne = prepareSystemOneModel(model, declared, profile);
    } catch (error) {
      await model.dispose();
      throw error;
    }
  }
  try {
    const context = await model.createContext({
      contextSize: config.contextSize,
      sequences: config.sequences * config.lanes,
      batchSize: config.batchSize,
      ...(config.threads > 0 ? { threads: config.threads } : {}),
    });
    return { llama, model, context, loadMs: performance.now() - started, systemOne };
  } catch (error) {
    await model.dispose();
    throw new EngineError({
      code: 'engine_unavailable',
      message: `llama.cpp could not create a context of ${config.contextSize} tokens × ${config.sequences * config.lanes} sequences: ${messageOf(error)}`,
      isRetryable: false,
      cause: error,
    });
  }
}

/** The file's System One declaration, if any; a file that is not GGUF is reported as such. */
async function readDeclaration(modelPath: string): Promise<DecisionModelMetadata | null> {
  try {
    return await readDecisionModelMetadata(modelPath);
  } catch (error) {
    throw new EngineError({
      code: 'engine_unavailable',
      message: `${modelPath} is not a readable GGUF file: ${messageOf(error)}`,
      isRetryable: false,
      cause: error,
    });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
