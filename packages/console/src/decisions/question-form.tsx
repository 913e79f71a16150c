import type { Question } from './decision-types.js';

/** A question as the form edits it: criteria as lines of text ("name: description" for options). */
export interface QuestionDraft {
  id: string;
  type: Question['type'];
  instructions: string;
  /** noul: [true, false] descriptions; choice: "name: description" lines; score: one level a line. */
  criteria: string;
  criteriaFalse: string;
}

export function newDraft(index: number): QuestionDraft {
  return { id: `q${index}`, type: 'noul', instructions: '', criteria: '', criteriaFalse: '' };
}

const lines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0);

export function questionOf(draft: QuestionDraft): Question {
  const instructions = draft.instructions.trim() || null;
  if (draft.type === 'noul')
    return {
      type: 'noul',
      instructions,
      criteria: { true: draft.criteria.trim() || null, false: draft.criteriaFalse.trim() || null },
    };
  if (draft.type === 'choice') {
    const criteria: Record<string, string | null> = {};
    for (const line of lines(draft.criteria)) {
      const colon = line.indexOf(':');
      const name = (colon < 0 ? line : line.slice(0, colon)).trim();
      criteria[name] = colon < 0 ? null : line.slice(colon + 1).trim() || null;
    }
    return { type: 'choice', instructions, criteria };
  }
  return { type: 'score', instructions, criteria: lines(draft.criteria) };
}

export function QuestionForm({
  draft,
  onChange,
  onRemove,
}: {
  draft: QuestionDraft;
  onChange: (draft: QuestionDraft) => void;
  onRemove: () => void;
}) {
  const set = (patch: Partial<QuestionDraft>) => onChange({ ...draft, ...patch });
  const criteriaLabel =
    draft.type === 'noul'
      ? 'What true means'
      : draft.type === 'choice'
        ? 'Options, one a line (name: description)'
        : 'Levels, lowest first, one a line';
  return (
    <fieldset class="question">
      <legend>Question {draft.id}</legend>
      <div class="row">
        <label>
          Id
          <input value={draft.id} onInput={(e) => set({ id: e.currentTarget.value })} />
        </label>
        <label>
          Type
          <select
            value={draft.type}
            onChange={(e) => set({ type: e.currentTarget.value as Question['type'] })}
          >
            <option value="noul">Noul (yes/no)</option>
            <option value="choice">Choice</option>
            <option value="score">Score</option>
          </select>
        </label>
        <button type="button" class="secondary" onClick={onRemove} aria-label={`remove question ${draft.id}`}>
          Remove
        </button>
      </div>
      <label>
        Instructions
        <input value={draft.instructions} onInput={(e) => set({ instructions: e.currentTarget.value })} />
      </label>
      <label>
        {criteriaLabel}
        <textarea rows={3} value={draft.criteria} onInput={(e) => set({ criteria: e.currentTarget.value })} />
      </label>
      {draft.type === 'noul' ? (
        <label>
          What false means
          <input value={draft.criteriaFalse} onInput={(e) => set({ criteriaFalse: e.currentTarget.value })} />
        </label>
      ) : null}
    </fieldset>
  );
}
