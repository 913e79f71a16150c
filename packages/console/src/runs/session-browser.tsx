import { useEffect, useState } from 'preact/hooks';
import { ApiFailure, api, download } from '../api-client.js';
import { ErrorNote } from '../shared.js';
import {
  HARNESS_API,
  type SessionFile,
  type SessionSummary,
  type Share,
  type Turn,
} from './harness-types.js';

/** A turn's input as text: a string, or the text parts of its message items. */
function inputText(input: unknown): string {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) return JSON.stringify(input);
  return input
    .flatMap((item: { content?: { type?: string; text?: string }[] }) => item.content ?? [])
    .map((part) => (part.type === 'input_text' ? (part.text ?? '') : `[${part.type ?? 'part'}]`))
    .join('\n');
}

/** One session: its turns, its files (downloaded with the credential) and its share link. */
function SessionDetail({ session }: { session: SessionSummary }) {
  const [turns, setTurns] = useState<Turn[]>([]);
  const [files, setFiles] = useState<SessionFile[]>([]);
  const [share, setShare] = useState<Share | null>(null);
  const [error, setError] = useState<unknown>(null);
  const base = `${HARNESS_API}/sessions/${session.id}`;

  useEffect(() => {
    setError(null);
    Promise.all([
      api<{ turns: Turn[] }>(`${base}/turns`),
      api<{ files: SessionFile[] }>(`${base}/files`),
      api<Share>(`${base}/share`).catch((failure: unknown) => {
        if (failure instanceof ApiFailure && failure.status === 404) return null;
        throw failure;
      }),
    ]).then(([t, f, s]) => {
      setTurns(t.turns);
      setFiles(f.files);
      setShare(s);
    }, setError);
  }, [session.id, session.turn_count]);

  const act = (action: () => Promise<void>) => () => {
    setError(null);
    action().catch(setError);
  };

  return (
    <div class="session-detail">
      <h3>
        Session <code>{session.id}</code>
      </h3>
      <table>
        <thead>
          <tr>
            <th>#</th>
            <th>Status</th>
            <th>Input</th>
            <th>Answer</th>
          </tr>
        </thead>
        <tbody>
          {turns.map((turn) => (
            <tr key={turn.response_id}>
              <td>{turn.index}</td>
              <td>{turn.status}</td>
              <td class="pre">{inputText(turn.input)}</td>
              <td>{turn.output_text}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Files</h3>
      {files.length === 0 ? <p class="muted">No files.</p> : null}
      <ul>
        {files.map((file) => (
          <li key={file.id}>
            {file.filename}{' '}
            <span class="muted">
              ({file.bytes} bytes, {file.media_type})
            </span>{' '}
            <button
              type="button"
              class="secondary"
              onClick={act(() =>
                download(
                  `${HARNESS_API}/containers/${file.container_id}/files/${file.id}/content`,
                  file.filename.split('/').pop() ?? file.filename,
                ),
              )}
            >
              Download
            </button>
          </li>
        ))}
      </ul>
      {files.length > 0 ? (
        <button
          type="button"
          class="secondary"
          onClick={act(() => download(`${base}/files/archive`, `${session.id}.zip`))}
        >
          Download all (zip)
        </button>
      ) : null}
      <h3>Share link</h3>
      {share ? (
        <p>
          <a href={share.url} target="_blank" rel="noopener noreferrer" data-testid="share-url">
            {share.url}
          </a>{' '}
          <button
            type="button"
            class="secondary"
            onClick={act(async () => {
              await api(`${base}/share`, { method: 'DELETE' });
              setShare(null);
            })}
          >
            Revoke
          </button>
        </p>
      ) : (
        <button
          type="button"
          class="secondary"
          onClick={act(async () => setShare(await api<Share>(`${base}/share`, { method: 'POST' })))}
        >
          Create a read-only share link
        </button>
      )}
      <ErrorNote error={error} />
    </div>
  );
}

export function SessionBrowser({ version }: { version: number }) {
  const [sessions, setSessions] = useState<SessionSummary[]>([]);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    api<{ sessions: SessionSummary[] }>(`${HARNESS_API}/sessions?limit=50`).then((list) => {
      setSessions(list.sessions);
      setSelected((current) => current ?? list.sessions[0]?.id ?? null);
    }, setError);
  }, [version]);
  const session = sessions.find((entry) => entry.id === selected);
  return (
    <section class="card">
      <h2>Sessions</h2>
      <ErrorNote error={error} />
      {sessions.length === 0 ? <p class="muted">No sessions yet: start a task.</p> : null}
      <ul class="session-list">
        {sessions.map((entry) => (
          <li key={entry.id}>
            <button
              type="button"
              class={entry.id === selected ? '' : 'secondary'}
              aria-pressed={entry.id === selected}
              onClick={() => setSelected(entry.id)}
            >
              {entry.title ?? entry.id}
            </button>{' '}
            <span class="muted">
              {entry.status} · {entry.turn_count} turn{entry.turn_count === 1 ? '' : 's'}
            </span>
          </li>
        ))}
      </ul>
      {session ? <SessionDetail session={session} /> : null}
    </section>
  );
}
