import { type Command, Option } from 'commander';
import { runReportingUsageErrors } from '../usage-error.js';
import { parsePort } from './port-option.js';
import type { ServeOptions } from './serve-action.js';

// Equal to @arbiter/server's DEFAULT_PORT and DEFAULT_HOST (a test checks it), repeated so that
// building the command line does not load the server: a command's code loads when it runs.
const DEFAULT_PORT = 7411;
const DEFAULT_HOST = '127.0.0.1';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the Arbiter server: the Decision API, the UHP API under /api/harness, /docs')
    .addOption(
      new Option('--port <port>', 'TCP port (0 picks a free one)').argParser(parsePort).default(DEFAULT_PORT),
    )
    .option('--host <host>', 'interface to listen on (loopback by default)', DEFAULT_HOST)
    .option('--data-dir <dir>', 'data directory (default: $ARBITER_DATA_DIR or ~/.arbiter)')
    .option(
      '--database <url>',
      'store everything in PostgreSQL (postgres://…; nodes may share it) instead of SQLite in the data directory; default $ARBITER_DATABASE_URL',
    )
    .option('--config <file>', 'configuration file, JSON or YAML (docs/configuration.md)')
    .option(
      '--pull-default',
      'first start: pull the small default NLI model before serving (npm start; skip: ARBITER_NO_PULL=1)',
    )
    .option('--no-pull-default', 'do not pull a model before serving (the default for `arbiter serve`)')
    .option('--no-auth', 'serve everyone as one local principal, without API keys (local use only)')
    .addOption(
      new Option('--log-level <level>', 'log level of the request log on stdout')
        .choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
        .default('info'),
    )
    .addOption(
      new Option('--log-format <format>', 'request log: one readable line per request, or pino JSON lines')
        .choices(['text', 'json'])
        .default('text'),
    )
    .action((options: ServeOptions) =>
      runReportingUsageErrors('serve', async () => (await import('./serve-action.js')).serve(options)),
    );
}
