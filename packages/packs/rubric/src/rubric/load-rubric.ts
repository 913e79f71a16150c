import type { PackReference, Question } from '@arbiter/decision';
import type { z } from 'zod';
import { canonicalSha256 } from './canonical-sha256.js';
import type { RubricIssue } from './rubric-error.js';
import { RubricError } from './rubric-error.js';
import { type RubricDefinition, type RubricInput, rubricSchema } from './rubric-schema.js';

/** Pack names of rubrics start with this; the rubric's own name follows. */
export const RUBRIC_PACK_PREFIX = 'arbiter/rubric/';

/** A validated rubric with its content hash and the questions it asks. */
export interface Rubric {
  readonly definition: RubricDefinition;
  /** sha256 of the RFC 8785 canonical JSON of the validated definition, defaults included. */
  readonly sha256: string;
  /** Sent as the decision request's `pack`, so answers can be traced to the exact rubric. */
  readonly pack: PackReference;
  /** One question per criterion, keyed by criterion id. */
  readonly questions: Readonly<Record<string, Question>>;
}

/**
 * Validates a rubric and hashes it. Defaults are filled in before hashing, so a rubric that spells
 * out the default outcome rules hashes the same as one that leaves them out.
 *
 * @example
 * const rubric = loadRubric({ name: 'docs', version: '1.0.0', criteria: [...] });
 * rubric.pack; // { name: 'arbiter/rubric/docs', version: '1.0.0', sha256: '…' }
 */
export function loadRubric(input: RubricInput | unknown, source = 'rubric'): Rubric {
  const parsed = rubricSchema.safeParse(input);
  if (!parsed.success) throw new RubricError(source, issuesOf(parsed.error, input));
  const definition = parsed.data;
  const sha256 = canonicalSha256(definition);
  return Object.freeze({
    definition,
    sha256,
    pack: Object.freeze({
      name: `${RUBRIC_PACK_PREFIX}${definition.name}`,
      version: definition.version,
      sha256,
    }),
    questions: Object.freeze(
      Object.fromEntries(definition.criteria.map((criterion) => [criterion.id, questionOf(criterion)])),
    ),
  });
}

function questionOf(criterion: RubricDefinition['criteria'][number]): Question {
  if (criterion.type === 'score') {
    return { type: 'score', instructions: criterion.question, criteria: [...criterion.levels] };
  }
  const hasCriteria = criterion.true !== undefined || criterion.false !== undefined;
  return {
    type: 'noul',
    instructions: criterion.statement,
    ...(hasCriteria ? { criteria: { true: criterion.true ?? null, false: criterion.false ?? null } } : {}),
  };
}

/** Zod issues with criteria named by index and id (`criteria[2] "tests"`), not by index alone. */
function issuesOf(error: z.ZodError, input: unknown): RubricIssue[] {
  return error.issues.map((issue) => ({ path: readablePath(issue.path, input), message: issue.message }));
}

function readablePath(path: readonly PropertyKey[], input: unknown): string {
  if (path[0] === 'criteria' && typeof path[1] === 'number') {
    const criteria = (input as { criteria?: unknown } | null)?.criteria;
    const id = Array.isArray(criteria) ? (criteria[path[1]] as { id?: unknown } | undefined)?.id : undefined;
    const name =
      typeof id === 'string' && id !== '' ? `criteria[${path[1]}] "${id}"` : `criteria[${path[1]}]`;
    return [name, ...formatSegments(path.slice(2))].join(' › ');
  }
  return formatSegments(path).join(' › ');
}

function formatSegments(path: readonly PropertyKey[]): string[] {
  const segments: string[] = [];
  for (const key of path) {
    if (typeof key === 'number' && segments.length > 0) segments[segments.length - 1] += `[${key}]`;
    else segments.push(String(key));
  }
  return segments;
}
