// What the server, the harness server and the CLI use of storage; the rest is storage's own.
export { writeFileAtomically, writeFileAtomicallyAsync } from './atomic-file.js';
export { isPostgresUrl, redactConnectionString } from './connection-string.js';
export { applyMigrations, DATABASE_FILE_NAME, openDatabase } from './database.js';
export type { Migration } from './migration.js';
export { NulInTextError } from './nul-text.js';
export { PostgresDatabase } from './postgres-database.js';
export { applyPostgresMigrations } from './postgres-migrations.js';
export { type SchemaTypes, schemaMigration, schemaTypes } from './schema-migration.js';
export type { SqlDatabase, SqlDialect } from './sql-database.js';
export { SqliteDatabase } from './sqlite-database.js';
