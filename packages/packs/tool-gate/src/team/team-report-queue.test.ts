import { execFile } from 'node:child_process';
import {
  appendFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireFileLock } from './exclusive-file-lock.js';
import type { TeamOutcomeRecord } from './team-report.js';
import { TeamReportQueue } from './team-report-queue.js';

const run = promisify(execFile);

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'team-queue-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

/** An outcome record numbered `n` (its id ends in n, so order is visible). */
function record(n: number): TeamOutcomeRecord {
  return {
    kind: 'outcome',
    id: `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`,
    time: '2026-11-28T07:00:00.000Z',
    host: 'claude-code',
    session: 's',
    tool: 'Bash',
    call_key: 'a'.repeat(64),
    outcome: 'ran',
  };
}
const ids = (records: readonly { id: string }[]) => records.map((entry) => Number(entry.id.slice(-12)));

describe('TeamReportQueue', () => {
  it('keeps records in the order they were appended', () => {
    const queue = new TeamReportQueue({ directory });
    for (let n = 1; n <= 5; n++) queue.append(record(n));
    expect(ids(queue.peek(3))).toEqual([1, 2, 3]);
    expect(ids(queue.peek(100))).toEqual([1, 2, 3, 4, 5]);
    expect(queue.status()).toMatchObject({ records: 5, dropped: 0, last_error: null });
  });

  it('drops the oldest records past the record bound and counts them', () => {
    const queue = new TeamReportQueue({ directory, maxRecords: 3 });
    const drops = [1, 2, 3, 4, 5].map((n) => queue.append(record(n)).dropped);
    expect(drops).toEqual([0, 0, 0, 1, 1]);
    expect(ids(queue.peek(100))).toEqual([3, 4, 5]);
    expect(queue.status()).toMatchObject({ records: 3, dropped: 2 });
  });

  it('drops the oldest records past the byte bound', () => {
    const line = Buffer.byteLength(`${JSON.stringify(record(1))}\n`);
    const queue = new TeamReportQueue({ directory, maxBytes: line * 2 + 10 });
    for (let n = 1; n <= 4; n++) queue.append(record(n));
    expect(ids(queue.peek(100))).toEqual([3, 4]);
    expect(queue.status()).toMatchObject({ records: 2, dropped: 2, bytes: line * 2 });
    expect(() => new TeamReportQueue({ directory, maxBytes: 10 }).append(record(9))).toThrow(/exceeds/);
  });

  it('removes acknowledged records by id, keeping records appended meanwhile', () => {
    const queue = new TeamReportQueue({ directory });
    for (let n = 1; n <= 3; n++) queue.append(record(n));
    const batch = queue.peek(2);
    queue.append(record(4)); // a hook appends while the batch is on the wire
    expect(queue.remove(new Set(batch.map((entry) => entry.id)))).toBe(2);
    expect(ids(queue.peek(100))).toEqual([3, 4]);
  });

  it('rewrites its queue and state files whole and 0600, leaving no temporary file', () => {
    const queue = new TeamReportQueue({ directory, maxRecords: 2 });
    for (let n = 1; n <= 3; n++) queue.append(record(n)); // the third rewrites both files
    expect(ids(queue.peek(100))).toEqual([2, 3]);
    expect(queue.status()).toMatchObject({ dropped: 1 });
    for (const file of [queue.queuePath, queue.statePath]) expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(directory).filter((name) => name.includes('partial'))).toEqual([]);
  });

  it('removes unreadable lines on reading and counts them as dropped', () => {
    const queue = new TeamReportQueue({ directory });
    queue.append(record(1));
    appendFileSync(queue.queuePath, '{"torn": \n{"kind":"outcome","id":"not-a-uuid"}\n');
    queue.append(record(2));
    expect(ids(queue.peek(100))).toEqual([1, 2]);
    expect(queue.status()).toMatchObject({ records: 2, dropped: 2 });
  });

  it('notes the last error and clears it on success', () => {
    const queue = new TeamReportQueue({ directory, now: () => new Date('2026-11-28T07:00:00Z') });
    queue.recordFlush('the server refused the key (401)\nmore');
    expect(queue.state()).toMatchObject({
      last_error: 'the server refused the key (401)',
      last_error_at: '2026-11-28T07:00:00.000Z',
    });
    queue.recordFlush(null);
    expect(queue.state()).toMatchObject({ last_error: null, last_flush_at: '2026-11-28T07:00:00.000Z' });
  });

  it('throws when its directory cannot be created', () => {
    writeFileSync(join(directory, 'file'), '');
    const queue = new TeamReportQueue({ directory: join(directory, 'file', 'gate-reports') });
    expect(() => queue.append(record(1))).toThrow(/ENOTDIR|EEXIST/);
  });

  it('gives up an append when another process holds the lock past the wait', () => {
    const queue = new TeamReportQueue({ directory });
    queue.append(record(1));
    // A live owner (this process) holds the lock: not stale, so the append waits and gives up.
    const release = acquireFileLock(join(directory, 'queue.lock'), { waitMs: 0, staleMs: 60_000 });
    expect(release).not.toBeNull();
    expect(() => queue.append(record(2))).toThrow(/stayed locked/);
    release!();
    queue.append(record(2));
    expect(ids(queue.peek(100))).toEqual([1, 2]);
  });

  it('takes over a lock left by a process that has exited', async () => {
    const { stdout } = await run(process.execPath, ['-e', 'console.log(process.pid)']);
    writeFileSync(join(directory, 'queue.lock'), stdout);
    const queue = new TeamReportQueue({ directory });
    queue.append(record(1));
    expect(ids(queue.peek(100))).toEqual([1]);
  });

  it('loses no record and miscounts no drop when several processes append at once', async () => {
    // The built module (run `npx tsc -b` first), as the hook processes load it.
    const module = new URL('../../dist/team/team-report-queue.js', import.meta.url).href;
    const writer = (first: number) => `
      const { TeamReportQueue } = await import(${JSON.stringify(module)});
      // A generous wait: on a loaded machine four writers can hold a hook's 500 ms up.
      const queue = new TeamReportQueue({ directory: ${JSON.stringify(directory)}, maxRecords: 60, appendWaitMs: 20000 });
      for (let n = ${first}; n < ${first + 25}; n++) {
        queue.append({ kind: 'outcome', id: '00000000-0000-4000-8000-' + String(n).padStart(12, '0'),
          time: '2026-11-28T07:00:00.000Z', host: 'codex', session: null, tool: 'Bash',
          call_key: 'b'.repeat(64), outcome: 'ran' });
      }`;
    await Promise.all(
      [0, 100, 200, 300].map((first) =>
        run(process.execPath, ['--input-type=module', '-e', writer(first)], { cwd: directory }),
      ),
    );
    // Past 60 records every append rewrites the file: without the lock, rewrites and appends of
    // different processes would overwrite each other's records and counts.
    const queue = new TeamReportQueue({ directory });
    const seen = ids(queue.peek(1_000));
    expect(seen).toHaveLength(60);
    expect(new Set(seen).size).toBe(60);
    expect(queue.status().dropped).toBe(40);
    // Each writer's records stay in its own order.
    for (const first of [0, 100, 200, 300]) {
      const mine = seen.filter((n) => n >= first && n < first + 25);
      expect(mine).toEqual([...mine].sort((a, b) => a - b));
    }
    expect(readFileSync(queue.queuePath, 'utf8').split('\n').filter(Boolean)).toHaveLength(60);
  });
});
