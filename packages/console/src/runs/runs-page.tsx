import { useEffect, useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { ErrorNote, Section } from '../shared.js';
import { HarnessEditor } from './harness-editor.js';
import { HARNESS_API, type Harness } from './harness-types.js';
import { SessionBrowser } from './session-browser.js';
import { TaskRunner } from './task-runner.js';

export function RunsPage() {
  const [harnesses, setHarnesses] = useState<Harness[]>([]);
  const [editing, setEditing] = useState<Harness | 'new' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [version, setVersion] = useState(0);
  const reload = () =>
    api<{ harnesses: Harness[] }>(`${HARNESS_API}/harnesses`).then(
      (list) => setHarnesses(list.harnesses),
      setError,
    );
  useEffect(() => {
    reload();
  }, []);
  return (
    <div class="columns">
      <div>
        <TaskRunner harnesses={harnesses} onFinished={() => setVersion(version + 1)} />
        <Section title="Harnesses">
          <ErrorNote error={error} />
          <table>
            <thead>
              <tr>
                <th>Name</th>
                <th>Model</th>
                <th>Disabled tools</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {harnesses.map((harness) => (
                <tr key={harness.id}>
                  <td>
                    {harness.name} <span class="muted">{harness.id}</span>
                  </td>
                  <td>{harness.defaultModel}</td>
                  <td>{harness.disabledTools.join(', ') || '—'}</td>
                  <td>
                    <button type="button" class="secondary" onClick={() => setEditing(harness)}>
                      Edit
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p>
            <button type="button" class="secondary" onClick={() => setEditing('new')}>
              New harness
            </button>
          </p>
        </Section>
        {editing ? (
          <HarnessEditor
            harness={editing === 'new' ? null : editing}
            onCancel={() => setEditing(null)}
            onSaved={() => {
              setEditing(null);
              reload();
            }}
          />
        ) : null}
      </div>
      <SessionBrowser version={version} />
    </div>
  );
}
