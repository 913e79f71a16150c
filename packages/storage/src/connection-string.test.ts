import { describe, expect, it } from 'vitest';
import { isPostgresUrl, redactConnectionString } from './connection-string.js';

describe('redactConnectionString', () => {
  it.each([
    ['postgres://arbiter:s3cret@db.internal:5432/arbiter', 'postgres://arbiter:***@db.internal:5432/arbiter'],
    [
      'postgresql://arbiter:s3cret@/arbiter?host=/run/postgresql',
      'postgresql://arbiter:***@/arbiter?host=/run/postgresql',
    ],
    // A password holding @ and : runs to the last @ of the authority.
    ['postgres://u:p@ss:w@rd@h/db', 'postgres://u:***@h/db'],
    [
      'postgres://h/db?user=u&password=s3cret&sslmode=require',
      'postgres://h/db?user=u&password=***&sslmode=require',
    ],
    ["host=h user=u password='a b' dbname=d", 'host=h user=u password=*** dbname=d'],
    ['postgres://arbiter@h/db', 'postgres://arbiter@h/db'],
  ])('%s', (input, expected) => {
    expect(redactConnectionString(input)).toBe(expected);
  });

  it('recognises PostgreSQL URLs only', () => {
    expect(isPostgresUrl('postgres://h/db')).toBe(true);
    expect(isPostgresUrl('POSTGRESQL://h/db')).toBe(true);
    expect(isPostgresUrl('mysql://h/db')).toBe(false);
    expect(isPostgresUrl('/var/lib/arbiter')).toBe(false);
  });
});
