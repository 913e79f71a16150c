import { describe, expect, it } from 'vitest';
import { schemaMigration, schemaTypes } from './schema-migration.js';

describe('schemaMigration', () => {
  const migration = schemaMigration(
    '9999-example',
    ({ int64, serialKey, insertionOrderColumn, withoutRowid }) =>
      `CREATE TABLE t (id ${serialKey}, ${insertionOrderColumn} at ${int64} NOT NULL)${withoutRowid};`,
  );

  it('renders one description in each dialect', () => {
    let sqlite = '';
    migration.up({ exec: (sql: string) => (sqlite += sql) } as never);
    expect(migration.id).toBe('9999-example');
    expect(sqlite).toBe(
      'CREATE TABLE t (id INTEGER PRIMARY KEY AUTOINCREMENT,  at INTEGER NOT NULL) WITHOUT ROWID;',
    );
    expect(migration.postgres).toBe(
      'CREATE TABLE t (id BIGSERIAL PRIMARY KEY, seq BIGSERIAL NOT NULL, at BIGINT NOT NULL);',
    );
  });

  it('names the insertion order a store reads', () => {
    expect(schemaTypes('sqlite').insertionOrder).toBe('rowid');
    expect(schemaTypes('postgres').insertionOrder).toBe('seq');
  });
});
