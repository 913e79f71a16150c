import type pg from 'pg';
import { redactConnectionString } from './connection-string.js';
import { nodePostgres } from './node-postgres.js';
import { refuseNulText } from './nul-text.js';
import { PostgresNotifications } from './postgres-notifications.js';
import type { SqlDatabase, SqlValue } from './sql-database.js';

// BIGINT (int8) and NUMERIC results as numbers: every integer stored (milliseconds, nano-units,
// sequence numbers) is far below 2^53, and a store compares them as numbers.
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    const { types } = nodePostgres();
    if (oid === types.builtins.INT8 || oid === types.builtins.NUMERIC) return Number;
    return types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** `?` placeholders to PostgreSQL's `$1…`; stores never put `?` inside a literal. */
function numbered(sql: string): string {
  let index = 0;
  return sql.replace(/\?/g, () => `$${++index}`);
}

type Queryable = pg.Pool | pg.PoolClient;

async function query<Row>(on: Queryable, sql: string, params: readonly SqlValue[]) {
  refuseNulText(params);
  return on.query<Row & pg.QueryResultRow>({ text: numbered(sql), values: params as unknown[] });
}

/**
 * PostgreSQL behind the asynchronous interface, through a node-postgres pool. A transaction holds
 * one client of the pool from `BEGIN` to `COMMIT`; statements outside one take any free client.
 */
export class PostgresDatabase implements SqlDatabase {
  readonly dialect = 'postgres' as const;
  readonly pool: pg.Pool;
  /** The connection string with its password replaced, for messages. */
  readonly description: string;
  readonly #notifications: PostgresNotifications;
  /** Told about failures no caller awaits: an idle pooled connection lost, LISTEN reconnecting. */
  onError: (error: Error) => void = () => {};

  constructor(connectionString: string, options: { readonly maxConnections?: number } = {}) {
    this.description = redactConnectionString(connectionString);
    this.#notifications = new PostgresNotifications(connectionString, (error) => this.onError(error));
    this.pool = new (nodePostgres().Pool)({ connectionString, types, max: options.maxConnections ?? 10 });
    // An idle client that loses its server emits here (without a listener the process would exit);
    // the pool drops it and the next query opens another, so this is reported, not fatal.
    this.pool.on('error', (error) => this.onError(error));
  }

  async all<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return (await query<Row>(this.pool, sql, params)).rows;
  }

  async get<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    return (await query<Row>(this.pool, sql, params)).rows[0];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return (await query(this.pool, sql, params)).rowCount ?? 0;
  }

  async transaction<T>(work: (tx: SqlDatabase) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: unknown;
    try {
      await client.query('BEGIN');
      try {
        const result = await work(new PostgresTransaction(client, this));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError;
        });
        throw error;
      }
    } finally {
      // A client whose rollback failed is in an unknown state: destroy it rather than reuse it.
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  /** Outside a transaction a lock would end with its statement: only a transaction may take one. */
  async lock(name: string): Promise<void> {
    throw new Error(`the lock ${name} can only be taken inside a transaction`);
  }

  async notify(channel: string, payload: string): Promise<void> {
    await this.pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  listen(channel: string, handler: (payload: string | null) => void): Promise<() => Promise<void>> {
    return this.#notifications.listen(channel, handler);
  }

  async close(): Promise<void> {
    await this.#notifications.close();
    await this.pool.end();
  }
}

class PostgresTransaction implements SqlDatabase {
  readonly dialect = 'postgres' as const;

  constructor(
    private readonly client: pg.PoolClient,
    private readonly owner: PostgresDatabase,
  ) {}

  async all<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row[]> {
    return (await query<Row>(this.client, sql, params)).rows;
  }

  async get<Row>(sql: string, params: readonly SqlValue[] = []): Promise<Row | undefined> {
    return (await query<Row>(this.client, sql, params)).rows[0];
  }

  async run(sql: string, params: readonly SqlValue[] = []): Promise<number> {
    return (await query(this.client, sql, params)).rowCount ?? 0;
  }

  transaction<T>(work: (tx: SqlDatabase) => Promise<T>): Promise<T> {
    return work(this);
  }

  async lock(name: string): Promise<void> {
    await this.client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
  }

  /** Delivered when this transaction commits, never if it rolls back. */
  async notify(channel: string, payload: string): Promise<void> {
    await this.client.query('SELECT pg_notify($1, $2)', [channel, payload]);
  }

  listen(channel: string, handler: (payload: string | null) => void): Promise<() => Promise<void>> {
    return this.owner.listen(channel, handler);
  }

  async close(): Promise<void> {
    throw new Error('a transaction cannot close its database');
  }
}
