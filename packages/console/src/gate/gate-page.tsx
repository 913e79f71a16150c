import { useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { AnswerView } from '../decisions/answer-view.js';
import type { Answer, CatalogModel } from '../decisions/decision-types.js';
import { ErrorNote, parseJson, Section } from '../shared.js';
import { AuditLogBrowser } from './audit-log.js';

/** The verdict record of `POST /v1/gate/check` (docs/tool-gate.md, "The verdict record"). */
interface GateVerdict {
  verdict: 'ALLOW' | 'DENY' | 'ASK' | null;
  effective: 'ALLOW' | 'DENY' | 'ASK' | null;
  rule: number | null;
  decided_by: 'gate' | 'policy' | 'none';
  reason: string;
  tool: string;
  call_sha256: string;
  answers: Record<string, Answer> | null;
  pack: { name: string; version: string; sha256: string };
  skipped: boolean;
  skip_reason: string | null;
  skip_message: string | null;
  latency_ms: number;
  model: string | null;
}

export function GatePage({ models }: { models: CatalogModel[] }) {
  const [tool, setTool] = useState('Bash');
  const [args, setArgs] = useState('{"command": "rm -rf ~/projects"}');
  const [grant, setGrant] = useState('Bash');
  const [task, setTask] = useState('fix the failing unit tests');
  const [model, setModel] = useState('');
  const [verdict, setVerdict] = useState<GateVerdict | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);

  const check = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const body = {
        ...(model ? { model } : {}),
        tool,
        arguments: parseJson(args, 'The arguments'),
        grant: grant
          .split('\n')
          .map((rule) => rule.trim())
          .filter(Boolean),
        task,
      };
      setVerdict(await api<GateVerdict>('/v1/gate/check', { body }));
    } catch (failure) {
      setVerdict(null);
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <div class="columns">
        <div>
          <form class="card" onSubmit={check} aria-label="tool call">
            <h2>Try a tool call</h2>
            <label>
              Tool
              <input name="tool" value={tool} onInput={(e) => setTool(e.currentTarget.value)} />
            </label>
            <label>
              Arguments (JSON object)
              <textarea
                name="arguments"
                class="code"
                rows={4}
                value={args}
                onInput={(e) => setArgs(e.currentTarget.value)}
              />
            </label>
            <label>
              <span>
                Grant (permission rules, one a line, e.g. <code>Bash(npm test:*)</code>)
              </span>
              <textarea
                name="grant"
                rows={2}
                value={grant}
                onInput={(e) => setGrant(e.currentTarget.value)}
              />
            </label>
            <label>
              Task
              <input name="task" value={task} onInput={(e) => setTask(e.currentTarget.value)} />
            </label>
            <label>
              Model
              <select value={model} onChange={(e) => setModel(e.currentTarget.value)}>
                <option value="">server default</option>
                {models.map((entry) => (
                  <option key={entry.name} value={entry.name}>
                    {entry.name}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" disabled={busy}>
              {busy ? 'Judging…' : 'Judge'}
            </button>
            <ErrorNote error={error} />
          </form>
        </div>
        {verdict ? (
          <Section title="Verdict">
            <p class="verdict-line">
              <span class={`verdict ${verdict.effective ?? 'NONE'}`}>
                {verdict.effective ?? 'no opinion'}
              </span>
              {verdict.rule !== null ? <span class="tag">rule {verdict.rule}</span> : null}
              <span class="tag">decided by {verdict.decided_by}</span>
            </p>
            <p class="reason">{verdict.reason}</p>
            {verdict.skipped ? (
              <p class="error">
                skipped: {verdict.skip_reason} {verdict.skip_message}
              </p>
            ) : null}
            <p class="muted">
              model <code>{verdict.model ?? '—'}</code> · pack {verdict.pack.name} {verdict.pack.version}{' '}
              <code title={verdict.pack.sha256}>{verdict.pack.sha256.slice(0, 12)}</code> ·{' '}
              {verdict.latency_ms.toFixed(1)} ms
            </p>
            {verdict.answers ? (
              <div class="answers">
                {Object.entries(verdict.answers).map(([id, answer]) => (
                  <AnswerView key={id} id={id} answer={answer} />
                ))}
              </div>
            ) : null}
          </Section>
        ) : null}
      </div>
      <AuditLogBrowser />
    </>
  );
}
