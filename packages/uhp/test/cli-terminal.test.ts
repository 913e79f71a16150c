import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { UhpClient, UhpLocalStore } from '../src/index.js';
import { ARBITER_BIN, assertCliBuilt } from './support/arbiter-cli.js';
import { type ArbiterUhpServer, startArbiterUhpServer } from './support/arbiter-uhp-server.js';
import { TmuxSession } from './support/tmux-session.js';

const KEY = 'uhp-terminal-test-key-0000000000000';
let server: ArbiterUhpServer;
let client: UhpClient;
let home: string;
let env: Record<string, string>;
let terminal: TmuxSession;

beforeAll(async () => {
  await TmuxSession.assertAvailable();
  assertCliBuilt();
  // Slow enough chunks that streaming is visible on screen, fast enough to keep the test short.
  server = await startArbiterUhpServer([KEY], { offlineChunkDelayMs: 15 });
  client = new UhpClient({ baseURL: server.baseURL, apiKey: KEY });
  await client.harnesses.create({ name: 'reviewer', base: 'agent' });
  await client.harnesses.create({ name: 'writer', base: 'agent' });
});
afterAll(() => server.close());
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'arbiter-tty-'));
  env = {
    HOME: home,
    ARBITER_CONFIG_DIR: join(home, 'config'),
    PATH: process.env.PATH ?? '',
    TERM: 'xterm-256color',
  };
  terminal = new TmuxSession();
});
afterEach(async () => {
  await terminal.close();
  await rm(home, { recursive: true, force: true });
});

/** What `arbiter uhp connect --harness NAME` saves, written with the store itself (no extra spawn). */
async function saveConnection(harnessName: string) {
  const harness = (await client.harnesses.list()).find((candidate) => candidate.name === harnessName);
  const store = await UhpLocalStore.open(join(home, 'config'));
  store.saveConnection({
    url: server.baseURL,
    apiKey: KEY,
    harnessId: harness?.id ?? '',
    protocolVersion: '2026-08-11',
    conformanceClass: 'full',
    savedAt: Date.now(),
  });
  await store.save();
}

const arbiterIn = (...args: string[]) => [process.execPath, ARBITER_BIN, 'uhp', ...args];

describe('arbiter uhp in a real terminal', () => {
  it('connect offers a picker when the server has several harnesses', async () => {
    const harnesses = await client.harnesses.list();
    expect(harnesses.length).toBe(3);
    await terminal.start(arbiterIn('connect', server.baseURL, '--api-key', KEY), env);
    const picker = await terminal.waitFor(/Which harness\?/);
    for (const harness of harnesses) expect(picker).toContain(harness.name);
    await terminal.press('Down');
    await terminal.press('Enter');
    const screen = await terminal.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('[exit 0]');
    expect(screen).toContain(`Active harness: ${harnesses[1]?.name} (${harnesses[1]?.id})`);
    expect(screen).not.toContain(KEY);
    const store = JSON.parse(await readFile(join(home, 'config', 'uhp.json'), 'utf8'));
    expect(store.connections[server.baseURL].harnessId).toBe(harnesses[1]?.id);
  });

  it('run streams text as it arrives, spins while the agent is quiet, and ends with usage', async () => {
    await saveConnection('writer');
    await terminal.start(
      arbiterIn('run', '@say the first words arrive early\n@sleep 1500\n@say and the rest after a pause'),
      env,
    );
    const early = await terminal.waitFor(/arrive early/);
    expect(early).toContain('owned by the server');
    expect(early).not.toContain('after a pause');
    expect(early).not.toMatch(/tokens:/);
    await terminal.waitFor(/working…/); // the spinner, during the agent's silence
    const screen = await terminal.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('[exit 0]');
    expect(screen).toContain('the first words arrive early');
    expect(screen).toContain('and the rest after a pause');
    expect(screen).toMatch(/tokens: \d+ in · \d+ out · \d+ total/);
    expect(screen).toMatch(/^completed$/m);
    expect(screen).not.toContain('working…'); // cleared before the end
  });

  it('Ctrl-C in the terminal cancels the run on the server and exits 130', async () => {
    await saveConnection('writer');
    await terminal.start(arbiterIn('run', '@say starting\n@sleep 30000\n@say never shown'), env);
    const running = await terminal.waitFor(/starting/);
    const responseId = /task (resp_\w+)/.exec(running)?.[1] ?? '';
    await terminal.press('C-c');
    const screen = await terminal.waitFor(/\[exit \d+\]/);
    expect(screen).toContain('[exit 130]');
    expect(screen).toContain('cancelled on the server');
    expect((await client.responses.retrieve(responseId)).status).toBe('cancelled');
  });
});
