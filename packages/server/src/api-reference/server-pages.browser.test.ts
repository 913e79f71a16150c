import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../server.js';

/**
 * The server's own browser pages, `/` and the API reference at `/docs/`, in a real headless
 * Chromium (Debian's, as the console's tests use) against a real server on loopback. Every request
 * a page makes is routed through the test: one to anywhere but this server fails the test (and is
 * never sent), and so does one the page's policy blocked first (the browser reports it as a
 * violation), so the reference is shown to work on a machine with no network.
 */
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

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-server-pages-'));
  server = await startServer({ port: 0, host: '127.0.0.1', dataDir, harness: false });
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS, headless: true });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Watched {
  readonly context: BrowserContext;
  /** Requests for anything but this server, refused before they left. */
  readonly external: string[];
  /** Content-Security-Policy violations and page errors the browser reported. */
  readonly problems: string[];
}

async function watchedContext(): Promise<Watched> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const external: string[] = [];
  const problems: string[] = [];
  const origin = new URL(server.url).origin;
  await context.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${origin}/`) || url.startsWith('data:')) return route.continue();
    external.push(url);
    return route.abort('blockedbyclient');
  });
  // A WebSocket is not routed like a request; none may be opened.
  context.on('page', (page) => {
    page.on('websocket', (socket) => external.push(socket.url()));
    page.on('console', (message) => {
      if (/Content.Security.Policy/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(String(error)));
  });
  return { context, external, problems };
}

describe('the API reference at /docs/', () => {
  it('is served with a strict policy: scripts from this server only, no inline script', async () => {
    const response = await fetch(`${server.url}/docs/`);
    expect(response.status).toBe(200);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await response.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(html).not.toMatch(/<script>(?!<)/);
    const etag = response.headers.get('etag') ?? '';
    expect((await fetch(`${server.url}/docs/`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const bare = await fetch(`${server.url}/docs?x=1`, { redirect: 'manual' });
    expect(bare.status).toBe(301);
    expect(bare.headers.get('location')).toBe('/docs/?x=1');
  });

  it('renders the reference in Chromium with no request leaving this server', async () => {
    const { context, external, problems } = await watchedContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/docs/`);
    // The document's title and an operation of the Decision API, drawn by the renderer.
    await page.getByRole('heading', { name: 'Arbiter API', exact: false }).first().waitFor();
    await page.getByText('/v1/decision', { exact: false }).first().waitFor();
    // The vendor's cloud features are off.
    expect(await page.getByText('Ask AI').count()).toBe(0);
    expect(await page.getByText('Generate SDKs').count()).toBe(0);
    // Let the page settle, then look at what it asked for: the renderer loads lazily.
    await page.waitForLoadState('networkidle');
    await page.getByText('/v1/decision', { exact: false }).first().click();
    await page.waitForLoadState('networkidle');
    expect(external).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('the home page /', () => {
  it('is styled under a policy that admits its one style and nothing else', async () => {
    const response = await fetch(`${server.url}/`);
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toMatch(/style-src 'sha256-[A-Za-z0-9+/=]+'/);
    expect(policy).not.toContain('script-src');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');

    const { context, external, problems } = await watchedContext();
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.locator('.links li').first().waitFor();
    // The style applied (a hash that did not match would leave the list unstyled, and say so).
    expect(await page.evaluate("getComputedStyle(document.querySelector('.links li')).borderRadius")).toBe(
      '8px',
    );
    await page.getByRole('link', { name: /API reference/ }).click();
    await page.waitForURL(`${server.url}/docs/`);
    await page.getByText('/v1/decision', { exact: false }).first().waitFor();
    expect(external).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
