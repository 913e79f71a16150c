import { describe, expect, it } from 'vitest';
import type { Grade, GradeOutcome } from '../grading/grade.js';
import { reviseUntilSatisfied } from './revise-until-satisfied.js';
import type { WorkReviser } from './work-reviser.js';

/** Grades read off the work itself ("needs_revision 0.55"), so each test scripts its rounds in the revisions. */
function gradeOf(work: string): Promise<Grade> {
  const [outcome, score] = work.split(' ');
  return Promise.resolve({
    rubric: { name: 'scripted', version: '1.0.0', sha256: '0'.repeat(64) },
    outcome: outcome as GradeOutcome,
    criteria: [],
    weightedScore: Number(score),
    passShare: 0,
    model: 'scripted',
    usage: null,
    latencyMs: 0,
  });
}

/** A reviser that hands back the next scripted version and records the feedback it was sent. */
function scriptedReviser(versions: string[], sent: string[] = []): WorkReviser {
  let turn = 0;
  return {
    current: async () => ({ work: versions[0] ?? '', responseId: 'resp_0' }),
    revise: async (feedback) => {
      sent.push(feedback);
      turn += 1;
      const work = versions[turn];
      if (work === undefined) throw new Error('the agent has nothing more to give');
      return { work, responseId: `resp_${turn}` };
    },
  };
}

async function run(versions: string[], maxRounds = 3) {
  const sent: string[] = [];
  const result = await reviseUntilSatisfied({
    reviser: scriptedReviser(versions, sent),
    grade: gradeOf,
    feedback: async (grade) => ({ text: `improve on ${grade.weightedScore}`, source: 'rubric' }),
    maxRounds,
  });
  return {
    ...result,
    sent,
    trail: result.rounds.map((round) => `${round.responseId}:${round.grade.outcome}`),
  };
}

describe('reviseUntilSatisfied', () => {
  it('revises until satisfied, sending feedback tied to each grade', async () => {
    const result = await run(['needs_revision 0.5', 'needs_revision 0.6', 'satisfied 0.9']);
    expect(result.stop).toBe('satisfied');
    expect(result.trail).toEqual(['resp_0:needs_revision', 'resp_1:needs_revision', 'resp_2:satisfied']);
    expect(result.sent).toEqual(['improve on 0.5', 'improve on 0.6']);
    expect(result.rounds.at(-1)?.feedback).toBeNull();
  });

  it('stops after maxRounds revisions', async () => {
    const result = await run(
      ['needs_revision 0.5', 'needs_revision 0.6', 'needs_revision 0.7', 'satisfied 1'],
      2,
    );
    expect(result.stop).toBe('max_rounds');
    expect(result.trail).toHaveLength(3);
    expect(result.final.outcome).toBe('needs_revision');
  });

  it('stops when the weighted score does not rise', async () => {
    const result = await run(['needs_revision 0.6', 'needs_revision 0.6', 'satisfied 1']);
    expect(result.stop).toBe('no_improvement');
    expect(result.trail).toEqual(['resp_0:needs_revision', 'resp_1:needs_revision']);
  });

  it('does not revise work that is unsatisfied or ungraded', async () => {
    for (const outcome of ['unsatisfied', 'ungraded']) {
      const result = await run([`${outcome} 0.1`, 'satisfied 1']);
      expect(result).toMatchObject({ stop: 'not_revisable', sent: [] });
    }
  });

  it('reports an abort during a revision as aborted, not as a failure', async () => {
    const interrupt = new AbortController();
    const result = await reviseUntilSatisfied({
      reviser: {
        current: async () => ({ work: 'needs_revision 0.5', responseId: 'resp_0' }),
        revise: (_feedback, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () => reject(new Error('cancelled on the server')), {
              once: true,
            });
            interrupt.abort();
          }),
      },
      grade: gradeOf,
      feedback: async () => ({ text: 'do better', source: 'rubric' }),
      signal: interrupt.signal,
    });
    expect(result).toMatchObject({ stop: 'aborted', error: 'cancelled on the server' });
  });

  it('reports a failing reviser with its error and the last grade', async () => {
    const result = await run(['needs_revision 0.5']);
    expect(result).toMatchObject({ stop: 'revision_failed', error: 'the agent has nothing more to give' });
    expect(result.final.weightedScore).toBe(0.5);
  });
});
