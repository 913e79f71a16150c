import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TeamOutcomeRecord } from '@arbiter/tool-gate/team';
import { TeamReportQueue } from '@arbiter/tool-gate/team-reporting';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TeamContractServer } from '../../../test/support/team-contract-server.js';
import { backgroundFlusherRunning, runBackgroundFlusher } from './team-report-background-flusher.js';

const KEY = 'arb_test_background_key_0123456789';
let directory: string;
let server: TeamContractServer;
beforeEach(async () => {
  directory = mkdtempSync(join(tmpdir(), 'team-background-'));
  server = await new TeamContractServer([KEY]).start();
});
afterEach(async () => {
  await server.stop();
  rmSync(directory, { recursive: true, force: true });
});

const record = (n: number): TeamOutcomeRecord => ({
  kind: 'outcome',
  id: `00000000-0000-4000-8000-${n.toString().padStart(12, '0')}`,
  time: '2026-11-28T07:00:00.000Z',
  host: 'claude-code',
  session: 's',
  tool: 'Bash',
  call_key: 'e'.repeat(64),
  outcome: 'ran',
});

describe('runBackgroundFlusher', () => {
  it('sends what hooks queue while it lingers, says it is running, and leaves when the queue stays empty', async () => {
    const queue = new TeamReportQueue({ directory });
    queue.append(record(1));
    let clock = 0;
    const seen: boolean[] = [];
    const outcome = await runBackgroundFlusher({
      server: server.url,
      apiKey: KEY,
      directory,
      lingerMs: 2_000,
      pollMs: 500,
      now: () => clock,
      sleep: async (ms) => {
        clock += ms;
        seen.push(backgroundFlusherRunning(directory, Date.now()));
        if (clock === 1_000) queue.append(record(2)); // a later hook's record
      },
    });
    expect(outcome).toMatchObject({ ok: true });
    expect(server.bodies).toHaveLength(2);
    expect(server.stored.get(KEY)?.map((entry) => entry.id)).toEqual([record(1).id, record(2).id]);
    // It polled until 2 s after the second flush (at 1 s): 6 sleeps of 0.5 s, running throughout.
    expect(clock).toBe(3_000);
    expect(seen).toEqual([true, true, true, true, true, true]);
    expect(backgroundFlusherRunning(directory, Date.now())).toBe(false);
    expect(existsSync(join(directory, 'flusher.pid'))).toBe(false);
  });

  it('leaves at once when a flush fails (hooks back off)', async () => {
    new TeamReportQueue({ directory }).append(record(1));
    await server.stop();
    let sleeps = 0;
    const outcome = await runBackgroundFlusher({
      server: server.url,
      apiKey: KEY,
      directory,
      sleep: async () => {
        sleeps++;
      },
    });
    expect(outcome.ok).toBe(false);
    expect(sleeps).toBe(0);
  });
});

describe('backgroundFlusherRunning', () => {
  it('is true only for a fresh pid file of a live process', () => {
    const pid = join(directory, 'flusher.pid');
    expect(backgroundFlusherRunning(directory, Date.now())).toBe(false);
    writeFileSync(pid, `${process.pid}\n`);
    expect(backgroundFlusherRunning(directory, Date.now())).toBe(true);
    const old = new Date(Date.now() - 60_000);
    utimesSync(pid, old, old);
    expect(backgroundFlusherRunning(directory, Date.now())).toBe(false);
    writeFileSync(pid, '2147483646\n'); // no such process
    expect(backgroundFlusherRunning(directory, Date.now())).toBe(false);
  });
});
