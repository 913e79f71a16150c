import {
  type Answer,
  createHttpTransport,
  createInProcessTransport,
  type DecideResult,
  DecisionClient,
  type DecisionTransport,
  type Question,
  questionMapSchema,
  type State,
} from '@arbiter/decision';
import { DEFAULT_ENGINE_KINDS, ModelCatalog, ModelNotFoundError } from '@arbiter/engine';
import { ModelCache, withLocalModels } from '@arbiter/engine/models';
import { loadServerConfig, ServerConfigError, servedPackAnalysers } from '@arbiter/server';
import YAML from 'yaml';
import { invocationIo } from '../../invocation-io.js';
import { modelWouldHelp } from '../model-hint.js';
import { readInput } from '../read-input.js';
import { formatTextTable } from '../text-table.js';
import { EXIT_FAILURE, UsageError } from '../usage-error.js';

export interface DecideCommandOptions {
  state: string;
  questions: string;
  model?: string;
  json?: boolean;
  dryRun?: boolean;
  url?: string;
  /** Where `url` came from: the flag or ARBITER_BASE_URL, for the message that refuses it. */
  urlSource?: 'flag' | 'environment';
  config?: string;
  timeout: number;
}

/**
 * A file that parses as a JSON object or array is structured state; anything else is text. An empty
 * state is refused: every answer would be an uninformed prior that looks like a judgement.
 */
function parseState(text: string, source: string): State {
  if (text.trim() === '') {
    throw new UsageError(
      `--state: ${source === '-' ? 'standard input' : source} is empty; there is nothing to judge`,
    );
  }
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text) as State;
    } catch {
      // Text that merely starts with a bracket (a log line, code) stays text.
    }
  }
  return text;
}

function parseQuestions(text: string, file: string): Record<string, Question> {
  let raw: unknown;
  try {
    raw = YAML.parse(text);
  } catch (error) {
    throw new UsageError(`--questions: ${file} is neither JSON nor YAML: ${describeYamlError(error)}`);
  }
  const parsed = questionMapSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.map(String).join('.') || '(root)';
    throw new UsageError(`--questions: ${file}: ${where}: ${issue?.message ?? 'invalid question map'}`);
  }
  return parsed.data;
}

/** Where and what, without the parser's code frame: `line 2, column 5: …`. */
function describeYamlError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const headline = error.message.split('\n')[0]?.replace(/ at line \d+, column \d+:?$/, '') ?? error.message;
  const position = (error as { linePos?: [{ line: number; col: number }] }).linePos?.[0];
  return position ? `line ${position.line}, column ${position.col}: ${headline}` : headline;
}

/** The server URL, refused with the name of where it came from (the flag or the variable). */
function serverUrl(options: DecideCommandOptions): string {
  const url = options.url ?? '';
  const from = options.urlSource === 'environment' ? 'ARBITER_BASE_URL' : '--url';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(
      `${from}: ${JSON.stringify(url)} is not a valid URL (for example http://127.0.0.1:7411)`,
    );
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new UsageError(`${from}: ${JSON.stringify(url)} must be an http or https URL`);
  }
  return url;
}

function transportFor(options: DecideCommandOptions): DecisionTransport {
  if (options.url) return createHttpTransport({ baseURL: serverUrl(options) });
  let catalog: ModelCatalog;
  try {
    // The catalog `arbiter serve` would answer with: configuration plus the pulled models.
    const cache = new ModelCache(ModelCache.defaultRoot());
    const config = options.config ? loadServerConfig(options.config) : undefined;
    catalog = new ModelCatalog({
      config: withLocalModels(config?.catalog, cache, Object.keys(DEFAULT_ENGINE_KINDS)).config,
      analysers: servedPackAnalysers(config),
      modelCacheDir: cache.root,
    });
    const { engine, pin } = catalog.resolve(options.model);
    return createInProcessTransport({ engine, model: pin });
  } catch (error) {
    if (ModelNotFoundError.isInstance(error) || ServerConfigError.isInstance(error)) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}

export async function decide(options: DecideCommandOptions): Promise<number> {
  const state = parseState(await readInput(options.state, '--state'), options.state);
  const questions = parseQuestions(await readInput(options.questions, '--questions'), options.questions);
  const client = new DecisionClient({
    transport: options.dryRun ? createHttpTransport({ apiKey: null }) : transportFor(options),
    budgetMs: options.timeout,
  });
  const call = { state, questions, ...(options.model ? { model: options.model } : {}) };
  if (options.dryRun) {
    const request = client.prepareRequest(call);
    if (typeof request === 'string') throw new UsageError(request);
    invocationIo().writeStdout(`${JSON.stringify(request, null, 2)}\n`);
    return 0;
  }
  const result = await client.decide(call);
  if (options.json) invocationIo().writeStdout(`${JSON.stringify(result, null, 2)}\n`);
  else if (!result.skipped) invocationIo().writeStdout(renderAnswers(result));
  if (result.skipped) {
    invocationIo().writeStderr(`arbiter decide: skipped (${result.reason}): ${result.message}\n`);
    return EXIT_FAILURE;
  }
  const hint = modelWouldHelp(
    Object.entries(result.answers)
      .filter(([, answer]) => answer.arbiter?.abstained === true)
      .map(([id, answer]) => ({ id, engine: answer.arbiter?.engine })),
  );
  if (hint !== undefined) invocationIo().writeStderr(hint);
  return 0;
}

const percent = (value: number) => `${(value * 100).toFixed(1)}%`;

function distribution(probabilities: Record<string, number>, limit = 3): string {
  return Object.entries(probabilities)
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([name, probability]) => `${name} ${percent(probability)}`)
    .join(', ');
}

function answerCells(answer: Answer): [string, string, string] {
  switch (answer.type) {
    case 'noul':
      return [`P(true) ${answer.noul.toFixed(3)}`, '—', ''];
    case 'choice':
      return [answer.choice, answer.confidence.toFixed(3), distribution(answer.probabilities)];
    case 'score':
      return [answer.score.toFixed(2), answer.confidence.toFixed(3), distribution(answer.probabilities)];
  }
}

function renderAnswers(result: Extract<DecideResult<Record<string, Answer>>, { skipped: false }>): string {
  const rows = Object.entries(result.answers).map(([id, answer]) => {
    const [value, confidence, top] = answerCells(answer);
    const abstained = answer.arbiter?.abstained ? ' (abstained)' : '';
    return [id, answer.type, value + abstained, confidence, top];
  });
  const table = formatTextTable(['question', 'type', 'answer', 'confidence', 'most probable'], rows);
  const tokens = result.usage.input_tokens ?? 'unknown';
  return `${table}\nmodel ${result.model} · ${tokens} input tokens · ${result.latencyMs.toFixed(1)} ms\n`;
}
