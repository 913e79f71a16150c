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

function page(options: HomePageOptions): string {
  const links = [
    ['/console/', 'Console', 'the web console: decisions, the tool gate, harness runs'],
    ['/docs', 'API reference', 'the Decision API, rendered from its OpenAPI document'],
    ['/openapi.json', 'OpenAPI document', 'the same reference, machine-readable'],
    ...(options.harness
      ? [
          [
            '/api/harness/v1/uhp',
            'UHP discovery document',
            'the harness API (UHP 2026-08-11) under /api/harness',
          ],
        ]
      : []),
    ['/health', 'Health', 'liveness, and whether API keys are required'],
  ];
  const items = links
    .map(([href, name, what]) => `<li><a href="${href}">${name}</a> — ${what}</li>`)
    .join('\n      ');
  const guides = GUIDES.map(([file, what]) => `<li><code>${file}</code> — ${what}</li>`).join('\n      ');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <title>Arbiter ${options.version}</title>
    <style>body{font:16px/1.5 system-ui,sans-serif;max-width:44rem;margin:2rem auto;padding:0 1rem}code{font-size:90%}</style>
  </head>
  <body>
    <h1>Arbiter ${options.version}</h1>
    <p>Typed decisions (<code>POST /v1/decision</code>, and <code>POST /v1/systemone</code> for System One clients)${options.harness ? ' and a UHP harness server' : ''}. Requests need <code>Authorization: Bearer &lt;key&gt;</code> unless the server runs with <code>--no-auth</code>.</p>
    <ul>
      ${items}
    </ul>
    <h2>Documentation</h2>
    <p>In the Arbiter repository:</p>
    <ul>
      ${guides}
    </ul>
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
    reply.type('text/html; charset=utf-8').send(html);
  });
}
