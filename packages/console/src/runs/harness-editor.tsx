import { useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { ErrorNote, parseJson } from '../shared.js';
import { HARNESS_API, type Harness, WORKSPACE_TOOLS } from './harness-types.js';

/** Creates a harness (`POST /v1/harnesses`) or replaces one's configuration (`PUT`). */
export function HarnessEditor({
  harness,
  onSaved,
  onCancel,
}: {
  harness: Harness | null;
  onSaved: (harness: Harness) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState(harness?.name ?? 'My harness');
  const [model, setModel] = useState(harness?.defaultModel ?? 'arbiter-offline');
  const [prompt, setPrompt] = useState(harness?.systemPrompt ?? '');
  const [disabled, setDisabled] = useState<string[]>(harness?.disabledTools ?? []);
  const [skills, setSkills] = useState(JSON.stringify(harness?.skills ?? [], null, 2));
  const [servers, setServers] = useState(JSON.stringify(harness?.mcpServers ?? [], null, 2));
  const [error, setError] = useState<unknown>(null);

  const save = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const body = {
        name,
        ...(harness ? {} : { base: 'agent' }),
        default_model: model,
        system_prompt: prompt,
        disabled_tools: disabled,
        skills: parseJson(skills, 'Skills'),
        mcp_servers: parseJson(servers, 'MCP servers'),
      };
      const saved = harness
        ? await api<Harness>(`${HARNESS_API}/harnesses/${harness.id}`, { method: 'PUT', body })
        : await api<Harness>(`${HARNESS_API}/harnesses`, { body });
      onSaved(saved);
    } catch (failure) {
      setError(failure);
    }
  };

  return (
    <form class="card" onSubmit={save} aria-label="harness">
      <h2>{harness ? `Edit ${harness.name}` : 'New harness'}</h2>
      <label>
        Name
        <input name="harness-name" value={name} onInput={(e) => setName(e.currentTarget.value)} />
      </label>
      <label>
        Default model
        <input value={model} onInput={(e) => setModel(e.currentTarget.value)} />
      </label>
      <label>
        System prompt
        <textarea rows={2} value={prompt} onInput={(e) => setPrompt(e.currentTarget.value)} />
      </label>
      <fieldset class="question">
        <legend>Disabled tools</legend>
        <div class="row">
          {WORKSPACE_TOOLS.map((tool) => (
            <label key={tool} class="check">
              <input
                type="checkbox"
                checked={disabled.includes(tool)}
                onChange={(e) =>
                  setDisabled(
                    e.currentTarget.checked ? [...disabled, tool] : disabled.filter((t) => t !== tool),
                  )
                }
              />
              {tool}
            </label>
          ))}
        </div>
      </fieldset>
      <label>
        <span>
          Skills (JSON: <code>{'[{name, files: [{path, content}]}]'}</code>)
        </span>
        <textarea class="code" rows={3} value={skills} onInput={(e) => setSkills(e.currentTarget.value)} />
      </label>
      <label>
        <span>
          MCP servers (JSON: <code>{'[{name, url, enabled}]'}</code>)
        </span>
        <textarea class="code" rows={3} value={servers} onInput={(e) => setServers(e.currentTarget.value)} />
      </label>
      <div class="row">
        <button type="submit">Save</button>
        <button type="button" class="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
      <ErrorNote error={error} />
    </form>
  );
}
