import type { Answer, EvaluateOptions, EvaluateResult, PackAnalyser, Question } from '@arbiter/decision';
import {
  DEFAULT_TOOL_GATE_THRESHOLDS,
  TOOL_GATE_DISPOSITION_OPTIONS,
  TOOL_GATE_PACK_NAME,
  TOOL_GATE_QUESTION_TYPES,
  type ToolGateThresholds,
} from '@arbiter/tool-gate/contract';
import { analyseToolCallSync, loadParsersFor, needsPowerShellParser } from './analyse-tool-call.js';
import { isBashParserLoaded } from './bash-parser.js';
import { type SecondOpinion, withSecondOpinion } from './second-opinion.js';
import type { NoulFigure, ToolGateAnswers } from './tool-gate-answers.js';

export { TOOL_GATE_PACK_NAME };
export const TOOL_GATE_ENGINE_ID = 'builtin/tool-gate';

// The pack's name, question ids and types and the disposition's options come from the pack.
const QUESTION_TYPES: Readonly<Record<string, Question['type']>> = TOOL_GATE_QUESTION_TYPES;
const DISPOSITION_OPTIONS = TOOL_GATE_DISPOSITION_OPTIONS;

/**
 * The tool-gate pack's questions answered from analysis of the call. The request is
 * recognised by its `pack` member (`{name: 'arbiter/tool-gate', version, sha256}`) and must ask
 * only the pack's question ids with their types; `disposition` must offer exactly allow, deny
 * and ask. Exactly the questions asked are answered. Usage is null: no tokens were counted.
 * The disposition follows the thresholds the operator configured for the pack (the defaults
 * unless given), so the engine's opinion and the pack's composition agree.
 */
export function createToolGateAnalyser(
  thresholds: ToolGateThresholds = DEFAULT_TOOL_GATE_THRESHOLDS,
  settings: {
    /** A model asked about calls the analysis does not fully understand (`second-opinion.ts`). */
    secondOpinion?: SecondOpinion;
  } = {},
): PackAnalyser {
  const { secondOpinion } = settings;
  return {
    packName: TOOL_GATE_PACK_NAME,
    accepts(options: EvaluateOptions): boolean {
      if (options.pack?.name !== TOOL_GATE_PACK_NAME) return false;
      const entries = Object.entries(options.questions);
      if (entries.length === 0) return false;
      return entries.every(([id, question]) => {
        if (!Object.hasOwn(QUESTION_TYPES, id) || QUESTION_TYPES[id] !== question.type) return false;
        if (question.type !== 'choice') return true;
        const options = Object.keys(question.criteria);
        return (
          options.length === DISPOSITION_OPTIONS.length &&
          DISPOSITION_OPTIONS.every((option) => options.includes(option))
        );
      });
    },
    async evaluate(options: EvaluateOptions): Promise<EvaluateResult> {
      // Once the grammar is loaded the analysis is synchronous, with nothing to stop; the signal is
      // read (and so made, see CallCancellation) only when there is a wait for the grammar.
      if (!isBashParserLoaded() || needsPowerShellParser(options.state)) {
        await loadParsersFor(options.state);
        options.signal?.throwIfAborted();
      }
      const analysis = analyseToolCallSync(options.state, thresholds);
      const consult =
        secondOpinion !== undefined &&
        analysis.valid &&
        !analysis.understood &&
        analysis.answers.disposition.choice !== 'deny';
      const { answers: judged, usage } = consult
        ? await withSecondOpinion(analysis.answers, secondOpinion, options, thresholds)
        : { answers: analysis.answers, usage: { input_tokens: null, output_tokens: null } };
      const engine = consult ? `${TOOL_GATE_ENGINE_ID}+${secondOpinion.name}` : TOOL_GATE_ENGINE_ID;
      const answers: Record<string, Answer> = {};
      for (const id of Object.keys(options.questions)) answers[id] = toAnswer(id, judged, engine);
      return { answers, usage };
    },
  };
}

/** The analyser at the pack's default thresholds. */
export const toolGateAnalyser: PackAnalyser = createToolGateAnalyser();

function toAnswer(id: string, answers: ToolGateAnswers, engine: string): Answer {
  const meta = (evidence: string[]) => ({
    engine,
    abstained: answers.abstained,
    evidence,
  });
  if (id === 'disposition') {
    const { choice, confidence, probabilities, evidence } = answers.disposition;
    return {
      type: 'choice',
      choice,
      confidence,
      probabilities: { ...probabilities },
      arbiter: meta(evidence),
    };
  }
  const figure = answers[id as Exclude<keyof ToolGateAnswers, 'abstained' | 'disposition'>] as NoulFigure;
  return { type: 'noul', noul: figure.noul, arbiter: meta(figure.evidence) };
}
