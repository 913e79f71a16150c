import type { DecisionEngine, PackAnalyser } from '@arbiter/decision';
import { z } from 'zod';
import { llamaCppEngineKind } from '../llama/llama-cpp-engine-kind.js';
import { openAICompatibleEngineKind } from '../llm/openai-compatible-engine-kind.js';
import { nliEngineKind } from '../nli/nli-engine-kind.js';
import { builtinEngineKind } from './builtin-engine-kind.js';
import { BUILTIN_MODELS } from './builtin-models.js';
import { type CatalogConfigInput, type CatalogModel, catalogConfigSchema } from './catalog-config.js';
import { CatalogConfigError } from './catalog-config-error.js';
import { withCoherence } from './coherent-engine.js';
import type { EngineKind } from './engine-kind.js';
import { ModelNotFoundError } from './model-not-found-error.js';
import { latestAliasOf, newestVersion, parseModelPin } from './model-pin.js';

export { BUILTIN_MODELS };

/** The engine kinds every catalog knows; `engineKinds` adds more. */
export const DEFAULT_ENGINE_KINDS: Readonly<Record<string, EngineKind>> = {
  builtin: builtinEngineKind,
  'openai-compatible': openAICompatibleEngineKind,
  nli: nliEngineKind,
  'llama-cpp': llamaCppEngineKind,
};

/** Embedded aliases; clients of the public API send `jev-latest` when they name no model. */
export const BUILTIN_ALIASES: Readonly<Record<string, string>> = { 'jev-latest': 'arbiter-latest' };

export interface ModelCatalogOptions {
  /** The `catalog` section of the configuration; the embedded defaults when absent. */
  config?: CatalogConfigInput;
  /** Engine kinds besides the embedded ones (`builtin`, `openai-compatible`, `nli`, `llama-cpp`), by the `engine.kind` they serve. */
  engineKinds?: Readonly<Record<string, EngineKind>>;
  /**
   * Pack analysers handed to engines that use them (the built-in engine). Required, and never
   * filled in by the catalog: whoever builds the catalog knows the packs it serves and their
   * thresholds (the server gives `createToolGateAnalyser(thresholds)` from
   * `@arbiter/tool-gate-analysis`); `[]` serves every pack through the lexical evaluator.
   */
  analysers: readonly PackAnalyser[];
  /** Root of the local model cache (`nli` and other local-weight kinds). */
  modelCacheDir?: string;
}

export interface ResolvedModel {
  /** The concrete pin that answers, also when an alias was asked for. */
  readonly pin: string;
  readonly engine: DecisionEngine;
  readonly model: CatalogModel;
}

/** One row of `GET /v1/models`: the public members plus Arbiter's own. */
export interface ModelListing {
  name: string;
  description: string;
  release_date: string;
  /** `pin` for a concrete model, `alias` for a name that points at one. */
  kind: 'pin' | 'alias';
  /** The pin this name answers with (itself for a pin). */
  target: string;
  /** The engine kind serving it (`builtin`, `openai-compatible`, …). */
  engine: string;
}

interface CatalogEntry {
  readonly model: CatalogModel;
  readonly engine: DecisionEngine;
}

const MAX_ALIAS_HOPS = 16;

/**
 * The model catalog: concrete pins `<model>-<semver>`, each served by an engine; `<model>-latest`
 * following the newest version of each model; embedded and operator aliases. Built from
 * configuration and validated completely at construction, so a bad entry fails at start.
 *
 * @example
 * const catalog = new ModelCatalog({ config: { aliases: { fast: 'arbiter-1.0.0' } }, analysers: [] });
 * const { pin, engine } = catalog.resolve('jev-latest'); // pin === 'arbiter-1.0.0'
 */
export class ModelCatalog {
  readonly defaultModel: string;
  readonly #entries = new Map<string, CatalogEntry>();
  /** Every alias, resolved to its pin. */
  readonly #aliases = new Map<string, string>();

  constructor(options: ModelCatalogOptions) {
    const parsed = catalogConfigSchema.safeParse(options.config ?? {});
    if (!parsed.success) {
      throw new CatalogConfigError(`invalid catalog configuration:\n${z.prettifyError(parsed.error)}`);
    }
    const config = parsed.data;
    const kinds: Record<string, EngineKind> = { ...DEFAULT_ENGINE_KINDS, ...options.engineKinds };
    const context = {
      analysers: options.analysers,
      modelCacheDir: options.modelCacheDir,
    };

    const models = [...(config.builtinModels ? BUILTIN_MODELS : []), ...config.models];
    for (const [index, model] of models.entries()) {
      if (this.#entries.has(model.name)) {
        throw new CatalogConfigError(`catalog.models[${index}]: the pin \`${model.name}\` is defined twice`);
      }
      const kind = kinds[model.engine.kind];
      if (!kind) {
        throw new CatalogConfigError(
          `catalog.models[${index}] (${model.name}): unknown engine kind \`${model.engine.kind}\`; known kinds: ${Object.keys(kinds).join(', ')}`,
        );
      }
      const engineConfig = kind.configSchema.safeParse(model.engine);
      if (!engineConfig.success) {
        throw new CatalogConfigError(
          `catalog.models[${index}] (${model.name}): invalid engine configuration:\n${z.prettifyError(engineConfig.error)}`,
        );
      }
      // Every engine the catalog serves answers through the coherence layer (docs/engines.md).
      const engine = withCoherence(kind.create(engineConfig.data, context), {
        answersQuestionsIndependently: kind.answersQuestionsIndependently ?? false,
      });
      this.#entries.set(model.name, { model, engine });
    }
    if (this.#entries.size === 0) {
      throw new CatalogConfigError('the catalog has no models: add `catalog.models` or keep `builtinModels`');
    }

    const rawAliases = new Map<string, string>();
    for (const [model, versions] of this.#versionsByModel()) {
      const newest = newestVersion(versions);
      if (newest) rawAliases.set(latestAliasOf(model), `${model}-${newest}`);
    }
    for (const [alias, target] of Object.entries(BUILTIN_ALIASES)) {
      // An embedded alias whose target the operator removed is dropped, not an error.
      if (rawAliases.has(target) || this.#entries.has(target)) rawAliases.set(alias, target);
    }
    for (const [alias, target] of Object.entries(config.aliases)) rawAliases.set(alias, target);
    for (const alias of rawAliases.keys()) {
      this.#aliases.set(alias, this.#followAlias(alias, rawAliases));
    }

    this.defaultModel = config.defaultModel;
    if (!this.has(this.defaultModel)) {
      throw new CatalogConfigError(
        `catalog.defaultModel: \`${this.defaultModel}\` is neither a pin nor an alias of the catalog; available models: ${this.names().join(', ')}`,
      );
    }
  }

  /** Resolves a pin or alias (the default model when `name` is absent) to the engine that answers. */
  resolve(name: string = this.defaultModel): ResolvedModel {
    const pin = this.#entries.has(name) ? name : this.#aliases.get(name);
    const entry = pin === undefined ? undefined : this.#entries.get(pin);
    if (pin === undefined || entry === undefined) throw new ModelNotFoundError(name, this.names());
    return { pin, engine: entry.engine, model: entry.model };
  }

  has(name: string): boolean {
    return this.#entries.has(name) || this.#aliases.has(name);
  }

  /** Every name a request may use: pins first, then aliases, each sorted. */
  names(): string[] {
    return [...[...this.#entries.keys()].sort(), ...[...this.#aliases.keys()].sort()];
  }

  list(): ModelListing[] {
    const pins = [...this.#entries.values()].map(({ model }) => listing(model.name, 'pin', model));
    const aliases = [...this.#aliases.entries()].map(([alias, pin]) => {
      const model = this.#entries.get(pin)!.model;
      return listing(alias, 'alias', model);
    });
    const byName = (a: ModelListing, b: ModelListing) => a.name.localeCompare(b.name);
    return [...pins.sort(byName), ...aliases.sort(byName)];
  }

  #versionsByModel(): Map<string, string[]> {
    const versions = new Map<string, string[]>();
    for (const name of this.#entries.keys()) {
      const pin = parseModelPin(name);
      if (!pin) continue;
      versions.set(pin.model, [...(versions.get(pin.model) ?? []), pin.version]);
    }
    return versions;
  }

  #followAlias(alias: string, rawAliases: ReadonlyMap<string, string>): string {
    let name = alias;
    for (let hop = 0; hop < MAX_ALIAS_HOPS; hop++) {
      const target = rawAliases.get(name);
      if (target === undefined) break;
      if (this.#entries.has(target)) return target;
      name = target;
    }
    throw new CatalogConfigError(
      `catalog.aliases.${alias}: \`${name}\` is not a pin or alias of the catalog (or the aliases form a cycle); pins: ${[...this.#entries.keys()].join(', ')}`,
    );
  }
}

function listing(name: string, kind: 'pin' | 'alias', model: CatalogModel): ModelListing {
  return {
    name,
    description: kind === 'pin' ? model.description : `Alias of ${model.name}. ${model.description}`.trim(),
    release_date: model.release_date,
    kind,
    target: model.name,
    engine: model.engine.kind,
  };
}
