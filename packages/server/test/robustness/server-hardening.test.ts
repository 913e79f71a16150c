import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { openDatabase, SqliteDatabase } from '@arbiter/storage';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { KeyStore } from '../../src/auth/key-store.js';
import { startTestServer } from './start-test-server.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(options: Parameters<typeof startTestServer>[0] = {}) {
  const server = await startTestServer(options);
  cleanups.push(() => server.cleanup());
  return server;
}

/** Raw bytes over one TCP connection; resolves with what the server sent once it closed. */
function rawExchange(url: string, send: string, options: { keepOpenMs?: number } = {}) {
  const { hostname, port } = new URL(url);
  return new Promise<{ text: string; closedAfterMs: number }>((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(Number(port), hostname, () => socket.write(send));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open: ${JSON.stringify(text.slice(0, 200))}`));
    }, options.keepOpenMs ?? 5000);
    socket.on('close', () => clearTimeout(guard));
  });
}

describe('request and connection timeouts', () => {
  it('an incomplete body is cut off at the request timeout, authenticated or not', async () => {
    const server = await start({
      config: { limits: { requestTimeoutMs: 400, headersTimeoutMs: 300 } },
    });
    const { host } = new URL(server.url);
    for (const authorization of [`Authorization: Bearer ${server.key}\r\n`, '']) {
      const result = await rawExchange(
        server.url,
        `POST /api/harness/v1/responses HTTP/1.1\r\nHost: ${host}\r\n${authorization}Content-Type: application/json\r\nContent-Length: 1000000\r\n\r\n{"input":"`,
      );
      expect(result.closedAfterMs).toBeLessThan(3000);
      expect(result.text.split('\r\n')[0]).toMatch(/^HTTP\/1\.1 (408|401)/);
    }
  });

  it('headers that never finish, and a connection that sends nothing, are closed', async () => {
    const server = await start({ config: { limits: { requestTimeoutMs: 2000, headersTimeoutMs: 300 } } });
    const partial = await rawExchange(server.url, 'GET /health HTTP/1.1\r\nHost: localhost\r\nX-Slow: ');
    expect(partial.closedAfterMs).toBeLessThan(3000);
    const silent = await rawExchange(server.url, '');
    expect(silent.closedAfterMs).toBeLessThan(3000);
  });

  it('an unauthenticated request with a large body is refused before the body is read, and closed', async () => {
    const server = await start();
    const { host } = new URL(server.url);
    const result = await rawExchange(
      server.url,
      `POST /v1/decision HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n{"state":"`,
    );
    expect(result.text.split('\r\n')[0]).toBe('HTTP/1.1 401 Unauthorized');
    expect(result.text.toLowerCase()).toContain('connection: close');
    expect(result.closedAfterMs).toBeLessThan(2000);
  });
});

describe('--no-auth answers loopback names and origins only (DNS rebinding)', () => {
  it('refuses a foreign Host with 421 and a foreign Origin with 403, on both APIs', async () => {
    const server = await start({ auth: false });
    const { port } = new URL(server.url);
    const send = async (route: string, headers: Record<string, string>) => {
      const lines = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      const result = await rawExchange(
        server.url,
        `GET ${route} HTTP/1.1\r\n${lines}Connection: close\r\n\r\n`,
      );
      const status = Number(result.text.split(' ')[1]);
      const body = result.text.slice(result.text.indexOf('\r\n\r\n') + 4);
      return { status, body };
    };
    for (const route of ['/v1/models', '/api/harness/v1/harnesses']) {
      for (const host of [
        `localhost:${port}`,
        `127.0.0.1:${port}`,
        `[::1]:${port}`,
        `app.localhost:${port}`,
      ]) {
        expect((await send(route, { Host: host })).status, host).toBe(200);
        expect((await send(route, { Host: host, Origin: `http://localhost:${port}` })).status).toBe(200);
      }
      for (const host of [
        `attacker.example:${port}`,
        `127.0.0.1.attacker.example`,
        '10.0.0.5',
        `0.0.0.0:${port}`,
      ]) {
        const refused = await send(route, { Host: host });
        expect(refused.status, host).toBe(421);
        expect(JSON.parse(refused.body).error.code).toBe('arbiter_host_not_allowed');
      }
      for (const origin of [
        'http://attacker.example',
        'null',
        'file://',
        `http://127.0.0.1.nip.io:${port}`,
      ]) {
        const refused = await send(route, { Host: `127.0.0.1:${port}`, Origin: origin });
        expect(refused.status, origin).toBe(403);
        expect(JSON.parse(refused.body).error.code).toBe('arbiter_origin_not_allowed');
      }
    }
  });

  it('with authentication on, Host and Origin are not restricted (keys decide)', async () => {
    const server = await start();
    const response = await fetch(`${server.url}/v1/models`, {
      headers: { authorization: `Bearer ${server.key}`, origin: 'http://elsewhere.example' },
    });
    expect(response.status).toBe(200);
  });
});

describe('revoking a key closes its open streams', () => {
  it('a harness feed and a response stream opened with the key end within two seconds of the revocation', async () => {
    const server = await start();
    // The operator's second connection, as `arbiter keys create/revoke` opens it.
    const db = openDatabase(server.dataDir, []);
    cleanups.push(() => {
      db.close();
    });
    const keys = await KeyStore.open(new SqliteDatabase(db));
    cleanups.push(() => keys.close());
    const doomed = await keys.create('doomed');
    const kept = await keys.create('kept');
    const headers = (key: string) => ({ authorization: `Bearer ${key}` });
    const harness = (await (
      await fetch(`${server.url}/api/harness/v1/harnesses`, {
        method: 'POST',
        headers: { ...headers(doomed.key), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'h', base: 'agent' }),
      })
    ).json()) as { id: string };
    const task = (await (
      await fetch(`${server.url}/api/harness/v1/responses`, {
        method: 'POST',
        headers: { ...headers(doomed.key), 'content-type': 'application/json' },
        body: JSON.stringify({ input: '@sleep 20000', background: true }),
      })
    ).json()) as { id: string };
    const open = async (route: string, key: string) => {
      const response = await fetch(`${server.url}/api/harness${route}`, { headers: headers(key) });
      expect(response.status).toBe(200);
      const ended = (async () => {
        try {
          for await (const _chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
            // Keep reading until the server ends the stream.
          }
        } catch {
          // A dropped connection ends the stream too.
        }
        return Date.now();
      })();
      return ended;
    };
    const feed = open(`/v1/harnesses/${harness.id}/events`, doomed.key);
    const stream = open(`/v1/responses/${task.id}?stream=true`, doomed.key);
    // The other principal's key keeps its own feed open.
    const otherHarness = (await (
      await fetch(`${server.url}/api/harness/v1/harnesses`, {
        method: 'POST',
        headers: { ...headers(kept.key), 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'other', base: 'agent' }),
      })
    ).json()) as { id: string };
    let otherEnded = false;
    void open(`/v1/harnesses/${otherHarness.id}/events`, kept.key).then(() => {
      otherEnded = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const revokedAt = Date.now();
    expect(await keys.revoke(doomed.record.id)).toBe('revoked');
    const [feedEnd, streamEnd] = await Promise.all([feed, stream]);
    expect(feedEnd - revokedAt).toBeLessThan(2500);
    expect(streamEnd - revokedAt).toBeLessThan(2500);
    const refused = await fetch(`${server.url}/api/harness/v1/harnesses`, { headers: headers(doomed.key) });
    expect(refused.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(otherEnded).toBe(false);
  });
});

describe('secrets never reach a log line', () => {
  it('share tokens, API keys and credential query parameters are redacted from request logs', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const server = await start({ logger: { level: 'info', stream } });
    const auth = { authorization: `Bearer ${server.key}` };
    const task = (await (
      await fetch(`${server.url}/api/harness/v1/responses`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ input: '@say shared' }),
      })
    ).json()) as { metadata: { session_id: string } };
    const share = (await (
      await fetch(`${server.url}/api/harness/v1/sessions/${task.metadata.session_id}/share`, {
        method: 'POST',
        headers: auth,
      })
    ).json()) as { url: string; token: string };
    expect((await fetch(share.url)).status).toBe(200);
    await fetch(`${server.url}/health?api_key=sk-live-0123456789abcdefghij&token=tok_secret_value&page=2`);
    // Secrets sent where a name is expected, which the answer's message quotes and the log records:
    // a model name, a question id, and a share token in an unknown route's path.
    const modelSecret = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';
    const questionSecret = 'ghp_0123456789abcdefghijABCDEFGHIJ012345';
    const decide = (body: unknown) =>
      fetch(`${server.url}/v1/decision`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(
      (
        await decide({
          model: modelSecret,
          state: 's',
          questions: { q: { type: 'noul', instructions: 'i' } },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await decide({
          state: 's',
          questions: { [questionSecret]: { type: 'nope', instructions: 'i' } },
        })
      ).status,
    ).toBe(400);
    await fetch(`${server.url}/v1/shared/${share.token}/nowhere`);
    const log = lines.join('');
    expect(log).toContain('/v1/shared/[redacted]');
    expect(log).toContain('page=2');
    for (const secret of [
      share.token,
      server.key,
      'sk-live-0123456789abcdefghij',
      'tok_secret_value',
      modelSecret,
      questionSecret,
    ])
      expect(log).not.toContain(secret);
  });
});

describe('the data directory is private', () => {
  it('is 0700 with files 0600 after a start, even when it existed with looser modes', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-perm-'));
    onTestFinished(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const first = await startTestServer({ dataDir });
    await first.close();
    // An older version, a restore from backup or a careless operator left everything readable.
    fs.chmodSync(dataDir, 0o755);
    for (const name of fs.readdirSync(dataDir)) {
      const target = path.join(dataDir, name);
      fs.chmodSync(target, fs.statSync(target).isDirectory() ? 0o755 : 0o644);
    }
    fs.writeFileSync(path.join(dataDir, 'uhp', 'files', 'file_old'), 'blob', { mode: 0o644 });
    fs.chmodSync(path.join(dataDir, 'uhp', 'files', 'file_old'), 0o644);
    const server = await start({ dataDir });
    await fetch(`${server.url}/api/harness/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ input: '@write out.txt <<<x>>>' }),
    });
    const modes: Record<string, string> = {};
    const walk = (dir: string) => {
      for (const name of fs.readdirSync(dir)) {
        const target = path.join(dir, name);
        const stat = fs.lstatSync(target);
        if (stat.isDirectory()) {
          if (!target.includes(`${path.sep}workspace`))
            modes[path.relative(dataDir, target)] = (stat.mode & 0o777).toString(8);
          walk(target);
        } else if (stat.isFile() && !target.includes(`${path.sep}workspace${path.sep}`))
          modes[path.relative(dataDir, target)] = (stat.mode & 0o777).toString(8);
      }
    };
    walk(dataDir);
    expect((fs.statSync(dataDir).mode & 0o777).toString(8)).toBe('700');
    expect(Object.keys(modes)).toContain('arbiter.db');
    expect(Object.keys(modes)).toContain('uhp/files/file_old');
    for (const [name, mode] of Object.entries(modes)) {
      const isDir = fs.statSync(path.join(dataDir, name)).isDirectory();
      expect(mode, name).toBe(isDir ? '700' : '600');
    }
  });
});
