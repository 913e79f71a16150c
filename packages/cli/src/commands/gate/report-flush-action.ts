import { invocationIo } from '../../invocation-io.js';
import { EXIT_FAILURE } from '../usage-error.js';
import { flushTeamReports } from './team-report-flusher.js';
import { parseTeamServerUrl, teamReportDirectory } from './team-report-options.js';

/**
 * `arbiter gate report flush --server URL`: the queue to the team server, in the foreground.
 * Exit 0 when the queue is empty afterwards; 1 with one line on stderr when the server could
 * not be reached or refused (the records stay queued); 2 for a bad --server.
 */
export async function runGateReportFlush(options: {
  server: string;
  json?: boolean;
  background?: boolean;
}): Promise<number | undefined> {
  const server = parseTeamServerUrl(options.server);
  const directory = teamReportDirectory();
  const flushOptions = { server, apiKey: process.env.ARBITER_API_KEY, directory };
  const outcome =
    options.background === true
      ? await (await import('./team-report-background-flusher.js')).runBackgroundFlusher(flushOptions)
      : await flushTeamReports(flushOptions);
  const io = invocationIo();
  if (options.json === true) io.writeStdout(`${JSON.stringify({ server, directory, ...outcome })}\n`);
  if (!outcome.ok) {
    io.writeStderr(`arbiter gate report flush: ${outcome.error}\n`);
    return EXIT_FAILURE;
  }
  if (options.json !== true) {
    const sent = outcome.accepted + outcome.duplicates;
    io.writeStdout(
      `${sent === 0 ? 'nothing queued' : `sent ${sent} records (${outcome.accepted} new, ${outcome.duplicates} already stored)`}; ` +
        `team policy ${outcome.policySha256.slice(0, 12)} ${outcome.policy}\n`,
    );
  }
  return undefined;
}
