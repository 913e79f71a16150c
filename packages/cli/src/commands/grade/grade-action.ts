import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  createHttpTransport,
  createInProcessTransport,
  DECISION_LIMITS,
  DecisionClient,
  type DecisionTransport,
} from '@arbiter/decision';
import { ModelCatalog, ModelNotFoundError } from '@arbiter/engine';
import {
  DEFAULT_MAX_ROUNDS,
  type Feedback,
  formatGradeReport,
  type Grade,
  gradeWork,
  RubricError,
  readRubricFile,
  reviseUntilSatisfied,
  rubricFeedback,
  type WorkVersion,
} from '@arbiter/rubric';
import type { UhpClient } from '@arbiter/uhp';
import { invocationIo } from '../../invocation-io.js';
import { readStandardInputBytes } from '../../standard-input.js';
import { modelWouldHelp } from '../model-hint.js';
import { createClientFor, openLocalStore } from '../uhp/command-context.js';
import { type FeedbackModel, resolveFeedbackModel } from './feedback-model-spec.js';
import { GRADE_EXIT_CODES, USAGE_EXIT_CODE } from './grade-exit-codes.js';
import { modelFeedback } from './model-feedback.js';
import { createUhpWorkReviser } from './uhp-work-reviser.js';

/** The shell's convention for a command stopped by SIGINT. */
const INTERRUPTED_EXIT_CODE = 130;

/** The work is sent as the decision request's state, so it shares the request's byte limit. */
const MAX_WORK_BYTES = DECISION_LIMITS.maxBodyBytes;

export interface GradeCommandOptions {
  rubric: string;
  work?: string;
  model?: string;
  url?: string;
  timeout: number;
  json?: boolean;
  feedbackModel?: string;
  reviseWith?: string;
  uhpUrl?: string;
  apiKey?: string;
  artifact?: string;
  /** Default: the rubric package's DEFAULT_MAX_ROUNDS. */
  maxRounds?: number;
  revisionInstructions?: string;
}

/** A problem with the command's input (flags, files), reported with exit status 3. */
class GradeInputError extends Error {
  override readonly name = 'GradeInputError';
}

/** What the command needs once its input is read and checked. */
interface GradeSetup {
  grade(work: string, signal?: AbortSignal): Promise<Grade>;
  feedback(grade: Grade, work: string): Promise<Feedback>;
}

export async function runGrade(options: GradeCommandOptions): Promise<number> {
  try {
    const setup = await prepare(options);
    return options.reviseWith === undefined
      ? await gradeOnce(options, setup)
      : await gradeWithRevisions(options, setup, options.reviseWith);
  } catch (error) {
    if (
      RubricError.isInstance(error) ||
      error instanceof GradeInputError ||
      ModelNotFoundError.isInstance(error)
    ) {
      invocationIo().writeStderr(`arbiter grade: ${error.message}\n`);
      return USAGE_EXIT_CODE;
    }
    throw error;
  }
}

async function prepare(options: GradeCommandOptions): Promise<GradeSetup> {
  if (options.reviseWith === undefined) {
    const stray = (['uhpUrl', 'artifact', 'revisionInstructions'] as const).find(
      (name) => options[name] !== undefined,
    );
    if (stray !== undefined) throw new GradeInputError(`--${kebab(stray)} only applies with --revise-with`);
  }
  const rubric = await readRubricFile(resolve(options.rubric));
  const client = new DecisionClient({ transport: decisionTransport(options), budgetMs: options.timeout });
  const feedbackModel = options.feedbackModel ? feedbackModelOf(options.feedbackModel) : undefined;
  return {
    grade: (work, signal) =>
      gradeWork({
        client,
        rubric,
        work,
        ...(options.model === undefined ? {} : { model: options.model }),
        ...(signal === undefined ? {} : { signal }),
      }),
    feedback: async (grade, work) =>
      feedbackModel === undefined
        ? rubricFeedback(rubric, grade)
        : modelFeedback({ model: feedbackModel, rubric, grade, work }),
  };
}

async function gradeOnce(options: GradeCommandOptions, setup: GradeSetup): Promise<number> {
  if (options.work === undefined)
    throw new GradeInputError('--work <file|-> is required (or --revise-with <response id>)');
  const work = await readWork(options.work);
  const grade = await setup.grade(work);
  const feedback = grade.outcome === 'needs_revision' ? await setup.feedback(grade, work) : null;
  if (options.json) {
    invocationIo().writeStdout(`${JSON.stringify({ outcome: grade.outcome, grade, feedback }, null, 2)}\n`);
  } else {
    invocationIo().writeStdout(`${formatGradeReport(grade)}\n`);
    if (feedback) invocationIo().writeStdout(`\n${formatFeedback(feedback)}\n`);
  }
  const hint = modelWouldHelp(
    grade.criteria
      .filter((criterion) => criterion.abstained)
      .map((criterion) => ({ id: criterion.id, engine: criterion.engine })),
  );
  if (hint !== undefined) invocationIo().writeStderr(hint);
  return GRADE_EXIT_CODES[grade.outcome];
}

/** Grades the work of a UHP response and sends feedback back into its session until satisfied. */
async function gradeWithRevisions(
  options: GradeCommandOptions,
  setup: GradeSetup,
  responseId: string,
): Promise<number> {
  const uhp = await uhpClientFor(options);
  const reviser = createUhpWorkReviser({
    client: uhp,
    responseId,
    ...(options.artifact === undefined ? {} : { artifact: options.artifact }),
    ...(options.revisionInstructions === undefined ? {} : { instructions: options.revisionInstructions }),
  });
  let initial: WorkVersion;
  try {
    initial =
      options.work === undefined
        ? await reviser.current()
        : { work: await readWork(options.work), responseId };
  } catch (error) {
    if (error instanceof GradeInputError) throw error;
    throw new GradeInputError(`--revise-with ${responseId}: cannot read the work: ${messageOf(error)}`);
  }
  // Ctrl-C cancels the revision turn on the server rather than leaving the agent working.
  const interrupt = new AbortController();
  const onInterrupt = () => interrupt.abort();
  process.once('SIGINT', onInterrupt);
  const result = await reviseUntilSatisfied({
    reviser,
    initial,
    grade: setup.grade,
    feedback: setup.feedback,
    maxRounds: options.maxRounds ?? DEFAULT_MAX_ROUNDS,
    signal: interrupt.signal,
    onRound: (round) => {
      if (options.json) return;
      invocationIo().writeStdout(
        `── round ${round.round} (${round.responseId}) ──\n${formatGradeReport(round.grade)}\n`,
      );
      if (round.feedback) invocationIo().writeStdout(`\n${formatFeedback(round.feedback)}\n`);
      invocationIo().writeStdout('\n');
    },
  }).finally(() => process.off('SIGINT', onInterrupt));
  if (options.json) {
    const last = result.rounds.at(-1);
    invocationIo().writeStdout(
      `${JSON.stringify(
        {
          outcome: result.final.outcome,
          grade: result.final,
          feedback: last?.feedback ?? null,
          revision: {
            responseId,
            stop: result.stop,
            ...(result.error === undefined ? {} : { error: result.error }),
            rounds: result.rounds,
          },
        },
        null,
        2,
      )}\n`,
    );
  } else {
    const revisions = result.rounds.length - 1;
    invocationIo().writeStdout(
      `stopped: ${result.stop} after ${revisions} revision${revisions === 1 ? '' : 's'}; final outcome: ${result.final.outcome}\n`,
    );
  }
  if (result.stop === 'aborted') {
    invocationIo().writeStderr(
      `arbiter grade: interrupted; the revision turn was cancelled (${result.error})\n`,
    );
    return INTERRUPTED_EXIT_CODE;
  }
  if (result.error !== undefined)
    invocationIo().writeStderr(`arbiter grade: the revision failed: ${result.error}\n`);
  return GRADE_EXIT_CODES[result.final.outcome];
}

/** `--uhp-url` (+ `--api-key` or ARBITER_UHP_API_KEY), else the connection saved by `arbiter uhp connect`. */
async function uhpClientFor(options: GradeCommandOptions): Promise<UhpClient> {
  if (options.uhpUrl !== undefined) {
    if (!URL.canParse(options.uhpUrl)) throw new GradeInputError(`--uhp-url: not a URL: ${options.uhpUrl}`);
    return createClientFor(options.uhpUrl, options.apiKey || undefined);
  }
  const store = await openLocalStore();
  const connection = store.activeConnection();
  if (connection === null) {
    throw new GradeInputError(
      '--revise-with needs a UHP server, and none is connected: pass --uhp-url <url>, or run `arbiter uhp connect <url>` first',
    );
  }
  return createClientFor(connection.url, connection.apiKey);
}

function kebab(name: string): string {
  return name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** HTTP to a server when one is named (flag or ARBITER_BASE_URL); otherwise the catalog's engine in process. */
function decisionTransport(options: GradeCommandOptions): DecisionTransport {
  if (options.url !== undefined && options.url !== '') {
    if (!URL.canParse(options.url)) throw new GradeInputError(`--url: not a URL: ${options.url}`);
    return createHttpTransport({ baseURL: options.url });
  }
  // No pack analyser answers rubric questions: the model (or the lexical evaluator) does.
  const resolved = new ModelCatalog({ analysers: [] }).resolve(options.model);
  return createInProcessTransport({ engine: resolved.engine, model: resolved.pin });
}

async function readWork(source: string): Promise<string> {
  let bytes: Buffer;
  try {
    bytes = source === '-' ? await readWorkFromStandardInput() : await readFile(resolve(source));
  } catch (error) {
    if (error instanceof GradeInputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : String(error);
    throw new GradeInputError(`--work ${source}: cannot read: ${reason}`);
  }
  if (bytes.byteLength > MAX_WORK_BYTES) {
    throw new GradeInputError(
      `--work ${source}: ${bytes.byteLength} bytes is above the ${MAX_WORK_BYTES}-byte limit of a decision request`,
    );
  }
  const text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
  if (text.trim() === '') throw new GradeInputError(`--work ${source}: the work is empty`);
  return text;
}

async function readWorkFromStandardInput(): Promise<Buffer> {
  const bytes = await readStandardInputBytes(MAX_WORK_BYTES);
  if (bytes === null) {
    throw new GradeInputError(
      `--work -: standard input is above the ${MAX_WORK_BYTES}-byte limit of a decision request`,
    );
  }
  return bytes;
}

function feedbackModelOf(spec: string): FeedbackModel {
  try {
    return resolveFeedbackModel(spec);
  } catch (error) {
    throw new GradeInputError(`--feedback-model: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function formatFeedback(feedback: Feedback): string {
  const heading =
    feedback.source === 'model' ? `feedback (${feedback.model}):` : 'feedback (from the rubric):';
  const warning =
    feedback.modelError === undefined ? '' : `\n(the feedback model failed: ${feedback.modelError})`;
  return `${heading}\n${feedback.text}${warning}`;
}
