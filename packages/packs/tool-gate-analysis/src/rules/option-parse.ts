/**
 * Splits an argument list into flags and operands the way most Unix tools do: bundled short
 * flags (`-rf` is `-r -f`), long flags with `=value`, and `--` ending the options.
 */
export interface ParsedOptions {
  /** Every flag as written, short flags unbundled (`-r`, `-f`, `--force`, `--force=true`). */
  flags: string[];
  operands: string[];
}

export function parseOptions(
  args: readonly string[],
  optionsWithValue: ReadonlySet<string> = new Set(),
): ParsedOptions {
  const flags: string[] = [];
  const operands: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') {
      operands.push(...args.slice(index + 1));
      break;
    }
    if (arg.startsWith('--')) {
      flags.push(arg);
      if (optionsWithValue.has(arg) && !arg.includes('=')) index += 1;
    } else if (arg.startsWith('-') && arg.length > 1 && !/^-\d+$/.test(arg)) {
      for (const letter of arg.slice(1)) flags.push(`-${letter}`);
      if (optionsWithValue.has(arg)) index += 1;
    } else operands.push(arg);
  }
  return { flags, operands };
}

export function hasFlag(parsed: ParsedOptions, ...names: string[]): boolean {
  return parsed.flags.some((flag) => names.includes(flag.split('=')[0]!));
}

/**
 * POSIX bundling for programs whose rules read options one by one: `-sd @f` is `-s -d @f` and
 * `-sXPOST` is `-s -X POST`. The first letter of a bundle that takes a value takes the rest of the
 * bundle (`-O/tmp/x` is `-O /tmp/x`), or the next argument when it ends the bundle. Without this, `curl -sd @.env …` reads as
 * an unknown flag and a URL, and the upload goes unseen.
 */
export function unbundleShortOptions(
  args: readonly string[],
  takesValue: (flag: string) => boolean,
): string[] {
  const result: string[] = [];
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') {
      result.push(...args.slice(index));
      break;
    }
    // A bundle, or one option with its value attached (`-d@file`, `-O/tmp/x`).
    if (!/^-[A-Za-z#:]./.test(arg)) {
      result.push(arg);
      continue;
    }
    for (let letter = 1; letter < arg.length; letter += 1) {
      const flag = `-${arg[letter]}`;
      result.push(flag);
      if (takesValue(flag)) {
        const rest = arg.slice(letter + 1);
        if (rest !== '') result.push(rest);
        else if (index + 1 < args.length) result.push(args[++index]!);
        break;
      }
    }
  }
  return result;
}
