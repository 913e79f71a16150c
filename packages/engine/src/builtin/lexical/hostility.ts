import { createRequire } from 'node:module';
import { wordsOf } from './semantic-text.js';

/**
 * Hostile language: what makes a text offensive, abusive, toxic or hateful, as opposed to merely
 * negative. A sad review, a bug report or criticism of a product is negative and not hostile; an
 * insult, a slur, a threat or profanity aimed at someone is hostile whatever its valence. So a claim
 * that names hostility is judged by hostile words, never by valence.
 *
 * Sources: the English list of "Dirty, Naughty, Obscene, and Otherwise Bad Words" (LDNOOBW,
 * CC-BY-4.0, through the npm package `naughty-words`) for profanity, sexual insults and slurs; and,
 * hand-written for Arbiter (Apache-2.0), insults about a person's mind or worth, dehumanising words,
 * wishes of harm and threats, which that list leaves out.
 */
export interface Hostility {
  /** Hostile words and phrases found (at most a few count). */
  readonly words: number;
  /** A hostile word in a text that addresses someone (`you`, `your`, `@user`). */
  readonly targeted: boolean;
}

/** Words that, in a claim, ask whether a text is hostile (`Is this tweet offensive?`). */
const HOSTILITY_NAMES: ReadonlySet<string> = new Set(
  (
    'offensive offence offense offend offends abusive abuse toxic toxicity hateful hate hatred insulting insult ' +
    'insults rude rudeness threatening threat threats harassing harassment harass profane profanity obscene ' +
    'obscenity vulgar vulgarity hostile hostility derogatory disrespectful slur slurs bullying bully uncivil ' +
    'incivility aggressive aggression racist racism sexist sexism misogynistic misogyny xenophobic'
  ).split(' '),
);

/** Words that, in a claim, ask for the opposite (`Is this comment civil?`). */
const CIVILITY_NAMES: ReadonlySet<string> = new Set(['civil', 'polite', 'respectful', 'courteous']);

/** Hand-written: insults, dehumanising words, wishes of harm and threats. */
const HAND_WRITTEN =
  'idiot idiots idiotic stupid stupidity dumb dumbass moron morons moronic imbecile cretin retard retarded ' +
  'loser losers pathetic worthless useless scum scumbag trash garbage filth filthy vermin parasite parasites ' +
  'pig pigs rat rats animal animals savage savages subhuman disgusting disgrace clown clowns fool fools ' +
  'foolish jerk jerks ignorant braindead brainless pos creep creepy freak freaks psycho lunatic maniac ' +
  'hypocrite liar liars traitor traitors thug thugs crook crooks coward cowards degenerate degenerates ' +
  'shut stfu gtfo kys hell damn damned crap crappy piss pissed bloody sucks suck';

/** Phrases of more than one word that are hostile only together (`shut up`, `go back`). */
const HAND_WRITTEN_PHRASES = [
  'shut up',
  'go back',
  'go to hell',
  'kill yourself',
  'get out',
  'piece of shit',
  'son of a',
  'waste of space',
  'hope you die',
  'should die',
  'deserve to die',
  'i will kill',
  'gonna kill',
  'kill you',
];

/** Words that address someone (a mention, `@name`, counts too): a hostile word there is aimed at a person. */
const ADDRESS: ReadonlySet<string> = new Set(['you', 'your', 'youre', 'ur', 'u', 'yours', 'yourself']);

/** At most this many hostile words count: the third insult says little the second did not. */
const MAX_COUNTED = 3;

let lexicon: { words: ReadonlySet<string>; phrases: readonly string[] } | undefined;

/** Loaded on the first hostility claim, so that a server that is never asked one never reads it. */
function hostileLexicon(): { words: ReadonlySet<string>; phrases: readonly string[] } {
  if (lexicon === undefined) {
    const listed = createRequire(import.meta.url)('naughty-words/en.json') as string[];
    const entries = [...listed.map((entry) => entry.toLowerCase()), ...HAND_WRITTEN.split(' ')];
    lexicon = {
      words: new Set(entries.filter((entry) => !entry.includes(' '))),
      phrases: [...entries.filter((entry) => entry.includes(' ')), ...HAND_WRITTEN_PHRASES],
    };
  }
  return lexicon;
}

/**
 * +1 when a claim's words name hostility, −1 when they name civility, 0 otherwise. `Is this tweet
 * offensive?` → +1; `Is the comment civil?` → −1; `Is this review positive?` → 0.
 */
export function hostilityClaim(claim: string): -1 | 0 | 1 {
  const words = wordsOf(claim);
  if (words.some((word) => HOSTILITY_NAMES.has(word))) return 1;
  if (words.some((word) => CIVILITY_NAMES.has(word))) return -1;
  return 0;
}

export function hostilityOf(text: string): Hostility {
  const { words: hostile, phrases } = hostileLexicon();
  // A masked swear (`f*ck`, `sh!t`, `b**ch`) is one, whatever the mask.
  const masked = text.match(/\b[a-z]+[*#@$!]+[a-z]*\b/gi)?.length ?? 0;
  const words = wordsOf(text.replace(/['’]/g, ''));
  let count = masked + words.filter((word) => hostile.has(word)).length;
  if (count < MAX_COUNTED) {
    const spaced = ` ${words.join(' ')} `;
    for (const phrase of phrases) if (spaced.includes(` ${phrase} `)) count += 1;
  }
  const addressed = /@\w+/.test(text) || words.some((word) => ADDRESS.has(word));
  return { words: Math.min(count, MAX_COUNTED), targeted: count > 0 && addressed };
}
