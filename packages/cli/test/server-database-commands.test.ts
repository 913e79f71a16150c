import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type CliRun, runArbiter } from './support/run-arbiter.js';
import { type ServeProcess, startServeProcess } from './support/serve-process.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from './support/throwaway-postgres.js';

// Every command that opens the server's database — `keys`, `billing`, `serve` — run as a real
// subprocess on SQLite and on a real PostgreSQL, selected each way `arbiter serve` accepts it.

let cluster: ThrowawayPostgres;
let workDir: string;
beforeAll(async () => {
  cluster = await startThrowawayPostgres();
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-cli-db-'));
});
afterAll(async () => {
  await cluster?.stop();
  fs.rmSync(workDir, { recursive: true, force: true });
});

/** The options and environment that select one database, given alike to every command. */
interface Selection {
  args: string[];
  env: NodeJS.ProcessEnv;
}

let made = 0;
function freshDir(): string {
  return fs.mkdtempSync(path.join(workDir, `${++made}-`));
}

function configFile(contents: object): string {
  const file = path.join(freshDir(), 'arbiter.json');
  fs.writeFileSync(file, JSON.stringify(contents));
  return file;
}

const backends: Array<{ name: string; select(): Promise<Selection> }> = [
  {
    name: 'SQLite in the data directory',
    async select() {
      const home = freshDir();
      return { args: ['--data-dir', path.join(home, 'data')], env: { HOME: home } };
    },
  },
  {
    name: 'PostgreSQL named by --database',
    async select() {
      const home = freshDir();
      return {
        args: ['--database', await cluster.createDatabase(), '--data-dir', home],
        env: { HOME: home },
      };
    },
  },
  {
    name: "PostgreSQL named by the configuration file's database",
    async select() {
      const home = freshDir();
      const config = configFile({ database: await cluster.createDatabase() });
      return { args: ['--config', config, '--data-dir', home], env: { HOME: home } };
    },
  },
  {
    name: 'PostgreSQL named by $ARBITER_DATABASE_URL',
    async select() {
      const home = freshDir();
      return {
        args: ['--data-dir', home],
        env: { HOME: home, ARBITER_DATABASE_URL: await cluster.createDatabase() },
      };
    },
  },
];

function arbiter(selection: Selection, ...args: string[]): Promise<CliRun> {
  return runArbiter([...args, ...selection.args], { env: selection.env });
}

function json<T>(run: CliRun): T {
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(run.stdout) as T;
}

async function billingOf(server: ServeProcess, key: string): Promise<Response> {
  return fetch(`${server.url}/api/harness/v1/billing`, { headers: { authorization: `Bearer ${key}` } });
}

describe.each(backends)('on $name', (backend) => {
  let selection: Selection;
  let key: string;
  let keyId: string;
  let server: ServeProcess;
  beforeAll(async () => {
    selection = await backend.select();
    const created = await arbiter(selection, 'keys', 'create', '--principal', 'alice');
    expect(created.code, created.stderr).toBe(0);
    key = created.stdout.trim();
    keyId = /^created member key (key_\w+) for principal alice/.exec(created.stderr)?.[1] ?? '';
    server = await startServeProcess(selection.args, selection.env);
  });
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
  });

  it('`keys create` makes a key that `arbiter serve` on the same database accepts; serve makes none', async () => {
    expect(key).toMatch(/^arb_[A-Za-z0-9_-]{43}$/);
    expect(keyId).toMatch(/^key_/);
    expect(server.stderr()).not.toContain('No API key existed');
    const answer = await billingOf(server, key);
    expect([answer.status, await answer.json()]).toEqual([
      200,
      { object: 'billing.account', account: null, ledger: [] },
    ]);
    expect((await billingOf(server, `${key.slice(0, -1)}x`)).status).toBe(401);
  });

  it('`billing credit` opens a balance the API reports; `billing show` and `billing ledger` agree', async () => {
    const credited = await arbiter(selection, 'billing', 'credit', 'alice', '12.50', '--note', 'welcome');
    expect(credited).toMatchObject({ code: 0, stdout: 'credited 12.5 USD to alice: balance 12.5 USD\n' });

    const answer = (await (await billingOf(server, key)).json()) as {
      account: { currency: string; balance: string; reserved: string };
      ledger: Array<{ kind: string; amount: string; note: string | null }>;
    };
    expect(answer.account).toMatchObject({ currency: 'USD', balance: '12.5', reserved: '0' });
    expect(answer.ledger).toMatchObject([{ kind: 'credit', amount: '12.5', note: 'welcome' }]);

    expect(json(await arbiter(selection, 'billing', 'show', '--json'))).toEqual([
      {
        principal: 'alice',
        principal_id: expect.stringMatching(/^prn_/),
        currency: 'USD',
        balance: '12.5',
        reserved: '0',
      },
    ]);
    expect(json(await arbiter(selection, 'billing', 'ledger', 'alice', '--json'))).toMatchObject([
      { principal: 'alice', kind: 'credit', amount: '12.5', balance: '12.5', note: 'welcome' },
    ]);
    const unknown = await arbiter(selection, 'billing', 'credit', 'bob', '1');
    expect(unknown).toMatchObject({
      code: 2,
      stderr: 'arbiter billing credit: no principal named bob (see `arbiter keys list`)\n',
    });
  });

  it('`keys list` shows the key; `keys revoke` shuts it out of the running server', async () => {
    const listed = json<Array<{ id: string; principal: { name: string }; hint: string; revokedAt: null }>>(
      await arbiter(selection, 'keys', 'list', '--json'),
    );
    expect(listed).toEqual([
      expect.objectContaining({
        id: keyId,
        principal: expect.objectContaining({ name: 'alice' }),
        revokedAt: null,
      }),
    ]);
    expect(key.endsWith(listed[0]!.hint)).toBe(true);

    expect(await arbiter(selection, 'keys', 'revoke', keyId)).toMatchObject({
      code: 0,
      stdout: `revoked ${keyId}\n`,
    });
    // SQLite: the next request. PostgreSQL: every node reloads on NOTIFY, at the latest each second.
    const deadline = Date.now() + 5000;
    let status = (await billingOf(server, key)).status;
    while (status !== 401 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      status = (await billingOf(server, key)).status;
    }
    expect(status).toBe(401);
    expect(await arbiter(selection, 'keys', 'revoke', keyId)).toMatchObject({
      code: 0,
      stdout: `${keyId} was already revoked\n`,
    });
    expect(await arbiter(selection, 'keys', 'revoke', 'key_missing')).toMatchObject({
      code: 1,
      stderr: 'arbiter keys revoke: no key with id key_missing\n',
    });
  });
});

describe.each(backends)('`arbiter serve` on an empty database, $name', (backend) => {
  it('creates the first key, which the keys commands then see on the same database', async () => {
    const selection = await backend.select();
    const server = await startServeProcess(selection.args, selection.env);
    const first = server.stderr().match(/arb_[A-Za-z0-9_-]{43}/)?.[0];
    const answer = first === undefined ? null : await billingOf(server, first);
    expect(await server.stop()).toBe(0);
    expect(first).toBeDefined();
    expect(answer?.status).toBe(200);
    const listed = json<Array<{ hint: string; revokedAt: null }>>(
      await arbiter(selection, 'keys', 'list', '--json'),
    );
    expect(listed).toHaveLength(1);
    expect(first?.endsWith(listed[0]!.hint)).toBe(true);
  });
});

describe('choosing the database', () => {
  it('takes --database over the configuration file over $ARBITER_DATABASE_URL, as serve does', async () => {
    const [flag, configured, environment] = await Promise.all([
      cluster.createDatabase(),
      cluster.createDatabase(),
      cluster.createDatabase(),
    ]);
    const home = freshDir();
    const env = { HOME: home };
    for (const [database, principal] of [
      [flag, 'from-flag'],
      [configured, 'from-config'],
      [environment, 'from-env'],
    ] as const)
      expect(
        (await runArbiter(['keys', 'create', '--principal', principal, '--database', database], { env }))
          .code,
      ).toBe(0);
    const config = configFile({ database: configured });
    const principalsOf = async (args: string[], withEnv: NodeJS.ProcessEnv) =>
      json<Array<{ principal: { name: string } }>>(
        await runArbiter(['keys', 'list', '--json', ...args], { env: { ...env, ...withEnv } }),
      ).map((record) => record.principal.name);
    const fromEnv = { ARBITER_DATABASE_URL: environment };
    expect(await principalsOf(['--database', flag, '--config', config], fromEnv)).toEqual(['from-flag']);
    expect(await principalsOf(['--config', config], fromEnv)).toEqual(['from-config']);
    expect(await principalsOf([], fromEnv)).toEqual(['from-env']);
    // An empty variable is unset: SQLite in the data directory, which does not exist yet.
    const unset = await runArbiter(['keys', 'list', '--data-dir', path.join(home, 'none')], {
      env: { ...env, ARBITER_DATABASE_URL: '' },
    });
    expect(unset).toMatchObject({ code: 2, stderr: expect.stringContaining('(no arbiter.db)') });
  });
});

describe('a database that cannot be opened', () => {
  const password = 's3cr3t-Pa55word';
  /** A database of the test cluster that does not exist, named with a password. */
  function missingDatabase(): string {
    const host = /[?&]host=([^&]+)/.exec(cluster.adminUrl)?.[1] ?? '';
    return `postgresql://postgres:${password}@/no_such_database?host=${host}`;
  }
  const commands = [
    ['keys', 'create'],
    ['keys', 'list'],
    ['keys', 'revoke', 'key_x'],
    ['billing', 'credit', 'alice', '1'],
    ['billing', 'show'],
    ['billing', 'ledger'],
  ];

  it.each(commands)(
    '%s %s fails naming the database without its password, however it is named',
    async (...command) => {
      const home = freshDir();
      const config = configFile({ database: missingDatabase() });
      for (const run of await Promise.all([
        runArbiter([...command, '--database', missingDatabase()], { env: { HOME: home } }),
        runArbiter([...command, '--config', config], { env: { HOME: home } }),
        runArbiter(command, { env: { HOME: home, ARBITER_DATABASE_URL: missingDatabase() } }),
      ])) {
        expect(run.code).toBe(1);
        expect(run.stdout).toBe('');
        expect(run.stderr).toContain(
          'cannot open the PostgreSQL database postgresql://postgres:***@/no_such_database',
        );
        expect(run.stderr).toContain('"no_such_database" does not exist');
        expect(run.stderr).not.toContain(password);
      }
      expect(fs.readdirSync(home)).toEqual([]);
    },
  );

  it.each(commands)(
    '%s %s refuses a connection string of another database as bad usage, without its password',
    async (...command) => {
      const other = `mysql://root:${password}@db.example/arbiter`;
      for (const run of await Promise.all([
        runArbiter([...command, '--database', other], { env: { HOME: freshDir() } }),
        runArbiter(command, { env: { HOME: freshDir(), ARBITER_DATABASE_URL: other } }),
      ])) {
        expect(run).toMatchObject({
          code: 2,
          stdout: '',
          stderr: expect.stringContaining(
            'the database must be a postgres:// or postgresql:// connection string, not "mysql://root:***@db.example/arbiter"',
          ),
        });
        expect(run.stderr).not.toContain(password);
      }
      const configured = await runArbiter([...command, '--config', configFile({ database: other })], {
        env: { HOME: freshDir() },
      });
      expect(configured).toMatchObject({
        code: 2,
        stderr: expect.stringContaining('database: must be a postgres:// or postgresql:// connection string'),
      });
      expect(configured.stderr).not.toContain(password);
    },
  );

  it('`arbiter serve` fails the same way', async () => {
    const home = freshDir();
    const refused = startServeProcess(['--database', missingDatabase(), '--data-dir', home], { HOME: home });
    const error = await refused.then(
      () => null,
      (failure: Error) => failure.message,
    );
    expect(error).toContain(
      'cannot open the PostgreSQL database postgresql://postgres:***@/no_such_database',
    );
    expect(error).not.toContain(password);
  });
});
