import { Bar } from '../shared.js';
import type { Answer, Criterion } from './decision-types.js';

function criterionText(criterion: Criterion | undefined): string {
  if (criterion === null || criterion === undefined) return '';
  return typeof criterion === 'string' ? criterion : JSON.stringify(criterion);
}

/** One answer: its probability bars, confidence, abstention flag and evidence codes. */
export function AnswerView({ id, answer }: { id: string; answer: Answer }) {
  const meta = answer.arbiter;
  return (
    <article class="answer" data-question={id}>
      <header>
        <h3>{id}</h3>
        <span class="tag">{answer.type}</span>
        {meta?.abstained ? (
          <span class="tag warn" title="the engine had no evidence and returned its uninformed prior">
            abstained
          </span>
        ) : null}
        {meta ? <span class="muted">engine {meta.engine}</span> : null}
      </header>
      {answer.type === 'noul' ? (
        <>
          <p>
            P(true) = <strong>{answer.noul.toFixed(3)}</strong>
          </p>
          <Bar label="true" value={answer.noul} chosen={answer.noul >= 0.5} />
          <Bar label="false" value={1 - answer.noul} chosen={answer.noul < 0.5} />
        </>
      ) : answer.type === 'choice' ? (
        <>
          <p>
            choice <strong>{answer.choice}</strong>, confidence {answer.confidence.toFixed(3)}
          </p>
          {Object.entries(answer.probabilities).map(([option, p]) => (
            <Bar key={option} label={option} value={p} chosen={option === answer.choice} />
          ))}
        </>
      ) : (
        <>
          <p>
            score <strong>{answer.score.toFixed(2)}</strong>, confidence {answer.confidence.toFixed(3)}
          </p>
          {Object.entries(answer.probabilities).map(([level, p]) => (
            <Bar
              key={level}
              label={`${level} ${criterionText(answer.legend[level])}`.trim()}
              value={p}
              chosen={Number(level) === Math.round(answer.score)}
            />
          ))}
        </>
      )}
      {meta?.coverage !== undefined ? <p class="muted">coverage {meta.coverage.toFixed(3)}</p> : null}
      {meta?.evidence && meta.evidence.length > 0 ? (
        <p class="evidence">
          evidence:{' '}
          {meta.evidence.map((code) => (
            <code key={code}>{code}</code>
          ))}
        </p>
      ) : null}
    </article>
  );
}
