import { PrepaidBudgets } from '@arbiter/harness-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server.js';
import {
  BACKENDS,
  type Backend,
  type ServedOnBackend,
  serversOnBackends,
} from '../support/servers-on-backends.js';

/**
 * The operator's budget routes over real HTTP, on a real `startServer` with each storage backend:
 * every principal's balance and reserved amount, one principal's ledger paged newest first under a
 * documented page limit, and credits that record who made them and are made once per idempotency
 * key. Member keys get the admin routes' 403.
 */
const servers = serversOnBackends('arbiter-budget-admin');
beforeAll(() => servers.start());
afterAll(() => servers.stop());

function serve(backend: Backend, options: { auth?: boolean } = {}): Promise<ServedOnBackend> {
  return servers.serve(backend, { ...(options.auth === false ? { auth: false } : {}), harness: false });
}

interface PrincipalRef {
  id: string;
  name: string;
}
interface Account {
  currency: string;
  balance: string;
  reserved: string;
  updated_at: string;
}
interface BudgetBody {
  object: 'budget';
  principal: PrincipalRef;
  account: Account | null;
}
interface EntryBody {
  object: 'ledger_entry';
  id: number;
  kind: 'credit' | 'reserve' | 'settle';
  amount: string;
  balance: string;
  response_id: string | null;
  note: string | null;
  credited_by: PrincipalRef | null;
  created_at: string;
}
interface LedgerBody {
  principal: PrincipalRef;
  entries: EntryBody[];
  has_more: boolean;
  next_before: number | null;
}
interface CreditBody {
  object: 'credit';
  entry: EntryBody;
  account: Account;
}
interface ErrorBody {
  error: { type: string; code: string; message: string; param: string | null };
}

function client(server: RunningServer) {
  return async <T>(
    key: string | null,
    method: string,
    route: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    const response = await fetch(`${server.url}/v1/admin${route}`, {
      method,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: response.status, headers: response.headers, body: (await response.json()) as T };
  };
}

async function newPrincipal(admin: ReturnType<typeof client>, operator: string, name: string) {
  const created = await admin<{ key: string; principal: PrincipalRef }>(operator, 'POST', '/keys', {
    principal: name,
  });
  expect(created.status).toBe(201);
  return created.body;
}

describe.each<Backend>(BACKENDS)('the operator budget routes on %s', (backend) => {
  it('lists every principal with its balance and reserved amount, and credits one, recording who credited', async () => {
    const { server, database } = await serve(backend);
    const operator = server.initialKey ?? '';
    const admin = client(server);
    const alice = await newPrincipal(admin, operator, 'alice');
    const operatorPrincipal = (await admin<{ keys: { principal: PrincipalRef }[] }>(operator, 'GET', '/keys'))
      .body.keys[0]?.principal;

    const before = await admin<{ budgets: BudgetBody[] }>(operator, 'GET', '/budgets');
    expect(before.status).toBe(200);
    expect(before.body.budgets.map((budget) => [budget.principal.name, budget.account])).toEqual(
      expect.arrayContaining([
        ['alice', null],
        [operatorPrincipal?.name, null],
      ]),
    );
    expect(before.body.budgets).toHaveLength(2);

    const credited = await admin<CreditBody>(
      operator,
      'POST',
      `/budgets/${alice.principal.id}/credits`,
      { amount: '12.50', note: 'welcome' },
      { 'idempotency-key': 'credit-alice-1' },
    );
    expect(credited.status).toBe(201);
    expect(credited.body.account).toMatchObject({ currency: 'USD', balance: '12.5', reserved: '0' });
    expect(credited.body.entry).toMatchObject({
      object: 'ledger_entry',
      kind: 'credit',
      amount: '12.5',
      balance: '12.5',
      note: 'welcome',
      credited_by: operatorPrincipal,
    });

    // A task reserves through another connection, as a harness node does: the listing shows it.
    const budgets = new PrepaidBudgets(database(), {
      outputPricePerMillionTokens: { m: 1_000_000 },
    });
    expect(
      await budgets.reserve({
        principalId: alice.principal.id,
        responseId: 'resp_1',
        model: 'm',
        maxOutputTokens: 2,
      }),
    ).toMatchObject({ ok: true, reservedNanos: 2_000_000_000 });
    const during = await admin<{ budgets: BudgetBody[] }>(operator, 'GET', '/budgets');
    expect(during.body.budgets.find((budget) => budget.principal.id === alice.principal.id)?.account).toEqual(
      expect.objectContaining({ currency: 'USD', balance: '10.5', reserved: '2' }),
    );
    await budgets.settle('resp_1', { output_tokens: 1 });

    const ledger = await admin<LedgerBody>(operator, 'GET', `/budgets/${alice.principal.id}/ledger`);
    expect(ledger.status).toBe(200);
    expect(ledger.body.principal).toEqual(alice.principal);
    expect(ledger.body.entries.map((entry) => [entry.kind, entry.amount, entry.balance])).toEqual([
      ['settle', '1', '11.5'],
      ['reserve', '-2', '10.5'],
      ['credit', '12.5', '12.5'],
    ]);
    expect(ledger.body.entries.map((entry) => entry.credited_by)).toEqual([null, null, operatorPrincipal]);
    expect(ledger.body).toMatchObject({ has_more: false, next_before: null });
    // A principal never credited has an empty ledger, not an error.
    const empty = await admin<LedgerBody>(operator, 'GET', `/budgets/${operatorPrincipal?.id}/ledger`);
    expect(empty.body).toMatchObject({ entries: [], has_more: false });
  });

  it('credits once per idempotency key: a retry answers the first credit, another credit under it is refused', async () => {
    const { server } = await serve(backend);
    const operator = server.initialKey ?? '';
    const admin = client(server);
    const bob = (await newPrincipal(admin, operator, 'bob')).principal;
    const credit = (body: unknown, key: string) =>
      admin<CreditBody & ErrorBody>(operator, 'POST', `/budgets/${bob.id}/credits`, body, {
        'idempotency-key': key,
      });

    // Two retries racing: one credit.
    const [first, second] = await Promise.all([
      credit({ amount: '5' }, 'k-1'),
      credit({ amount: '5' }, 'k-1'),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 201]);
    expect(first.body.entry.id).toBe(second.body.entry.id);
    const replay = first.status === 200 ? first : second;
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.account.balance).toBe('5');

    const reused = await credit({ amount: '6' }, 'k-1');
    expect(reused.status).toBe(409);
    expect(reused.body.error).toMatchObject({ code: 'idempotency_key_reused', param: 'idempotency-key' });
    expect(reused.body.error.message).toContain('nothing was credited');

    // Without a key every request credits; another key is another credit.
    expect((await credit({ amount: '1' }, 'k-2')).status).toBe(201);
    const plain = await admin<CreditBody>(operator, 'POST', `/budgets/${bob.id}/credits`, { amount: '1' });
    expect(plain.status).toBe(201);
    expect(plain.body.account.balance).toBe('7');
    const ledger = await admin<LedgerBody>(operator, 'GET', `/budgets/${bob.id}/ledger`);
    expect(ledger.body.entries.map((entry) => entry.amount)).toEqual(['1', '1', '5']);

    // Keys belong to the operator who sent them: another operator's same key is its own credit.
    const other = (
      await admin<{ key: string }>(operator, 'POST', '/keys', { principal: 'ops-2', role: 'operator' })
    ).body.key;
    const theirs = await admin<CreditBody>(
      other,
      'POST',
      `/budgets/${bob.id}/credits`,
      { amount: '5' },
      {
        'idempotency-key': 'k-1',
      },
    );
    expect(theirs.status).toBe(201);
    expect(theirs.body.entry.credited_by?.name).toBe('ops-2');
    expect(theirs.body.account.balance).toBe('12');
  });

  it('pages a ledger newest first with before, and refuses a page over the documented limit', async () => {
    const { server } = await serve(backend);
    const operator = server.initialKey ?? '';
    const admin = client(server);
    const carol = (await newPrincipal(admin, operator, 'carol')).principal;
    for (let n = 1; n <= 7; n++)
      expect(
        (
          await admin(operator, 'POST', `/budgets/${carol.id}/credits`, {
            amount: `${n}`,
            note: `credit ${n}`,
          })
        ).status,
      ).toBe(201);
    const seen: string[] = [];
    let before: number | null = null;
    let pages = 0;
    do {
      const query: string = `limit=3${before === null ? '' : `&before=${before}`}`;
      const page: { status: number; body: LedgerBody } = await admin<LedgerBody>(
        operator,
        'GET',
        `/budgets/${carol.id}/ledger?${query}`,
      );
      expect(page.status).toBe(200);
      expect(page.body.entries.length).toBeLessThanOrEqual(3);
      seen.push(...page.body.entries.map((entry) => entry.note ?? ''));
      before = page.body.next_before;
      expect(page.body.has_more).toBe(before !== null);
      pages++;
    } while (before !== null);
    expect(pages).toBe(3);
    expect(seen).toEqual([
      'credit 7',
      'credit 6',
      'credit 5',
      'credit 4',
      'credit 3',
      'credit 2',
      'credit 1',
    ]);

    const ledger = (route: string) =>
      admin<ErrorBody>(operator, 'GET', `/budgets/${carol.id}/ledger${route}`);
    expect((await ledger('?limit=200')).status).toBe(200);
    const tooMany = await ledger('?limit=201');
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error).toMatchObject({ code: 'invalid_request', param: 'limit' });
    expect(tooMany.body.error.message).toContain('at most 200 entries a page');
    for (const route of ['?limit=0', '?limit=2.5', '?limit=many', '?before=-1', '?before=x', '?after=3']) {
      const refused = await ledger(route);
      expect(refused.status, route).toBe(400);
      expect(refused.body.error.code, route).toBe('invalid_request');
    }
    const unknown = await admin<ErrorBody>(operator, 'GET', '/budgets/prn_nobody/ledger');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toMatchObject({ code: 'not_found', param: 'principal' });
  });

  it('refuses bad amounts, another currency and unknown principals, and credits nothing', async () => {
    const { server } = await serve(backend);
    const operator = server.initialKey ?? '';
    const admin = client(server);
    const dave = (await newPrincipal(admin, operator, 'dave')).principal;
    const credit = (body: unknown, principal = dave.id) =>
      admin<ErrorBody>(operator, 'POST', `/budgets/${principal}/credits`, body);

    for (const amount of [
      '0',
      '0.000000000',
      '-1',
      '1e3',
      '1.0000000001',
      '1000000',
      '',
      ' ',
      '12,50',
      'NaN',
    ]) {
      const refused = await credit({ amount });
      expect(refused.status, amount).toBe(400);
      expect(refused.body.error, amount).toMatchObject({ code: 'invalid_amount', param: 'amount' });
    }
    for (const body of [
      { amount: 12.5 },
      {},
      { amount: '1', currency: 'usd' },
      { amount: '1', extra: true },
    ]) {
      const refused = await credit(body);
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code, JSON.stringify(body)).toBe('invalid_request');
    }
    const note = await credit({ amount: '1', note: 'x'.repeat(501) });
    expect(note.status).toBe(400);
    expect(note.body.error.param).toBe('note');
    const badKey = await admin<ErrorBody>(
      operator,
      'POST',
      `/budgets/${dave.id}/credits`,
      { amount: '1' },
      {
        'idempotency-key': 'has space',
      },
    );
    expect(badKey.status).toBe(400);

    // A new account opens in the server's currency (USD here): crediting EUR is refused.
    const euros = await credit({ amount: '1', currency: 'EUR' });
    expect(euros.status).toBe(409);
    expect(euros.body.error).toMatchObject({ code: 'currency_mismatch', param: 'currency' });
    expect(euros.body.error.message).toContain('is in USD, not EUR');
    expect((await credit({ amount: '999999.999999999', currency: 'USD' })).status).toBe(201);

    const unknown = await credit({ amount: '1' }, 'prn_nobody');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('not_found');

    // The largest balance is exact integers of nano-units: the credit that would pass it is refused.
    let last = await credit({ amount: '999999.999999999' });
    while (last.status === 201) last = await credit({ amount: '999999.999999999' });
    expect(last.status).toBe(409);
    expect(last.body.error.code).toBe('balance_limit');

    const ledger = await admin<LedgerBody>(operator, 'GET', `/budgets/${dave.id}/ledger?limit=200`);
    // Only the accepted credits are in the ledger, every one of the largest amount.
    expect(ledger.body.entries.every((entry) => entry.amount === '999999.999999999')).toBe(true);
    expect(ledger.body.entries.length).toBeGreaterThan(1);
  });

  it('refuses a member key every budget route with 403, and no key with 401', async () => {
    const { server } = await serve(backend);
    const operator = server.initialKey ?? '';
    const admin = client(server);
    const member = await newPrincipal(admin, operator, 'erin');
    const attempts: [string, string, unknown?][] = [
      ['GET', '/budgets'],
      ['GET', `/budgets/${member.principal.id}/ledger`],
      ['POST', `/budgets/${member.principal.id}/credits`, { amount: '100' }],
      // Not even with a bad body: the role is checked before anything is read.
      ['POST', `/budgets/${member.principal.id}/credits`, { amount: 'lots' }],
    ];
    for (const [method, route, body] of attempts) {
      const answer = await admin<ErrorBody>(member.key, method, route, body);
      expect(answer.status, `${method} ${route}`).toBe(403);
      expect(answer.body.error).toMatchObject({ type: 'permission_error', code: 'operator_required' });
      expect((await admin<ErrorBody>(null, method, route, body)).status).toBe(401);
    }
    const budgets = await admin<{ budgets: BudgetBody[] }>(operator, 'GET', '/budgets');
    expect(budgets.body.budgets.every((budget) => budget.account === null)).toBe(true);
  });
});

describe('the budget routes elsewhere', () => {
  it('under --no-auth the local principal is listed and may credit itself', async () => {
    const { server } = await serve('sqlite', { auth: false });
    const admin = client(server);
    const listed = await admin<{ budgets: BudgetBody[] }>(null, 'GET', '/budgets');
    expect(listed.body.budgets).toEqual([
      { object: 'budget', principal: { id: 'local', name: 'local' }, account: null },
    ]);
    const credited = await admin<CreditBody>(null, 'POST', '/budgets/local/credits', { amount: '3' });
    expect(credited.status).toBe(201);
    expect(credited.body.entry.credited_by).toEqual({ id: 'local', name: 'local' });
  });

  it('documents the budget routes in the OpenAPI document with their limits', async () => {
    const { server } = await serve('sqlite');
    const document = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<
        string,
        Record<
          string,
          {
            security?: unknown;
            tags?: string[];
            summary?: string;
            parameters?: { name: string; in: string; schema?: { maximum?: number } }[];
            responses: object;
          }
        >
      >;
    };
    const ledger = document.paths['/v1/admin/budgets/{principal}/ledger']?.get;
    expect(ledger?.parameters?.find((parameter) => parameter.name === 'limit')?.schema?.maximum).toBe(200);
    const credit = document.paths['/v1/admin/budgets/{principal}/credits']?.post;
    expect(credit?.parameters?.map((parameter) => `${parameter.in} ${parameter.name}`)).toEqual(
      expect.arrayContaining(['header idempotency-key', 'path principal']),
    );
    for (const operation of [document.paths['/v1/admin/budgets']?.get, ledger, credit]) {
      expect(operation?.security).toEqual([{ bearerAuth: [] }]);
      expect(operation?.tags).toEqual(['admin']);
      expect(operation?.summary).toContain('operator keys only');
      expect(Object.keys(operation?.responses ?? {})).toContain('403');
    }
  });
});
