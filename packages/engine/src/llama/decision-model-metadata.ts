/**
 * Whether a GGUF file is a System One decision model, read from its own metadata.
 *
 * llama.cpp (from release v0.6.0, build b11361, PR #29818) recognises a decision model by the key
 * `<architecture>.decision.type` (`kev`, `laya`, `clef`, `lfm2-d1-omni`, …) and runs it through a
 * decision head of its own (kev: a pointer head over the options; laya: a ModernBERT encoder with a
 * decision head; clef: a joint schema head), whose input marks questions and options with special
 * tokens and whose output is not the vocabulary. This engine reads label tokens from the vocabulary,
 * and the llama.cpp that node-llama-cpp bundles here predates that head, so such a file loaded as a
 * plain language model would answer from its backbone's language-model head: numbers that look
 * like answers and are not the model's.
 */
export interface DecisionModelMetadata {
  /** `general.architecture` of the file. */
  readonly architecture: string;
  /** The value of `<architecture>.decision.type`, as text. */
  readonly decisionType: string;
}

/** The large arrays of a GGUF header, which the check does not need. */
const UNREAD_KEYS = [
  'tokenizer.ggml.tokens',
  'tokenizer.ggml.token_type',
  'tokenizer.ggml.merges',
  'tokenizer.ggml.scores',
];

/** The file's decision-model declaration, or `null` for a file that declares none. */
export async function readDecisionModelMetadata(modelPath: string): Promise<DecisionModelMetadata | null> {
  const { readGgufFileInfo } = await import('node-llama-cpp');
  const info = await readGgufFileInfo(modelPath, {
    sourceType: 'filesystem',
    readTensorInfo: false,
    logWarnings: false,
    ignoreKeys: UNREAD_KEYS,
  });
  const architecture = String(info.metadata.general?.architecture ?? '');
  // node-llama-cpp nests dotted keys: `llama.decision.type` is `metadata.llama.decision.type`.
  const section = (info.metadata as unknown as Record<string, unknown>)[architecture];
  const decision = isRecord(section) ? section.decision : undefined;
  const decisionType = isRecord(decision) ? decision.type : undefined;
  if (decisionType === undefined || decisionType === null) return null;
  return { architecture, decisionType: String(decisionType) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
