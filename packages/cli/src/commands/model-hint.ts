import { DEFAULT_PULL_MODEL } from '@arbiter/engine/models';

/** Engines that read words, not meaning: a model helps where they find no evidence. */
const LEXICAL_ENGINES = new Set(['builtin']);

/**
 * One line naming the model to pull, when the built-in engine answered some questions without
 * evidence (issue 28, "say when a model would help"): never silent, never alarming. `engines` is
 * each such question's answering engine (`arbiter.engine`), undefined when it did not say.
 */
export function modelWouldHelp(
  withoutEvidence: readonly { id: string; engine: string | undefined }[],
): string | undefined {
  const lexical = withoutEvidence.filter(
    (each) => each.engine === undefined || LEXICAL_ENGINES.has(each.engine),
  );
  if (lexical.length === 0) return undefined;
  const ids = lexical.map((each) => each.id).join(', ');
  return `note: the built-in engine found no evidence for ${ids} (it reads words, not meaning); a model would help: arbiter models pull ${DEFAULT_PULL_MODEL}\n`;
}
