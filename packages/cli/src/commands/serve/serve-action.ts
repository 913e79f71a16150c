import { CatalogConfigError } from '@arbiter/engine/catalog';
import {
  loadServerConfig,
  ReadableLogStream,
  type RunningServer,
  resolveDatabaseSetting,
  resolveDataDir,
  SERVER_VERSION,
  ServerConfigError,
  startServer,
} from '@arbiter/server';
import { invocationIo, invocationStdout } from '../../invocation-io.js';
import { UsageError } from '../usage-error.js';
import { describeStorage } from './storage-description.js';

export interface ServeOptions {
  port: number;
  host: string;
  dataDir?: string;
  database?: string;
  config?: string;
  auth: boolean;
  logLevel: string;
  pullDefault?: boolean;
  logFormat: 'text' | 'json';
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export async function serve(options: ServeOptions): Promise<undefined> {
  const say = (line: string) => invocationIo().writeStderr(`${line}\n`);
  if (options.pullDefault) {
    await (await import('../models/cache-action.js')).pullDefaultModel(resolveDataDir(options.dataDir), say);
  }
  let server: Awaited<ReturnType<typeof startServer>>;
  let database: string | undefined;
  let nodeIdConfigured: boolean;
  try {
    const loaded = options.config === undefined ? undefined : loadServerConfig(options.config);
    nodeIdConfigured = loaded?.cluster?.nodeId !== undefined;
    database = resolveDatabaseSetting({ database: options.database, configured: loaded?.database });
    server = await startServer({
      port: options.port,
      host: options.host,
      dataDir: options.dataDir,
      ...(options.database ? { database: options.database } : {}),
      ...(loaded === undefined ? {} : { config: loaded }),
      auth: options.auth,
      logger:
        options.logFormat === 'json'
          ? { level: options.logLevel }
          : { level: options.logLevel, stream: new ReadableLogStream(invocationStdout()) },
    });
  } catch (error) {
    if (ServerConfigError.isInstance(error) || CatalogConfigError.isInstance(error)) {
      throw new UsageError(error.message);
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new Error(
        `${options.host}:${options.port} is already in use (another arbiter serve?); choose another port with --port <n>, or --port 0 for a free one`,
      );
    }
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL') {
      throw new Error(
        `cannot listen on ${options.host}:${options.port} (${code}); choose another --host or --port`,
      );
    }
    throw error;
  }
  if (server.authMode === 'none') {
    say('WARNING: authentication is OFF (--no-auth). Anyone who can reach this port acts as the local');
    say('WARNING: principal. Use it on a trusted machine only; never expose it to a network.');
    say('Only requests addressed to a loopback name (Host, Origin) are answered: no DNS rebinding.');
    if (!LOOPBACK.has(options.host)) say(`WARNING: and it listens on ${options.host}, not on loopback.`);
  }
  if (server.initialKey) {
    say('No API key existed, so an operator key was created (it may also manage keys over the API).');
    say('It is shown only this once; keep it:');
    say('');
    say(`  ${server.initialKey}`);
    say('');
    say('  export ARBITER_API_KEY=<the key above>');
    say('  More keys: arbiter keys create, with the --data-dir, --database or --config given here');
  }
  say('');
  say(`Arbiter ${SERVER_VERSION}`);
  say(`  Decision API    POST ${server.url}/v1/decision   (System One clients: /v1/systemone)`);
  say(`  API reference   ${server.url}/docs`);
  say(`  Console         ${server.url}/console/`);
  say(`  UHP discovery   ${server.url}/api/harness/v1/uhp`);
  say(`  Home page       ${server.url}/`);
  say(`  Data directory  ${server.dataDir}`);
  say(`  Storage         ${describeStorage(database, server.dataDir)}`);
  say(
    `  Node id         ${server.nodeId}${nodeIdConfigured ? '' : ' (random per start; cluster.nodeId in the configuration fixes it)'}`,
  );
  if (server.localModel) say(`  Default model   arbiter-latest answers with ${server.localModel} (pulled)`);
  say(
    `  Authentication  ${server.authMode === 'none' ? 'OFF (--no-auth)' : 'API keys (Authorization: Bearer arb_…)'}`,
  );
  say(
    `  Request log     ${options.logFormat === 'json' ? 'JSON lines on stdout' : 'one line per request on stdout (--log-format json for JSON)'}`,
  );
  if (server.sandbox) say(`  Per principal   ${describeQuotas(server)}`);
  say('');
  // On its own line, at the margin: with no sandbox this is the loud WARNING an operator must see.
  if (server.sandbox) say(server.sandbox.describe());
  // The one line scripts wait for; on stdout so it can be read without the banner.
  invocationIo().writeStdout(`Arbiter listening on ${server.url}\n`);

  await new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      say(`${signal}: shutting down`);
      server.close().then(resolve, (error: unknown) => {
        say(`error while shutting down: ${(error as Error).message}`);
        process.exitCode = 1;
        resolve();
      });
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return undefined;
}

const GIB = 1024 * 1024 * 1024;
const gib = (bytes: number) => `${Number((bytes / GIB).toFixed(2))} GiB`;

/**
 * The quotas each principal's tasks are held to, and the memory bound they imply: tasks at once ×
 * one command sandbox's processes × memory limit, in address space (docs/security.md, "Memory per
 * principal"). Said as a bound only where every factor is one.
 */
function describeQuotas(server: RunningServer): string {
  const { concurrentTasks, diskBytes, files } = server.principalQuotas;
  const perSandbox = server.sandbox?.memoryBoundMiB('command') ?? null;
  const memory =
    concurrentTasks === null || perSandbox === null
      ? 'memory not bounded per principal (a quota or rlimit is lifted, or no sandbox)'
      : `commands' memory at most ${concurrentTasks} × ${perSandbox} MiB = ${gib(concurrentTasks * perSandbox * 1024 * 1024)} of address space (rlimits; no memory cgroup)`;
  return [
    concurrentTasks === null ? 'tasks at once not bounded' : `${concurrentTasks} tasks at once`,
    diskBytes === null ? 'disk not bounded' : `${gib(diskBytes)} on disk`,
    files === null ? 'files not bounded' : `${files.toLocaleString('en-US')} files`,
    memory,
  ].join(', ');
}
