import type { DecisionEngine, PackAnalyser } from '@arbiter/decision';
import type { z } from 'zod';

/** What an engine factory gets besides its own configuration. */
export interface EngineKindContext {
  /** Pack analysers for engines that answer from analysis (the built-in engine). */
  readonly analysers: readonly PackAnalyser[];
  /** Root of the local model cache for kinds that run pulled weights (default `ModelCache.defaultRoot()`). */
  readonly modelCacheDir?: string | undefined;
}

/**
 * One kind of engine a catalog entry can name in `engine.kind`: a zod schema for the whole
 * `engine` member (including `kind`) and a factory. The catalog validates every entry at load
 * time, so a bad configuration fails at start with the entry named, not at the first request.
 */
export interface EngineKind<Config extends { kind: string } = { kind: string }> {
  readonly configSchema: z.ZodType<Config>;
  create(config: Config, context: EngineKindContext): DecisionEngine;
  /**
   * True when the kind's engines answer each question from the state and that question alone, so
   * the catalog's coherence layer may send a request whole (see `withCoherence`).
   */
  readonly answersQuestionsIndependently?: boolean;
}

/**
 * Erases an engine kind's configuration type so kinds of different configurations share one map.
 * Safe because the catalog only passes `create` what `configSchema` produced.
 */
export function defineEngineKind<Config extends { kind: string }>(kind: EngineKind<Config>): EngineKind {
  return kind as unknown as EngineKind;
}
