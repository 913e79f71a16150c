import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PrepaidBudgets } from '@arbiter/harness-server';
import { KeyStore, migrations, type RunningServer, startServer } from '@arbiter/server';
import { openDatabase, SqliteDatabase } from '@arbiter/storage';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The console in a real headless Chromium (Debian's, never a downloaded one) against a real
 * `startServer` on loopback with a fresh data directory: the same server `arbiter serve` runs.
 * The screenshots in docs/console/ come from this run when ARBITER_UPDATE_SCREENSHOTS=1; otherwise
 * they go to a temporary directory, so that running the suite leaves the working tree as it was.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
const packageRoot = path.resolve(here, '..');
const repositoryRoot = path.resolve(packageRoot, '../..');
const screenshots =
  process.env.ARBITER_UPDATE_SCREENSHOTS === '1'
    ? path.join(repositoryRoot, 'docs/console')
    : fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-console-screenshots-'));
const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let server: RunningServer;
let dataDir: string;
let browser: Browser;
let key: string;
/** Every Content-Security-Policy violation any page reported: the policy must never block the console. */
const violations: string[] = [];

beforeAll(async () => {
  // The console is built by the repository's `build` (run by `npm ci`); a checkout built with `tsc -b`
  // alone gets it here, so the test always runs the real bundle.
  if (!fs.existsSync(path.join(packageRoot, 'dist/index.html')))
    execFileSync('npm', ['run', 'build'], { cwd: packageRoot, stdio: 'ignore' });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-console-'));
  server = await startServer({ port: 0, dataDir });
  if (server.initialKey === null) throw new Error('a fresh data directory must give a first key');
  key = server.initialKey;
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
  fs.mkdirSync(screenshots, { recursive: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

async function openPage(options: { colorScheme?: 'light' | 'dark' } = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(message.text());
  });
  return page;
}

async function signIn(page: Page): Promise<void> {
  await page.goto(`${server.url}/console/`);
  const field = page.getByLabel('API key');
  await field.fill(key);
  await field.press('Enter');
  await page.getByRole('navigation', { name: 'pages' }).waitFor();
}

describe('serving /console', () => {
  it('serves the shell with a strict policy, hashed assets for a year, and deep links as the shell', async () => {
    const shell = await fetch(`${server.url}/console/`);
    expect(shell.status).toBe(200);
    expect(shell.headers.get('content-type')).toMatch(/^text\/html/);
    expect(shell.headers.get('cache-control')).toBe('no-cache');
    const policy = shell.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toContain('unsafe-inline');
    const html = await shell.text();
    const script = /src="(\/console\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${server.url}${script}`);
    expect(asset.headers.get('content-type')).toMatch(/^(text|application)\/javascript/);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const etag = asset.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${server.url}${script}`, { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);

    const deep = await fetch(`${server.url}/console/runs`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toBe(html);
    expect((await fetch(`${server.url}/console/assets/missing-0000.js`)).status).toBe(404);
    const bare = await fetch(`${server.url}/console`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/console/');
    // A path that climbs out of the build is not served.
    const climb = await fetch(`${server.url}/console/..%2f..%2fpackage.json`);
    expect(await climb.text()).toBe(html);
  });
});

describe('the console in Chromium', () => {
  it('opens without a key under --no-auth, and says the server runs without auth', async () => {
    const openDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-console-open-'));
    const open = await startServer({ port: 0, dataDir: openDir, auth: false, harness: false });
    try {
      const page = await openPage();
      await page.goto(`${open.url}/console/`);
      await page.getByRole('navigation', { name: 'pages' }).waitFor();
      expect(await page.getByLabel('API key').count()).toBe(0);
      expect(await page.locator('.top').textContent()).toContain('no auth');
      await page.getByRole('button', { name: 'Ask' }).click();
      await page.locator('[data-question="urgent"]').waitFor();
      await page.context().close();
    } finally {
      await open.close();
      fs.rmSync(openDir, { recursive: true, force: true });
    }
  });

  it('refuses a wrong key with the API message, then asks a decision and draws its bars', async () => {
    const page = await openPage();
    await page.goto(`${server.url}/console/`);
    await page.getByLabel('API key').fill('arb_not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('the API key is not valid');
    await page.screenshot({ path: path.join(screenshots, 'sign-in.png') });

    await page.getByLabel('API key').fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    const answered = page.waitForResponse((response) => response.url().endsWith('/v1/decision'));
    await page.getByRole('button', { name: 'Ask' }).click();
    const body = (await (await answered).json()) as {
      answers: Record<string, { type: string; noul?: number; probabilities?: Record<string, number> }>;
    };
    const urgent = page.locator('[data-question="urgent"]');
    await urgent.waitFor();
    const noul = body.answers.urgent?.noul ?? Number.NaN;
    expect(
      Number(await urgent.getByRole('meter', { name: 'true' }).getAttribute('aria-valuenow')),
    ).toBeCloseTo(noul, 6);
    expect(
      Number(await urgent.getByRole('meter', { name: 'false' }).getAttribute('aria-valuenow')),
    ).toBeCloseTo(1 - noul, 6);
    const team = page.locator('[data-question="team"]');
    const probabilities = body.answers.team?.probabilities ?? {};
    expect(Object.keys(probabilities).sort()).toEqual(['docs', 'payments', 'search']);
    for (const [option, p] of Object.entries(probabilities)) {
      expect(
        Number(await team.getByRole('meter', { name: option }).getAttribute('aria-valuenow')),
      ).toBeCloseTo(p, 6);
      // The drawn bar is as wide as the probability says.
      const fill = team
        .locator('.bar', { has: page.getByRole('meter', { name: option }) })
        .locator('.bar-fill');
      const track = team.getByRole('meter', { name: option });
      const [fillBox, trackBox] = await Promise.all([fill.boundingBox(), track.boundingBox()]);
      expect((fillBox?.width ?? 0) / (trackBox?.width ?? 1)).toBeCloseTo(p, 1);
    }
    await expect.poll(() => page.locator('pre.snippet').textContent()).toContain('curl -s');
    await page.screenshot({ path: path.join(screenshots, 'decisions.png'), fullPage: true });

    // A bad question is refused with the API's own code and message, nothing invented.
    await page.getByRole('button', { name: 'JSON' }).click();
    await page
      .locator('textarea[name="questions"]')
      .fill('{"x": {"type": "score", "criteria": ["only one"]}}');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/400 invalid_levels/);
    await page.context().close();
  });

  it('explains a gate verdict: the verdict, the rule, the reason and the six answers', async () => {
    const page = await openPage();
    await signIn(page);
    // Keyboard: the navigation is links, activated with Enter.
    await page.getByRole('link', { name: 'Tool gate' }).focus();
    await page.keyboard.press('Enter');
    await page.getByLabel('Arguments (JSON object)').fill('{"command": "rm -rf ~/"}');
    const judged = page.waitForResponse((response) => response.url().endsWith('/v1/gate/check'));
    await page.getByRole('button', { name: 'Judge' }).click();
    const verdict = (await (await judged).json()) as {
      effective: string;
      rule: number;
      reason: string;
      answers: Record<string, unknown>;
    };
    expect(verdict.effective).toBe('DENY');
    await expect.poll(() => page.locator('.verdict').textContent()).toBe('DENY');
    expect(await page.locator('.reason').textContent()).toBe(verdict.reason);
    expect(await page.locator('.verdict-line').textContent()).toContain(`rule ${verdict.rule}`);
    expect(await page.locator('[data-question]').count()).toBe(6);
    expect(Object.keys(verdict.answers)).toHaveLength(6);
    await page.screenshot({ path: path.join(screenshots, 'gate.png'), fullPage: true });

    const harmless = page.waitForResponse((response) => response.url().endsWith('/v1/gate/check'));
    await page.getByLabel('Arguments (JSON object)').fill('{"command": "ls -la"}');
    await page.getByRole('button', { name: 'Judge' }).click();
    expect(((await (await harmless).json()) as { effective: string }).effective).toBe('ALLOW');
    await expect.poll(() => page.locator('.verdict').textContent()).toBe('ALLOW');
    await page.context().close();
  });

  it('streams a task live, downloads its file, continues it, and shares it with another context', async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole('link', { name: 'Harnesses and runs' }).click();
    const words = Array.from({ length: 30 }, (_, i) => `word${i}`).join(' ');
    await page
      .locator('textarea[name="task-input"]')
      .fill(`@write notes/hello.txt <<<Hello from the console>>>\n@say ${words}`);
    await page.getByRole('button', { name: 'Start' }).click();
    const output = page.getByTestId('task-output');
    // The text arrives in pieces (the offline model sends a word every 80 ms): a part is seen first.
    await expect
      .poll(async () => (await output.textContent()) ?? '', { timeout: 10_000 })
      .toContain('word3 ');
    const partial = (await output.textContent()) ?? '';
    expect(partial).not.toContain('word29');
    await expect
      .poll(() => page.locator('[data-status]').textContent(), { timeout: 15_000 })
      .toBe('completed');
    expect(await output.textContent()).toContain('word29');
    expect(await output.textContent()).toContain('write');
    await page.screenshot({ path: path.join(screenshots, 'runs.png'), fullPage: true });

    // The session's file, downloaded with the credential.
    const file = page.locator('.session-detail').getByRole('listitem').filter({ hasText: 'notes/hello.txt' });
    await file.waitFor();
    const downloading = page.waitForEvent('download');
    await file.getByRole('button', { name: 'Download', exact: true }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('hello.txt');
    const saved = await download.path();
    expect(fs.readFileSync(saved, 'utf8')).toBe('Hello from the console');

    // Continue the session: the offline model's @history says what came before.
    await page.getByRole('button', { name: 'Continue this session' }).click();
    await page.locator('textarea[name="task-input"]').fill('@history');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => output.textContent(), { timeout: 15_000 }).toContain('Earlier turns: 1.');

    // A share link opened in a second context, with no key: the read-only view.
    await page.getByRole('button', { name: 'Create a read-only share link' }).click();
    const link = page.getByTestId('share-url');
    await link.waitFor();
    const url = (await link.getAttribute('href')) ?? '';
    expect(url).toMatch(/\/api\/harness\/v1\/shared\//);
    const other = await browser.newContext();
    const shared = await other.newPage();
    const view = await shared.goto(url);
    expect(view?.status()).toBe(200);
    expect(await shared.locator('body').textContent()).toContain('@history');
    await page.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('button', { name: 'Create a read-only share link' }).waitFor();
    expect((await shared.goto(url))?.status()).toBe(404);
    await other.close();

    // The gate judged the task's write: its verdict is in the audit log, filtered by tool and verdict.
    const session = (await page.locator('.session-detail h3 code').first().textContent()) ?? '';
    expect(session).toMatch(/^hsess_/);
    await page.getByRole('link', { name: 'Tool gate' }).click();
    // Listed as the page opens, newest first, each with the call it judged.
    const entries = page.getByTestId('audit-entry');
    await expect.poll(() => entries.count()).toBeGreaterThan(0);
    await expect
      .poll(() => entries.filter({ hasText: 'Write' }).getByTestId('audit-call').first().textContent())
      .toBe('notes/hello.txt');
    const filters = page.getByRole('form', { name: 'audit filters' });
    await filters.locator('select[name="audit-verdict"]').selectOption('ALLOW');
    await filters.locator('input[name="audit-tool"]').fill('Write');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByTestId('audit-chain').textContent()).toContain('Hash chain verified');
    await expect.poll(() => entries.count()).toBe(1);
    expect(await entries.first().textContent()).toContain(session);
    await page.screenshot({ path: path.join(screenshots, 'gate-audit.png'), fullPage: true });
    await filters.locator('select[name="audit-verdict"]').selectOption('DENY');
    await filters.getByRole('button', { name: 'Filter' }).click();
    await expect.poll(() => page.getByText('No verdicts match.').count()).toBe(1);
    await page.context().close();
  });

  it('creates and edits a harness, runs a task on it, cancels it and keeps what it had said', async () => {
    const page = await openPage();
    await signIn(page);
    await page.getByRole('link', { name: 'Harnesses and runs' }).click();
    // The picker lists each harness once, the principal's default among them and preselected: no
    // separate "default" entry that looks like a second copy of it.
    const picker = page.locator('select[name="harness"]');
    await expect.poll(() => picker.locator('option').count()).toBeGreaterThan(0);
    const listed = (await (
      await fetch(`${server.url}/api/harness/v1/harnesses`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { harnesses: { id: string; name: string }[] };
    const options = await picker
      .locator('option')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('value') ?? ''));
    expect(options).toEqual(listed.harnesses.map((harness) => harness.id));
    expect(await picker.inputValue()).toBe(listed.harnesses[0]?.id);
    // A harness created and edited through the page, then used for the task.
    await page.getByRole('button', { name: 'New harness' }).click();
    const editor = page.getByRole('form', { name: 'harness' });
    await editor.getByLabel('Name', { exact: true }).fill('Console harness');
    await editor.getByRole('checkbox', { name: 'shell' }).check();
    await editor.getByRole('button', { name: 'Save' }).click();
    const row = page.getByRole('row').filter({ hasText: 'Console harness' });
    await expect.poll(() => row.textContent()).toContain('shell');
    await row.getByRole('button', { name: 'Edit' }).click();
    await editor.getByLabel('Name', { exact: true }).fill('Console harness, renamed');
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'renamed' }).count()).toBe(1);
    const harnessId = (await page.getByRole('option', { name: /renamed/ }).getAttribute('value')) ?? '';
    expect(harnessId).toMatch(/^chrn_/);
    await page.locator('select[name="harness"]').selectOption(harnessId);

    await page.locator('textarea[name="task-input"]').fill('@say before the wait\n@sleep 60000\n@say after');
    await page.getByRole('button', { name: 'Start' }).click();
    const output = page.getByTestId('task-output');
    await expect.poll(() => output.textContent(), { timeout: 10_000 }).toContain('before the wait');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect
      .poll(() => page.locator('[data-status]').textContent(), { timeout: 10_000 })
      .toBe('cancelled');
    expect(await output.textContent()).not.toContain('after');
    const sessions = (await (
      await fetch(`${server.url}/api/harness/v1/sessions`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as { sessions: { harness_id: string }[] };
    expect(sessions.sessions[0]?.harness_id).toBe(harnessId);
    await page.context().close();
  });

  it('creates a key shown once, revokes it after a confirmation, and the API refuses it; a member key sees the role explained', async () => {
    // The operator credits the key's principal, as `arbiter billing credit` does.
    const db = openDatabase(dataDir, migrations);
    const keys = await KeyStore.open(new SqliteDatabase(db));
    const principal = (await keys.list())[0]?.principal.id ?? '';
    await keys.close();
    // `credit` is asynchronous (one interface over SQLite and PostgreSQL): done before the close.
    await new PrepaidBudgets(db).credit(principal, 25_000_000_000, 'console test credit');
    db.close();
    const page = await openPage({ colorScheme: 'dark' });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await signIn(page);
    await page.getByRole('link', { name: 'Keys and budgets' }).click();
    await expect.poll(() => page.getByTestId('balance').textContent()).toContain('Balance 25 USD');
    expect(await page.getByTestId('ledger-entry').first().textContent()).toContain('console test credit');
    const rows = page.getByTestId('key-row');
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.first().textContent()).toContain('operator');

    // Created with the keyboard: the principal typed, Enter submits.
    const form = page.getByRole('form', { name: 'create a key' });
    await form.getByLabel('Principal').fill('console-made');
    const creating = page.waitForResponse((response) => response.url().endsWith('/v1/admin/keys'));
    await form.getByLabel('Principal').press('Enter');
    const created = (await (await creating).json()) as { id: string; key: string; role: string };
    expect(created.role).toBe('member');
    const shown = page.getByTestId('new-key');
    await shown.waitFor();
    expect(await shown.textContent()).toContain('it will not be shown again');
    const field = page.getByTestId('new-key-value');
    expect(await field.inputValue()).toBe(created.key);
    // The field has the focus, selected: the key can be copied without a mouse.
    expect(await page.evaluate('document.activeElement?.dataset.testid')).toBe('new-key-value');
    await shown.getByRole('button', { name: 'Copy key' }).click();
    await expect.poll(() => shown.textContent()).toContain('Copied.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(created.key);
    // The key works, and the listing the page reads never holds it.
    const models = (key: string) =>
      fetch(`${server.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect((await models(created.key)).status).toBe(200);
    await expect.poll(() => rows.count()).toBe(2);
    const listing = await fetch(`${server.url}/v1/admin/keys`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(await listing.text()).not.toContain(created.key.slice(4));

    // Revoked after a confirmation, by keyboard: the confirming button takes the focus, Enter presses it.
    const row = page.locator(`[data-key-id="${created.id}"]`);
    await row.getByRole('button', { name: 'Revoke…' }).click();
    const confirm = row.getByRole('button', { name: `Revoke ${created.id}` });
    await expect
      .poll(() => confirm.evaluate((button) => button === button.ownerDocument.activeElement))
      .toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => row.getByTestId('key-status').textContent()).toMatch(/^revoked /);
    const refused = await models(created.key);
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('invalid_credential');
    // The shown key belongs to a throwaway data directory and is revoked by now.
    await page.screenshot({ path: path.join(screenshots, 'keys.png'), fullPage: true });
    await shown.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => page.getByTestId('new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(created.key);

    // A member key: the page explains the operator role and shows the member's own budget only.
    const member = (await (
      await fetch(`${server.url}/v1/admin/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ principal: 'console-member' }),
      })
    ).json()) as { key: string };
    const memberPage = await openPage();
    await memberPage.goto(`${server.url}/console/keys`);
    await memberPage.getByLabel('API key').fill(member.key);
    await memberPage.getByLabel('API key').press('Enter');
    await expect.poll(() => memberPage.getByTestId('member-note').textContent()).toContain('member key');
    expect(await memberPage.getByTestId('member-note').textContent()).toContain('--operator');
    await expect.poll(() => memberPage.getByTestId('balance').textContent()).toContain('No budget');
    expect(await memberPage.getByTestId('key-row').count()).toBe(0);
    await memberPage.screenshot({ path: path.join(screenshots, 'keys-member.png') });
    await memberPage.context().close();

    await page.getByRole('link', { name: 'Decisions' }).click();
    await page.getByRole('button', { name: 'Ask' }).click();
    await page.locator('[data-question="urgent"]').waitFor();
    // A string, so the test's type-check (Node's lib, no DOM) reads it as the page's code.
    const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
    expect(background).toBe('rgb(19, 20, 23)');
    await page.screenshot({ path: path.join(screenshots, 'decisions-dark.png'), fullPage: true });
    await page.context().close();
    expect(violations).toEqual([]);
  });

  it('shows every principal’s budget to the operator, pages a ledger, and credits it once, recorded as the operator’s', async () => {
    const admin = async <T>(route: string, body?: unknown): Promise<T> => {
      const response = await fetch(`${server.url}/v1/admin${route}`, {
        method: body === undefined ? 'GET' : 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      expect(response.ok, route).toBe(true);
      return (await response.json()) as T;
    };
    const { principal } = await admin<{ principal: { id: string; name: string } }>('/keys', {
      principal: 'budget-demo',
    });
    // Twenty earlier credits: one page of the console's ledger, so the twenty-first starts a second.
    for (let n = 1; n <= 20; n++)
      await admin(`/budgets/${principal.id}/credits`, { amount: '1', note: `seed ${n}` });
    const operator = (
      await admin<{ keys: { role: string; principal: { name: string } }[] }>('/keys')
    ).keys.find((entry) => entry.role === 'operator')?.principal.name;

    const page = await openPage();
    await signIn(page);
    await page.getByRole('link', { name: 'Keys and budgets' }).click();
    const row = page.locator('[data-testid="budget-row"][data-principal="budget-demo"]');
    await expect.poll(() => row.getByTestId('budget-balance').textContent()).toBe('20 USD');
    // By keyboard: the row's button focused, Enter selects the principal.
    await row.getByRole('button', { name: 'Ledger of budget-demo' }).focus();
    await page.keyboard.press('Enter');
    const selected = page.getByTestId('selected-budget');
    await expect
      .poll(() => selected.getByTestId('selected-balance').textContent())
      .toContain('Balance 20 USD');
    const entries = selected.getByTestId('admin-ledger-entry');
    await expect.poll(() => entries.count()).toBe(20);

    // A bad amount: the API's own code and message, and nothing credited.
    const form = page.getByRole('form', { name: 'credit a budget' });
    await form.getByLabel('Amount').fill('12,50');
    await form.getByLabel('Amount').press('Enter');
    await expect.poll(() => form.getByRole('alert').textContent()).toContain('400 invalid_amount');
    expect(await form.getByRole('alert').textContent()).toContain('amount must be a positive decimal number');

    await form.getByLabel('Amount').fill('12.50');
    await form.getByLabel('Note').fill('console credit');
    const crediting = page.waitForRequest((request) =>
      request.url().endsWith(`/budgets/${principal.id}/credits`),
    );
    await form.getByLabel('Note').press('Enter');
    expect((await crediting).headers()['idempotency-key']).toMatch(/^console-[0-9a-f]{32}$/);
    await expect
      .poll(() => form.getByTestId('credit-done').textContent())
      .toContain('the balance is 32.5 USD');
    await expect.poll(() => row.getByTestId('budget-balance').textContent()).toBe('32.5 USD');
    await expect.poll(() => entries.first().textContent()).toContain('console credit');
    const newest = await entries.first().textContent();
    expect(newest).toContain('12.5');
    expect(newest).toContain(operator);
    expect(await form.getByRole('alert').count()).toBe(0);

    // The ledger as the API states it: one credit of 12.5, recorded as the operator's.
    const ledger = await admin<{
      entries: { amount: string; note: string; credited_by: { name: string } }[];
    }>(`/budgets/${principal.id}/ledger?limit=2`);
    expect(ledger.entries.map((entry) => [entry.amount, entry.note, entry.credited_by.name])).toEqual([
      ['12.5', 'console credit', operator],
      ['1', 'seed 20', operator],
    ]);

    // Paging: 21 entries are a page of 20 and a page of one, the oldest.
    await selected.getByRole('button', { name: 'Older entries' }).click();
    await expect.poll(() => selected.getByTestId('ledger-page').textContent()).toBe('Page 2');
    await expect.poll(() => entries.count()).toBe(1);
    expect(await entries.first().textContent()).toContain('seed 1');
    expect(await selected.getByRole('button', { name: 'Older entries' }).isDisabled()).toBe(true);
    await selected.getByRole('button', { name: 'Newer entries' }).click();
    await expect.poll(() => entries.count()).toBe(20);

    await page
      .locator('section.card', { has: page.getByRole('heading', { name: 'Budgets' }) })
      .screenshot({ path: path.join(screenshots, 'budgets.png') });
    await page.context().close();
    expect(violations).toEqual([]);
  });
});
