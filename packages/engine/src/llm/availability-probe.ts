import { EngineError } from '@arbiter/decision';
import type { OpenAICompatibleClient } from './openai-compatible-client.js';

export type EngineAvailability =
  | { readonly available: true; readonly checkedAt: number }
  | { readonly available: false; readonly reason: string; readonly checkedAt: number };

export interface AvailabilityProbeOptions {
  /** Upper bound of one probe (`GET /models`). */
  timeoutMs?: number;
  /** How long a result is reused; listing models must not hit the model server each time. */
  cacheMs?: number;
  now?: () => number;
}

/**
 * Probes `GET {baseURL}/models` and checks the upstream model is served. Results are cached and
 * concurrent callers share one probe in flight.
 */
export function createAvailabilityProbe(
  client: OpenAICompatibleClient,
  upstreamModel: string,
  options: AvailabilityProbeOptions = {},
): () => Promise<EngineAvailability> {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const cacheMs = options.cacheMs ?? 15_000;
  const now = options.now ?? Date.now;
  let cached: EngineAvailability | undefined;
  let inFlight: Promise<EngineAvailability> | undefined;

  const probe = async (): Promise<EngineAvailability> => {
    try {
      const served = await client.listModels({ signal: AbortSignal.timeout(timeoutMs), retry: false });
      // Ollama lists `name:latest` for a model pulled as `name`.
      if (served.includes(upstreamModel) || served.includes(`${upstreamModel}:latest`)) {
        return { available: true, checkedAt: now() };
      }
      const listing = served.slice(0, 10).join(', ') || 'none';
      return {
        available: false,
        reason: `model "${upstreamModel}" is not served (served: ${listing})`,
        checkedAt: now(),
      };
    } catch (error) {
      const reason = EngineError.isInstance(error)
        ? error.message
        : error instanceof DOMException && error.name === 'TimeoutError'
          ? `no answer from the model server within ${timeoutMs} ms`
          : String(error);
      return { available: false, reason, checkedAt: now() };
    }
  };

  return () => {
    if (cached && now() - cached.checkedAt < cacheMs) return Promise.resolve(cached);
    inFlight ??= probe().then((result) => {
      cached = result;
      inFlight = undefined;
      return result;
    });
    return inFlight;
  };
}
