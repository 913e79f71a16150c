import { CatalogConfigError } from '@arbiter/engine';
import { DEFAULT_HOST, DEFAULT_PORT, ServerConfigError, startServer } from '@arbiter/server';
import { type Command, Option } from 'commander';
import { parsePort } from './port-option.js';
import { runCommand, UsageError } from './usage-error.js';

interface ServeOptions {
  port: number;
  host: string;
  dataDir?: string;
  config?: string;
  auth: boolean;
  logLevel: string;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the Arbiter server: the Decision API, the UHP API under /api/harness, /docs')
    .addOption(
      new Option('--port <port>', 'TCP port (0 picks a free one)').argParser(parsePort).default(DEFAULT_PORT),
    )
    .option('--host <host>', 'interface to listen on (loopback by default)', DEFAULT_HOST)
    .option('--data-dir <dir>', 'data directory (default: $ARBITER_DATA_DIR or ~/.arbiter)')
    .option('--config <file>', 'configuration file, JSON or YAML (docs/configuration.md)')
    .option('--no-auth', 'serve everyone as one local principal, without API keys (local use only)')
    .addOption(
      new Option('--log-level <level>', 'log level of the JSON request log on stdout')
        .choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
        .default('info'),
    )
    .action((options: ServeOptions) => runCommand('serve', () => serve(options)));
}

async function serve(options: ServeOptions): Promise<undefined> {
  let server: Awaited<ReturnType<typeof startServer>>;
  try {
    server = await startServer({
      port: options.port,
      host: options.host,
      dataDir: options.dataDir,
      configPath: options.config,
      auth: options.auth,
      logger: { level: options.logLevel },
    });
  } catch (error) {
    if (ServerConfigError.isInstance(error) || CatalogConfigError.isInstance(error)) {
      throw new UsageError(error.message);
    }
    throw error;
  }
  const say = (line: string) => process.stderr.write(`${line}\n`);
  if (server.authMode === 'none') {
    say('WARNING: authentication is OFF (--no-auth). Anyone who can reach this port acts as the local');
    say('WARNING: principal. Use it on a trusted machine only; never expose it to a network.');
    if (!LOOPBACK.has(options.host)) say(`WARNING: and it listens on ${options.host}, not on loopback.`);
  }
  if (server.initialKey) {
    say('No API key existed, so one was created. It is shown only this once; keep it:');
    say('');
    say(`  ${server.initialKey}`);
    say('');
    say('  export ARBITER_API_KEY=<the key above>   (more: arbiter keys create --data-dir …)');
  }
  say(`Data directory: ${server.dataDir}`);
  say(`API reference: ${server.url}/docs`);
  // The one line scripts wait for; on stdout so it can be read without the banner.
  process.stdout.write(`Arbiter listening on ${server.url}\n`);

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
