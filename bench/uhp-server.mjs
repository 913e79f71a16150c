// UHP server figures, measured against a server in its own process (the load generator must not
// steal the server's event loop), all in one run:
//   1. POST /v1/responses (stream) → first `response.created` event: p50/p95, against GET /v1/uhp
//      (the same HTTP stack with no task) as the baseline;
//   2. 100 concurrent sessions on the offline model: errors, wall time, against one task alone;
//   3. events per second through one live stream, against replaying the same stored events;
//   4. memory per idle session in the server process (after GC), and database bytes per session.
// Run: npx tsx bench/uhp-server.mjs [--iterations 200] [--sessions 100] [--idle 500] [--events 20000]

import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '200' },
    sessions: { type: 'string', default: '100' },
    idle: { type: 'string', default: '500' },
    events: { type: 'string', default: '20000' },
    serve: { type: 'string' },
  },
});

const KEY = 'bench-key-000000000000000000000000';

if (values.serve) {
  // ── server process ────────────────────────────────────────────────────────
  const { default: Fastify } = await import('fastify');
  const { openDatabase } = await import('../packages/storage/src/database.ts');
  const { uhpMigrations } = await import('../packages/harness-server/src/uhp/storage/uhp-migrations.ts');
  const { uhpPlugin } = await import('../packages/harness-server/src/uhp/uhp-plugin.ts');
  const { authPlugin } = await import('../packages/auth/src/auth-plugin.ts');
  const { createKeyAuthenticator } = await import('../packages/auth/src/authenticator.ts');
  const bench = { principal: { id: 'bench', name: 'bench' }, role: 'member' };
  const dataDir = values.serve;
  const db = openDatabase(dataDir, uhpMigrations);
  const app = Fastify({ logger: false });
  const authenticateKey = (token) => (token === KEY ? bench : null);
  await app.register(authPlugin, { authenticator: createKeyAuthenticator({ authenticateKey }) });
  await app.register(uhpPlugin, {
    prefix: '/api/harness',
    db,
    dataDir,
    offlineChunkDelayMs: 0,
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', (message) => {
    if (message === 'memory') {
      globalThis.gc?.();
      globalThis.gc?.();
      process.send({ memory: process.memoryUsage() });
    }
    if (message === 'stop') void app.close().then(() => process.exit(0));
  });
  process.send({ baseUrl: `${address}/api/harness` });
} else {
  // ── load generator ────────────────────────────────────────────────────────
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-uhp-bench-'));
  const server = fork(fileURLToPath(import.meta.url), ['--serve', dataDir], {
    execArgv: [...process.execArgv, '--expose-gc'],
  });
  const { baseUrl } = await new Promise((resolve) => server.once('message', resolve));
  const ask = (message) =>
    new Promise((resolve) => {
      server.once('message', resolve);
      server.send(message);
    });
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const percentile = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  };
  const ms = (value) => `${value.toFixed(2)} ms`;

  /** Reads an SSE body until `stop(event)` is true; returns events with arrival times. */
  async function readStream(response, started, stop = () => false) {
    const decoder = new TextDecoder();
    const reader = response.body.getReader();
    const events = [];
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true });
      let boundary = buffer.indexOf('\n\n');
      while (boundary >= 0) {
        const frame = buffer.slice(0, boundary);
        buffer = buffer.slice(boundary + 2);
        const data = frame.split('\n').find((line) => line.startsWith('data: '));
        if (data) {
          const event = JSON.parse(data.slice(6));
          events.push({ event, at: performance.now() - started });
          if (stop(event)) {
            await reader.cancel();
            return events;
          }
        }
        boundary = buffer.indexOf('\n\n');
      }
    }
    return events;
  }

  const post = (body) =>
    fetch(`${baseUrl}/v1/responses`, { method: 'POST', headers, body: JSON.stringify(body) });

  // Warm-up: JIT, SQLite statement cache, first-principal default harness.
  for (let i = 0; i < 20; i++) {
    await (await post({ input: 'Reply with exactly: warm' })).json();
    await (await fetch(`${baseUrl}/v1/uhp`)).text();
  }

  // 1. POST → response.created, interleaved with the baseline so load drift hits both alike.
  const iterations = Number(values.iterations);
  const created = [];
  const discovery = [];
  for (let i = 0; i < iterations; i++) {
    let started = performance.now();
    await (await fetch(`${baseUrl}/v1/uhp`)).text();
    discovery.push(performance.now() - started);
    started = performance.now();
    const response = await post({ input: 'Reply with exactly: ok', stream: true });
    const [first] = await readStream(response, started, () => true);
    if (first.event.type !== 'response.created') throw new Error(`first event was ${first.event.type}`);
    created.push(first.at);
  }
  console.log(
    `1. POST → response.created (n=${iterations}): p50 ${ms(percentile(created, 50))}, p95 ${ms(percentile(created, 95))}`,
  );
  console.log(
    `   baseline GET /v1/uhp: p50 ${ms(percentile(discovery, 50))}, p95 ${ms(percentile(discovery, 95))}`,
  );
  console.log(`   ratio at p50: ${(percentile(created, 50) / percentile(discovery, 50)).toFixed(2)}×`);

  // 2. Concurrent sessions: each task streams text, uses a tool and waits 200 ms.
  const task = { input: '@say working on it\n@write out.txt <<<result>>>\n@sleep 200\nCount from 1 to 50' };
  let started = performance.now();
  const single = await (await post(task)).json();
  const singleMs = performance.now() - started;
  if (single.status !== 'completed') throw new Error(`single task ended ${single.status}`);
  const sessions = Number(values.sessions);
  started = performance.now();
  const results = await Promise.all(
    Array.from({ length: sessions }, async () => {
      try {
        const response = await post(task);
        const body = await response.json();
        return response.status === 200 && body.status === 'completed' && body.output.length > 0
          ? 'ok'
          : `status ${body.status}`;
      } catch (error) {
        return String(error);
      }
    }),
  );
  const wallMs = performance.now() - started;
  const errors = results.filter((result) => result !== 'ok');
  console.log(
    `2. ${sessions} concurrent sessions: ${errors.length} errors, wall ${ms(wallMs)}; one task alone ${ms(singleMs)}; ratio ${(wallMs / singleMs).toFixed(2)}×`,
  );
  if (errors.length > 0) console.log(`   first error: ${errors[0]}`);

  // 3. Events per second through one live stream, against replaying the stored events.
  const count = Number(values.events);
  started = performance.now();
  const live = await readStream(await post({ input: `Count from 1 to ${count}`, stream: true }), started);
  const liveSeconds = (live.at(-1).at - live[0].at) / 1000;
  const responseId = live[0].event.response.id;
  started = performance.now();
  const replay = await readStream(
    await fetch(`${baseUrl}/v1/responses/${responseId}?stream=true`, { headers }),
    started,
  );
  const replaySeconds = (replay.at(-1).at - replay[0].at) / 1000;
  const liveRate = live.length / liveSeconds;
  const replayRate = replay.length / replaySeconds;
  console.log(
    `3. one stream: ${live.length} events live at ${Math.round(liveRate)} events/s; replay of the same log ${Math.round(replayRate)} events/s; live/replay ${(liveRate / replayRate).toFixed(2)}`,
  );

  // 4. Memory per idle session.
  const before = (await ask('memory')).memory;
  const dbBefore =
    fs.statSync(path.join(dataDir, 'arbiter.db')).size +
    (fs.statSync(path.join(dataDir, 'arbiter.db-wal'), { throwIfNoEntry: false })?.size ?? 0);
  const idle = Number(values.idle);
  for (let i = 0; i < idle; i += 20) {
    await Promise.all(
      Array.from({ length: Math.min(20, idle - i) }, async () =>
        (await post({ input: 'Reply with exactly: idle' })).json(),
      ),
    );
  }
  const after = (await ask('memory')).memory;
  const dbAfter =
    fs.statSync(path.join(dataDir, 'arbiter.db')).size +
    (fs.statSync(path.join(dataDir, 'arbiter.db-wal'), { throwIfNoEntry: false })?.size ?? 0);
  const perSession = (field) => ((after[field] - before[field]) / idle / 1024).toFixed(2);
  console.log(
    `4. ${idle} idle sessions: heapUsed ${perSession('heapUsed')} KiB/session, rss ${perSession('rss')} KiB/session; database ${((dbAfter - dbBefore) / idle / 1024).toFixed(2)} KiB/session`,
  );
  console.log(
    `   server heapUsed ${(after.heapUsed / 1048576).toFixed(1)} MiB, rss ${(after.rss / 1048576).toFixed(1)} MiB after all of the above`,
  );

  await ask('stop').catch(() => undefined);
  server.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
