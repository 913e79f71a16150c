import { describe, expect, it } from 'vitest';
import { describeStorage } from './storage-description.js';

describe('describeStorage', () => {
  it('names the SQLite file in the data directory', () => {
    expect(describeStorage(undefined, '/srv/arbiter')).toBe('SQLite /srv/arbiter/arbiter.db');
  });

  it('names PostgreSQL host, port, database and user, never the password or query secrets', () => {
    const line = describeStorage(
      'postgres://app:s3cr%40t@db.internal:5433/arbiter?sslmode=require&password=other-secret',
      '/srv/arbiter',
    );
    expect(line).toBe('PostgreSQL db.internal:5433, database arbiter, user app');
    expect(line).not.toMatch(/s3cr|other-secret|sslmode/);
    expect(describeStorage('postgresql:///arbiter?host=/var/run/postgresql', '/d')).toBe(
      'PostgreSQL /var/run/postgresql, database arbiter',
    );
    expect(describeStorage('postgres://db', '/d')).toBe('PostgreSQL db, database (the user’s default)');
    expect(describeStorage('not a url with password hunter2', '/d')).toBe(
      'PostgreSQL (connection string not shown)',
    );
  });
});
