import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PrepaidBudgets } from '@arbiter/harness-server';
import type { SqlDatabase } from '@arbiter/storage';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PRICING, UNIT } from '../billing/fixtures/test-pricing.js';
import { call, expectWellFormedStream, streamTask, until } from '../support/uhp-test-client.js';
import { startUhpTestServer, TEST_KEYS, type UhpTestServer } from '../support/uhp-test-server.js';

const alice = TEST_KEYS.alice;
const bob = TEST_KEYS.bob;
let server: UhpTestServer;
/** The operator's connection to the server's database, for budgets and one legacy row. */
let storage: SqlDatabase;
let victim: string;
const sockets: net.Server[] = [];

beforeAll(async () => {
  server = await startUhpTestServer({ pricing: TEST_PRICING });
  storage = await server.openStorage();
});
afterAll(async () => {
  await storage.close();
  await server.close();
});
const victims: string[] = [];
afterEach(async () => {
  await Promise.all(sockets.splice(0).map((socket) => new Promise((resolve) => socket.close(resolve))));
  for (const dir of victims.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A directory outside every workspace, standing for what the server user may write. */
function freshVictim(): string {
  victim = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-victim-'));
  victims.push(victim);
  fs.mkdirSync(path.join(victim, 'skills'));
  fs.writeFileSync(path.join(victim, 'skills', 'keep.txt'), 'keep me');
  fs.writeFileSync(path.join(victim, 'secret.txt'), 'victim secret');
  return victim;
}

function victimUntouched(): void {
  expect(fs.readdirSync(victim).sort()).toEqual(['secret.txt', 'skills']);
  expect(fs.readdirSync(path.join(victim, 'skills'))).toEqual(['keep.txt']);
  expect(fs.readFileSync(path.join(victim, 'skills', 'keep.txt'), 'utf8')).toBe('keep me');
  expect(fs.readFileSync(path.join(victim, 'secret.txt'), 'utf8')).toBe('victim secret');
}

const workspaceOf = (sessionId: string) =>
  path.join(server.dataDir, 'uhp', 'sessions', sessionId, 'workspace');

/**
 * What an agent can leave behind with an ordinary shell: links to a file and a folder outside, a
 * dangling link, a FIFO (opening it would block the server), a Unix socket, and the same inside a
 * sub-folder. Planted directly, so the attack does not depend on which sandbox runs the shell.
 */
async function plantEverything(workspace: string, prefix = ''): Promise<void> {
  const at = (name: string) => path.join(workspace, prefix, name);
  fs.mkdirSync(path.join(workspace, prefix), { recursive: true });
  fs.symlinkSync(path.join(victim, 'secret.txt'), at('link-to-file.txt'));
  fs.symlinkSync(victim, at('link-to-dir'));
  fs.symlinkSync('/nonexistent/target', at('dangling'));
  execFileSync('mkfifo', [at('fifo.txt')]);
  const socket = net.createServer();
  await new Promise<void>((resolve) => socket.listen(at('socket'), resolve));
  sockets.push(socket);
}

async function task(body: Record<string, unknown>, key = alice) {
  return call(server.baseUrl, '/v1/responses', { method: 'POST', key, body });
}

async function sessionFiles(sessionId: string, key = alice) {
  return (await call(server.baseUrl, `/v1/sessions/${sessionId}/files`, { key })).json.files as {
    id: string;
    filename: string;
    container_id: string;
  }[];
}

async function download(containerId: string, fileId: string) {
  return call(server.baseUrl, `/v1/containers/${containerId}/files/${fileId}/content`, { key: alice });
}

function ledger(): PrepaidBudgets {
  return new PrepaidBudgets(storage, TEST_PRICING);
}

describe('the server never follows what an agent left in a workspace', () => {
  it('skill set-up: `.arbiter` planted as a link to a folder outside is replaced, the folder is untouched', async () => {
    freshVictim();
    const harness = (
      await call(server.baseUrl, '/v1/harnesses', {
        method: 'POST',
        key: alice,
        body: { name: 'skilled', base: 'agent', skills: [{ name: 'notes', content: '# Notes' }] },
      })
    ).json;
    const first = (await task({ input: '@say hi', metadata: { harness_id: harness.id } })).json;
    const session = first.metadata.session_id as string;
    const workspace = workspaceOf(session);

    const reserved = path.join(workspace, '.arbiter');
    const skills = path.join(reserved, 'skills');
    const clear = (target: string) => fs.rmSync(target, { recursive: true, force: true });
    for (const plant of [
      () => {
        clear(reserved);
        fs.symlinkSync(victim, reserved);
      },
      () => {
        clear(skills);
        fs.symlinkSync(victim, skills);
      },
      () => {
        clear(path.join(skills, 'notes'));
        fs.symlinkSync(path.join(victim, 'skills'), path.join(skills, 'notes'));
      },
      () => {
        clear(reserved);
        execFileSync('mkfifo', [reserved]);
      },
      () => {
        clear(skills);
        execFileSync('mkfifo', [skills]);
      },
      () => {
        clear(reserved);
        fs.writeFileSync(reserved, 'a file');
      },
    ]) {
      plant();
      const next = await task({
        input: '@read .arbiter/skills/notes/SKILL.md',
        previous_response_id: first.id,
      });
      expect(next.json.status).toBe('completed');
      expect(JSON.stringify(next.json.output)).toContain('# Notes');
      victimUntouched();
      expect(fs.lstatSync(path.join(workspace, '.arbiter')).isDirectory()).toBe(true);
      expect(fs.lstatSync(path.join(workspace, '.arbiter', 'skills')).isDirectory()).toBe(true);
    }
  });

  it('artifacts, downloads and archives: links, FIFOs and sockets are neither followed nor opened', async () => {
    freshVictim();
    const first = (await task({ input: '@write real.txt <<<real content>>>' })).json;
    const session = first.metadata.session_id as string;
    const workspace = workspaceOf(session);
    await plantEverything(workspace);
    await plantEverything(workspace, 'sub');

    // A later turn: the snapshot before it, the artifact collection after it, with the plants in place.
    const second = await task({
      input: '@write sub/new.txt <<<new content>>>\n@write real.txt <<<changed>>>',
      previous_response_id: first.id,
    });
    expect(second.json.status).toBe('completed');
    const files = await sessionFiles(session);
    expect(files.map((file) => file.filename).sort()).toEqual(['real.txt', 'real.txt', 'sub/new.txt']);

    // The agent now swaps its artifact for a link to the secret: downloads serve the stored bytes.
    fs.rmSync(path.join(workspace, 'real.txt'));
    fs.symlinkSync(path.join(victim, 'secret.txt'), path.join(workspace, 'real.txt'));
    for (const file of files) {
      const body = (await download(file.container_id, file.id)).text;
      expect(body).not.toContain('victim secret');
    }
    const archive = await fetch(`${server.baseUrl}/v1/sessions/${session}/files/archive`, {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(archive.status).toBe(200);
    const zipPath = path.join(os.tmpdir(), `arbiter-archive-${session}.zip`);
    fs.writeFileSync(zipPath, Buffer.from(await archive.arrayBuffer()));
    expect(execFileSync('unzip', ['-p', zipPath]).toString()).not.toContain('victim secret');
    fs.rmSync(zipPath);

    // A third turn with the swapped link in place: it is no artifact, and the turn still completes.
    const third = await task({ input: '@say still here', previous_response_id: second.json.id });
    expect(third.json.status).toBe('completed');
    expect((await sessionFiles(session)).length).toBe(3);
    victimUntouched();
  });

  it('deletion removes links, FIFOs and sockets themselves, never what they point to', async () => {
    freshVictim();
    const first = (await task({ input: '@write a.txt <<<a>>>' })).json;
    const session = first.metadata.session_id as string;
    const workspace = workspaceOf(session);
    await plantEverything(workspace);
    await plantEverything(workspace, 'deep/er');
    fs.symlinkSync(victim, path.join(workspace, '.arbiter', 'escape'));
    const deleted = await call(server.baseUrl, `/v1/sessions/${session}`, { method: 'DELETE', key: alice });
    expect(deleted.status).toBe(200);
    expect(fs.existsSync(path.join(server.dataDir, 'uhp', 'sessions', session))).toBe(false);
    victimUntouched();
  });

  it('an input file cannot be written through a link the agent planted under its name', async () => {
    freshVictim();
    const first = (await task({ input: '@say hi' })).json;
    const workspace = workspaceOf(first.metadata.session_id);
    fs.symlinkSync(path.join(victim, 'secret.txt'), path.join(workspace, 'data.csv'));
    const next = await task({
      previous_response_id: first.id,
      input: [
        {
          role: 'user',
          content: [
            { type: 'input_text', text: '@read data.csv' },
            { type: 'input_file', filename: 'data.csv', file_data: 'data:text/csv;base64,YSxiCg==' },
          ],
        },
      ],
    });
    expect(next.json.status).toBe('completed');
    expect(fs.lstatSync(path.join(workspace, 'data.csv')).isFile()).toBe(true);
    expect(fs.readFileSync(path.join(workspace, 'data.csv'), 'utf8')).toBe('a,b\n');
    victimUntouched();
  });

  it('an artifact named `..\\..\\x.bat` (or with control characters) still archives, under its own folder', async () => {
    const first = await task({ input: '@write ..\\..\\x.bat <<<echo>>>\n@write a\u0001b.txt <<<ctl>>>' });
    expect(first.json.status).toBe('completed');
    const session = first.json.metadata.session_id as string;
    expect((await sessionFiles(session)).map((file) => file.filename).sort()).toEqual([
      '..\\..\\x.bat',
      'a\u0001b.txt',
    ]);
    for (let attempt = 0; attempt < 2; attempt++) {
      const archive = await fetch(`${server.baseUrl}/v1/sessions/${session}/files/archive`, {
        headers: { authorization: `Bearer ${alice}` },
      });
      expect(archive.status).toBe(200);
      const zipPath = path.join(os.tmpdir(), `arbiter-names-${session}.zip`);
      fs.writeFileSync(zipPath, Buffer.from(await archive.arrayBuffer()));
      const listing = execFileSync('unzip', ['-Z1', zipPath]).toString().trim().split('\n');
      fs.rmSync(zipPath);
      expect(listing).toHaveLength(2);
      for (const name of listing) {
        expect(name).toMatch(/^file_[A-Za-z0-9]+\/[^/\\]+$/);
        expect(name.split('/')).not.toContain('..');
      }
    }
  });
});

describe('no request takes the server down', () => {
  it('downloading an archive while deleting its session, 30 rounds in two lanes: the server keeps answering', async () => {
    // Each file spans two reads of a download stream (64 KiB each), so a delete can land between
    // them. Every byte of a file also passes through the task's input, its events and its response
    // (0.7–1.5 ms a KiB on the loaded 2-core machine): 30 rounds of 3 × 256 KiB took 20 s of the 30 s
    // bound. Two lanes of 15 rounds also race one session's delete against another's archive.
    const big = 'x'.repeat(128 * 1024);
    const lane = async () => {
      for (let round = 0; round < 15; round++) await raceRound();
    };
    const raceRound = async () => {
      const made = await task({
        input: `@write a.txt <<<${big}>>>\n@write b.txt <<<${big}>>>\n@write c.txt <<<${big}>>>`,
      });
      const session = made.json.metadata.session_id as string;
      const download = fetch(`${server.baseUrl}/v1/sessions/${session}/files/archive`, {
        headers: { authorization: `Bearer ${alice}` },
      })
        .then(async (response) => {
          await response.arrayBuffer();
          return response.status;
        })
        .catch(() => 'aborted');
      const file = (await sessionFiles(session))[0]!;
      const single = fetch(`${server.baseUrl}/v1/containers/${file.container_id}/files/${file.id}/content`, {
        headers: { authorization: `Bearer ${alice}` },
      })
        .then(async (response) => {
          const body = await response.text();
          // Either the whole file or a clean 404: never a truncated body or a 500.
          return response.status === 200 ? (body.length === big.length ? 200 : 'truncated') : response.status;
        })
        .catch(() => 'aborted');
      const deletion = call(server.baseUrl, `/v1/sessions/${session}`, { method: 'DELETE', key: alice });
      const [status, one, deleted] = await Promise.all([download, single, deletion]);
      expect([200, 404, 'aborted']).toContain(status);
      expect([200, 404]).toContain(one);
      expect(deleted.status).toBe(200);
    };
    await Promise.all([lane(), lane()]);
    expect((await call(server.baseUrl, '/v1/uhp')).status).toBe(200);
  });
});

describe('no wedged session', () => {
  it('a skill bundle holding both `x` and `x/y` is refused up front', async () => {
    const refused = await call(server.baseUrl, '/v1/harnesses', {
      method: 'POST',
      key: alice,
      body: {
        name: 'clash',
        base: 'agent',
        skills: [
          {
            name: 'clash',
            files: [
              { path: 'SKILL.md', content: '# C' },
              { path: 'x', content: 'file' },
              { path: 'x/y', content: 'nested' },
            ],
          },
        ],
      },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.error).toMatchObject({ code: 'invalid_input', param: 'skills[0].files[2].path' });
  });

  it('a stored bundle that cannot be laid out fails its task terminally, refunds it, and frees the session', async () => {
    const budgets = ledger();
    await budgets.credit('alice', 100 * UNIT);
    const before = (await budgets.account('alice'))!.balanceNanos;
    const harness = (
      await call(server.baseUrl, '/v1/harnesses', {
        method: 'POST',
        key: alice,
        body: { name: 'legacy', base: 'agent', skills: [{ name: 'legacy', content: '# L' }] },
      })
    ).json;
    const first = (
      await task({ input: '@say one', metadata: { harness_id: harness.id }, max_output_tokens: 10 })
    ).json;
    expect(first.status).toBe('completed');
    const afterFirst = (await budgets.account('alice'))!.balanceNanos;
    expect(afterFirst).toBe(before - first.usage.output_tokens * UNIT);
    // A bundle stored before the check existed (written as an older server would have).
    const row = await storage.get<{ config_json: string }>(
      'SELECT config_json FROM uhp_harnesses WHERE id = ?',
      [harness.id],
    );
    const config = JSON.parse(row!.config_json);
    config.skills[0].files.push({ path: 'x', content: 'file' }, { path: 'x/y', content: 'nested' });
    await storage.run('UPDATE uhp_harnesses SET config_json = ? WHERE id = ?', [
      JSON.stringify(config),
      harness.id,
    ]);

    const { events } = await streamTask(server.baseUrl, alice, {
      input: '@say two',
      previous_response_id: first.id,
      max_output_tokens: 10,
    });
    expectWellFormedStream(events);
    const failed = events.at(-1)!.data.response;
    expect(failed.status).toBe('failed');
    expect(failed.error.code).toBe('arbiter_task_failed');
    // Nothing ran, so the reservation was settled at zero.
    expect((await budgets.account('alice'))!.balanceNanos).toBe(afterFirst);
    expect(await budgets.openReservations()).toEqual([]);
    const session = await call(server.baseUrl, `/v1/sessions/${first.metadata.session_id}`, { key: alice });
    expect(session.json.status).toBe('idle');
    // Cancel answers with the terminal response; a fixed bundle runs again in the same session.
    const cancelled = await call(server.baseUrl, `/v1/responses/${failed.id}/cancel`, {
      method: 'POST',
      key: alice,
    });
    expect(cancelled.json.status).toBe('failed');
    await call(server.baseUrl, `/v1/harnesses/${harness.id}`, {
      method: 'PUT',
      key: alice,
      body: { skills: [{ name: 'legacy', content: '# L' }] },
    });
    const third = await task({ input: '@say three', previous_response_id: failed.id, max_output_tokens: 10 });
    expect(third.json.status).toBe('completed');
  });

  it('an input named like a workspace folder is a 409 that reserves nothing; the session goes on', async () => {
    const budgets = ledger();
    await budgets.credit('alice', 20 * UNIT);
    const first = (await task({ input: '@write data.csv/inside.txt <<<x>>>', max_output_tokens: 10 })).json;
    expect(first.status).toBe('completed');
    const balance = (await budgets.account('alice'))!.balanceNanos;
    const clash = await task({
      previous_response_id: first.id,
      max_output_tokens: 10,
      input: [
        {
          role: 'user',
          content: [{ type: 'input_file', filename: 'data.csv', file_data: 'data:text/csv;base64,YQo=' }],
        },
      ],
    });
    expect(clash.status).toBe(409);
    expect(clash.json.error).toMatchObject({ code: 'arbiter_input_name_conflict', param: 'input' });
    expect((await budgets.account('alice'))!.balanceNanos).toBe(balance);
    const next = await task({ input: '@say fine', previous_response_id: first.id, max_output_tokens: 10 });
    expect(next.json.status).toBe('completed');
  });

  it('a file name that is not UTF-8 is reported, not stored, and the session goes on', async () => {
    const first = (await task({ input: '@say hi' }, bob)).json;
    const workspace = workspaceOf(first.metadata.session_id);
    fs.writeFileSync(
      Buffer.concat([Buffer.from(`${workspace}/`), Buffer.from([0x66, 0xff, 0xfe, 0x2e])]),
      'x',
    );
    fs.mkdirSync(Buffer.concat([Buffer.from(`${workspace}/`), Buffer.from([0xc3, 0x28])]));
    const second = await streamTask(server.baseUrl, bob, {
      input: '@write ok.txt <<<fine>>>',
      previous_response_id: first.id,
    });
    expectWellFormedStream(second.events);
    expect(second.events.at(-1)!.data.response.status).toBe('completed');
    // Planted during a turn (new since its snapshot): reported in an `error` event, not stored.
    const third = (
      await task({ input: '@say working\n@sleep 400', previous_response_id: first.id, background: true }, bob)
    ).json;
    await until(async () => {
      const now = await call(server.baseUrl, `/v1/responses/${third.id}`, { key: bob });
      return now.json.output.length > 0 ? true : undefined;
    });
    fs.writeFileSync(Buffer.concat([Buffer.from(`${workspace}/`), Buffer.from([0x67, 0xff])]), 'x');
    const stream = await call(server.baseUrl, `/v1/responses/${third.id}?stream=true`, { key: bob });
    expect(stream.text).toContain('arbiter_artifacts_unavailable');
    expect(stream.text).toContain('"status":"completed"');
    const files = await sessionFiles(first.metadata.session_id, bob);
    expect(files.map((file) => file.filename)).toEqual(['ok.txt']);
    const fourth = await task({ input: '@say after', previous_response_id: third.id }, bob);
    expect(fourth.json.status).toBe('completed');
    await until(async () =>
      (await call(server.baseUrl, `/v1/sessions/${first.metadata.session_id}`, { key: bob })).json.status ===
      'idle'
        ? true
        : undefined,
    );
  });
});
