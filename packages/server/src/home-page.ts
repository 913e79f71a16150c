import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

export interface HomePageOptions {
  readonly version: string;
  /** Whether the UHP API is served under /api/harness. */
  readonly harness: boolean;
}

/** The guides of the Arbiter repository, named so a reader can find them (the server does not serve them). */
const GUIDES = [
  ['docs/user-guide.md', 'User guide: the server, the commands, keys'],
  ['docs/api.md', 'Decision API: request, response, errors, limits, System One compatibility'],
  ['docs/configuration.md', 'Configuration: data directory, catalog, limits'],
  ['docs/tool-gate.md', 'Tool gate: judging agent tool calls, host hooks'],
  ['docs/uhp-server.md', 'UHP server: harnesses, sessions, files'],
] as const;

/**
 * The page's only style, inline so the page is one response; the policy admits exactly this text by
 * its hash, so nothing else can style or script the page. The palette is the console's.
 */
const STYLE = [
  ':root{color-scheme:light dark;--bg:#f7f7f8;--fg:#1b1c1f;--muted:#60646c;--card:#fff;--line:#d9dbe0;--accent:#2457d6;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif}',
  '@media (prefers-color-scheme:dark){:root{--bg:#131417;--fg:#e6e7ea;--muted:#9a9ea8;--card:#1c1e22;--line:#33363d;--accent:#7aa2ff}}',
  '*{box-sizing:border-box}',
  'body{margin:0;background:var(--bg);color:var(--fg)}',
  'header{padding:1.2rem 1.5rem;border-bottom:1px solid var(--line);background:var(--card)}',
  'header h1{margin:0;font-size:1.4rem}header h1 span{color:var(--muted);font-weight:400;font-size:1rem;margin-left:.5rem}',
  'main{max-width:52rem;margin:0 auto;padding:1.5rem}',
  'p{margin:.4rem 0 1rem}',
  'a{color:var(--accent)}',
  'code{font-family:ui-monospace,"SFMono-Regular",Menlo,monospace;font-size:.85em}',
  '.links{list-style:none;padding:0;display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));gap:.8rem}',
  '.links li{background:var(--card);border:1px solid var(--line);border-radius:8px}',
  '.links a{display:block;padding:.8rem 1rem;text-decoration:none;height:100%}',
  '.links a:hover,.links a:focus{outline:2px solid var(--accent);border-radius:8px}',
  '.links strong{display:block}.links small{color:var(--muted)}',
  'h2{font-size:1.1rem;margin-top:2rem}',
  '.guides{padding-left:1.2rem}.guides li{margin:.2rem 0}',
].join('');

/**
 * The page's policy: no script at all, the one style above, nothing loaded from anywhere, no
 * framing. The same intent as the console's policy, for a page without a script.
 */
export const HOME_PAGE_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

function page(options: HomePageOptions): string {
  const links = [
    ['/console/', 'Console', 'decisions, the tool gate, harness runs, keys'],
    ['/docs/', 'API reference', 'the Decision API, rendered from its OpenAPI document'],
    ['/openapi.json', 'OpenAPI document', 'the same reference, machine-readable'],
    ...(options.harness
      ? [['/api/harness/v1/uhp', 'UHP discovery document', 'the harness API (UHP 2026-08-11)']]
      : []),
    ['/health', 'Health', 'liveness, and whether API keys are required'],
  ];
  const items = links
    .map(
      ([href, name, what]) => `<li><a href="${href}"><strong>${name}</strong><small>${what}</small></a></li>`,
    )
    .join('\n        ');
  const guides = GUIDES.map(([file, what]) => `<li><code>${file}</code> — ${what}</li>`).join('\n        ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Arbiter ${options.version}</title>
    <style>${STYLE}</style>
  </head>
  <body>
    <header><h1>Arbiter<span>${options.version}</span></h1></header>
    <main>
      <p>Typed decisions (<code>POST /v1/decision</code>, and <code>POST /v1/systemone</code> for System One clients)${options.harness ? ' and a UHP harness server under <code>/api/harness</code>' : ''}. Requests need <code>Authorization: Bearer &lt;key&gt;</code> unless the server runs with <code>--no-auth</code>.</p>
      <ul class="links">
        ${items}
      </ul>
      <h2>Documentation</h2>
      <p>In the Arbiter repository:</p>
      <ul class="guides">
        ${guides}
      </ul>
    </main>
  </body>
</html>
`;
}

/**
 * `GET /`: a small page for a person who opens the server in a browser, linking what there is.
 * Static text built once; it names no key, principal or path of this machine.
 */
export async function homePage(app: FastifyInstance, options: HomePageOptions): Promise<void> {
  const html = page(options);
  app.get('/', { schema: { hide: true } }, (_request, reply) => {
    reply
      .header('content-security-policy', HOME_PAGE_CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      .type('text/html; charset=utf-8')
      .send(html);
  });
}
