import { describe, expect, it } from 'vitest';
import { resolveDatabaseSetting } from './database-setting.js';

describe('resolveDatabaseSetting', () => {
  const env = { ARBITER_DATABASE_URL: 'postgres://env/db' };

  it('takes the command line, then the configuration file, then $ARBITER_DATABASE_URL', () => {
    expect(
      resolveDatabaseSetting({ database: 'postgres://flag/db', configured: 'postgres://file/db' }, env),
    ).toBe('postgres://flag/db');
    expect(resolveDatabaseSetting({ configured: 'postgres://file/db' }, env)).toBe('postgres://file/db');
    expect(resolveDatabaseSetting({}, env)).toBe('postgres://env/db');
  });

  it('means SQLite when nothing names a database, an empty variable included', () => {
    expect(resolveDatabaseSetting({}, {})).toBeUndefined();
    expect(
      resolveDatabaseSetting({ database: undefined, configured: undefined }, { ARBITER_DATABASE_URL: '' }),
    ).toBe(undefined);
  });
});
