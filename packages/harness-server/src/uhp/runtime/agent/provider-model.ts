import { createProvider } from '@arbiter/ai-providers';
import type { LanguageModel } from 'ai';
import type { RuntimeModel } from '../harness-runtime.js';
import type { ProviderKind, ProviderModelConfig } from './provider-model-config.js';

const DEFAULT_BASE_URL: Record<Exclude<ProviderKind, 'openai-compatible'>, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com/v1',
  google: 'https://generativelanguage.googleapis.com/v1beta',
};

export interface ReachabilityProbeOptions {
  /** How long a probe result is trusted. Default 60 s. */
  readonly ttlMs?: number;
  /** Time limit of one probe. Default 2 s. */
  readonly timeoutMs?: number;
}

/**
 * A configured provider model: builds the AI SDK language model with the key read from its
 * environment variable at call time, and reports availability from key presence plus a cached
 * reachability probe (`GET <baseURL>/models` without the key: any HTTP answer means reachable).
 */
export class ProviderModel implements RuntimeModel {
  readonly id: string;
  readonly label: string;
  readonly backend: string;
  readonly baseURL: string;
  private probedAt = Number.NEGATIVE_INFINITY;
  private reachable: boolean | null = null;
  private probing: Promise<void> | null = null;
  private readonly ttlMs: number;
  private readonly timeoutMs: number;

  constructor(
    readonly config: ProviderModelConfig,
    probe: ReachabilityProbeOptions = {},
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {
    this.id = config.id;
    this.label = config.label ?? `${config.upstreamModel} (${config.provider})`;
    this.backend = config.provider;
    this.baseURL = (
      config.baseURL ?? DEFAULT_BASE_URL[config.provider as Exclude<ProviderKind, 'openai-compatible'>]
    ).replace(/\/+$/, '');
    this.ttlMs = probe.ttlMs ?? 60_000;
    this.timeoutMs = probe.timeoutMs ?? 2_000;
  }

  /** The key is present (or none is needed) and the last probe did not fail; a stale probe is refreshed. */
  available(): boolean {
    if (!this.hasKey()) return false;
    if (Date.now() - this.probedAt > this.ttlMs) void this.probe();
    // Before the first probe answers the model counts as available; a failed probe marks it unavailable.
    return this.reachable !== false;
  }

  /** Probes now (or joins the probe in flight); resolves with the result. */
  async probe(): Promise<boolean> {
    this.probing ??= (async () => {
      try {
        await fetch(`${this.baseURL}/models`, { signal: AbortSignal.timeout(this.timeoutMs) });
        this.reachable = true;
      } catch {
        this.reachable = false;
      } finally {
        this.probedAt = Date.now();
        this.probing = null;
      }
    })();
    await this.probing;
    return this.reachable === true;
  }

  hasKey(): boolean {
    return this.config.apiKeyEnv === undefined || Boolean(this.env[this.config.apiKeyEnv]);
  }

  /** The key's value, so error messages can be scrubbed of it. */
  secret(): string | undefined {
    return this.config.apiKeyEnv === undefined ? undefined : this.env[this.config.apiKeyEnv] || undefined;
  }

  languageModel(): LanguageModel {
    const { config } = this;
    const apiKey = this.secret();
    return createProvider(config.provider, {
      baseURL: this.baseURL,
      name: config.id,
      ...(apiKey === undefined ? {} : { apiKey }),
    }).languageModel(config.upstreamModel);
  }
}
