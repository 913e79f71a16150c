import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ModelCatalog } from '@arbiter/engine';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveDataDir } from './data-dir.js';
import { loadServerConfig } from './server-config.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-config-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

describe('loadServerConfig', () => {
  it('reads YAML (unquoted dates stay strings) and JSON into a working catalog', () => {
    const yaml = loadServerConfig(
      write(
        'arbiter.yaml',
        [
          'catalog:',
          '  models:',
          '    - name: local-1.2.0',
          '      release_date: 2026-10-01',
          '      engine: { kind: builtin }',
          '  aliases: { fast: local-latest }',
          '  defaultModel: fast',
          'limits: { maxBodyBytes: 65536 }',
        ].join('\n'),
      ),
    );
    expect(yaml.limits).toEqual({ maxBodyBytes: 65536 });
    const catalog = new ModelCatalog({ analysers: [], config: yaml.catalog });
    expect(catalog.resolve().pin).toBe('local-1.2.0');
    expect(catalog.resolve('jev-latest').pin).toBe('arbiter-1.0.0');

    const json = loadServerConfig(write('arbiter.json', '{"limits": {"maxContextTokens": 4096}}'));
    expect(json).toEqual({ limits: { maxContextTokens: 4096 } });
    expect(loadServerConfig(write('empty.yaml', ''))).toEqual({ limits: {} });
  });

  it('names the file and the field of every problem', () => {
    const file = write('bad.yaml', 'limits:\n  maxBodyBytes: 10\nsurprise: 1\n');
    expect(() => loadServerConfig(file)).toThrow(
      `invalid configuration file ${file}:\n  limits.maxBodyBytes: Too small: expected number to be >=1024\n  (root): Unrecognized key: "surprise"`,
    );
    expect(() => loadServerConfig(write('broken.json', '{"limits":'))).toThrow(/broken.json is not valid/);
    expect(() => loadServerConfig(path.join(dir, 'missing.yaml'))).toThrow(
      /cannot read the configuration file .*missing.yaml: ENOENT/,
    );
  });
});

describe('limits.diskBytesPerPrincipal', () => {
  it('takes bytes from 1 MiB, or null for no quota, and names the field otherwise', () => {
    expect(
      loadServerConfig(write('disk.yaml', 'limits:\n  diskBytesPerPrincipal: 1048576\n')).limits,
    ).toEqual({ diskBytesPerPrincipal: 1048576 });
    expect(
      loadServerConfig(write('no-disk.yaml', 'limits:\n  diskBytesPerPrincipal: null\n')).limits,
    ).toEqual({ diskBytesPerPrincipal: null });
    const small = write('small-disk.yaml', 'limits:\n  diskBytesPerPrincipal: 1000\n');
    expect(() => loadServerConfig(small)).toThrow(
      `invalid configuration file ${small}:\n  limits.diskBytesPerPrincipal: Too small: expected number to be >=1048576`,
    );
    const fraction = write('fraction-disk.yaml', 'limits:\n  diskBytesPerPrincipal: 1048576.5\n');
    expect(() => loadServerConfig(fraction)).toThrow(
      /limits\.diskBytesPerPrincipal: Invalid input: expected int/,
    );
  });
});

describe('resolveDataDir', () => {
  it('prefers the option, then ARBITER_DATA_DIR, then ~/.arbiter, always absolute', () => {
    expect(resolveDataDir('rel', { ARBITER_DATA_DIR: '/env' })).toBe(path.resolve('rel'));
    expect(resolveDataDir(undefined, { ARBITER_DATA_DIR: '/env' })).toBe('/env');
    expect(resolveDataDir(undefined, {})).toBe(path.join(os.homedir(), '.arbiter'));
  });
});
