import { createRequire } from 'node:module';
import { Language, type Node, Parser, type Tree } from 'web-tree-sitter';

/**
 * The tree-sitter bash grammar, loaded once and lazily. Loading is asynchronous (WebAssembly);
 * after `loadBashParser()` has resolved, `parseBash` is synchronous and costs tens of µs for a
 * typical command, which is what lets the gate answer on every tool call.
 */
let parser: Parser | undefined;
let loading: Promise<Parser> | undefined;

/** Longest command the parser is given; longer input is judged not understood, never parsed. */
export const MAX_COMMAND_LENGTH = 1_048_576;
/** Parse budget: tree-sitter stops and reports a parse failure past it. */
const PARSE_BUDGET_MS = 50;
const LONG_COMMAND = 4096;

/** Whether `parseBash` can run now, without waiting for `loadBashParser()`. */
export function isBashParserLoaded(): boolean {
  return parser !== undefined;
}

export function loadBashParser(): Promise<Parser> {
  if (parser !== undefined) return Promise.resolve(parser);
  loading ??= (async () => {
    await Parser.init();
    const require = createRequire(import.meta.url);
    const language = await Language.load(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));
    const created = new Parser();
    created.setLanguage(language);
    parser = created;
    return created;
  })();
  return loading;
}

export type BashParse =
  | { ok: true; tree: Tree; root: Node; hasError: boolean }
  | { ok: false; reason: 'parser-not-loaded' | 'too-long' | 'timeout' };

/** Parses a command; the caller must `tree.delete()` the result (WebAssembly memory). */
export function parseBash(source: string): BashParse {
  if (parser === undefined) return { ok: false, reason: 'parser-not-loaded' };
  if (source.length > MAX_COMMAND_LENGTH) return { ok: false, reason: 'too-long' };
  // Short commands parse in microseconds; only long ones carry the cost of a deadline check.
  const deadline = performance.now() + PARSE_BUDGET_MS;
  const tree =
    source.length < LONG_COMMAND
      ? parser.parse(source)
      : parser.parse(source, null, { progressCallback: () => performance.now() > deadline });
  if (tree === null) {
    parser.reset();
    return { ok: false, reason: 'timeout' };
  }
  return { ok: true, tree, root: tree.rootNode, hasError: tree.rootNode.hasError };
}
