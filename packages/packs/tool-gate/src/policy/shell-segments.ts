/**
 * The simple commands of a shell command line, split at the list and pipeline operators
 * (`&&`, `||`, `;`, `|`, `|&`, `&`, newlines). `complete` is false when the line holds a
 * construct this splitter does not model (substitutions, subshells, groups, heredocs, process
 * substitution, file redirections, unbalanced quotes): such a line is never allowed by a rule.
 */
export interface ShellSegments {
  readonly segments: readonly string[];
  readonly complete: boolean;
}

/** A segmenter the host may supply (the built-in engine has a tree-sitter based one). */
export type ShellSegmenter = (command: string) => ShellSegments;

/**
 * The pack's own segmenter. It is deliberately small: the pack is embedded by agents that must
 * not load a WebAssembly parser, and policy matching needs only the top-level split. Anything it
 * cannot split with certainty marks the result incomplete, which only ever narrows what an allow
 * rule matches; the engine's parser-based analysis judges the command itself.
 */
export function segmentShellCommand(command: string): ShellSegments {
  const segments: string[] = [];
  let complete = true;
  let current = '';
  let quote: "'" | '"' | null = null;
  const push = (): void => {
    const trimmed = current.trim();
    if (trimmed !== '') segments.push(trimmed);
    current = '';
  };
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    const next = command[index + 1];
    if (quote === "'") {
      current += char;
      if (char === "'") quote = null;
      continue;
    }
    if (char === '\\') {
      current += char + (next ?? '');
      index++;
      continue;
    }
    if (quote === '"') {
      current += char;
      if (char === '"') quote = null;
      else if (char === '`' || (char === '$' && next === '(')) complete = false;
      continue;
    }
    if (char === "'" || char === '"') {
      quote = char;
      current += char;
      continue;
    }
    if (char === '`' || char === '(' || char === ')' || char === '{' || char === '}') complete = false;
    if (char === '$' && next === '(') complete = false;
    if (char === '<' && (next === '<' || next === '(')) complete = false;
    if (char === '>' && !isHarmlessRedirection(command, index)) complete = false;
    if (char === '#' && (current === '' || /\s$/.test(current))) {
      // A comment runs to the end of the line.
      const end = command.indexOf('\n', index);
      index = end === -1 ? command.length : end - 1;
      continue;
    }
    if (char === ';' || char === '\n') {
      push();
      continue;
    }
    if (char === '&') {
      if (next === '&') index++;
      else if (current.endsWith('>') || current.endsWith('<') || next === '>') {
        current += char;
        continue;
      }
      push();
      continue;
    }
    if (char === '|') {
      if (next === '|' || next === '&') index++;
      push();
      continue;
    }
    current += char;
  }
  if (quote !== null) complete = false;
  push();
  return { segments, complete };
}

/** `2>&1`, `>&2`, `>/dev/null` and `2>/dev/null` write no file. */
function isHarmlessRedirection(command: string, index: number): boolean {
  const rest = command.slice(index);
  return /^>{1,2}\s*(&\d|\/dev\/null(?![\w/.-]))/.test(rest);
}
