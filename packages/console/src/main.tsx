import { type ComponentType, render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, api, storedKey, storeKey } from './api-client.js';
import type { CatalogModel } from './decisions/decision-types.js';
import { DecisionsPage } from './decisions/decisions-page.js';
import { GatePage } from './gate/gate-page.js';
import { KeysPage } from './keys/keys-page.js';
import { hrefOf, navigate, PAGES, usePage } from './router.js';
import { RunsPage } from './runs/runs-page.js';
import { ErrorNote } from './shared.js';
import './console.css';

type Session =
  | { status: 'checking' }
  | { status: 'signed-out'; error: unknown }
  | { status: 'signed-in'; auth: 'api-key' | 'none'; models: CatalogModel[]; limited: string | null };

/**
 * The server says whether keys are required (`/health`); a key is checked by listing the models. A
 * key whose role may not list them (a reporter key, which only sends its hook's records) is still a
 * valid key: it signs in with the API's words about what it may call, and each page shows what the
 * API refuses it.
 */
async function open(): Promise<Session> {
  const health = await api<{ auth: 'api-key' | 'none' }>('/health');
  if (health.auth === 'api-key' && !storedKey()) return { status: 'signed-out', error: null };
  try {
    const { models } = await api<{ models: CatalogModel[] }>('/v1/models');
    return { status: 'signed-in', auth: health.auth, models, limited: null };
  } catch (error) {
    if (error instanceof ApiFailure && error.status === 403 && error.code === 'insufficient_scope')
      return { status: 'signed-in', auth: health.auth, models: [], limited: error.message };
    throw error;
  }
}

function SignIn({ error, onKey }: { error: unknown; onKey: (key: string) => void }) {
  const [key, setKey] = useState('');
  return (
    <form
      class="card sign-in"
      onSubmit={(event) => {
        event.preventDefault();
        onKey(key.trim());
      }}
    >
      <h2>Sign in</h2>
      <p>
        This server requires an API key (<code>arbiter keys create</code> makes one). It is kept in this tab
        only and sent as <code>Authorization: Bearer …</code>.
      </p>
      <label>
        API key
        <input
          type="password"
          name="key"
          autocomplete="off"
          value={key}
          onInput={(e) => setKey(e.currentTarget.value)}
        />
      </label>
      <button type="submit" disabled={key.trim() === ''}>
        Sign in
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

/**
 * The team view is its own chunk, fetched the first time it is opened (a same-origin hashed asset,
 * which the Content-Security-Policy allows): a console used for decisions does not load the team's
 * tables and plots.
 */
function LazyTeamPage() {
  const [page, setPage] = useState<{ view: ComponentType } | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    import('./gate/team-page.js').then((module) => setPage({ view: module.TeamPage }), setError);
  }, []);
  if (error) return <ErrorNote error={error} />;
  return page ? <page.view /> : <p class="muted">Loading the team view…</p>;
}

function App() {
  const page = usePage();
  const [session, setSession] = useState<Session>({ status: 'checking' });
  const start = () =>
    open().then(setSession, (error: unknown) => {
      if (error instanceof ApiFailure && error.status === 401) storeKey(null);
      setSession({ status: 'signed-out', error });
    });
  useEffect(() => {
    start();
  }, []);
  return (
    <>
      <header class="top">
        <h1>
          <a href={hrefOf('')}>Arbiter</a> <span class="muted">console</span>
        </h1>
        {session.status === 'signed-in' ? (
          <nav aria-label="pages">
            {PAGES.map((entry) => (
              <a
                key={entry.path}
                href={hrefOf(entry.path)}
                aria-current={entry.path === page ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  navigate(entry.path);
                }}
              >
                {entry.title}
              </a>
            ))}
          </nav>
        ) : null}
        {session.status === 'signed-in' ? (
          session.auth === 'none' ? (
            <span class="tag warn" title="the server runs with --no-auth: loopback only, one local principal">
              no auth
            </span>
          ) : (
            <button
              type="button"
              class="secondary"
              onClick={() => {
                storeKey(null);
                setSession({ status: 'signed-out', error: null });
              }}
            >
              Sign out
            </button>
          )
        ) : null}
      </header>
      <main>
        {session.status === 'signed-in' && session.limited ? (
          <p class="tag warn" data-testid="limited-key">
            This key's role is limited: {session.limited}
          </p>
        ) : null}
        {session.status === 'checking' ? <p class="muted">Connecting…</p> : null}
        {session.status === 'signed-out' ? (
          <SignIn
            error={session.error}
            onKey={(key) => {
              storeKey(key);
              setSession({ status: 'checking' });
              start();
            }}
          />
        ) : null}
        {session.status === 'signed-in' ? (
          page === '' ? (
            <DecisionsPage models={session.models} />
          ) : page === 'gate' ? (
            <GatePage models={session.models} />
          ) : page === 'team' ? (
            <LazyTeamPage />
          ) : page === 'runs' ? (
            <RunsPage />
          ) : (
            <KeysPage />
          )
        ) : null}
      </main>
    </>
  );
}

const root = document.getElementById('app');
if (root) render(<App />, root);
