/**
 * What a GGUF file says about itself as a System One decision model, read from its own metadata.
 *
 * llama.cpp (from release v0.6.0, build b11361, PR #29818) recognises a decision model by the key
 * `<architecture>.decision.type` (`lev`, `openjev`, `nimble`, `kev`, `laya`, `clef`, …). A model of a
 * type that answers from its vocabulary carries its prompt as a Jinja template under
 * `tokenizer.chat_template.systemone`, and may carry fitted temperatures under
 * `<architecture>.decision.temperature.<question type>[.<bucket>]`. These keys are those read by
 * llama.rn's decision code (mybigday/llama.rn, cpp/rn-decision.cpp), which serves the same files.
 */
export interface DecisionModelMetadata {
  /** `general.architecture` of the file. */
  readonly architecture: string;
  /** The value of `<architecture>.decision.type`, as text. */
  readonly decisionType: string;
  /** `tokenizer.chat_template.systemone`, or null when the file has none. */
  readonly template: string | null;
  /** Temperatures by the rest of their key (`choice.small`, `noul`), as the file states them. */
  readonly temperatures: ReadonlyMap<string, number>;
  /** Where the type was read: the file, or the engine's configuration (`systemOne.type`). */
  readonly source: 'file' | 'configuration';
}

/** The large arrays of a GGUF header, which none of this needs. */
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
  const metadata = info.metadata as unknown as Record<string, unknown>;
  const architecture = String(lookup(metadata, 'general.architecture') ?? '');
  const decisionType = lookup(metadata, `${architecture}.decision.type`);
  if (decisionType === undefined || decisionType === null) return null;
  const template = lookup(metadata, 'tokenizer.chat_template.systemone');
  const temperatures = new Map<string, number>();
  for (const [key, value] of flatten(lookup(metadata, `${architecture}.decision.temperature`))) {
    temperatures.set(key, Number(value));
  }
  return {
    architecture,
    decisionType: String(decisionType),
    template: typeof template === 'string' ? template : null,
    temperatures,
    source: 'file',
  };
}

/**
 * The value of a dotted GGUF key. node-llama-cpp nests dotted keys into objects, and keeps a key
 * whole where nesting would collide (`tokenizer.chat_template` is a string, so
 * `tokenizer.chat_template.systemone` may sit under `tokenizer` as `chat_template.systemone`): every
 * split of the key is tried.
 */
function lookup(node: unknown, key: string): unknown {
  if (!isRecord(node)) return undefined;
  const parts = key.split('.');
  for (let take = parts.length; take > 0; take--) {
    const head = parts.slice(0, take).join('.');
    if (!Object.hasOwn(node, head)) continue;
    if (take === parts.length) return node[head];
    const found = lookup(node[head], parts.slice(take).join('.'));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The leaves of a nested metadata object, by their dotted key below it. */
function flatten(node: unknown, prefix = ''): Array<[string, unknown]> {
  if (!isRecord(node)) return prefix === '' ? [] : [[prefix, node]];
  return Object.entries(node).flatMap(([key, value]) =>
    flatten(value, prefix === '' ? key : `${prefix}.${key}`),
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
