import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type { Database } from 'better-sqlite3';

/** How often the worker copies the write-ahead log into the database. */
export const CHECKPOINT_INTERVAL_MS = 1000;

/** SQLite's own default: a checkpoint by the committing connection once the log holds 1,000 pages. */
const AUTOCHECKPOINT_PAGES = 1000;

/**
 * The checkpointing worker, as CommonJS source (an `eval` worker: no file to resolve in either the
 * built package or its TypeScript sources). Its own connection to the same file runs a PASSIVE
 * checkpoint, which never waits for the server's connection and never makes it wait.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma('busy_timeout = 5000');
db.pragma('synchronous = NORMAL');
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'stop') return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

/**
 * Moves SQLite's WAL checkpoints off the event loop. A checkpoint copies the log into the database
 * and syncs both files; SQLite runs one inside whichever commit passes 1,000 pages, so on the
 * server's one connection it ran on the main thread, where an fsync behind another tenant's tens of
 * thousands of file creations held every request for up to a second (docs/benchmarks.md). Here the
 * server's connection stops checkpointing (`wal_autocheckpoint = 0`) and a worker thread with its
 * own connection checkpoints every `CHECKPOINT_INTERVAL_MS`. Should the worker fail or exit, the
 * server's connection checkpoints again itself, so the log never grows without bound; `onError`
 * hears why.
 */
export class WalCheckpointer {
  readonly #worker: Worker;
  #stopping = false;
  readonly #exited: Promise<void>;

  private constructor(
    private readonly connection: Database,
    private readonly onError: (error: Error) => void,
    intervalMs: number,
  ) {
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        file: connection.name,
        intervalMs,
      },
    });
    // A server that is done must not be kept alive by its checkpoints.
    this.#worker.unref();
    this.#worker.on('message', (message: { error?: string }) => {
      if (message.error) this.onError(new Error(`WAL checkpoint failed: ${message.error}`));
    });
    this.#worker.on('error', (error) => {
      this.checkpointOnConnection();
      this.onError(error);
    });
    this.#exited = new Promise((resolve) => this.#worker.once('exit', () => resolve()));
    this.#worker.on('exit', (code) => {
      if (this.#stopping) return;
      this.checkpointOnConnection();
      this.onError(new Error(`the WAL checkpoint worker exited (${code}); the connection checkpoints again`));
    });
    connection.pragma('wal_autocheckpoint = 0');
  }

  /**
   * Starts checkpointing `connection`'s database in a worker; null for a database without a
   * write-ahead log (in memory, or another journal mode), which has nothing to checkpoint.
   */
  static start(
    connection: Database,
    options: { readonly intervalMs?: number; readonly onError?: (error: Error) => void } = {},
  ): WalCheckpointer | null {
    if (connection.memory || connection.pragma('journal_mode', { simple: true }) !== 'wal') return null;
    return new WalCheckpointer(
      connection,
      options.onError ?? ((error) => process.emitWarning(error)),
      options.intervalMs ?? CHECKPOINT_INTERVAL_MS,
    );
  }

  /** Runs a last checkpoint and ends the worker; the connection checkpoints itself from then on. */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    // An unreferenced worker does not keep the process alive: a caller that awaits this stop with
    // nothing else pending (a CLI command closing its storage) would see Node exit mid-await.
    this.#worker.ref();
    this.#worker.postMessage('stop');
    await this.#exited;
    this.checkpointOnConnection();
  }

  private checkpointOnConnection(): void {
    if (this.connection.open) this.connection.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  }
}
