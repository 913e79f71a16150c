/**
 * Values that name one thing of a kind: numbers, days of the week, months. Word vectors put
 * "Friday" next to "Tuesday" and "3" next to "4", so coverage by meaning reads "the meeting is on
 * Tuesday" as confirming "the meeting is on Friday". A claim that names a value the text lacks,
 * when the text names another value of the same kind, is evidence against the claim; one that
 * names a value the text also names is evidence for it.
 */
export type ValueKind = 'number' | 'weekday' | 'month';

const WEEKDAYS = 'monday tuesday wednesday thursday friday saturday sunday'.split(' ');
const MONTHS = 'january february march april may june july august september october november december'.split(
  ' ',
);
const WEEKDAY_SET: ReadonlySet<string> = new Set(WEEKDAYS);
/** "May" and "march" are also ordinary words; as months they are read only when capitalised. */
const MONTH_SET: ReadonlySet<string> = new Set(MONTHS);
const AMBIGUOUS_MONTHS: ReadonlySet<string> = new Set(['may', 'march']);
const NUMBER_WORDS: ReadonlyMap<string, string> = new Map(
  'zero one two three four five six seven eight nine ten eleven twelve'
    .split(' ')
    .map((word, index) => [word, String(index)]),
);

/** The specific values a text names, by kind, normalised (numbers as digits, names lower-case). */
export function specificValuesOf(text: string): Map<ValueKind, Set<string>> {
  const values = new Map<ValueKind, Set<string>>();
  const add = (kind: ValueKind, value: string) => {
    let set = values.get(kind);
    if (!set) {
      set = new Set();
      values.set(kind, set);
    }
    set.add(value);
  };
  for (const match of text.matchAll(/\d+(?:[.,]\d+)?/g)) add('number', match[0].replace(',', '.'));
  for (const match of text.matchAll(/[A-Za-z]+/g)) {
    const word = match[0];
    const lower = word.toLowerCase();
    if (WEEKDAY_SET.has(lower)) add('weekday', lower);
    else if (MONTH_SET.has(lower) && (!AMBIGUOUS_MONTHS.has(lower) || word[0] !== lower[0]))
      add('month', lower);
    else if (NUMBER_WORDS.has(lower)) add('number', NUMBER_WORDS.get(lower)!);
  }
  return values;
}

export interface ValueComparison {
  /** Values of the claim the text names too. */
  readonly matched: readonly string[];
  /** Values of the claim the text lacks while naming another value of the same kind. */
  readonly mismatched: ReadonlyArray<readonly [claimed: string, stated: string]>;
}

export function compareValues(claim: string, text: string): ValueComparison {
  return compareValueSets(specificValuesOf(claim), specificValuesOf(text));
}

/** `compareValues` of values already read (a request reads its state's once for every question). */
export function compareValueSets(
  claimed: ReadonlyMap<ValueKind, ReadonlySet<string>>,
  stated: ReadonlyMap<ValueKind, ReadonlySet<string>>,
): ValueComparison {
  const matched: string[] = [];
  const mismatched: [string, string][] = [];
  for (const [kind, values] of claimed) {
    const others = stated.get(kind);
    if (!others) continue;
    for (const value of values) {
      if (others.has(value)) matched.push(value);
      else mismatched.push([value, [...others][0]!]);
    }
  }
  return { matched, mismatched };
}
