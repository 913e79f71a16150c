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
  let start = 0;
  let quote: "'" | '"' | null = null;
  // Slices instead of building strings character by character: commands can be a megabyte.
  const push = (end: number, next: number): void => {
    const trimmed = command.slice(start, end).trim();
    if (trimmed !== '') segments.push(trimmed);
    start = next;
  };
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    const next = command[index + 1];
    if (quote === "'") {
      if (char === "'") quote = null;
      continue;
    }
    if (char === '\\') {
      index++;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = null;
      else if (char === '`' || (char === '$' && next === '(')) complete = false;
      continue;
    }
    switch (char) {
      case "'":
      case '"':
        quote = char;
        break;
      case '`':
      case '(':
      case ')':
      case '{':
      case '}':
        complete = false;
        break;
      case '$':
        if (next === '(') complete = false;
        break;
      case '<':
        if (next === '<' || next === '(') complete = false;
        break;
      case '>':
        if (!isHarmlessRedirection(command, index)) complete = false;
        break;
      case '#':
        if (index === start || /\s/.test(command[index - 1] ?? ' ')) {
          // A comment runs to the end of the line.
          const end = command.indexOf('\n', index);
          push(index, end === -1 ? command.length : end);
          index = end === -1 ? command.length : end - 1;
        }
        break;
      case ';':
      case '\n':
        push(index, index + 1);
        break;
      case '&':
        if (next === '&') {
          push(index, index + 2);
          index++;
        } else if (command[index - 1] !== '>' && command[index - 1] !== '<' && next !== '>') {
          push(index, index + 1);
        }
        break;
      case '|':
        if (next === '|' || next === '&') {
          push(index, index + 2);
          index++;
        } else push(index, index + 1);
        break;
    }
  }
  if (quote !== null) complete = false;
  push(command.length, command.length);
  return { segments, complete };
}

/** `2>&1`, `>&2`, `>/dev/null` and `2>/dev/null` write no file. */
function isHarmlessRedirection(command: string, index: number): boolean {
  const rest = command.slice(index);
  return /^>{1,2}\s*(&\d|\/dev\/null(?![\w/.-]))/.test(rest);
}
