import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiFailure, api } from '../api-client.js';
import { ErrorNote, Section } from '../shared.js';

const ADMIN_API = '/v1/admin';

type Role = 'operator' | 'member';

interface PrincipalEntry {
  id: string;
  name: string;
  created_at: string;
  active_keys: number;
}

interface KeyEntry {
  id: string;
  principal: { id: string; name: string };
  role: Role;
  hint: string;
  created_at: string;
  revoked_at: string | null;
}

interface CreatedKey extends KeyEntry {
  key: string;
}

type Listing =
  | { status: 'loading' }
  | { status: 'operator'; principals: PrincipalEntry[]; keys: KeyEntry[] }
  | { status: 'member'; message: string }
  | { status: 'failed'; error: unknown };

async function loadListing(): Promise<Listing> {
  try {
    const [principals, keys] = await Promise.all([
      api<{ principals: PrincipalEntry[] }>(`${ADMIN_API}/principals`),
      api<{ keys: KeyEntry[] }>(`${ADMIN_API}/keys`),
    ]);
    return { status: 'operator', principals: principals.principals, keys: keys.keys };
  } catch (error) {
    // The API decides who is an operator; the page only shows its answer.
    if (error instanceof ApiFailure && error.code === 'operator_required')
      return { status: 'member', message: error.message };
    return { status: 'failed', error };
  }
}

/** The key just created: shown here once, with a copy button; the API never returns it again. */
function NewKey({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const [copied, setCopied] = useState<'no' | 'yes' | 'failed'>('no');
  const keyRef = useRef<HTMLInputElement>(null);
  useEffect(() => keyRef.current?.focus(), []);
  return (
    <div class="new-key" role="status" data-testid="new-key">
      <p>
        <strong>
          New {created.role} key for {created.principal.name}
        </strong>{' '}
        (<code class="id">{created.id}</code>). Copy it now: <strong>it will not be shown again</strong>.
      </p>
      <label>
        The new key
        {/* A read-only field: focused at once and selected, so it can be copied by keyboard too. */}
        <input
          class="secret"
          readOnly
          value={created.key}
          ref={keyRef}
          data-testid="new-key-value"
          onFocus={(e) => e.currentTarget.select()}
        />
      </label>
      <div class="row">
        <button
          type="button"
          onClick={() =>
            navigator.clipboard.writeText(created.key).then(
              () => setCopied('yes'),
              () => setCopied('failed'),
            )
          }
        >
          Copy key
        </button>
        <button type="button" class="secondary" onClick={onDone}>
          Done
        </button>
        <span class="muted" aria-live="polite">
          {copied === 'yes'
            ? 'Copied.'
            : copied === 'failed'
              ? 'The browser refused the clipboard: select the key and copy it.'
              : ''}
        </span>
      </div>
    </div>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (created: CreatedKey) => void }) {
  const [principal, setPrincipal] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  return (
    <form
      aria-label="create a key"
      onSubmit={async (event) => {
        event.preventDefault();
        setError(null);
        setBusy(true);
        try {
          const name = principal.trim();
          onCreated(
            await api<CreatedKey>(`${ADMIN_API}/keys`, {
              body: { ...(name ? { principal: name } : {}), role },
            }),
          );
          setPrincipal('');
          setRole('member');
        } catch (failure) {
          setError(failure);
        } finally {
          setBusy(false);
        }
      }}
    >
      <div class="row">
        <label>
          Principal
          <input
            name="key-principal"
            placeholder="empty: a new principal of its own"
            value={principal}
            onInput={(e) => setPrincipal(e.currentTarget.value)}
          />
        </label>
        <label>
          Role
          <select name="key-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
            <option value="member">member</option>
            <option value="operator">operator</option>
          </select>
        </label>
        <button type="submit" disabled={busy}>
          Create key
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}

/** One key's row; revoking asks once more, in the row, with the focus on the confirming button. */
function KeyRow({ entry, onRevoked }: { entry: KeyEntry; onRevoked: () => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) confirmRef.current?.focus();
  }, [confirming]);
  return (
    <tr data-testid="key-row" data-key-id={entry.id}>
      <td>
        <code class="id">{entry.id}</code>
      </td>
      <td>{entry.principal.name}</td>
      <td>{entry.role === 'operator' ? <span class="tag">operator</span> : 'member'}</td>
      <td>
        <code>…{entry.hint}</code>
      </td>
      <td>{new Date(entry.created_at).toLocaleString()}</td>
      <td data-testid="key-status">
        {entry.revoked_at ? `revoked ${new Date(entry.revoked_at).toLocaleString()}` : 'active'}
      </td>
      <td>
        {entry.revoked_at ? null : confirming ? (
          <span class="row">
            <span>Refuse this key from the next request on?</span>
            <button
              type="button"
              ref={confirmRef}
              onClick={async () => {
                setError(null);
                try {
                  await api(`${ADMIN_API}/keys/${encodeURIComponent(entry.id)}/revoke`, { method: 'POST' });
                  setConfirming(false);
                  onRevoked();
                } catch (failure) {
                  setError(failure);
                }
              }}
            >
              Revoke {entry.id}
            </button>
            <button type="button" class="secondary" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </span>
        ) : (
          <button type="button" class="secondary" onClick={() => setConfirming(true)}>
            Revoke…
          </button>
        )}
        <ErrorNote error={error} />
      </td>
    </tr>
  );
}

function OperatorView({
  principals,
  keys,
  reload,
  aside,
  budgets,
}: {
  principals: PrincipalEntry[];
  keys: KeyEntry[];
  reload: () => void;
  aside: ComponentChildren;
  budgets: OperatorSection;
}) {
  const [created, setCreated] = useState<CreatedKey | null>(null);
  return (
    <>
      <Section title="API keys">
        <p class="muted">
          You are signed in with an operator key. Member keys use the API as their principal; operator keys
          also manage principals and keys. The last operator key cannot be revoked.
        </p>
        <CreateKeyForm
          onCreated={(key) => {
            setCreated(key);
            reload();
          }}
        />
        {created ? <NewKey created={created} onDone={() => setCreated(null)} /> : null}
        <table aria-label="keys">
          <thead>
            <tr>
              <th>Id</th>
              <th>Principal</th>
              <th>Role</th>
              <th>Key</th>
              <th>Created</th>
              <th>Status</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {keys.map((entry) => (
              <KeyRow key={entry.id} entry={entry} onRevoked={reload} />
            ))}
          </tbody>
        </table>
      </Section>
      <div class="columns">
        <Section title="Principals">
          <table aria-label="principals">
            <thead>
              <tr>
                <th>Name</th>
                <th>Id</th>
                <th>Active keys</th>
                <th>Created</th>
              </tr>
            </thead>
            <tbody>
              {principals.map((entry) => (
                <tr key={entry.id} data-testid="principal-row">
                  <td>{entry.name}</td>
                  <td>
                    <code class="id">{entry.id}</code>
                  </td>
                  <td>{entry.active_keys}</td>
                  <td>{new Date(entry.created_at).toLocaleString()}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Section>
        {aside}
      </div>
      {budgets(principals.length)}
    </>
  );
}

/** A section only an operator sees, drawn again when the number of principals changes. */
export type OperatorSection = (principalCount: number) => ComponentChildren;

/**
 * Principals and keys over the operator routes (`/v1/admin/…`). Whether the signed-in key may see
 * them is the API's answer: a member key gets `operator_required`, and the page explains the role.
 */
export function KeyAdministration({
  aside,
  operatorSection,
}: {
  aside: ComponentChildren;
  operatorSection: OperatorSection;
}) {
  const [listing, setListing] = useState<Listing>({ status: 'loading' });
  const reload = () => {
    loadListing().then(setListing);
  };
  useEffect(reload, []);
  if (listing.status === 'loading') return <p class="muted">Loading keys…</p>;
  if (listing.status === 'failed')
    return (
      <div class="columns">
        <Section title="API keys">
          <ErrorNote error={listing.error} />
        </Section>
        {aside}
      </div>
    );
  if (listing.status === 'member')
    return (
      <div class="columns">
        <Section title="API keys">
          <p role="status" data-testid="member-note">
            <strong>Your key is a member key.</strong> Principals and keys are managed with an operator key:
            the first key <code>arbiter serve</code> printed, one made with{' '}
            <code>arbiter keys create --operator</code>, or one an operator created here with the role{' '}
            <em>operator</em>. A member key uses the API as its own principal; it cannot list, create or
            revoke keys, so no key can mint keys that outlive its own revocation.
          </p>
          <p class="muted">The API said: {listing.message}</p>
        </Section>
        {aside}
      </div>
    );
  return (
    <OperatorView
      principals={listing.principals}
      keys={listing.keys}
      reload={reload}
      aside={aside}
      budgets={operatorSection}
    />
  );
}
