import { wordsOf } from './semantic-text.js';

/**
 * Words that say how much of a quality a level holds, lowest first: the order of an intensity
 * scale ("not at all", "a little", "somewhat", "very", "extremely") and of a frequency scale.
 */
const INTENSITY_RANKS: ReadonlyMap<string, number> = new Map(
  (
    'not:0 none:0 never:0 little:1 slightly:1 rarely:1 barely:1 somewhat:2 moderately:2 fairly:2 ' +
    'sometimes:2 quite:3 very:3 often:3 highly:3 extremely:4 completely:4 totally:4 fully:4 always:4'
  )
    .split(' ')
    .map((entry) => {
      const [word, rank] = entry.split(':');
      return [word!, Number(rank)];
    }),
);

const NUMBER = /-?\d+(?:\.\d+)?/;

/**
 * Which way a Score's levels run by their own words: +1 when the numbers they name ("1 star" …
 * "5 stars", "0" … "4") or their intensity words rise with their position, −1 when they fall (the
 * same levels given in reverse order), 0 when the levels say nothing of their order. A scale whose
 * levels carry no valence of their own is read by position; without this, levels given in reverse
 * order were read as running the usual way and the answer was not mirrored. Read from the sign of
 * the covariance of position and rank, which flips exactly when the levels are reversed.
 */
export function levelOrderOf(levels: readonly string[]): 1 | -1 | 0 {
  const ranked = levels.flatMap((text, index) => {
    const rank = rankOf(text);
    return rank === undefined ? [] : [[index, rank] as const];
  });
  if (ranked.length < 2) return 0;
  const meanIndex = ranked.reduce((sum, [index]) => sum + index, 0) / ranked.length;
  const meanRank = ranked.reduce((sum, [, rank]) => sum + rank, 0) / ranked.length;
  const covariance = ranked.reduce((sum, [index, rank]) => sum + (index - meanIndex) * (rank - meanRank), 0);
  return covariance > 0 ? 1 : covariance < 0 ? -1 : 0;
}

/** The number a level names, else the rank of its first intensity word, else undefined. */
function rankOf(text: string): number | undefined {
  const number = NUMBER.exec(text);
  if (number) return Number(number[0]);
  for (const word of wordsOf(text)) {
    const rank = INTENSITY_RANKS.get(word);
    if (rank !== undefined) return rank;
  }
  return undefined;
}
