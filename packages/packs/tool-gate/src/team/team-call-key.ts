import { canonicalSha256 } from '../pack/canonical-sha256.js';

/**
 * The key that joins a call's verdict to the host's later "it ran" event: sha256 of the canonical
 * JSON of the tool name and its arguments exactly as the host sent them. Both hook events carry
 * the same `tool_input`, so both compute the same key without either storing the call.
 */
export function teamCallKey(tool: string, toolArguments: Readonly<Record<string, unknown>>): string {
  return canonicalSha256({ tool, arguments: toolArguments });
}
