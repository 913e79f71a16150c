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
