import {
  type Harness,
  UHP_CAPABILITY_NAMES,
  UhpApiError,
  type UhpClient,
  type UhpConnection,
} from '@arbiter/uhp';
import select from '@inquirer/select';
import { invocationIo, invocationStdout } from '../../invocation-io.js';
import { ARBITER_API_KEY_ENV } from './api-key-env.js';
import { createClientFor, openLocalStore, UHP_API_KEY_ENV } from './command-context.js';

/** Where an Arbiter server mounts its UHP API, tried when the URL given is the server's root. */
const ARBITER_HARNESS_PATH = '/api/harness';

export interface ConnectOptions {
  readonly apiKey?: string;
  readonly harness?: string;
}

export function describeHarness(harness: Harness): string {
  const model = harness.defaultModel ? `, default model ${harness.defaultModel}` : '';
  return `${harness.name} (${harness.id}; base ${harness.base}${model})`;
}

function normaliseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(
      `'${raw}' is not a URL; give the server's base URL, e.g. http://127.0.0.1:8080/api/harness.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error('The server URL must be http or https.');
  if (url.username || url.password) throw new Error('Put credentials in --api-key, not in the URL.');
  return url.toString().replace(/\/+$/, '');
}

async function chooseHarness(harnesses: Harness[], requested: string | undefined): Promise<Harness | null> {
  if (requested !== undefined) {
    const match = harnesses.find((harness) => harness.id === requested || harness.name === requested);
    if (!match) {
      const known = harnesses.map((harness) => harness.id).join(', ') || 'none';
      throw new Error(`The server has no harness '${requested}' (it has: ${known}). Nothing was saved.`);
    }
    return match;
  }
  if (harnesses.length <= 1) return harnesses[0] ?? null;
  const io = invocationIo();
  if (!io.isTerminal('stdin') || !io.isTerminal('stdout')) {
    throw new Error(
      'The server has several harnesses; pass --harness <id> (or run on a terminal to pick). Nothing was saved.',
    );
  }
  const id = await select({
    message: 'Which harness?',
    choices: harnesses.map((harness) => ({ name: describeHarness(harness), value: harness.id })),
  });
  return harnesses.find((harness) => harness.id === id) ?? null;
}

/**
 * The key to send: `--api-key`, else `$ARBITER_UHP_API_KEY` (a key for a UHP server that is not
 * this project's), else `$ARBITER_API_KEY` (the variable the README has an Arbiter user export).
 */
export function connectionApiKey(
  given: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  return given ?? (env[UHP_API_KEY_ENV] || undefined) ?? (env[ARBITER_API_KEY_ENV] || undefined);
}

/**
 * Connects to the URL as given; when nothing answers the discovery document there (404) and the
 * URL does not already end in `/api/harness`, tries again below it, where an Arbiter server
 * mounts the UHP API, so the server's root URL (the one its banner prints first) works too.
 */
async function connectAt(
  url: string,
  apiKey: string | undefined,
): Promise<{ url: string; client: UhpClient; connection: UhpConnection }> {
  const client = createClientFor(url, apiKey);
  try {
    return { url, client, connection: await client.connect() };
  } catch (error) {
    const notHere = error instanceof UhpApiError && error.status === 404;
    if (!notHere || new URL(url).pathname.replace(/\/+$/, '').endsWith(ARBITER_HARNESS_PATH)) throw error;
    const below = `${url}${ARBITER_HARNESS_PATH}`;
    const belowClient = createClientFor(below, apiKey);
    try {
      return { url: below, client: belowClient, connection: await belowClient.connect() };
    } catch (belowError) {
      if (belowError instanceof UhpApiError && belowError.status === 404) throw error;
      throw belowError;
    }
  }
}

/** `arbiter uhp connect <url>`: discover, show, choose a harness, save. */
export async function connectCommand(rawUrl: string, options: ConnectOptions): Promise<void> {
  const apiKey = connectionApiKey(options.apiKey);
  const { url, client, connection } = await connectAt(normaliseUrl(rawUrl), apiKey);
  const { discovery, harnesses } = connection;
  const implementation = discovery.implementation
    ? ` (${[discovery.implementation.name, discovery.implementation.version].filter(Boolean).join(' ')})`
    : '';
  const offered = UHP_CAPABILITY_NAMES.filter((name) => discovery.capabilities[name] === true);
  const out = invocationStdout();
  out.write(`Server        ${url}${implementation}\n`);
  out.write(`Protocol      UHP ${client.http.version} (server supports ${discovery.versions.join(', ')})\n`);
  out.write(`Class         ${discovery.conformance_class}\n`);
  out.write(`Capabilities  ${offered.join(', ') || 'none'}\n`);
  out.write(
    `Auth          ${apiKey ? 'bearer key accepted (stored, never shown)' : 'none sent; the server allowed it'}\n`,
  );
  out.write(`Harnesses     ${harnesses.length === 0 ? 'none' : harnesses.length}\n`);
  for (const harness of harnesses) out.write(`  ${describeHarness(harness)}\n`);

  const chosen = await chooseHarness(harnesses, options.harness);
  const store = await openLocalStore();
  store.saveConnection({
    url,
    ...(apiKey ? { apiKey } : {}),
    ...(chosen ? { harnessId: chosen.id } : {}),
    protocolVersion: client.http.version,
    conformanceClass: discovery.conformance_class,
    savedAt: Date.now(),
  });
  await store.save();
  out.write(
    chosen
      ? `Active harness: ${chosen.name} (${chosen.id})\n`
      : 'No harness selected; the server will choose its default.\n',
  );
  out.write(`Saved to ${store.path}\n`);
}
