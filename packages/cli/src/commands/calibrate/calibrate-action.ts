import { readFile, writeFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { EngineError } from '@arbiter/decision';
import {
  type CalibrationReport,
  calibrateOpenAICompatibleEngine,
  catalogConfigSchema,
  type LlmCalibration,
  ModelCatalog,
  openAICompatibleEngineConfigSchema,
  parseLabelledExamples,
  RELIABILITY_COLOURS,
  renderReliabilityDiagram,
} from '@arbiter/engine';
// The narrow entry: the package index would load the database drivers.
import { writeFileAtomicallyAsync } from '@arbiter/storage/atomic-file';
import { parseDocument } from 'yaml';
import { invocationIo } from '../../invocation-io.js';

/** Below this many examples of a type the fitted temperature is noisy; the report says so. */
const FEW_EXAMPLES = 50;

export interface CalibrateOptions {
  model: string;
  data: string;
  config: string;
  out?: string | undefined;
  json?: boolean | undefined;
}

/** Where the command writes; the test passes its own. */
export interface CalibrateOutput {
  stdout: (text: string) => void;
}

/** A problem with the command's input (flags, files, configuration), reported without a stack trace. */
export class CalibrateInputError extends Error {
  override readonly name = 'CalibrateInputError';
}

/** The command's action: bad input exits 2; a model server that failed on an example exits 1. */
export async function calibrateCommand(options: CalibrateOptions): Promise<void> {
  try {
    await runCalibrate(options, { stdout: (text) => invocationIo().writeStdout(text) });
  } catch (error) {
    // Anything other than bad input or a failing model server is a bug and keeps its stack trace.
    const modelFailure = error instanceof Error && EngineError.isInstance(error.cause);
    if (!(error instanceof CalibrateInputError) && !modelFailure) throw error;
    invocationIo().writeStderr(`arbiter calibrate: ${(error as Error).message}\n`);
    process.exitCode = modelFailure ? 1 : 2;
  }
}

export async function runCalibrate(
  options: CalibrateOptions,
  output: CalibrateOutput,
): Promise<CalibrationReport> {
  const configPath = resolve(options.config);
  const configText = await readInput(configPath, 'configuration file');
  const format = extname(configPath).toLowerCase() === '.json' ? 'json' : 'yaml';
  const document = parseDocument(configText, { prettyErrors: true });
  if (document.errors.length > 0) {
    throw new CalibrateInputError(`${configPath}: ${document.errors[0]!.message}`);
  }
  const catalogSection = catalogConfigSchema.safeParse(
    (document.toJS() as { catalog?: unknown } | null)?.catalog ?? {},
  );
  if (!catalogSection.success) throw new CalibrateInputError(`${configPath}: invalid catalog section`);
  let pin: string;
  try {
    pin = new ModelCatalog({ config: catalogSection.data, analysers: [] }).resolve(options.model).pin;
  } catch (error) {
    throw new CalibrateInputError(`${configPath}: ${(error as Error).message}`);
  }
  const index = catalogSection.data.models.findIndex((model) => model.name === pin);
  const engineConfig = openAICompatibleEngineConfigSchema.safeParse(
    catalogSection.data.models[index]?.engine,
  );
  if (index < 0 || !engineConfig.success) {
    throw new CalibrateInputError(
      `${pin} is not an openai-compatible model of the catalog; only model servers are calibrated`,
    );
  }

  const dataPath = resolve(options.data);
  let examples: ReturnType<typeof parseLabelledExamples>;
  try {
    examples = parseLabelledExamples(await readInput(dataPath, 'data file'));
  } catch (error) {
    if (error instanceof CalibrateInputError) throw error;
    throw new CalibrateInputError(`${dataPath}: ${(error as Error).message}`);
  }

  const report = await calibrateOpenAICompatibleEngine({ config: engineConfig.data, examples });
  await storeCalibration(configPath, configText, format, index, report.calibration);
  if (options.out) {
    const outPath = resolve(options.out);
    const panels = report.byType.map((entry) => ({ before: entry.before.bins, after: entry.after.bins }));
    await writeFile(outPath, renderReliabilityDiagram(panels));
  }
  output.stdout(
    options.json
      ? `${JSON.stringify({ model: pin, ...report }, null, 2)}\n`
      : formatReport(pin, report, options),
  );
  return report;
}

/**
 * Sets `catalog.models[index].engine.calibration` and leaves everything else as written: YAML through
 * the document model (comments and layout kept), JSON re-serialised with two-space indentation. Written
 * atomically (`@arbiter/storage/atomic-file`), so a crash never leaves half a configuration.
 */
async function storeCalibration(
  path: string,
  text: string,
  format: 'json' | 'yaml',
  index: number,
  calibration: LlmCalibration,
): Promise<void> {
  let updated: string;
  if (format === 'json') {
    const json = JSON.parse(text) as { catalog: { models: Array<{ engine: Record<string, unknown> }> } };
    json.catalog.models[index]!.engine.calibration = calibration;
    updated = `${JSON.stringify(json, null, 2)}\n`;
  } else {
    const document = parseDocument(text);
    document.setIn(['catalog', 'models', index, 'engine', 'calibration'], calibration);
    updated = document.toString();
  }
  await writeFileAtomicallyAsync(path, (temporary) => writeFile(temporary, updated));
}

function formatReport(pin: string, report: CalibrationReport, options: CalibrateOptions): string {
  const lines = [`Calibrated ${pin} (stored in ${resolve(options.config)})`, ''];
  lines.push(
    'type     examples  temperature  ECE before → after   Brier before → after   log loss before → after',
  );
  for (const entry of report.byType) {
    const pair = (before: number, after: number) => `${before.toFixed(4)} → ${after.toFixed(4)}`;
    lines.push(
      [
        entry.type.padEnd(8),
        String(entry.count).padStart(8),
        entry.temperature.toFixed(3).padStart(12),
        `  ${pair(entry.before.ece, entry.after.ece).padEnd(20)}`,
        pair(entry.before.brier, entry.after.brier).padEnd(22),
        pair(entry.before.logLoss, entry.after.logLoss),
      ].join(' '),
    );
    if (entry.count < FEW_EXAMPLES) {
      lines.push(
        `  note: only ${entry.count} ${entry.type} examples; the temperature is uncertain (use ${FEW_EXAMPLES}+)`,
      );
    }
  }
  if (options.out) {
    const rgb = (colour: readonly number[]) => `rgb(${colour.join(',')})`;
    lines.push(
      '',
      `Reliability diagram: ${resolve(options.out)} (one panel per type: ${report.byType.map((entry) => entry.type).join(', ')};` +
        ` bars = accuracy per confidence bin, before ${rgb(RELIABILITY_COLOURS.before)}, after ${rgb(RELIABILITY_COLOURS.after)}; grey diagonal = perfect calibration)`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function readInput(path: string, what: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CalibrateInputError(`cannot read the ${what} ${path}${code ? ` (${code})` : ''}`);
  }
}
