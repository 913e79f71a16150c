/**
 * The gate daemon's wire format: one JSON line each way per connection. Node built-ins only: the
 * hook side of it runs in every hook process.
 */

/** A `gate hook` invocation forwarded by a hook process. */
export interface GateDaemonRequest {
  /** The CLI arguments after `arbiter`; always starting with `gate hook`. */
  readonly argv: readonly string[];
  /** The hook process's standard input. */
  readonly stdin: string;
}

export type GateDaemonResponse =
  | { readonly ok: true; readonly exitCode: number; readonly stdout: string; readonly stderr: string }
  /** The daemon did not run the invocation (stale code, bad request): the hook runs it itself. */
  | { readonly ok: false; readonly reason: string };

/** Largest request line accepted: hook inputs carry whole files for Write/Edit calls. */
export const MAX_GATE_DAEMON_REQUEST_BYTES = 64 * 1024 * 1024;

export function isGateDaemonRequest(value: unknown): value is GateDaemonRequest {
  if (typeof value !== 'object' || value === null) return false;
  const { argv, stdin } = value as Record<string, unknown>;
  return (
    Array.isArray(argv) &&
    argv.every((arg) => typeof arg === 'string') &&
    argv[0] === 'gate' &&
    argv[1] === 'hook' &&
    typeof stdin === 'string'
  );
}

export function isGateDaemonResponse(value: unknown): value is GateDaemonResponse {
  if (typeof value !== 'object' || value === null) return false;
  const response = value as Record<string, unknown>;
  return response.ok === true
    ? typeof response.exitCode === 'number' &&
        typeof response.stdout === 'string' &&
        typeof response.stderr === 'string'
    : response.ok === false && typeof response.reason === 'string';
}
