// Server memory while a harness feed client never reads, against the same load with no feed client
// and with a client that reads. Each scenario runs in a fresh process (server and load together;
// the load generator's own footprint is the same in all three), in one run, with the UHP plugin's
// default stream limits (60 s stall, 10,000 pending feed events).
// Run: npx tsx bench/slow-consumer-memory.mjs [--tasks 60] [--word-bytes 200000]

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    tasks: { type: 'string', default: '60' },
    'word-bytes': { type: 'string', default: '200000' },
    scenario: { type: 'string' },
  },
});
const KEY = 'bench-key-000000000000000000000000';
const tasks = Number(values.tasks);
const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

if (values.scenario) {
  const consumer = values.scenario;
  const word = 'x'.repeat(Number(values['word-bytes']));
  const { default: Fastify } = await import('fastify');
  const { openDatabase } = await import('../packages/storage/src/database.ts');
  const { uhpMigrations } = await import('../packages/harness-server/src/uhp/storage/uhp-migrations.ts');
  const { uhpPlugin } = await import('../packages/harness-server/src/uhp/uhp-plugin.ts');
  const { authPlugin } = await import('../packages/auth/src/auth-plugin.ts');
  const { createKeyAuthenticator } = await import('../packages/auth/src/authenticator.ts');
  const bench = { principal: { id: 'bench', name: 'bench' }, role: 'member' };
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-slow-consumer-'));
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
  const baseUrl = `${await app.listen({ host: '127.0.0.1', port: 0 })}/api/harness`;
  const rss = () => {
    globalThis.gc?.();
    globalThis.gc?.();
    return process.memoryUsage().rss;
  };
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
  const harness = await (
    await fetch(`${baseUrl}/v1/harnesses`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'b', base: 'agent' }),
    })
  ).json();
  const route = new URL(`${baseUrl}/v1/harnesses/${harness.id}/events`);
  let silent = null;
  let readBytes = 0;
  let reader = null;
  if (consumer === 'silent') {
    silent = await new Promise((resolve) => {
      const socket = net.connect(Number(route.port), route.hostname, () => {
        socket.write(
          `GET ${route.pathname} HTTP/1.1\r\nHost: ${route.host}\r\nAuthorization: Bearer ${KEY}\r\n\r\n`,
        );
        resolve(socket);
      });
      socket.on('error', () => undefined);
    });
  } else if (consumer === 'reading') {
    const controller = new AbortController();
    const response = await fetch(route, { headers, signal: controller.signal });
    reader = {
      controller,
      done: (async () => {
        try {
          for await (const chunk of response.body) readBytes += chunk.length;
        } catch {}
      })(),
    };
  }
  const before = rss();
  let peak = before;
  for (let index = 0; index < tasks; index++) {
    await (
      await fetch(`${baseUrl}/v1/responses`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ input: `@say ${word}`, metadata: { harness_id: harness.id } }),
      })
    ).json();
    if (index % 10 === 9) peak = Math.max(peak, rss());
  }
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = rss();
  peak = Math.max(peak, after);
  let dropped = null;
  if (silent) {
    // Drain what the kernel holds and see whether the server has closed the connection.
    dropped = await new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), 3000);
      silent.on('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
      silent.resume();
    });
    silent.destroy();
  }
  reader?.controller.abort();
  await reader?.done;
  await app.close();
  db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.stdout.write(JSON.stringify({ before, after, peak, readBytes, dropped }));
} else {
  const run = (scenario) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          ...process.execArgv,
          '--expose-gc',
          fileURLToPath(import.meta.url),
          '--scenario',
          scenario,
          '--tasks',
          String(tasks),
          '--word-bytes',
          values['word-bytes'],
        ],
        { encoding: 'utf8', maxBuffer: 1 << 20 },
      ),
    );
  const none = run('none');
  const reading = run('reading');
  const silent = run('silent');
  console.log(
    `${tasks} tasks of one ${mib(Number(values['word-bytes']))} word; the feed carried ${mib(reading.readBytes)}`,
  );
  for (const [name, result] of [
    ['no feed client', none],
    ['a reading client', reading],
    ['a client that never reads', silent],
  ]) {
    console.log(
      `${name.padEnd(26)} RSS ${mib(result.before)} → ${mib(result.after)}, peak +${mib(result.peak - result.before)}` +
        (result.dropped === null ? '' : `; disconnected by the server: ${result.dropped}`),
    );
  }
  console.log(
    `peak growth, never-reading client / no client: ${((silent.peak - silent.before) / Math.max(1, none.peak - none.before)).toFixed(2)}×`,
  );
}
