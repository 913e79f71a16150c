/**
 * Issue 27, "understood or ask": a known program is understood only as far as its options are.
 * A vocabulary lists, per program and subcommand, the options the gate knows and the role each
 * plays. An option outside it is not understood, so the call is at most ASK: the unknown part
 * is where a status command prints its token or a build also pushes.
 *
 * Spelling: `--tag` is a flag, `--tag=` an option that takes a value (so the next word is its
 * value, not a subcommand or operand), and single letters likewise (`-t=`). A role other than
 * `routine` is judged by `judgeOptionRoles`.
 */
export type OptionRole = 'routine' | 'publish' | 'secret' | 'code';

export type OptionTable = Readonly<Record<string, OptionRole>>;

export interface ProgramVocabulary {
  /** Options every subcommand takes. */
  readonly global?: OptionTable;
  /**
   * Subcommand paths (`build`, `buildx build`, `auth status`) and their own options. A command
   * whose subcommand is not listed is judged by the program's rule alone, unless `closed`.
   */
  readonly subcommands?: Readonly<Record<string, OptionTable>>;
  /** Every subcommand the program has that the gate understands is listed. */
  readonly closed?: boolean;
}

export interface VocabularyReading {
  /** The subcommand path that matched (`''` for the program itself). */
  subcommand: string | undefined;
  /**
   * Options no table lists, as written (without a value), and whether a value was given with
   * them (`--name=x`, or a next word that is not an option).
   */
  unknown: { option: string; valued: boolean }[];
  /** Known options whose role is not routine. */
  roles: { option: string; role: OptionRole }[];
  /** The program's vocabulary is closed and the subcommand is not in it. */
  unknownSubcommand: string | undefined;
}

function lookup(
  tables: readonly OptionTable[],
  name: string,
): { role: OptionRole; takesValue: boolean } | undefined {
  for (const table of tables) {
    const flag = table[name];
    if (flag !== undefined) return { role: flag, takesValue: false };
    const valued = table[`${name}=`];
    if (valued !== undefined) return { role: valued, takesValue: true };
  }
  return undefined;
}

/**
 * Reads `args` (after the program name) against a vocabulary. Options after `--` are operands.
 */
export function readOptions(vocabulary: ProgramVocabulary, args: readonly string[]): VocabularyReading {
  const global = vocabulary.global ?? {};
  const subcommands = vocabulary.subcommands ?? {};
  // The subcommand is the longest listed path made of the leading non-option words.
  const words: string[] = [];
  for (let index = 0; index < args.length && words.length < 3; index++) {
    const arg = args[index]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      const known = lookup([global], arg.split('=')[0]!);
      if (known?.takesValue === true && !arg.includes('=')) index++;
      continue;
    }
    words.push(arg);
  }
  let subcommand: string | undefined;
  for (let length = words.length; length >= 1 && subcommand === undefined; length--) {
    const path = words.slice(0, length).join(' ');
    if (Object.hasOwn(subcommands, path)) subcommand = path;
  }
  if (subcommand === undefined && Object.hasOwn(subcommands, '')) subcommand = '';
  const reading: VocabularyReading = { subcommand, unknown: [], roles: [], unknownSubcommand: undefined };
  if (subcommand === undefined) {
    if (vocabulary.closed === true && words.length > 0) reading.unknownSubcommand = words[0];
    return reading;
  }
  const tables = [subcommands[subcommand]!, global];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') break;
    if (!arg.startsWith('-') || arg === '-') continue;
    const name = arg.split('=')[0]!;
    const known = lookup(tables, name);
    if (known !== undefined) {
      if (known.role !== 'routine') reading.roles.push({ option: name, role: known.role });
      if (known.takesValue && !arg.includes('=')) index++;
      continue;
    }
    // A cluster of single-letter flags (`-it`, `-aq`): each letter must be known.
    if (/^-[A-Za-z]{2,}$/.test(arg)) {
      const letters = [...arg.slice(1)].map((letter) => lookup(tables, `-${letter}`));
      if (letters.every((letter) => letter !== undefined)) {
        for (const [position, letter] of letters.entries())
          if (letter!.role !== 'routine')
            reading.roles.push({ option: `-${arg[position + 1]}`, role: letter!.role });
        continue;
      }
    }
    // `-j4`, `-n5`: a single letter with its value attached.
    if (/^-[A-Za-z].+$/.test(arg) && lookup(tables, arg.slice(0, 2))?.takesValue === true) continue;
    const next = args[index + 1];
    reading.unknown.push({
      option: name,
      valued: arg.includes('=') || (next !== undefined && next !== '--' && !next.startsWith('-')),
    });
  }
  return reading;
}

/** Builds an option table from space-separated spellings that share one role. */
export function options(spellings: string, role: OptionRole = 'routine'): OptionTable {
  return Object.fromEntries(
    spellings
      .split(/\s+/)
      .filter((spelling) => spelling !== '')
      .map((spelling) => [spelling, role]),
  );
}
