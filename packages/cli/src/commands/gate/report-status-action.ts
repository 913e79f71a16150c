import { readCachedTeamPolicy, TeamReportQueue } from '@arbiter/tool-gate/team-reporting';
import { invocationIo } from '../../invocation-io.js';
import { teamReportDirectory } from './team-report-options.js';

/**
 * `arbiter gate report status`: what waits in the queue, what was dropped, why the last flush
 * failed, and which team policy the hooks apply.
 */
export async function runGateReportStatus(options: { json?: boolean }): Promise<number | undefined> {
  const directory = teamReportDirectory();
  const status = new TeamReportQueue({ directory }).status();
  const policy = readCachedTeamPolicy(directory);
  const io = invocationIo();
  if (options.json === true) {
    io.writeStdout(
      `${JSON.stringify({
        directory,
        ...status,
        policy:
          policy === null
            ? null
            : {
                sha256: policy.sha256,
                allow: policy.allow.length,
                report_cwd: policy.report_cwd,
                updated_at: policy.updated_at,
              },
      })}\n`,
    );
    return undefined;
  }
  io.writeStdout(
    [
      `queue:       ${status.records} records (${status.bytes} bytes) in ${directory}`,
      `dropped:     ${status.dropped}`,
      `last error:  ${status.last_error === null ? 'none' : `${status.last_error} (${status.last_error_at})`}`,
      `last flush:  ${status.last_flush_at ?? 'never'}`,
      `team policy: ${
        policy === null
          ? 'none cached'
          : `${policy.sha256} (${policy.allow.length} allow rules, cwd reported as ${policy.report_cwd})`
      }`,
    ].join('\n') + '\n',
  );
  return undefined;
}
