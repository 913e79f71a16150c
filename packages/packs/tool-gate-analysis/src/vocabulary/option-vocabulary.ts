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
import { type ParsedOption, parseArguments, specOf } from '../rules/option-parse.js';

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

/** The role a table gives a spelling (`--tag` or `--tag=`), the first table that lists it deciding. */
function roleOf(tables: readonly OptionTable[], name: string): OptionRole | undefined {
  for (const table of tables) {
    const role = table[name] ?? table[`${name}=`];
    if (role !== undefined) return role;
  }
  return undefined;
}

/**
 * Reads `args` (after the program name) against a vocabulary, through the one option parser
 * (`rules/option-parse.ts`) with the vocabulary's tables as the specification. Options after `--`
 * are operands.
 */
export function readOptions(vocabulary: ProgramVocabulary, args: readonly string[]): VocabularyReading {
  const global = vocabulary.global ?? {};
  const subcommands = vocabulary.subcommands ?? {};
  // The subcommand is the longest listed path made of the leading non-option words; only the
  // program's global options are known before it, so only theirs take the next word as a value.
  const leading = parseArguments(args, specOf(global), { negativeNumbers: 'option' });
  const words = leading.tokens
    .filter((token) => token.kind === 'positional' && token.index < (leading.endOfOptions ?? args.length))
    .slice(0, 3)
    .map((token) => (token.kind === 'positional' ? token.value : ''));
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
  const parsed = parseArguments(args, specOf(...tables), { negativeNumbers: 'option' });
  const end = parsed.endOfOptions ?? args.length;
  // The options of one word together: a cluster (`-it`) is understood only when every letter is.
  const byWord = new Map<number, ParsedOption[]>();
  for (const option of parsed.options) {
    if (option.index > end) continue;
    byWord.set(option.index, [...(byWord.get(option.index) ?? []), option]);
  }
  for (const [index, word] of byWord) {
    for (const option of word) {
      const role = option.known ? roleOf(tables, option.name) : undefined;
      if (role !== undefined && role !== 'routine') reading.roles.push({ option: option.name, role });
    }
    if (word.every((option) => option.known)) continue;
    const arg = args[index]!;
    const next = args[index + 1];
    reading.unknown.push({
      option: word.length === 1 ? word[0]!.name : arg.split('=')[0]!,
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
