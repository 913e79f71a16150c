import type { Migration } from './migration.js';
import type { SqlDialect } from './sql-database.js';

/**
 * The few spellings in which a table's description differs between SQLite and PostgreSQL. A
 * migration states each table once, with these in place of the words that differ, and
 * `schemaMigration` renders it for both dialects; everything else (names, constraints, indexes) is
 * the same text in both.
 */
export interface SchemaTypes {
  /**
   * A 64-bit integer (milliseconds, nano-units, counters). SQLite's `INTEGER` already stores 64
   * bits; PostgreSQL's `INTEGER` has 32, so there it is `BIGINT`.
   */
  readonly int64: string;
  /** A primary key the database numbers in insertion order. */
  readonly serialKey: string;
  /**
   * The column that keeps a table's insertion order, declared first after the primary key:
   * nothing in SQLite, whose every table has a `rowid`; `seq` in PostgreSQL, which has none.
   */
  readonly insertionOrderColumn: string;
  /** The name to order by for insertion order (`rowid` or `seq`, as above). */
  readonly insertionOrder: string;
  /**
   * Ends a `CREATE TABLE` whose primary key is its whole identity: SQLite then stores the rows in
   * the key's tree alone; PostgreSQL has no such option and needs none.
   */
  readonly withoutRowid: string;
}

const SCHEMA_TYPES: Readonly<Record<SqlDialect, SchemaTypes>> = {
  sqlite: {
    int64: 'INTEGER',
    serialKey: 'INTEGER PRIMARY KEY AUTOINCREMENT',
    insertionOrderColumn: '',
    insertionOrder: 'rowid',
    withoutRowid: ' WITHOUT ROWID',
  },
  postgres: {
    int64: 'BIGINT',
    serialKey: 'BIGSERIAL PRIMARY KEY',
    insertionOrderColumn: 'seq BIGSERIAL NOT NULL,',
    insertionOrder: 'seq',
    withoutRowid: '',
  },
};

/** The spellings of one dialect (for a store that orders by insertion, for example). */
export function schemaTypes(dialect: SqlDialect): SchemaTypes {
  return SCHEMA_TYPES[dialect];
}

/**
 * A migration whose change is one script in both dialects, written once: `render` is called with
 * each dialect's spellings. A change that is a different operation in each dialect (rebuilding a
 * SQLite table where PostgreSQL alters a constraint) is written as a plain `Migration` instead.
 * Only the id is recorded when a migration is applied, so a migration rewritten this way keeps its
 * identity as long as it creates the same schema.
 */
export function schemaMigration(id: string, render: (types: SchemaTypes) => string): Migration {
  const sqlite = render(SCHEMA_TYPES.sqlite);
  return {
    id,
    up(db) {
      db.exec(sqlite);
    },
    postgres: render(SCHEMA_TYPES.postgres),
  };
}
