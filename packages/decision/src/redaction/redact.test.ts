import { readdirSync, readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fake, SECRET_CORPUS } from '../../test/support/secret-corpus.js';
import { redact, redactState } from './redact.js';

const cases = SECRET_CORPUS;

describe('redact', () => {
  it.each(cases)('removes a %s', (_shape, template, secret, kind) => {
    const text = template.replace('{s}', secret);
    const redacted = redact(text);
    expect(redacted).not.toContain(secret);
    expect(redacted).toContain(`[REDACTED:${kind}]`);
    // The surroundings survive: only the secret goes.
    const [before = '', after = ''] = template.split('{s}');
    expect(redacted).toBe(`${before}[REDACTED:${kind}]${after}`);
  });

  const corpusDirectory = new URL('./clean-corpus/', import.meta.url);
  const corpusFiles = readdirSync(corpusDirectory).filter((file) => file.endsWith('.txt'));

  it('has a corpus of realistic code, shell, config, diffs and prose without secrets', () => {
    expect(corpusFiles.length).toBeGreaterThanOrEqual(7);
  });

  it.each(corpusFiles)('leaves %s byte-identical', (file) => {
    const text = readFileSync(new URL(file, corpusDirectory), 'utf8');
    expect(redact(text)).toBe(text);
  });

  it('keeps everything around a secret as it was', () => {
    const token = `ghp_${fake(36)}`;
    expect(
      redact(`git remote set-url origin https://${token}@github.com/acme/app.git # rotate monthly`),
    ).toBe(
      'git remote set-url origin https://[REDACTED:github-token]@github.com/acme/app.git # rotate monthly',
    );
  });

  it('is idempotent on markers and on arbitrary text', () => {
    const once = redact(cases.map(([, template, secret]) => template.replace('{s}', secret)).join('\n'));
    expect(redact(once)).toBe(once);
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (text) => {
        const redacted = redact(text);
        expect(redact(redacted)).toBe(redacted);
      }),
      { numRuns: 300 },
    );
  });

  it('removes generated tokens wherever they sit in arbitrary text', () => {
    const alphanumeric = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
    const run = (length: number) => fc.string({ unit: alphanumeric, minLength: length, maxLength: length });
    const secrets = fc.oneof(
      run(36).map((body) => `ghp_${body}`),
      run(16).map((body) => `AKIA${body.toUpperCase()}`),
      run(30).map((body) => `glpat-${body}`),
      run(40).map((body) => `sk-ant-api03-${body}`),
      run(34).map((body) => `hf_${body}`),
      run(24).map((body) => `sk_live_${body}`),
      run(36).map((body) => `npm_${body}`),
      fc.tuple(run(20), run(30)).map(([header, payload]) => `eyJ${header}.eyJ${payload}.${header}`),
    );
    const separator = fc.constantFrom(' ', '\n', '"', "'", '(', ')', ',', ';', '=', ':', '/', '@', '`', '\t');
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }),
        separator,
        secrets,
        separator,
        fc.string({ maxLength: 40 }),
        (before, open, secret, close, after) => {
          expect(redact(`${before}${open}${secret}${close}${after}`)).not.toContain(secret);
        },
      ),
      { numRuns: 500 },
    );
  });

  // Quadratic backtracking on any of these would take minutes; linear scans take milliseconds.
  const megabyte = 1 << 20;
  const fill = (unit: string) => unit.repeat(Math.ceil(megabyte / unit.length)).slice(0, megabyte);
  const adversarial = [
    'aZ9_-',
    'eyJ',
    'eyJabcdefghi.',
    'ghp_',
    'sk-',
    '-----BEGIN PRIVATE KEY-----',
    '-----BEGIN PRIVATE KEY-----x-----END CERTIFICATE-----',
    'Authorization: Bearer ',
    'https://a:b',
    'password: "',
    'password=',
    'a: ',
    'export ',
    '"\\',
    ' -u a:',
    ' --password ',
    '?a=',
  ];
  // Each input gets a generous limit: a loaded CI machine is slow, a quadratic scan of 1 MB is hopeless.
  it.each(adversarial)(
    'scans 1 MB of %j in linear time',
    (unit) => {
      const text = fill(unit);
      expect(redact(text).length).toBeGreaterThan(0);
    },
    20_000,
  );
});

describe('redactState', () => {
  it('redacts strings anywhere in a JSON state and values under secret-named keys', () => {
    const token = `ghp_${fake(36)}`;
    const state = {
      tool: 'Bash',
      input: { command: `curl -H "Authorization: Bearer ${fake(40)}" https://api.test` },
      env: { GITHUB_TOKEN: 'short', DB_PASSWORD: 12345, PATH: '/usr/bin' },
      credentials: { user: 'app', nested: ['a', { deep: 'b' }] },
      history: [`pushed with ${token}`, 'ok'],
      max_tokens: 100,
      enabled: true,
      note: null,
    };
    expect(redactState(state)).toEqual({
      tool: 'Bash',
      input: { command: 'curl -H "Authorization: Bearer [REDACTED:authorization]" https://api.test' },
      env: {
        GITHUB_TOKEN: '[REDACTED:secret-field]',
        DB_PASSWORD: '[REDACTED:secret-field]',
        PATH: '/usr/bin',
      },
      credentials: {
        user: '[REDACTED:secret-field]',
        nested: ['[REDACTED:secret-field]', { deep: '[REDACTED:secret-field]' }],
      },
      history: ['pushed with [REDACTED:github-token]', 'ok'],
      max_tokens: 100,
      enabled: true,
      note: null,
    });
    expect(state.env.GITHUB_TOKEN).toBe('short');
  });

  it('redacts a string state as text', () => {
    expect(redactState(`DB_PASSWORD=${fake(12)}`)).toBe('DB_PASSWORD=[REDACTED:secret-assignment]');
  });

  it('rejects a circular state with a clear error', () => {
    const state: Record<string, unknown> = { a: 1 };
    state.self = state;
    expect(() => redactState(state)).toThrow('circular');
  });

  it('serialises values with toJSON as JSON would', () => {
    const when = new Date('2025-01-02T03:04:05.000Z');
    expect(redactState({ when })).toEqual({ when: '2025-01-02T03:04:05.000Z' });
  });
});
