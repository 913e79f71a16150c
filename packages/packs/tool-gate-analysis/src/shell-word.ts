import type { ShellNode } from './shell-syntax.js';

/**
 * The value of one shell word after quote removal and the expansions the analyser can resolve:
 * variables assigned earlier in the same command (`a=rm; $a -rf /`), `$IFS`, and `$(echo …)`.
 * What cannot be resolved stays as its source text and marks the word dynamic.
 */
export interface WordValue {
  text: string;
  /** Some part came from an expansion the analyser could not resolve. */
  dynamic: boolean;
  /** Some part came from an unquoted expansion, so the shell would split it into several words. */
  splits: boolean;
}

/** Variables assigned so far in the command being analysed. */
export type ShellVariables = Map<string, string>;

/** `type` is `node.type` when the caller has read it already (each read calls into WebAssembly). */
export function evaluateWord(node: ShellNode, variables: ShellVariables, type = node.type): WordValue {
  switch (type) {
    case 'word':
    case 'command_name': {
      const name = type === 'command_name' ? node.firstNamedChild : null;
      if (name !== null) return evaluateWord(name, variables);
      return { text: unescapeUnquoted(node.text), dynamic: false, splits: false };
    }
    case 'number':
    case 'variable_name':
      return { text: node.text, dynamic: false, splits: false };
    case 'raw_string':
      return { text: node.text.slice(1, -1), dynamic: false, splits: false };
    case 'ansi_c_string':
      return { text: decodeAnsiC(node.text.slice(2, -1)), dynamic: false, splits: false };
    case 'string':
    case 'translated_string':
      return evaluatePieces(node, variables, type === 'string' ? 1 : 2);
    case 'concatenation':
      return evaluatePieces(node, variables, 0);
    case 'simple_expansion':
    case 'expansion':
      return evaluateExpansion(node, variables, false);
    case 'command_substitution':
      return evaluateSubstitution(node, variables);
    default:
      return { text: node.text, dynamic: true, splits: false };
  }
}

/** `opening` is the length of the quote that opens a string (`"` or `$"`), 0 outside quotes. */
function evaluatePieces(node: ShellNode, variables: ShellVariables, opening: 0 | 1 | 2): WordValue {
  const source = node.text;
  const base = node.startIndex;
  const quoted = opening > 0;
  // A double-quoted string's own quotes are not content.
  const end = quoted ? source.length - 1 : source.length;
  let text = '';
  let dynamic = false;
  let splits = false;
  let cursor: number = opening;
  for (const child of node.namedChildren) {
    if (child === null) continue;
    const childStart = child.startIndex - base;
    const childEnd = child.endIndex - base;
    if (childStart < cursor) continue;
    text += literal(source.slice(cursor, childStart), quoted);
    const type = child.type;
    if (type === 'string_content') {
      text += unescapeDoubleQuoted(child.text);
    } else if (quoted && (type === 'simple_expansion' || type === 'expansion')) {
      const value = evaluateExpansion(child, variables, true);
      text += value.text;
      dynamic ||= value.dynamic;
    } else {
      const value = evaluateWord(child, variables, type);
      text += value.text;
      dynamic ||= value.dynamic;
      splits ||= value.splits;
    }
    cursor = childEnd;
  }
  text += literal(source.slice(cursor, Math.max(cursor, end)), quoted);
  return { text, dynamic, splits };
}

function literal(text: string, quoted: boolean): string {
  return quoted ? unescapeDoubleQuoted(text) : unescapeUnquoted(text);
}

function evaluateExpansion(node: ShellNode, variables: ShellVariables, quoted: boolean): WordValue {
  const match = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)(?::?[-=]([^}]*))?\}?$/.exec(node.text);
  if (match === null) return { text: node.text, dynamic: true, splits: false };
  const name = match[1]!;
  if (name === 'IFS' && !variables.has('IFS')) return { text: ' ', dynamic: false, splits: !quoted };
  const value = variables.get(name);
  if (value !== undefined) return { text: value, dynamic: false, splits: !quoted };
  // Left as written: path classification knows `$HOME` and `$TMPDIR` (with their defaults).
  return { text: node.text, dynamic: true, splits: false };
}

function evaluateSubstitution(node: ShellNode, variables: ShellVariables): WordValue {
  // `$(echo rm)` is a common way to hide a command name; resolve the trivial echo/printf case.
  const inner = node.namedChildren.filter((child) => child !== null);
  const only = inner.length === 1 ? inner[0] : undefined;
  if (only?.type === 'command') {
    const name = only.childForFieldName('name');
    if (name !== null && (name.text === 'echo' || name.text === 'printf')) {
      const parts = only.childrenForFieldName('argument').filter((child) => child !== null);
      const values = parts.map((part) => evaluateWord(part, variables));
      if (values.every((value) => !value.dynamic) && !values.some((value) => value.text.startsWith('-')))
        return { text: values.map((value) => value.text).join(' '), dynamic: false, splits: true };
    }
  }
  return { text: node.text, dynamic: true, splits: false };
}

/** Backslash removal outside quotes: `r\m` is `rm`; a backslash-newline joins lines. */
export function unescapeUnquoted(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\\n/g, '').replace(/\\(.)/gs, '$1');
}

function unescapeDoubleQuoted(text: string): string {
  if (!text.includes('\\')) return text;
  return text.replace(/\\\n/g, '').replace(/\\([$`"\\])/g, '$1');
}

function decodeAnsiC(text: string): string {
  return text.replace(/\\(x[0-9A-Fa-f]{1,2}|[0-7]{1,3}|.)/gs, (_match, sequence: string) => {
    if (sequence.startsWith('x')) return String.fromCharCode(Number.parseInt(sequence.slice(1), 16));
    if (/^[0-7]/.test(sequence)) return String.fromCharCode(Number.parseInt(sequence, 8));
    const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', a: '\x07', e: '\x1b', '0': '\0' };
    return simple[sequence] ?? sequence;
  });
}
