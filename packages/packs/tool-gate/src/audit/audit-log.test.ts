import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AUDIT_GENESIS, AuditLog } from './audit-log.js';

let path: string;
beforeEach(async () => {
  path = join(await mkdtemp(join(tmpdir(), 'arbiter-audit-')), 'audit.jsonl');
});
afterEach(async () => {
  await rm(dirname(path), { recursive: true, force: true });
});

async function logOfThree(): Promise<AuditLog<{ n: number }>> {
  const log = new AuditLog<{ n: number }>(path);
  for (const n of [1, 2, 3]) await log.append({ n });
  return log;
}

const lines = async () => (await readFile(path, 'utf8')).trimEnd().split('\n');

describe('AuditLog', () => {
  it('chains entries from the genesis hash', async () => {
    const log = await logOfThree();
    const entries = await log.read();
    expect(entries.map((entry) => entry.seq)).toEqual([1, 2, 3]);
    expect(entries[0]?.prev).toBe(AUDIT_GENESIS);
    expect(entries[1]?.prev).toBe(entries[0]?.sha256);
    expect(entries[2]?.prev).toBe(entries[1]?.sha256);
    expect(await log.verify()).toEqual({ ok: true, entries: 3, head: entries[2]?.sha256 });
  });

  it('verifies an empty or missing log', async () => {
    expect(await new AuditLog(path).verify()).toEqual({ ok: true, entries: 0, head: AUDIT_GENESIS });
  });

  it('detects an edited line', async () => {
    const log = await logOfThree();
    const [first, second, third] = await lines();
    await writeFile(path, [first, second!.replace('"n":2', '"n":20'), third].join('\n') + '\n');
    expect(await log.verify()).toMatchObject({
      ok: false,
      line: 2,
      problem: expect.stringMatching(/edited/),
    });
  });

  it('detects a deleted line', async () => {
    const log = await logOfThree();
    const [first, , third] = await lines();
    await writeFile(path, `${first}\n${third}\n`);
    expect(await log.verify()).toMatchObject({ ok: false, line: 2, problem: expect.stringMatching(/prev/) });
  });

  it('detects reordered lines', async () => {
    const log = await logOfThree();
    const [first, second, third] = await lines();
    await writeFile(path, `${first}\n${third}\n${second}\n`);
    expect(await log.verify()).toMatchObject({ ok: false, line: 2 });
  });

  it('detects a forged line whose hash was recomputed', async () => {
    const log = await logOfThree();
    const [first, second, third] = await lines();
    const forged = new AuditLog<{ n: number }>(join(path, '..', 'other.jsonl'));
    const entry = JSON.parse(second!);
    // A forger can re-hash the edited line itself, but not the next line's reference to it.
    const replacement = await forged.append({ n: 99 });
    await writeFile(
      path,
      [first, JSON.stringify({ ...replacement, seq: entry.seq, prev: entry.prev }), third].join('\n') + '\n',
    );
    expect((await log.verify()).ok).toBe(false);
  });

  it('detects junk lines', async () => {
    const log = await logOfThree();
    await writeFile(path, `${(await lines()).join('\n')}\nnot json\n`);
    expect(await log.verify()).toMatchObject({ ok: false, line: 4, problem: 'not valid JSON' });
  });

  it('keeps the chain intact under concurrent appends', async () => {
    const log = new AuditLog<{ n: number }>(path);
    await Promise.all(Array.from({ length: 20 }, (_, n) => new AuditLog<{ n: number }>(path).append({ n })));
    expect(await log.verify()).toMatchObject({ ok: true, entries: 20 });
  });

  it('continues a chain whose last entry is large', async () => {
    const log = new AuditLog<{ text: string }>(path);
    await log.append({ text: 'x'.repeat(100_000) });
    await log.append({ text: 'y' });
    expect(await log.verify()).toMatchObject({ ok: true, entries: 2 });
  });
});
