import { useRef, useState } from 'preact/hooks';
import { api, postStream } from '../api-client.js';
import { ErrorNote } from '../shared.js';
import { HARNESS_API, type Harness, type OutputItem, type UhpResponse } from './harness-types.js';

interface StreamedItem {
  item: OutputItem;
  /** Text received so far by delta, shown until the item is done. */
  live: string;
}

function textOf(entry: StreamedItem): string {
  const { item } = entry;
  const parts = item.type === 'reasoning' ? item.summary : item.content;
  const done = parts?.map((part) => part.text ?? '').join('') ?? '';
  return done || entry.live;
}

function ItemView({ entry }: { entry: StreamedItem }) {
  const { item } = entry;
  if (item.type === 'message') return <div class="item message">{textOf(entry)}</div>;
  if (item.type === 'reasoning') return <div class="item reasoning">{textOf(entry)}</div>;
  if (item.type === 'function_call')
    return (
      <div class="item tool">
        <strong>{item.name}</strong> <code>{item.arguments ?? entry.live}</code>
      </div>
    );
  if (item.type === 'function_call_output')
    return (
      <div class="item tool">
        <span class="muted">result</span> <pre class="output">{item.output}</pre>
      </div>
    );
  return (
    <div class="item">
      <code>{item.type}</code>
    </div>
  );
}

/**
 * Starts a task (`POST /v1/responses` with `stream: true`) and shows its events as they arrive;
 * cancels it, and continues the session with `previous_response_id`.
 */
export function TaskRunner({ harnesses, onFinished }: { harnesses: Harness[]; onFinished: () => void }) {
  const [chosenHarness, setHarnessId] = useState('');
  // The list holds the principal's default harness too (the server creates it on first use), so
  // the picker shows each harness once, preselecting the first, rather than a "default" entry
  // beside the harness it stands for. A task always names the harness it runs on.
  const harnessId = harnesses.some((harness) => harness.id === chosenHarness)
    ? chosenHarness
    : (harnesses[0]?.id ?? '');
  const [input, setInput] = useState(
    '@think plan the note\n@write notes/hello.txt <<<Hello from the console>>>\n@say The note is written.',
  );
  const [items, setItems] = useState<StreamedItem[]>([]);
  const [response, setResponse] = useState<UhpResponse | null>(null);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [continuing, setContinuing] = useState(false);
  const itemsRef = useRef<StreamedItem[]>([]);

  const update = (next: StreamedItem[]) => {
    itemsRef.current = next;
    setItems(next);
  };

  const start = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setRunning(true);
    update([]);
    const previous = continuing && response ? response.id : undefined;
    const body = {
      input,
      stream: true,
      ...(previous ? { previous_response_id: previous } : {}),
      ...(harnessId && !previous ? { metadata: { harness_id: harnessId } } : {}),
    };
    try {
      await postStream(`${HARNESS_API}/responses`, body, ({ event: name, data }) => {
        const payload = data as {
          response?: UhpResponse;
          item?: OutputItem;
          output_index?: number;
          delta?: string;
          code?: string;
          message?: string;
        };
        const current = itemsRef.current;
        if (payload.response && (name === 'response.created' || payload.response.status !== 'in_progress'))
          setResponse(payload.response);
        if (name === 'response.output_item.added' && payload.item && payload.output_index !== undefined) {
          const next = [...current];
          next[payload.output_index] = { item: payload.item, live: '' };
          update(next);
        } else if (
          name === 'response.output_item.done' &&
          payload.item &&
          payload.output_index !== undefined
        ) {
          const next = [...current];
          next[payload.output_index] = {
            item: payload.item,
            live: current[payload.output_index]?.live ?? '',
          };
          update(next);
        } else if (
          name.endsWith('.delta') &&
          payload.delta !== undefined &&
          payload.output_index !== undefined
        ) {
          const next = [...current];
          const entry = next[payload.output_index];
          if (entry) next[payload.output_index] = { ...entry, live: entry.live + payload.delta };
          update(next);
        } else if (name === 'error') {
          setError(new Error(`${payload.code ?? 'error'}: ${payload.message ?? ''}`));
        }
      });
    } catch (failure) {
      setError(failure);
    } finally {
      setRunning(false);
      onFinished();
    }
  };

  const cancel = async () => {
    if (!response) return;
    try {
      await api(`${HARNESS_API}/responses/${response.id}/cancel`, { method: 'POST' });
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <form class="card" onSubmit={start} aria-label="task">
      <h2>{continuing && response ? 'Continue the session' : 'Start a task'}</h2>
      {continuing && response ? (
        <p class="muted">
          continues session <code>{String(response.metadata.session_id)}</code> after{' '}
          <code>{response.id}</code>{' '}
          <button type="button" class="secondary" onClick={() => setContinuing(false)}>
            New session instead
          </button>
        </p>
      ) : (
        <label>
          Harness
          <select name="harness" value={harnessId} onChange={(e) => setHarnessId(e.currentTarget.value)}>
            {harnesses.length === 0 ? <option value="">the server’s default harness</option> : null}
            {harnesses.map((harness) => (
              <option key={harness.id} value={harness.id}>
                {harness.name} ({harness.defaultModel})
              </option>
            ))}
          </select>
        </label>
      )}
      <label>
        <span>
          Task (the offline model follows <code>@say</code>, <code>@think</code>,{' '}
          <code>@write PATH &lt;&lt;&lt;…&gt;&gt;&gt;</code>, <code>@shell</code>, <code>@sleep MS</code>)
        </span>
        <textarea name="task-input" rows={4} value={input} onInput={(e) => setInput(e.currentTarget.value)} />
      </label>
      <div class="row">
        <button type="submit" disabled={running}>
          {running ? 'Running…' : continuing ? 'Continue' : 'Start'}
        </button>
        <button type="button" class="secondary" disabled={!running || !response} onClick={cancel}>
          Cancel
        </button>
        {!running && response && !continuing ? (
          <button type="button" class="secondary" onClick={() => setContinuing(true)}>
            Continue this session
          </button>
        ) : null}
      </div>
      {response ? (
        <p class="muted" aria-live="polite">
          <code>{response.id}</code> · <span data-status={response.status}>{response.status}</span> · model{' '}
          {response.model}
          {response.error ? ` · ${response.error.message}` : ''}
        </p>
      ) : null}
      <div class="event-log" aria-live="polite" data-testid="task-output">
        {items.map((entry, index) => (entry ? <ItemView key={index} entry={entry} /> : null))}
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
