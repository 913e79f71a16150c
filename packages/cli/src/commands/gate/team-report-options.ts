import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { UsageError } from '../usage-error.js';

/**
 * Where a reporting hook keeps its queue, its locks and the cached team policy:
 * `$ARBITER_HOME/gate-reports`, or `~/.arbiter/gate-reports`. One directory per user (not per
 * project), so the flusher of any project sends every queued record.
 */
export function teamReportDirectory(environment: NodeJS.ProcessEnv = process.env): string {
  const home = environment.ARBITER_HOME;
  return join(home ? resolve(home) : join(homedir(), '.arbiter'), 'gate-reports');
}

/**
 * The team server's base URL from `--server`: http or https, no credentials (the key travels
 * in ARBITER_API_KEY, never in a settings file), no query or fragment. Returned without a
 * trailing slash.
 */
export function parseTeamServerUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(
      `--server must be a URL such as https://arbiter.example.com, got ${JSON.stringify(value)}`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--server must be an http or https URL, got ${JSON.stringify(url.protocol)}`);
  if (url.username !== '' || url.password !== '')
    throw new UsageError('--server must not carry credentials; the hook reads the key from ARBITER_API_KEY');
  if (url.search !== '' || url.hash !== '')
    throw new UsageError('--server must not have a query or a fragment');
  return url.href.replace(/\/+$/, '');
}
