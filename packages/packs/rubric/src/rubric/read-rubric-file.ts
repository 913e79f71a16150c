import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse as parseYaml, YAMLParseError } from 'yaml';
import { loadRubric, type Rubric } from './load-rubric.js';
import { RubricError } from './rubric-error.js';
import { RUBRIC_LIMITS } from './rubric-schema.js';

/**
 * Parses rubric text: JSON when the file name ends in `.json`, YAML otherwise (YAML is a superset
 * of JSON, so a JSON rubric named `.yaml` still reads).
 */
export function parseRubricText(text: string, source: string): Rubric {
  let value: unknown;
  try {
    value =
      extname(source).toLowerCase() === '.json' ? JSON.parse(text) : parseYaml(text, { prettyErrors: true });
  } catch (error) {
    const format = extname(source).toLowerCase() === '.json' ? 'JSON' : 'YAML';
    const detail =
      error instanceof YAMLParseError || error instanceof SyntaxError ? error.message : String(error);
    throw new RubricError(source, [{ path: '', message: `not valid ${format}: ${detail}` }]);
  }
  return loadRubric(value, source);
}

/** Reads and validates a rubric file (YAML or JSON) of at most `RUBRIC_LIMITS.maxFileBytes`. */
export async function readRubricFile(path: string): Promise<Rubric> {
  let text: string;
  try {
    const handle = await open(path, 'r');
    try {
      const { size, isFile } = await handle
        .stat()
        .then((stats) => ({ size: stats.size, isFile: stats.isFile() }));
      if (!isFile) throw new RubricError(path, [{ path: '', message: 'not a regular file' }]);
      if (size > RUBRIC_LIMITS.maxFileBytes) {
        throw new RubricError(path, [
          {
            path: '',
            message: `the file is ${size} bytes, above the ${RUBRIC_LIMITS.maxFileBytes}-byte limit`,
          },
        ]);
      }
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (RubricError.isInstance(error)) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(error);
    throw new RubricError(path, [{ path: '', message: `cannot read the file: ${reason}` }]);
  }
  return parseRubricText(text, path);
}
