import type { SimpleCommand } from './shell-command.js';

/**
 * The text a command prints when that text is written in the command itself: `echo` and
 * `printf` arguments, a heredoc given to `cat`, and what such a command pipes into `tee`. A
 * redirection of it into a file inserts this text there, exactly as a Write tool would, so it is
 * judged the same way (principle 5 of issue 14). Anything else (a program's output, a file's
 * copy) is not known before it runs and yields undefined.
 */
export function literalOutput(command: SimpleCommand): string | undefined {
  switch (command.program) {
    case 'echo': {
      let args = command.args;
      while (args.length > 0 && /^-[neE]+$/.test(args[0]!)) args = args.slice(1);
      return expandEscapes(args.join(' '));
    }
    case 'printf': {
      // The format and its arguments; the arguments fill the format's conversions in order.
      const [format = '', ...values] = command.args[0] === '--' ? command.args.slice(1) : command.args;
      let next = 0;
      const filled = format.replace(/%[-+ #0]*\d*(?:\.\d+)?[sbdiqc]/g, () => values[next++] ?? '');
      return expandEscapes([filled, ...values.slice(next)].join('\n'));
    }
    case 'cat':
      if (command.args.some((arg) => arg !== '-')) return undefined;
      return command.input.kind === 'document' ? command.input.body : undefined;
    case 'tee':
      if (command.input.kind === 'document') return command.input.body;
      return command.input.kind === 'pipe' ? literalOutput(command.input.from) : undefined;
    default:
      return undefined;
  }
}

/** The backslash escapes `echo -e` and `printf` turn into line breaks and tabs. */
function expandEscapes(text: string): string {
  return text.replace(/\\n/g, '\n').replace(/\\t/g, '\t');
}
