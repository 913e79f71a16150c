// UHP client streaming cost: one task's stream of N text deltas read three ways from the same
// loopback server (its own process), interleaved so load drift hits all alike:
//   bytes    fetch and read the body to the end (the floor: HTTP alone)
//   parse    fetch + eventsource-parser + JSON.parse per event (the least any correct SSE client does)
//   client   UhpClient.responses.stream(): zod validation, sequence checks, normalised events,
//            reconciliation against the final response
//
//   npx tsc -b && node bench/uhp-client-stream.mjs [--events 5000] [--rounds 15]
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { UhpClient } from '@arbiter/uhp';
import { EventSourceParserStream } from 'eventsource-parser/stream';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '15' },
    serve: { type: 'boolean', default: false },
  },
});
const eventCount = Number(values.events);

if (values.serve) serve();
else await measure();

function renderStream() {
  const delta = 'lorem ipsum dolor ';
  const base = { id: 'resp_bench', object: 'response', created_at: 1, model: 'bench', error: null };
  const message = (text) => ({
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  });
  const events = [{ type: 'response.created', response: { ...base, status: 'in_progress', output: [] } }];
  for (let index = 0; index < eventCount; index++) {
    events.push({
      type: 'response.output_text.delta',
      item_id: 'msg_1',
      output_index: 0,
      content_index: 0,
      delta,
    });
  }
  const final = { ...base, status: 'completed', output: [message(delta.repeat(eventCount))], usage: null };
  events.push({ type: 'response.completed', response: final });
  return events
    .map((event, index) => `data: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`)
    .join('');
}

function serve() {
  const body = renderStream();
  const discovery = JSON.stringify({
    object: 'uhp.discovery',
    protocol: 'uhp',
    versions: ['2026-08-11'],
    default_version: '2026-08-11',
    conformance_class: 'core',
    capabilities: { streaming: true, idempotency: true, cancellation: true },
  });
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      if (request.url?.endsWith('/v1/uhp')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        return response.end(discovery);
      }
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      response.end(body);
    });
  });
  server.listen(0, '127.0.0.1', () =>
    process.stdout.write(`READY ${server.address().port} ${body.length}\n`),
  );
}

async function measure() {
  const child = spawn(
    process.execPath,
    [new URL(import.meta.url).pathname, '--serve', '--events', String(eventCount)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const [port, bytes] = await new Promise((resolve) => {
    child.stdout.on('data', (chunk) => {
      const match = /READY (\d+) (\d+)/.exec(chunk.toString());
      if (match) resolve([match[1], Number(match[2])]);
    });
  });
  const baseURL = `http://127.0.0.1:${port}`;
  const client = new UhpClient({ baseURL });
  await client.discover();
  const post = () =>
    fetch(`${baseURL}/v1/responses`, {
      method: 'POST',
      body: '{"input":"x","stream":true}',
      headers: { 'content-type': 'application/json' },
    });

  const variants = {
    async bytes() {
      await (await post()).arrayBuffer();
    },
    async parse() {
      const reader = (await post()).body
        .pipeThrough(new TextDecoderStream())
        .pipeThrough(new EventSourceParserStream())
        .getReader();
      let count = 0;
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        JSON.parse(value.data);
        count++;
      }
      if (count !== eventCount + 2) throw new Error(`parse saw ${count} events`);
    },
    async client() {
      let deltas = 0;
      for await (const event of await client.responses.stream({ input: 'x' }))
        if (event.type === 'text-delta') deltas++;
      if (deltas !== eventCount) throw new Error(`client saw ${deltas} deltas`);
    },
  };
  const samples = { bytes: [], parse: [], client: [] };
  for (const run of Object.values(variants)) await run(); // warm-up
  for (let round = 0; round < Number(values.rounds); round++) {
    for (const [name, run] of Object.entries(variants)) {
      const started = performance.now();
      await run();
      samples[name].push(performance.now() - started);
    }
  }
  child.kill('SIGTERM');
  const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
  const medians = Object.fromEntries(Object.entries(samples).map(([name, list]) => [name, median(list)]));
  console.log(`Node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg()[0].toFixed(1)}`);
  console.log(
    `${eventCount + 2} events, ${(bytes / 1024).toFixed(0)} KiB per stream, ${values.rounds} rounds, medians:`,
  );
  for (const [name, ms] of Object.entries(medians)) {
    console.log(
      `  ${name.padEnd(7)} ${ms.toFixed(1).padStart(7)} ms   ${Math.round((eventCount / ms) * 1000).toLocaleString('en')} events/s`,
    );
  }
  console.log(
    `client / parse: ${(medians.client / medians.parse).toFixed(2)}×   client / bytes: ${(medians.client / medians.bytes).toFixed(2)}×`,
  );
  console.log(
    `client cost per event above parse: ${(((medians.client - medians.parse) / eventCount) * 1000).toFixed(1)} µs`,
  );
}
