import { appendFileSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '@arbiter/atomic-file';
import { acquireFileLock, type ReleaseFileLock } from './exclusive-file-lock.js';
import { type TeamRecord, teamRecordSchema } from './team-report.js';

/**
 * Bounds of the on-disk queue of one developer's hook (docs/tool-gate.md "The gate for a team").
 * When a record would take the queue past either, the oldest records are dropped and counted:
 * a server down for a week must not fill the disk, and recent calls matter more than old ones.
 */
export const TEAM_QUEUE_LIMITS = {
  records: 5_000,
  bytes: 8 * 1024 * 1024,
  /** How long an append waits for the queue lock before giving the record up (a hook is waiting). */
  appendWaitMs: 500,
  /** How long the flusher waits for the queue lock around each read or removal. */
  flushWaitMs: 5_000,
  /** A queue lock older than this was left by a crashed process. */
  staleLockMs: 10_000,
} as const;

/** The queue's bookkeeping, kept beside it in `state.json`. */
export interface TeamQueueState {
  /** Records dropped since the queue was created: pushed out by the bounds, or unreadable lines. */
  readonly dropped: number;
  /** The last flush's failure, one line; null once a flush succeeds. */
  readonly last_error: string | null;
  readonly last_error_at: string | null;
  readonly last_flush_at: string | null;
}

export interface TeamQueueStatus extends TeamQueueState {
  readonly records: number;
  readonly bytes: number;
}

export interface TeamReportQueueOptions {
  /** The directory holding `queue.jsonl`, `state.json` and the locks (created mode 0700). */
  readonly directory: string;
  readonly maxRecords?: number;
  readonly maxBytes?: number;
  /** How long `append` waits for the lock; default `TEAM_QUEUE_LIMITS.appendWaitMs`. */
  readonly appendWaitMs?: number;
  readonly now?: () => Date;
}

const EMPTY_STATE: TeamQueueState = {
  dropped: 0,
  last_error: null,
  last_error_at: null,
  last_flush_at: null,
};

/**
 * The hook's on-disk queue of team records, one JSON document per line in the order the hook
 * made them. Hooks append; the flusher reads from the front and removes what the server
 * acknowledged, by id, so records appended or dropped while a batch was on the wire are neither
 * lost nor sent twice. Every change happens under a short lock file (`queue.lock`); rewrites go
 * through a temporary file and a rename, so a crash leaves the old queue or the new one.
 */
export class TeamReportQueue {
  readonly directory: string;
  readonly queuePath: string;
  readonly statePath: string;
  readonly #lockPath: string;
  readonly #maxRecords: number;
  readonly #maxBytes: number;
  readonly #appendWaitMs: number;
  readonly #now: () => Date;

  constructor(options: TeamReportQueueOptions) {
    this.directory = options.directory;
    this.queuePath = join(options.directory, 'queue.jsonl');
    this.statePath = join(options.directory, 'state.json');
    this.#lockPath = join(options.directory, 'queue.lock');
    this.#maxRecords = options.maxRecords ?? TEAM_QUEUE_LIMITS.records;
    this.#maxBytes = options.maxBytes ?? TEAM_QUEUE_LIMITS.bytes;
    this.#appendWaitMs = options.appendWaitMs ?? TEAM_QUEUE_LIMITS.appendWaitMs;
    this.#now = options.now ?? (() => new Date());
    if (!Number.isInteger(this.#maxRecords) || this.#maxRecords < 1)
      throw new RangeError(`maxRecords must be a positive whole number, got ${this.#maxRecords}`);
    if (!Number.isInteger(this.#maxBytes) || this.#maxBytes < 1)
      throw new RangeError(`maxBytes must be a positive whole number, got ${this.#maxBytes}`);
  }

  /**
   * Appends one record, dropping the oldest ones when the bounds require it. Returns how many
   * were dropped; throws when the directory cannot be written or the lock stayed held (the hook
   * catches both: reporting never changes its answer).
   */
  append(record: TeamRecord): { dropped: number } {
    const line = `${JSON.stringify(record)}\n`;
    if (Buffer.byteLength(line) > this.#maxBytes)
      throw new RangeError(
        `a record of ${Buffer.byteLength(line)} bytes exceeds the queue's ${this.#maxBytes}`,
      );
    return this.#locked(this.#appendWaitMs, () => {
      const lines = this.#readLines();
      const bytes = lines.reduce((sum, text) => sum + Buffer.byteLength(text) + 1, 0);
      if (lines.length + 1 <= this.#maxRecords && bytes + Buffer.byteLength(line) <= this.#maxBytes) {
        appendFileSync(this.queuePath, line, { mode: 0o600 });
        return { dropped: 0 };
      }
      const kept = [...lines, line.slice(0, -1)];
      let keptBytes = bytes + Buffer.byteLength(line);
      let dropped = 0;
      while (kept.length > this.#maxRecords || keptBytes > this.#maxBytes) {
        keptBytes -= Buffer.byteLength(kept.shift()!) + 1;
        dropped++;
      }
      this.#rewrite(kept);
      this.#updateState((state) => ({ ...state, dropped: state.dropped + dropped }));
      return { dropped };
    });
  }

  /**
   * The first `limit` records, oldest first. Lines that are not a valid record (a torn write, an
   * edit by hand) are removed and counted as dropped: the server would refuse the whole batch
   * they sat in, and the queue would never drain.
   */
  peek(limit: number): TeamRecord[] {
    return this.#locked(TEAM_QUEUE_LIMITS.flushWaitMs, () => {
      const lines = this.#readLines();
      const records: TeamRecord[] = [];
      const unreadable = new Set<number>();
      for (let index = 0; index < lines.length && records.length < limit; index++) {
        const record = parseRecord(lines[index]!);
        if (record === null) unreadable.add(index);
        else records.push(record);
      }
      if (unreadable.size > 0) {
        this.#rewrite(lines.filter((_, index) => !unreadable.has(index)));
        this.#updateState((state) => ({ ...state, dropped: state.dropped + unreadable.size }));
      }
      return records;
    });
  }

  /** Removes the records with these ids (the ones the server acknowledged), wherever they are. */
  remove(ids: ReadonlySet<string>): number {
    if (ids.size === 0) return 0;
    return this.#locked(TEAM_QUEUE_LIMITS.flushWaitMs, () => {
      const lines = this.#readLines();
      const kept = lines.filter((text) => !ids.has(idOf(text)));
      if (kept.length !== lines.length) this.#rewrite(kept);
      return lines.length - kept.length;
    });
  }

  /**
   * Removes records the server refused as invalid, counting them as dropped: the server will
   * never take them, and the records behind them must still go.
   */
  drop(ids: ReadonlySet<string>): number {
    if (ids.size === 0) return 0;
    return this.#locked(TEAM_QUEUE_LIMITS.flushWaitMs, () => {
      const lines = this.#readLines();
      const kept = lines.filter((text) => !ids.has(idOf(text)));
      const dropped = lines.length - kept.length;
      if (dropped > 0) {
        this.#rewrite(kept);
        this.#updateState((state) => ({ ...state, dropped: state.dropped + dropped }));
      }
      return dropped;
    });
  }

  /** Notes a flush's outcome for `arbiter gate report status`: an error line, or success. */
  recordFlush(error: string | null): void {
    const at = this.#now().toISOString();
    this.#locked(TEAM_QUEUE_LIMITS.flushWaitMs, () =>
      this.#updateState((state) =>
        error === null
          ? { ...state, last_error: null, last_error_at: null, last_flush_at: at }
          : { ...state, last_error: error.split('\n')[0]!.slice(0, 500), last_error_at: at },
      ),
    );
  }

  /** Queue length, size and bookkeeping; reads without the lock (a status line may be a moment old). */
  status(): TeamQueueStatus {
    const lines = this.#readLines();
    let bytes = 0;
    try {
      bytes = statSync(this.queuePath).size;
    } catch {
      // No queue file yet.
    }
    return { ...this.state(), records: lines.length, bytes };
  }

  state(): TeamQueueState {
    try {
      const parsed = JSON.parse(readFileSync(this.statePath, 'utf8')) as Partial<TeamQueueState>;
      return {
        dropped: typeof parsed.dropped === 'number' ? parsed.dropped : 0,
        last_error: typeof parsed.last_error === 'string' ? parsed.last_error : null,
        last_error_at: typeof parsed.last_error_at === 'string' ? parsed.last_error_at : null,
        last_flush_at: typeof parsed.last_flush_at === 'string' ? parsed.last_flush_at : null,
      };
    } catch {
      return EMPTY_STATE;
    }
  }

  #locked<T>(waitMs: number, action: () => T): T {
    mkdirSync(this.directory, { recursive: true, mode: 0o700 });
    const release: ReleaseFileLock | null = acquireFileLock(this.#lockPath, {
      waitMs,
      staleMs: TEAM_QUEUE_LIMITS.staleLockMs,
    });
    if (release === null)
      throw new Error(`the report queue ${this.queuePath} stayed locked for ${waitMs} ms`);
    try {
      return action();
    } finally {
      release();
    }
  }

  #readLines(): string[] {
    let text: string;
    try {
      text = readFileSync(this.queuePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    return text.split('\n').filter((line) => line !== '');
  }

  #rewrite(lines: readonly string[]): void {
    writeFileAtomicSync(this.queuePath, lines.length === 0 ? '' : `${lines.join('\n')}\n`, { mode: 0o600 });
  }

  #updateState(change: (state: TeamQueueState) => TeamQueueState): void {
    writeFileAtomicSync(this.statePath, `${JSON.stringify(change(this.state()))}\n`, { mode: 0o600 });
  }
}

function parseRecord(line: string): TeamRecord | null {
  try {
    const parsed = teamRecordSchema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The id of a queued line without validating it (removal only compares ids). */
function idOf(line: string): string {
  try {
    const id = (JSON.parse(line) as { id?: unknown }).id;
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}
