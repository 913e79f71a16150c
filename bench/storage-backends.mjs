// SQLite against PostgreSQL for the UHP server, and the latency an event adds crossing nodes.
// Every server runs in its own process (the load generator must not steal its event loop); the
// PostgreSQL cluster is a throwaway one on a Unix socket (the tests' harness: initdb + pg_ctl).
//   1. task creation: POST /v1/responses (stream) → first `response.created` event, p50/p95, on a
//      SQLite node and on a PostgreSQL node, each against its own GET /v1/uhp baseline;
//   2. events per second through one live stream (`Count from 1 to N`), SQLite against PostgreSQL;
//   3. cross-node latency: one task on node A read at once through A and through B (two nodes, one
//      database); per event, arrival through B minus arrival through A: p50/p95. The task is paced
//      (`--pace` ms per chunk, default 2) so that what is measured is the crossing, not a backlog of
//      a producer outrunning the readers on this machine's two cores.
// Run: npx tsx bench/storage-backends.mjs [--iterations 100] [--events 5000] [--cross 2000]

import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    iterations: { type: 'string', default: '100' },
    events: { type: 'string', default: '5000' },
    cross: { type: 'string', default: '2000' },
    serve: { type: 'string' },
    database: { type: 'string' },
    node: { type: 'string' },
    pace: { type: 'string', default: '2' },
  },
});
const KEY = 'bench-key-000000000000000000000000';

if (values.serve) {
  const { default: Fastify } = await import('fastify');
  const { migrations } = await import('../packages/server/src/storage/migrations.ts');
  const { openStorage } = await import('../packages/server/src/storage/open-storage.ts');
  const { uhpPlugin } = await import('../packages/harness-server/src/uhp/uhp-plugin.ts');
  const { authPlugin } = await import('../packages/auth/src/auth-plugin.ts');
  const { createKeyAuthenticator } = await import('../packages/auth/src/authenticator.ts');
  const bench = { principal: { id: 'bench', name: 'bench' }, role: 'member' };
  const dataDir = values.serve;
  const db = await openStorage(
    { dataDir, ...(values.database ? { database: values.database } : {}) },
    migrations,
  );
  const app = Fastify({ logger: false });
  const authenticateKey = (token) => (token === KEY ? bench : null);
  await app.register(authPlugin, { authenticator: createKeyAuthenticator({ authenticateKey }) });
  await app.register(uhpPlugin, {
    prefix: '/api/harness',
    db,
    dataDir,
    offlineChunkDelayMs: Number(values.pace ?? 0),
    cluster: { nodeId: values.node ?? 'bench' },
  });
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  process.on('message', (message) => {
    if (message === 'stop')
      void app
        .close()
        .then(() => db.close())
        .then(() => process.exit(0));
  });
  process.send({ baseUrl: `${address}/api/harness` });
} else {
  const { startThrowawayPostgres } = await import('../packages/server/test/fixtures/throwaway-postgres.ts');
  const cluster = await startThrowawayPostgres();
  const dirs = [];
  const children = [];
  const startNode = async (database, node, dataDir, pace = 0) => {
    const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-storage-bench-'));
    if (!dataDir) dirs.push(dir);
    const args = [
      '--serve',
      dir,
      '--node',
      node,
      '--pace',
      String(pace),
      ...(database ? ['--database', database] : []),
    ];
    const child = fork(fileURLToPath(import.meta.url), args, { execArgv: process.execArgv });
    children.push(child);
    const { baseUrl } = await new Promise((resolve) => child.once('message', resolve));
    return { baseUrl, dir };
  };
  const post = (baseUrl, body) =>
    fetch(`${baseUrl}/v1/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  /** Reads an SSE body to its end (or until `stop`), timing each event's arrival. */
  const readStream = async (response, stop = () => false) => {
    const decoder = new TextDecoder();
    const events = [];
    let buffer = '';
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return events;
      buffer += decoder.decode(value, { stream: true });
      let end = buffer.indexOf('\n\n');
      while (end !== -1) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('');
        if (data) {
          const event = JSON.parse(data);
          events.push({ event, at: performance.now() });
          if (stop(event)) {
            await reader.cancel();
            return events;
          }
        }
        end = buffer.indexOf('\n\n');
      }
    }
  };
  const percentile = (values, p) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
  };
  const ms = (value) => `${value.toFixed(2)} ms`;

  const creation = async (baseUrl) => {
    for (let i = 0; i < 10; i++) await (await post(baseUrl, { input: 'Reply with exactly: warm' })).json();
    const created = [];
    const baseline = [];
    for (let i = 0; i < Number(values.iterations); i++) {
      let started = performance.now();
      await (await fetch(`${baseUrl}/v1/uhp`)).json();
      baseline.push(performance.now() - started);
      started = performance.now();
      const response = await post(baseUrl, { input: 'Reply with exactly: ok', stream: true });
      const [first] = await readStream(response, (event) => event.type === 'response.created');
      created.push(first.at - started);
    }
    return { created, baseline };
  };
  const throughput = async (baseUrl) => {
    const started = performance.now();
    const events = await readStream(
      await post(baseUrl, { input: `Count from 1 to ${values.events}`, stream: true }),
    );
    return events.length / ((events.at(-1).at - started) / 1000);
  };

  try {
    const sqlite = await startNode(undefined, 'sqlite');
    const postgresDatabase = await cluster.createDatabase();
    const postgres = await startNode(postgresDatabase, 'pg-a');
    console.log(
      `Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(1)}`,
    );
    const [sqliteCreation, postgresCreation] = [
      await creation(sqlite.baseUrl),
      await creation(postgres.baseUrl),
    ];
    for (const [name, result] of [
      ['SQLite', sqliteCreation],
      ['PostgreSQL', postgresCreation],
    ])
      console.log(
        `1. ${name}: POST → response.created p50 ${ms(percentile(result.created, 50))} p95 ${ms(percentile(result.created, 95))}; GET /v1/uhp p50 ${ms(percentile(result.baseline, 50))}; ratio ${(percentile(result.created, 50) / percentile(result.baseline, 50)).toFixed(2)}×`,
      );
    console.log(
      `   PostgreSQL/SQLite creation p50: ${(percentile(postgresCreation.created, 50) / percentile(sqliteCreation.created, 50)).toFixed(2)}×`,
    );
    const sqliteRate = await throughput(sqlite.baseUrl);
    const postgresRate = await throughput(postgres.baseUrl);
    console.log(
      `2. one live stream: SQLite ${Math.round(sqliteRate)} events/s, PostgreSQL ${Math.round(postgresRate)} events/s; PostgreSQL/SQLite ${(postgresRate / sqliteRate).toFixed(2)}×`,
    );

    const crossDatabase = await cluster.createDatabase();
    const first = await startNode(crossDatabase, 'cross-a', undefined, Number(values.pace));
    const second = await startNode(crossDatabase, 'cross-b', first.dir, Number(values.pace));
    const response = await post(first.baseUrl, {
      input: `Count from 1 to ${values.cross}`,
      background: true,
    });
    const { id } = await response.json();
    const follow = (baseUrl) =>
      fetch(`${baseUrl}/v1/responses/${id}?stream=true`, {
        headers: { authorization: `Bearer ${KEY}` },
      }).then(readStream);
    const [throughA, throughB] = await Promise.all([follow(first.baseUrl), follow(second.baseUrl)]);
    const arrivedA = new Map(throughA.map(({ event, at }) => [event.sequence_number, at]));
    // Events both readers received live (the first ones may predate the streams: replayed at once).
    const added = throughB
      .filter(({ event }) => arrivedA.has(event.sequence_number) && event.sequence_number > 10)
      .map(({ event, at }) => at - arrivedA.get(event.sequence_number));
    console.log(
      `3. cross-node (paced ${values.pace} ms a chunk): ${added.length} events; through B minus through A p50 ${ms(percentile(added, 50))} p95 ${ms(percentile(added, 95))} (aim p50 ≤ 10 ms)`,
    );
  } finally {
    for (const child of children) child.send('stop');
    await Promise.all(children.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    await cluster.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  }
}
