import { createRequire } from 'node:module';
import { Language, type Node, Parser } from 'web-tree-sitter';

/**
 * The tree-sitter PowerShell grammar (the `tree-sitter-powershell` package's WebAssembly build),
 * loaded once and lazily, only when a call holds PowerShell: most calls never pay for it. Once
 * loaded, parsing is synchronous, as for bash.
 */
let parser: Parser | undefined;
let loading: Promise<Parser> | undefined;

/** Longest script the parser is given; longer scripts are not understood. */
export const MAX_POWERSHELL_LENGTH = 65_536;

export function isPowerShellParserLoaded(): boolean {
  return parser !== undefined;
}

export function loadPowerShellParser(): Promise<Parser> {
  if (parser !== undefined) return Promise.resolve(parser);
  loading ??= (async () => {
    await Parser.init();
    const require = createRequire(import.meta.url);
    const language = await Language.load(
      require.resolve('tree-sitter-powershell/tree-sitter-powershell.wasm'),
    );
    const created = new Parser();
    created.setLanguage(language);
    parser = created;
    return created;
  })();
  return loading;
}

export type PowerShellParse =
  | { ok: true; root: Node; hasError: boolean; release: () => void }
  | { ok: false; reason: 'parser-not-loaded' | 'too-long' };

export function parsePowerShell(source: string): PowerShellParse {
  if (parser === undefined) return { ok: false, reason: 'parser-not-loaded' };
  if (source.length > MAX_POWERSHELL_LENGTH) return { ok: false, reason: 'too-long' };
  const tree = parser.parse(source);
  if (tree === null) return { ok: false, reason: 'too-long' };
  return { ok: true, root: tree.rootNode, hasError: tree.rootNode.hasError, release: () => tree.delete() };
}

/**
 * Whether a tool call's text holds PowerShell or a Windows command line, so that its grammar must
 * be loaded before the (synchronous) analysis: a PowerShell host program, or a `Verb-Noun` cmdlet.
 */
export function mentionsPowerShell(text: string): boolean {
  return (
    /\b(powershell|pwsh)(\.exe)?\b/i.test(text) || /(^|[\s;|&({"'])[A-Z][a-z]+-[A-Z][A-Za-z]+\b/.test(text)
  );
}
