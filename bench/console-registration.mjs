// What registering the console costs a server that nobody opens it on: `buildApp` + `ready` with
// the console (its two routes and the gate-check route are registered; nothing is loaded until a
// console request) against `buildApp({console: false})`, alternated in one process so both see the
// same machine. Also the first console request (resolving the build, importing @fastify/static),
// which only a server whose console is opened pays.
//
//   npm run build && node bench/console-registration.mjs [--runs 200]
import { parseArgs } from 'node:util';
import { createNoAuthAuthenticator } from '@arbiter/auth';
import { ModelCatalog } from '@arbiter/engine/catalog';
import { servedPackAnalysers } from '@arbiter/server';
// Internal modules, not the package's public API: the bench builds the app without a data directory.
import { buildApp } from '../packages/server/dist/app.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '200' } } });
const runs = Number(values.runs);
const authenticator = createNoAuthAuthenticator({ id: 'local', name: 'local' });
const catalog = new ModelCatalog({ analysers: servedPackAnalysers() });

async function build(withConsole) {
  const started = process.cpuUsage();
  const app = await buildApp({ catalog, authenticator, ...(withConsole ? {} : { console: false }) });
  await app.ready();
  const used = process.cpuUsage(started);
  await app.close();
  return (used.user + used.system) / 1000;
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
// Warm both paths (module loading happened at import; this settles the JIT).
for (let i = 0; i < 20; i++) {
  await build(true);
  await build(false);
}
const on = [];
const off = [];
for (let i = 0; i < runs; i++) {
  on.push(await build(true));
  off.push(await build(false));
}
const app = await buildApp({ catalog, authenticator });
const first = performance.now();
const response = await app.inject({ method: 'GET', url: '/console/', headers: { host: '127.0.0.1' } });
const firstMs = performance.now() - first;
const second = performance.now();
await app.inject({ method: 'GET', url: '/console/', headers: { host: '127.0.0.1' } });
const secondMs = performance.now() - second;
await app.close();

console.log(`node ${process.version}, ${runs} alternated builds each`);
console.log(`buildApp + ready, console registered   CPU median ${median(on).toFixed(2)} ms`);
console.log(`buildApp + ready, console: false        CPU median ${median(off).toFixed(2)} ms`);
console.log(`difference                              ${(median(on) - median(off)).toFixed(2)} ms`);
console.log(
  `first /console/ request (loads @fastify/static) ${firstMs.toFixed(1)} ms (status ${response.statusCode}); the next ${secondMs.toFixed(2)} ms`,
);
