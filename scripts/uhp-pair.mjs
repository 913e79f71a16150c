// Two `arbiter serve` nodes on one throwaway PostgreSQL cluster, sharing one data directory, behind a
// round-robin proxy: the multi-node deployment of docs/deployment.md on one machine, for running a
// UHP client or the public conformance suite against it. Prints the proxy's base URL and the API key
// the first node created, then serves until Ctrl-C (or SIGTERM), when it stops the nodes, removes the
// cluster and the data directory.
// Run (after `npx tsc -b`): npx tsx scripts/uhp-pair.mjs [--port 7420] [--nodes 2]
//   cd protocol/conformance && python3 -m uhp_conformance.cli \
//     --base-url "$UHP_BASE_URL" --api-key "$ARBITER_API_KEY" --class full --plain
// Needs PostgreSQL's initdb and pg_ctl (scripts/test-prerequisites.sh installs them). The cluster and
// the proxy are the tests' own (packages/server/test/fixtures/throwaway-postgres.ts,
// packages/server/test/cluster/fixtures/round-robin-proxy.ts); the nodes are the real CLI.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { roundRobin } from '../packages/server/test/cluster/fixtures/round-robin-proxy.ts';
import { startThrowawayPostgres } from '../packages/server/test/fixtures/throwaway-postgres.ts';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, nodes: { type: 'string', default: '2' } },
});
const nodeCount = Number(values.nodes);
if (!Number.isInteger(nodeCount) || nodeCount < 1 || nodeCount > 8) {
  process.stderr.write(`--nodes must be a whole number from 1 to 8, not ${values.nodes}\n`);
  process.exit(2);
}
const cli = fileURLToPath(new URL('../packages/cli/bin/arbiter.js', import.meta.url));
const say = (line) => process.stderr.write(`${line}\n`);

const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-uhp-pair-'));
const dataDir = path.join(workDir, 'shared-data');
const nodes = [];
let cluster = null;
let proxy = null;

/** Stops whatever has started: the proxy, the nodes (SIGTERM, as an operator would), the cluster. */
async function stop() {
  await proxy?.close();
  await Promise.all(
    nodes.map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', resolve);
          child.kill('SIGTERM');
        }),
    ),
  );
  await cluster?.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(signal, () => {
    say(`${signal}: stopping`);
    void stop().then(() => process.exit(0));
  });

/** Starts one node and resolves with its URL (and the key it printed, the first time) once it listens. */
function startNode(nodeId, database) {
  const config = path.join(workDir, `${nodeId}.yaml`);
  fs.writeFileSync(config, `cluster:\n  nodeId: ${nodeId}\n`);
  const child = spawn(
    process.execPath,
    [cli, 'serve', '--port', '0', '--data-dir', dataDir, '--database', database, '--config', config],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ARBITER_NO_PULL: '1' } },
  );
  const node = { nodeId, child, log: fs.createWriteStream(path.join(workDir, `${nodeId}.log`)) };
  nodes.push(node);
  return new Promise((resolve, reject) => {
    const output = { stdout: '', stderr: '' };
    let ready = false;
    // The key is in the banner on stderr, written before the `listening` line on stdout; the two
    // pipes are read independently, so wait for the banner's end as well.
    const seen = (stream) => (chunk) => {
      node.log.write(chunk);
      if (ready) return;
      output[stream] += chunk.toString();
      const listening = /^Arbiter listening on (\S+)$/m.exec(output.stdout);
      if (!listening || !output.stderr.includes('UHP discovery')) return;
      ready = true;
      resolve({ url: listening[1], key: /^\s+(arb_\S+)\s*$/m.exec(output.stderr)?.[1] ?? null });
    };
    child.stdout.on('data', seen('stdout'));
    child.stderr.on('data', seen('stderr'));
    child.once('exit', (code, signal) =>
      reject(new Error(`${nodeId} exited (${code ?? signal}):\n${output.stderr}${output.stdout}`)),
    );
  });
}

try {
  cluster = await startThrowawayPostgres();
  const database = await cluster.createDatabase();
  // One after the other: the first creates the schema and the operator key, the others find both.
  const started = [];
  for (let index = 0; index < nodeCount; index++)
    started.push(await startNode(`node-${String.fromCharCode(97 + index)}`, database));
  const key = started[0].key;
  if (!key) throw new Error('the first node printed no API key');
  proxy = await roundRobin(
    started.map(({ url }) => ({ baseUrl: url })),
    { port: Number(values.port) },
  );
  for (const [index, { url }] of started.entries())
    say(`${nodes[index].nodeId}  ${url}  (log: ${workDir}/${nodes[index].nodeId}.log)`);
  say(`PostgreSQL ${database}`);
  say(`data dir   ${dataDir}`);
  // On stdout, as shell assignments: `npx tsx scripts/uhp-pair.mjs > pair.env &`, then `. ./pair.env`.
  process.stdout.write(`UHP_BASE_URL=${proxy.baseUrl}\nARBITER_API_KEY=${key}\n`);
  say('Serving; Ctrl-C stops the nodes and removes the cluster and the data directory.');
} catch (error) {
  say(`uhp-pair: ${error.message}`);
  await stop();
  process.exit(1);
}
