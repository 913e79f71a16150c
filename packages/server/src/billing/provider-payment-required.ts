import { HarnessRuntimeError } from '../uhp/runtime/harness-runtime.js';

/**
 * The failure a runtime reports when its model provider answers HTTP 402 (out of credit for the
 * requested output): a `provider_error` that tells the user what to change.
 */
export function providerPaymentRequired(provider: string): HarnessRuntimeError {
  return new HarnessRuntimeError(
    'provider_error',
    `${provider} refused the request for lack of credit (HTTP 402): lower max_output_tokens, or add credit with the provider.`,
  );
}
