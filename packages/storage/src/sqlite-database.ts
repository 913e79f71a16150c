import { EventEmitter } from 'node:events';
import type { Database, Statement } from 'better-sqlite3';
import { refuseNulText } from './nul-text.js';
import type { SqlDatabase, SqlValue } from './sql-database.js';
import { WalCheckpointer } from './wal-checkpointer.js';

/**
 * SQLite behind the asynchronous interface. better-sqlite3 is synchronous, so every call finishes
 * before its promise is returned; only a transaction spans several turns of the event loop. While
 * one is open on the connection, any other statement would land inside it (and be rolled back with
 * it), so other callers wait for it to end: a queue, not a lock, because one process owns the
 * connection. Other processes serialise on SQLite's own write lock (`BEGIN IMMEDIATE`).
 */
export class SqliteDatabase implements SqlDatabase {
  readonly dialect = 'sqlite' as const;
  // Compiling SQL costs more than running these small statements, so each is prepared once.
  readonly #statements = new Map<string, Statement>();
  #open: Promise<void> | null = null;
  readonly channels = new EventEmitter().setMaxListeners(0);

  readonly #checkpointer: WalCheckpointer | null;

  /**
   * `checkpointInWorker` moves the WAL's checkpoints (a copy and two fsyncs every 1,000 pages) off
   * this thread to a worker (`WalCheckpointer`): for a server, whose event loop must not wait on the disk.
   */
  constructor(
    readonly connection: Database,
    options: { readonly checkpointInWorker?: boolean } = {},
  ) {
    this.#checkpointer = options.checkpointInWorker ? WalCheckpointer.start(connection) : null;
  }

  async notify(channel: string, payload: string): Promise<void> {
    this.channels.emit(channel, payload);
  }

  async listen(channel: string, handler: (payload: string | null) => void): Promise<() => Promise<void>> {
    this.channels.on(channel, handler);
    return async () => {
      this.channels.off(channel, handler);
    };
  }

  async all<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    if (this.#open) await this.#idle();
    refuseNulText(params);
    return this.statement(sql).all(...params) as Row[];
  }

  async get<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    if (this.#open) await this.#idle();
    refuseNulText(params);
    return this.statement(sql).get(...params) as Row | undefined;
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    if (this.#open) await this.#idle();
    refuseNulText(params);
    return this.statement(sql).run(...params).changes;
  }

  async transaction<T>(work: (tx: SqlDatabase) => Promise<T>): Promise<T> {
    while (this.#open) await this.#idle();
    let end!: () => void;
    this.#open = new Promise((resolve) => {
      end = resolve;
    });
    try {
      this.statement('BEGIN IMMEDIATE').run();
      try {
        const result = await work(new SqliteTransaction(this));
        this.statement('COMMIT').run();
        return result;
      } catch (error) {
        if (this.connection.inTransaction) this.statement('ROLLBACK').run();
        throw error;
      }
    } finally {
      this.#open = null;
      end();
    }
  }

  async lock(): Promise<void> {}

  async close(): Promise<void> {
    // The worker's connection first, so the last one to close (this one) folds the log in.
    await this.#checkpointer?.stop();
    if (this.connection.open) this.connection.close();
  }

  statement(sql: string): Statement {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.connection.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }

  async #idle(): Promise<void> {
    while (this.#open) await this.#open;
  }
}

/** The statements of one open transaction: they run at once, on the same connection. */
class SqliteTransaction implements SqlDatabase {
  readonly dialect = 'sqlite' as const;

  constructor(private readonly owner: SqliteDatabase) {}

  async all<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    refuseNulText(params);
    return this.owner.statement(sql).all(...params) as Row[];
  }

  async get<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    refuseNulText(params);
    return this.owner.statement(sql).get(...params) as Row | undefined;
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    refuseNulText(params);
    return this.owner.statement(sql).run(...params).changes;
  }

  transaction<T>(work: (tx: SqlDatabase) => Promise<T>): Promise<T> {
    return work(this);
  }

  async lock(): Promise<void> {}

  notify(channel: string, payload: string): Promise<void> {
    return this.owner.notify(channel, payload);
  }

  listen(channel: string, handler: (payload: string | null) => void): Promise<() => Promise<void>> {
    return this.owner.listen(channel, handler);
  }

  async close(): Promise<void> {
    throw new Error('a transaction cannot close its database');
  }
}
