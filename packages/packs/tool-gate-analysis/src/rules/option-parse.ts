/**
 * The one option parser (issue 27, item 4). Every rule and the option vocabulary read a
 * command's arguments through `parseArguments`, driven by the program's option specification:
 * which spellings take a value. The specifications are data, written as option tables
 * (`vocabulary/program-options.ts`): `--tag` is a flag, `--tag=` takes a value, and so does `-t=`.
 *
 * The grammar is the POSIX and GNU one most programs follow:
 * - `--` ends the options; every later argument is positional;
 * - `--name=value` carries its value; `--name value` when the specification says it takes one;
 * - a single-dash spelling the specification lists whole (`-vv`, `-out`) is one option;
 * - otherwise `-abc` is a cluster of short options (`-a -b -c`); the first letter that takes a value
 *   takes the rest of the cluster (`-O/tmp/x`, `-j4`) or, ending it, the next argument (`-sd @f`);
 * - a lone `-` is positional (standard input), and so is `-5` when `negativeNumbers` says so;
 * - an option the specification does not list is reported with `known: false` and takes no value,
 *   so the caller decides what an unknown option means (a rule reads on; the vocabulary asks).
 */

/**
 * What a specification says of one spelling; `undefined` when it does not list it. `valueNotOption`:
 * a value given as the next word is taken only when that word is not itself an option (`-x`), as
 * generic readers of options whose name says they carry a command read them (`--exec -v` is two
 * options, `--exec cmd` one).
 */
export type OptionSpec = (name: string) => { takesValue: boolean; valueNotOption?: boolean } | undefined;

/** A table of spellings (`'--tag='`, `'-q'`) to anything, as the vocabulary's option tables are. */
export type OptionSpelling = Readonly<Record<string, unknown>>;

export interface ParsedOption {
  readonly kind: 'option';
  /** The option as spelled, without its value: `--tag`, `-t`, `-vv`. */
  readonly name: string;
  /** Its value, attached (`--tag=x`, `-tx`) or the next argument (`--tag x`, `-t x`). */
  readonly value: string | undefined;
  /** Whether the value was the next argument (so it is not positional). */
  readonly separateValue: boolean;
  /** The index in the arguments of the word the option was written in. */
  readonly index: number;
  /** Whether the specification lists the option. */
  readonly known: boolean;
  /** Whether the word held more than this option (`-rf`, `-j4`, `-sd@f`). */
  readonly clustered: boolean;
}

export interface ParsedPositional {
  readonly kind: 'positional';
  readonly value: string;
  readonly index: number;
}

export interface ParsedArguments {
  /** Options and positionals in the order written. */
  readonly tokens: readonly (ParsedOption | ParsedPositional)[];
  readonly options: readonly ParsedOption[];
  /** Every positional, those after `--` included. */
  readonly positionals: readonly string[];
  /** The index of `--`, when given. */
  readonly endOfOptions: number | undefined;
}

export interface ParseSettings {
  /** `-5`: a positional (a count, an offset) rather than the option `-5`. Default: positional. */
  readonly negativeNumbers?: 'positional' | 'option';
  /**
   * Whether `-abc` may be a cluster of short options. Programs whose single-dash options are whole
   * words (`sqlite3 -batch`, `sqlcmd -Q`) say `false`: a word the specification does not list is
   * one option, or a listed letter with its value attached (`-cSELECT 1`). Default: true.
   */
  readonly clusters?: boolean;
  /**
   * Whether the first positional ends the options, as `getopt` with a leading `+` reads them (and
   * POSIX requires): programs that run a command given after their own options (`sudo`, `env`,
   * `nice`, `timeout`) say `true`, so the command's options stay the command's. Default: false, the
   * GNU reading, where options and positionals mix (`rm dir -rf`).
   */
  readonly firstPositionalEndsOptions?: boolean;
}

/** The specification of a program whose options the caller does not know: none takes a value. */
const NO_OPTIONS: OptionSpelling = Object.freeze({});
const FLAG = { takesValue: false } as const;
const TAKES_VALUE = { takesValue: true } as const;
/** Each table read once into a map from spelling to what it says (the tables are constant data). */
const compiledTables = new WeakMap<OptionSpelling, ReadonlyMap<string, typeof FLAG | typeof TAKES_VALUE>>();

function compiled(table: OptionSpelling): ReadonlyMap<string, typeof FLAG | typeof TAKES_VALUE> {
  let spellings = compiledTables.get(table);
  if (spellings === undefined) {
    const map = new Map<string, typeof FLAG | typeof TAKES_VALUE>();
    // A spelling listed as written is a flag (`--tag`); one listed with `=` takes a value, unless
    // the table lists it as a flag too.
    for (const key of Object.keys(table)) {
      map.set(key, FLAG);
      if (key.endsWith('=') && !Object.hasOwn(table, key.slice(0, -1)))
        map.set(key.slice(0, -1), TAKES_VALUE);
    }
    spellings = map;
    compiledTables.set(table, spellings);
  }
  return spellings;
}

/** A specification from option tables, the first that lists a spelling deciding. */
export function specOf(...tables: readonly OptionSpelling[]): OptionSpec {
  const maps = tables.map(compiled);
  return (name) => {
    for (const map of maps) {
      const said = map.get(name);
      if (said !== undefined) return said;
    }
    return undefined;
  };
}

export function parseArguments(
  args: readonly string[],
  spec: OptionSpec | OptionSpelling = NO_OPTIONS,
  settings: ParseSettings = {},
): ParsedArguments {
  const lookup = typeof spec === 'function' ? spec : specOf(spec);
  // Whether a value-taking option takes the word after `index` as its value.
  const takesNext = (known: ReturnType<OptionSpec>, index: number): boolean =>
    known?.takesValue === true &&
    index + 1 < args.length &&
    !(known.valueNotOption === true && args[index + 1]!.startsWith('-'));
  const numbersArePositional = (settings.negativeNumbers ?? 'positional') === 'positional';
  const tokens: (ParsedOption | ParsedPositional)[] = [];
  let endOfOptions: number | undefined;
  const option = (
    name: string,
    index: number,
    known: boolean,
    clustered: boolean,
    value?: string,
    separateValue = false,
  ): void => {
    tokens.push({ kind: 'option', name, value, separateValue, index, known, clustered });
  };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--') {
      endOfOptions = index;
      for (let rest = index + 1; rest < args.length; rest += 1)
        tokens.push({ kind: 'positional', value: args[rest]!, index: rest });
      break;
    }
    if (!arg.startsWith('-') || arg === '-' || (numbersArePositional && /^-\d+$/.test(arg))) {
      if (settings.firstPositionalEndsOptions === true) {
        for (let rest = index; rest < args.length; rest += 1)
          tokens.push({ kind: 'positional', value: args[rest]!, index: rest });
        break;
      }
      tokens.push({ kind: 'positional', value: arg, index });
      continue;
    }
    const equals = arg.indexOf('=');
    const whole = equals >= 0 ? arg.slice(0, equals) : arg;
    // A long option, or a single-dash spelling the specification lists whole (`-vv`, `-out`).
    const wholeKnown = whole.length > 2 ? lookup(whole) : undefined;
    if (arg.startsWith('--') || wholeKnown !== undefined) {
      const known = wholeKnown ?? lookup(whole);
      if (equals >= 0) option(whole, index, known !== undefined, false, arg.slice(equals + 1));
      else if (takesNext(known, index)) option(whole, index, true, false, args[++index], true);
      else option(whole, index, known !== undefined, false);
      continue;
    }
    if (settings.clusters === false) {
      const known = lookup(whole);
      const first = known === undefined && arg.length > 2 ? lookup(arg.slice(0, 2)) : undefined;
      if (first?.takesValue === true) option(arg.slice(0, 2), index, true, true, arg.slice(2));
      else if (equals >= 0) option(whole, index, known !== undefined, false, arg.slice(equals + 1));
      else if (takesNext(known, index)) option(whole, index, true, false, args[++index], true);
      else option(whole, index, known !== undefined, false);
      continue;
    }
    const clustered = arg.length > 2;
    for (let letter = 1; letter < arg.length; letter += 1) {
      const name = `-${arg[letter]}`;
      const known = lookup(name);
      if (known?.takesValue === true) {
        const rest = arg.slice(letter + 1);
        if (rest !== '') option(name, index, true, true, rest);
        else if (takesNext(known, index)) option(name, index, true, clustered, args[++index], true);
        else option(name, index, true, clustered);
        break;
      }
      option(name, index, known !== undefined, clustered);
    }
  }
  const options = tokens.filter((token): token is ParsedOption => token.kind === 'option');
  const positionals = tokens.filter((token) => token.kind === 'positional').map((token) => token.value);
  return { tokens, options, positionals, endOfOptions };
}

/**
 * The flags-and-operands view rules read: which options were given and what is positional.
 */
export interface ParsedOptions {
  /** Every option, short ones unclustered (`-r`, `-f`); long ones as written (`--force=true`). */
  flags: string[];
  operands: string[];
}

export function parseOptions(
  args: readonly string[],
  spec: OptionSpec | OptionSpelling = NO_OPTIONS,
): ParsedOptions {
  const parsed = parseArguments(args, spec);
  return {
    flags: parsed.options.map((each) =>
      each.name.startsWith('--') && each.value !== undefined && !each.separateValue
        ? `${each.name}=${each.value}`
        : each.name,
    ),
    operands: [...parsed.positionals],
  };
}

export function hasFlag(parsed: ParsedOptions, ...names: string[]): boolean {
  return parsed.flags.some((flag) => names.includes(flag.split('=')[0]!));
}
