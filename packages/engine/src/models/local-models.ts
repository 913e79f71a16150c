import type { CatalogConfigInput, CatalogModel } from '../catalog/catalog-config.js';
import { isRuntimeInstalled, LOCAL_MODEL_RUNTIMES } from '../optional-runtime.js';
import type { ModelCache } from './model-cache.js';
import { RECOMMENDED_MODELS, type RecommendedModel } from './recommended-models.js';

/** The alias a newcomer's requests use (and `jev-latest` follows). */
const NEWCOMER_ALIAS = 'arbiter-latest';

export interface LocalModels {
  /** The catalog section with the pulled recommended models added. */
  readonly config: CatalogConfigInput;
  /** The pin `arbiter-latest` now follows, or null when it still follows the built-in engine. */
  readonly latest: string | null;
}

/**
 * Adds every pulled recommended model whose engine kind the server can run to the catalog, as
 * its pin (`arbiter-nli-xsmall-1.0.0`), and points `arbiter-latest` at the best of them (the
 * curated list's preference order). The operator's own configuration wins: a pin they define is
 * not replaced, and an `arbiter-latest` alias they set, or `builtinModels: false`, leaves the
 * alias alone. A model whose runtime is not installed (`optional-runtime.ts`) is listed, so that
 * naming it says how to add the runtime, but the alias does not move to it: a newcomer's requests
 * keep the built-in engine's answers instead of failing.
 */
export function withLocalModels(
  config: CatalogConfigInput | undefined,
  cache: ModelCache,
  engineKinds: readonly string[],
  runtimeInstalled: (packageName: string) => boolean = isRuntimeInstalled,
): LocalModels {
  const base = config ?? {};
  const pulled = RECOMMENDED_MODELS.filter(
    (model) => engineKinds.includes(model.engineKind) && cache.find(model.name) !== undefined,
  );
  const defined = new Set((base.models ?? []).map((model) => model.name));
  const added: CatalogModel[] = pulled
    .filter((model) => !defined.has(model.pin))
    .map((model) => catalogEntry(model, cache.find(model.name)!.manifest.pulledAt));
  const best = pulled
    .filter((model) => runtimeInstalled(LOCAL_MODEL_RUNTIMES[model.engineKind]))
    .sort((a, b) => a.preference - b.preference)[0];
  const followsBuiltin = base.builtinModels !== false && !(base.aliases && NEWCOMER_ALIAS in base.aliases);
  const latest = best && followsBuiltin ? best.pin : null;
  return {
    config: {
      ...base,
      models: [...(base.models ?? []), ...added],
      ...(latest ? { aliases: { ...base.aliases, [NEWCOMER_ALIAS]: latest } } : {}),
    },
    latest,
  };
}

function catalogEntry(model: RecommendedModel, pulledAt: string): CatalogModel {
  return {
    name: model.pin,
    description: `${model.description} Pulled from ${model.repo}.`,
    release_date: pulledAt.slice(0, 10),
    engine: { kind: model.engineKind, model: model.name },
  };
}
