/**
 * A monotone map of a yes/no probability, as knots `[raw, calibrated]` joined by straight lines
 * and flat beyond the first and last: the calibration of a kind of evidence whose confidence is
 * not monotone in its accuracy, which no temperature can fix. A temperature is symmetric about one
 * half, so it cannot move answers that sit on the wrong side of it (spam judged 0.31 when 44% of
 * such messages are spam), nor soften one range of scores while keeping another.
 */
export type MonotoneMap = ReadonlyArray<readonly [number, number]>;

/** One labelled yes/no answer: the probability given to yes, and whether yes was right. */
export interface YesNoSample {
  readonly probability: number;
  readonly yes: boolean;
}

export interface MonotoneMapFit {
  /** Fewest samples in one bin before pooling (pooling by monotony can only add more). */
  readonly binSize?: number;
  /**
   * Pseudo-answers of one half added to each bin's rate: a rate from few answers stays near the
   * prior, so the map never claims more than its bins can show.
   */
  readonly priorWeight?: number;
  /**
   * Whether a calibrated answer may be further from one half than the raw one, or on its other
   * side. False keeps each answer between its raw value and one half: the kind is only ever
   * softened, as for evidence that met unlike data at chance (two texts compared).
   */
  readonly sharpen?: boolean;
}

/** Raw probabilities closer than this are one value to the fit. */
const RAW_RESOLUTION = 0.005;

/**
 * Fits a monotone map by isotonic regression (pool adjacent violators) over bins of at least
 * `binSize` answers sorted by their raw probability, each bin's rate shrunk towards one half by
 * `priorWeight` pseudo-answers. Evidence whose accuracy does not rise with its strength pools into
 * one flat stretch, near its accuracy: it is shrunk, never sharpened by noise.
 */
export function fitMonotoneMap(samples: readonly YesNoSample[], fit: MonotoneMapFit = {}): MonotoneMap {
  if (samples.length === 0) throw new RangeError('fitting a monotone map needs at least one labelled sample');
  const binSize = fit.binSize ?? 40;
  const priorWeight = fit.priorWeight ?? 10;
  const sorted = [...samples].sort((a, b) => a.probability - b.probability);
  // Bins of consecutive answers, never splitting answers within `RAW_RESOLUTION` of each other:
  // evidence bounded at a limit puts many answers a hair apart, and ordering them by that hair
  // would fit noise (and knots must be distinct to be joined by lines).
  const bins: { count: number; sum: number; yes: number }[] = [];
  let current = { count: 0, sum: 0, yes: 0 };
  sorted.forEach((sample, index) => {
    current.count += 1;
    current.sum += sample.probability;
    current.yes += sample.yes ? 1 : 0;
    const next = sorted[index + 1];
    if (
      current.count >= binSize &&
      (next === undefined || next.probability - sample.probability >= RAW_RESOLUTION)
    ) {
      bins.push(current);
      current = { count: 0, sum: 0, yes: 0 };
    }
  });
  // A short last bin joins the one before it.
  if (current.count > 0) {
    const last = bins.at(-1);
    if (last === undefined) bins.push(current);
    else
      Object.assign(last, {
        count: last.count + current.count,
        sum: last.sum + current.sum,
        yes: last.yes + current.yes,
      });
  }
  // Pool adjacent violators: a bin whose rate falls below the one before joins it.
  const blocks: { count: number; sum: number; yes: number }[] = [];
  for (const bin of bins) {
    blocks.push({ ...bin });
    while (blocks.length > 1) {
      const last = blocks.at(-1)!;
      const before = blocks.at(-2)!;
      if (before.yes / before.count <= last.yes / last.count) break;
      blocks.pop();
      before.count += last.count;
      before.sum += last.sum;
      before.yes += last.yes;
    }
  }
  const knots = blocks.map((block): [number, number] => {
    const raw = block.sum / block.count;
    let calibrated = (block.yes + priorWeight / 2) / (block.count + priorWeight);
    if (fit.sharpen === false) calibrated = softened(raw, calibrated);
    return [raw, calibrated];
  });
  return monotoneKnots(knots);
}

/** `calibrated` kept between `raw` and one half: a move towards the prior, never away from it. */
function softened(raw: number, calibrated: number): number {
  return raw >= 0.5 ? Math.min(raw, Math.max(0.5, calibrated)) : Math.max(raw, Math.min(0.5, calibrated));
}

/** Knots whose calibrated values never fall (softening can break the order pooling made). */
function monotoneKnots(knots: [number, number][]): MonotoneMap {
  for (let index = 1; index < knots.length; index++) {
    knots[index]![1] = Math.max(knots[index]![1], knots[index - 1]![1]);
  }
  return knots.map(([raw, calibrated]) => [round(raw), round(calibrated)] as const);
}

function round(value: number): number {
  return Number(value.toFixed(4));
}

/** `probability` through `map`: linear between knots, flat beyond the first and the last. */
export function applyMonotoneMap(map: MonotoneMap, probability: number): number {
  const first = map[0];
  const last = map.at(-1);
  if (first === undefined || last === undefined) return probability;
  if (probability <= first[0]) return first[1];
  if (probability >= last[0]) return last[1];
  for (let index = 1; index < map.length; index++) {
    const [x1, y1] = map[index]!;
    if (probability <= x1) {
      const [x0, y0] = map[index - 1]!;
      return x1 === x0 ? y1 : y0 + ((probability - x0) / (x1 - x0)) * (y1 - y0);
    }
  }
  return last[1];
}
