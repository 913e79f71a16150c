/** The two SQL dialects a server can store its state in. */
export type SqlDialect = 'sqlite' | 'postgres';

export type SqlValue = string | number | bigint | null | Buffer;

/**
 * The one asynchronous interface every store (UHP, budgets) speaks, with SQLite and PostgreSQL
 * behind it. Statements use `?` placeholders in both dialects (PostgreSQL's `$n` are produced by its
 * implementation), so a store has one text per query; where the dialects differ a store asks
 * `dialect`. Integers come back as JavaScript numbers in both (PostgreSQL `BIGINT` included: every
 * stored integer — milliseconds, nano-units — is far below 2^53).
 */
export interface SqlDatabase {
  readonly dialect: SqlDialect;
  /** Every row of a query. */
  all<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row[]>;
  /** The first row of a query, or undefined. */
  get<Row>(sql: string, params?: readonly SqlValue[]): Promise<Row | undefined>;
  /** Runs a statement and answers how many rows it changed. */
  run(sql: string, params?: readonly SqlValue[]): Promise<number>;
  /**
   * Runs `work` in one transaction that holds the write lock from its first statement (SQLite
   * `BEGIN IMMEDIATE`; PostgreSQL takes row or advisory locks through `lock`). Called on a
   * transaction, it joins it.
   */
  transaction<T>(work: (tx: SqlDatabase) => Promise<T>): Promise<T>;
  /**
   * Serialises transactions that take the same named lock until they end: a no-op in SQLite, whose
   * transactions already exclude each other, a transaction-scoped advisory lock in PostgreSQL.
   */
  lock(name: string): Promise<void>;
  /**
   * Tells every process listening on `channel` (this one included) that something changed. In
   * PostgreSQL a `NOTIFY`, delivered when the enclosing transaction commits; in SQLite, which one
   * process serves, an in-process event. Notifications only wake readers: whatever they announce is
   * read from the database, so a lost one delays a reader and never loses data.
   */
  notify(channel: string, payload: string): Promise<void>;
  /**
   * Calls `handler` with each payload notified on `channel`, and with `null` when notifications may
   * have been missed (the listening connection was lost and is back): re-read everything then.
   * Answers a function that stops listening.
   */
  listen(channel: string, handler: (payload: string | null) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}
