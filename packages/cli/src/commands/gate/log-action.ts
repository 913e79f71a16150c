import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { invocationIo } from '../../invocation-io.js';
import { UsageError } from '../usage-error.js';

export const DEFAULT_AUDIT_FILE = '.arbiter/gate-audit.jsonl';

/** `arbiter gate log`: lists the audit log, or verifies its hash chain (`--verify`, exit 1 on tampering). */
export async function runGateLog(options: {
  file?: string;
  verify?: boolean;
  json?: boolean;
}): Promise<void> {
  const { AuditLog } = await import('@arbiter/tool-gate');
  const path = resolve(options.file ?? DEFAULT_AUDIT_FILE);
  // A missing log proves nothing: it may never have been written, or it may have been deleted.
  const found = await stat(path).catch(() => null);
  if (found === null) {
    throw new UsageError(
      `no audit log at ${path}${options.verify === true ? '; nothing to verify (a deleted log looks the same)' : ''}; name one with --file`,
    );
  }
  if (!found.isFile()) throw new UsageError(`${path} is not a file`);
  const log = new AuditLog<Record<string, unknown>>(path);
  if (options.verify === true) {
    const result = await log.verify();
    if (options.json === true) invocationIo().writeStdout(`${JSON.stringify({ file: path, ...result })}\n`);
    else if (result.ok)
      invocationIo().writeStdout(`${path}: chain intact, ${result.entries} entries, head ${result.head}\n`);
    else {
      invocationIo().writeStdout(
        `${path}: TAMPERED at line ${result.line}: ${result.problem} (${result.entries} entries verified before it)\n`,
      );
    }
    if (!result.ok) process.exitCode = 1;
    return;
  }
  for (const entry of await log.read()) {
    if (options.json === true) {
      invocationIo().writeStdout(`${JSON.stringify(entry)}\n`);
      continue;
    }
    const record = entry.record;
    const verdict = String(record.verdict ?? 'no decision');
    const rule = record.rule === null || record.rule === undefined ? '-' : `rule ${record.rule}`;
    invocationIo().writeStdout(
      `${entry.seq}\t${entry.time}\t${verdict}\t${rule}\t${String(record.tool)}\t${String(record.reason)}\n`,
    );
  }
}
