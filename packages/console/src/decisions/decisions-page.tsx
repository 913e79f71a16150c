import { useEffect, useState } from 'preact/hooks';
import { api } from '../api-client.js';
import { ErrorNote, parseJson, Section } from '../shared.js';
import { AnswerView } from './answer-view.js';
import type { CatalogModel, DecisionResponse, Question } from './decision-types.js';
import { newDraft, type QuestionDraft, QuestionForm, questionOf } from './question-form.js';
import { requestSnippet, type SnippetKind } from './request-snippets.js';

const EXAMPLE_STATE = 'The checkout page times out for every customer since the last deploy.';
const EXAMPLE_DRAFTS: QuestionDraft[] = [
  {
    id: 'urgent',
    type: 'noul',
    instructions: 'Does this need attention today?',
    criteria: 'customers are blocked or losing money',
    criteriaFalse: 'it can wait',
  },
  {
    id: 'team',
    type: 'choice',
    instructions: 'Which team owns it?',
    criteria: 'payments: checkout, billing, refunds\nsearch: search results and ranking\ndocs: documentation',
    criteriaFalse: '',
  },
];

/** Reads the state box: JSON objects and arrays as data, anything else as text. */
function stateOf(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) return parseJson(trimmed, 'The state');
  return text;
}

export function DecisionsPage({ models }: { models: CatalogModel[] }) {
  const [model, setModel] = useState('');
  const [state, setState] = useState(EXAMPLE_STATE);
  const [mode, setMode] = useState<'form' | 'json'>('form');
  const [drafts, setDrafts] = useState<QuestionDraft[]>(EXAMPLE_DRAFTS);
  const [questionsJson, setQuestionsJson] = useState('');
  const [result, setResult] = useState<DecisionResponse | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const [snippet, setSnippet] = useState<SnippetKind>('curl');
  const [copied, setCopied] = useState('');

  const questionsOf = (): Record<string, Question> => {
    if (mode === 'json') return parseJson(questionsJson, 'The questions') as Record<string, Question>;
    return Object.fromEntries(drafts.map((draft) => [draft.id, questionOf(draft)]));
  };
  const body = () => ({ ...(model ? { model } : {}), state: stateOf(state), questions: questionsOf() });
  const switchMode = (next: 'form' | 'json') => {
    if (next === 'json') setQuestionsJson(JSON.stringify(questionsOf(), null, 2));
    setMode(next);
  };

  const ask = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setResult(await api<DecisionResponse>('/v1/decision', { body: body() }));
    } catch (failure) {
      setResult(null);
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  let snippetText = '';
  try {
    snippetText = requestSnippet(snippet, location.origin, body());
  } catch (failure) {
    snippetText = `(${failure instanceof Error ? failure.message : String(failure)})`;
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(snippetText);
      setCopied(snippet);
    } catch (failure) {
      setError(failure);
    }
  };

  useEffect(() => setCopied(''), [snippet, snippetText]);

  return (
    <div class="columns">
      <form class="card" onSubmit={ask} aria-label="decision request">
        <h2>Ask</h2>
        <label>
          Model
          <select value={model} onChange={(e) => setModel(e.currentTarget.value)} name="model">
            <option value="">server default</option>
            {models.map((entry) => (
              <option key={entry.name} value={entry.name}>
                {entry.name}
                {entry.kind === 'alias' ? ` → ${entry.target}` : ''} ({entry.engine})
              </option>
            ))}
          </select>
        </label>
        <label>
          State (text, or a JSON object or array)
          <textarea rows={5} name="state" value={state} onInput={(e) => setState(e.currentTarget.value)} />
        </label>
        <fieldset class="tabs" aria-label="how to write the questions">
          <button type="button" aria-pressed={mode === 'form'} onClick={() => switchMode('form')}>
            Form
          </button>
          <button
            type="button"
            aria-pressed={mode === 'json'}
            onClick={() => {
              try {
                switchMode('json');
              } catch (failure) {
                setError(failure);
              }
            }}
          >
            JSON
          </button>
        </fieldset>
        {mode === 'form' ? (
          <>
            {drafts.map((draft, index) => (
              <QuestionForm
                key={index}
                draft={draft}
                onChange={(next) => setDrafts(drafts.map((d, i) => (i === index ? next : d)))}
                onRemove={() => setDrafts(drafts.filter((_, i) => i !== index))}
              />
            ))}
            <button
              type="button"
              class="secondary"
              onClick={() => setDrafts([...drafts, newDraft(drafts.length + 1)])}
            >
              Add a question
            </button>
          </>
        ) : (
          <label>
            <span>
              Questions (the request's <code>questions</code> map)
            </span>
            <textarea
              rows={12}
              name="questions"
              class="code"
              value={questionsJson}
              onInput={(e) => setQuestionsJson(e.currentTarget.value)}
            />
          </label>
        )}
        <div class="row">
          <button type="submit" disabled={busy}>
            {busy ? 'Asking…' : 'Ask'}
          </button>
        </div>
        <ErrorNote error={error} />
      </form>
      <div>
        {result ? (
          <Section title="Answers">
            <p class="muted">
              answered by <code>{result.model}</code>
            </p>
            <div class="answers">
              {Object.entries(result.answers).map(([id, answer]) => (
                <AnswerView key={id} id={id} answer={answer} />
              ))}
            </div>
          </Section>
        ) : null}
        <Section title="Copy the request">
          <fieldset class="tabs" aria-label="snippet language">
            {(['curl', 'typescript', 'sdk'] as const).map((kind) => (
              <button
                key={kind}
                type="button"
                aria-pressed={snippet === kind}
                onClick={() => setSnippet(kind)}
              >
                {kind === 'curl' ? 'curl' : kind === 'typescript' ? 'TypeScript' : 'SDK'}
              </button>
            ))}
          </fieldset>
          <pre class="snippet">{snippetText}</pre>
          <button type="button" class="secondary" onClick={copy}>
            {copied === snippet ? 'Copied' : 'Copy'}
          </button>
        </Section>
      </div>
    </div>
  );
}
