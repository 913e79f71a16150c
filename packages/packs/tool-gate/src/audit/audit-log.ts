import { appendFile, mkdir, open, readFile, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { canonicalSha256 } from '../pack/canonical-sha256.js';

/** The hash a chain starts from. */
export const AUDIT_GENESIS = '0'.repeat(64);

/** One line of the audit log. `sha256` covers the canonical JSON of every other member. */
export interface AuditEntry<Record = unknown> {
  readonly seq: number;
  readonly time: string;
  readonly prev: string;
  readonly record: Record;
  readonly sha256: string;
}

export type AuditVerification =
  | { readonly ok: true; readonly entries: number; readonly head: string }
  | { readonly ok: false; readonly entries: number; readonly line: number; readonly problem: string };

const LOCK_STALE_MS = 10_000;
const LOCK_WAIT_MS = 5_000;

/**
 * An append-only, hash-chained JSONL log. Each line names the hash of the line before it, so an
 * edited, deleted or reordered line breaks the chain at that line. Removing lines from the end
 * leaves a shorter valid chain: keep the head hash that `verify` prints somewhere else to detect
 * that. Appends from concurrent processes are serialised with a lock file next to the log.
 *
 * @example
 * const log = new AuditLog('.arbiter/gate-audit.jsonl');
 * await log.append(verdict);
 * (await log.verify()).ok; // true until someone edits the file
 */
export class AuditLog<Record = unknown> {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  async append(record: Record, now: Date = new Date()): Promise<AuditEntry<Record>> {
    await mkdir(dirname(this.path), { recursive: true });
    const release = await this.#lock();
    try {
      const last = await this.#lastEntry();
      const body = {
        seq: last === null ? 1 : last.seq + 1,
        time: now.toISOString(),
        prev: last === null ? AUDIT_GENESIS : last.sha256,
        record,
      };
      const entry: AuditEntry<Record> = { ...body, sha256: canonicalSha256(body) };
      await appendFile(this.path, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      return entry;
    } finally {
      await release();
    }
  }

  async read(): Promise<AuditEntry<Record>[]> {
    const text = await readOrEmpty(this.path);
    return text
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as AuditEntry<Record>);
  }

  /** Walks the whole chain; reports the first line that does not fit. */
  async verify(): Promise<AuditVerification> {
    const lines = (await readOrEmpty(this.path)).split('\n');
    if (lines.at(-1) === '') lines.pop();
    let prev = AUDIT_GENESIS;
    for (const [index, line] of lines.entries()) {
      const fail = (problem: string): AuditVerification => ({
        ok: false,
        entries: index,
        line: index + 1,
        problem,
      });
      let entry: AuditEntry;
      try {
        entry = JSON.parse(line) as AuditEntry;
      } catch {
        return fail('not valid JSON');
      }
      if (typeof entry !== 'object' || entry === null || typeof entry.sha256 !== 'string') {
        return fail('not an audit entry');
      }
      const { sha256, ...body } = entry;
      if (canonicalSha256(body) !== sha256) return fail('content does not match its sha256 (edited)');
      if (entry.prev !== prev)
        return fail('prev does not match the previous line (deleted, inserted or reordered)');
      if (entry.seq !== index + 1) return fail(`seq ${entry.seq} where ${index + 1} was expected`);
      prev = sha256;
    }
    return { ok: true, entries: lines.length, head: prev };
  }

  /** Reads only the tail of the file: the hook appends on every tool call of a long session. */
  async #lastEntry(): Promise<AuditEntry | null> {
    let handle: Awaited<ReturnType<typeof open>>;
    try {
      handle = await open(this.path, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      const { size } = await handle.stat();
      let chunk = 4096;
      while (true) {
        const start = Math.max(0, size - chunk);
        const buffer = Buffer.alloc(size - start);
        await handle.read(buffer, 0, buffer.length, start);
        const text = buffer.toString('utf8').replace(/\n+$/, '');
        const newline = text.lastIndexOf('\n');
        if (newline !== -1 || start === 0) {
          const line = text.slice(newline + 1);
          if (line === '') return null;
          const entry = JSON.parse(line) as AuditEntry;
          if (typeof entry.seq !== 'number' || typeof entry.sha256 !== 'string') {
            throw new Error(`audit log ${this.path} ends in a line that is not an audit entry`);
          }
          return entry;
        }
        chunk *= 4;
      }
    } finally {
      await handle.close();
    }
  }

  async #lock(): Promise<() => Promise<void>> {
    const lockPath = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    while (true) {
      try {
        const handle = await open(lockPath, 'wx');
        await handle.close();
        return () => rm(lockPath, { force: true });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const age = await stat(lockPath).then(
          (info) => Date.now() - info.mtimeMs,
          () => 0,
        );
        // A crashed writer leaves its lock behind; appends are short, so an old lock is stale.
        if (age > LOCK_STALE_MS) await rm(lockPath, { force: true });
        else if (Date.now() > deadline) throw new Error(`audit log ${this.path} is locked by another writer`);
        else await new Promise((resolve) => setTimeout(resolve, 5));
      }
    }
  }
}

async function readOrEmpty(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  }
}
