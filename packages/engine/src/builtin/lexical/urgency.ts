import { wordsOf } from './semantic-text.js';

/**
 * Urgency: whether a text needs action now. Principle: something is urgent when it reports a
 * failure or a threat (an outage, a crash, data loss, a breach), when the harm reaches many or
 * matters much (production, every customer, payments, safety), or when the writer asks for speed
 * (ASAP, right now, within the hour); and it is not when the writer says it can wait (no rush,
 * when you have a moment) or names it small (a typo, an idea, a question). Negative words alone are
 * no urgency: a rude message or a sad review is negative and not urgent, and "Production is down"
 * holds no negative word at all. Hand-written for Arbiter (Apache-2.0).
 */
export interface Urgency {
  /** Failure and threat cues (at most 3 count). */
  readonly failure: number;
  /** Cues that the harm is wide or grave (at most 2 count). */
  readonly impact: number;
  /** Cues that the writer needs it fast (at most 2 count). */
  readonly pressure: number;
  /** Cues that it can wait or is small (at most 2 count). */
  readonly calm: number;
}

/** Words that, in a claim, ask whether a text is urgent (`Is this message urgent?`). */
const URGENCY_NAMES: ReadonlySet<string> = new Set(
  'urgent urgency urgently emergency emergencies critical asap immediate immediately escalate escalation'.split(
    ' ',
  ),
);

const FAILURE: ReadonlySet<string> = new Set(
  (
    'down outage outages offline broken broke crash crashed crashes crashing fail failed fails failing failure ' +
    'failures error errors exception exceptions 500 502 503 504 timeout timeouts unavailable unreachable ' +
    'unresponsive stuck frozen freezing hangs hanging corrupted corruption lost loss losing deleted deleting ' +
    'disappearing disappeared leak leaked leaking breach breached hacked compromised ransomware malware fraud ' +
    'exfiltrate exfiltrated exfiltrating exfiltration stolen stole theft intrusion intruder ' +
    'fraudulent attack attacked vulnerability exploit exploited injured injury dying ' +
    'bleeding unsafe danger dangerous'
  ).split(' '),
);
/**
 * An attack written into the text (SQL injection, script injection, path traversal, a command that
 * wipes files, a JNDI lookup) is a threat even where no word says so.
 */
const ATTACK_PAYLOAD =
  /\bunion\s+(all\s+)?select\b|\bdrop\s+(table|database)\b|'\s*or\s+'?1'?\s*=\s*'?1|'\s*;\s*--|<script\b|javascript:|(\.\.\/){2,}|\brm\s+-rf\b|\/etc\/(passwd|shadow)\b|\$\{jndi:/gi;

/** Failure spelled in two words: `not working`, `cannot log in`, `does not load`. */
const FAILURE_PHRASES =
  /\b(not|never|cannot|can't|unable to|won't|doesn't|does not|isn't|is not) (work|working|load|loading|start|starting|respond|responding|log in|login|connect|connecting|open|opening|send|sending|process|processing|be paid|get paid)\b/gi;

const IMPACT: ReadonlySet<string> = new Set(
  (
    'production prod live all every everyone everybody nobody entire whole customers customer users clients ' +
    'revenue money orders payments payment payouts payroll checkout billing patients safety ' +
    'security data database servers company team'
  ).split(' '),
);

const PRESSURE: ReadonlySet<string> = new Set(
  (
    'urgent urgently asap immediately immediate now emergency critical help tonight today p0 p1 sev1 blocker ' +
    'blocking blocked escalate deadline'
  ).split(' '),
);
const PRESSURE_PHRASES =
  /\b(right away|right now|within the hour|as soon as possible|this minute|every minute)\b/gi;

const CALM: ReadonlySet<string> = new Set(
  (
    'whenever eventually someday typo typos cosmetic idea ideas suggestion suggestions wondering curious thanks ' +
    'thank minor small little'
  ).split(' '),
);
const CALM_PHRASES =
  /\b(no rush|no hurry|not urgent|when you have a moment|when you get a chance|low priority|nice to have|at some point|next (week|month|quarter|year)|end of next|no action needed|feature (idea|request))\b/gi;

/**
 * +1 when a claim's words name urgency, −1 when they say it can wait (`Can this wait?`, `Is it
 * low priority?`), 0 otherwise.
 */
export function urgencyClaim(claim: string): -1 | 0 | 1 {
  if (/\b(can (it|this) wait|low priority|not urgent|no rush)\b/i.test(claim)) return -1;
  return wordsOf(claim).some((word) => URGENCY_NAMES.has(word)) ? 1 : 0;
}

/** Words that make a Score a scale of urgency or severity (`How severe is this issue?`). */
const SEVERITY_NAMES: ReadonlySet<string> = new Set(
  'urgent urgency severe severity serious seriousness priority critical criticality'.split(' '),
);

export function isSeverityScale(instructions: string): boolean {
  return wordsOf(instructions).some((word) => SEVERITY_NAMES.has(word));
}

/** Where words that name a level of severity sit on a scale, lowest first. */
const SEVERITY_RANKS: ReadonlyMap<string, number> = new Map(
  (
    'cosmetic:0 trivial:0 negligible:0 none:0 lowest:0 minor:1 low:1 small:1 moderate:2 medium:2 ' +
    'normal:2 major:3 high:3 serious:3 severe:3 significant:3 critical:4 blocking:4 blocker:4 ' +
    'highest:4 emergency:4 catastrophic:4'
  )
    .split(' ')
    .map((entry) => {
      const [word, rank] = entry.split(':');
      return [word!, Number(rank)];
    }),
);

/**
 * The scale of severity, one word per rank of `SEVERITY_RANKS`, lowest first: the levels a claim
 * about a cumulative level ("major or higher") is read against when it names no levels of its own.
 */
export const SEVERITY_SCALE: readonly string[] = ['cosmetic', 'minor', 'moderate', 'major', 'critical'];

/** The rank on `SEVERITY_SCALE` that a word names ("high" 3), or undefined. */
export function severityRankOf(word: string): number | undefined {
  return SEVERITY_RANKS.get(word.toLowerCase());
}

/**
 * Which way a Score's levels run on a scale of severity: +1 lowest first (the wire format's
 * order), −1 when their own words say the first level is the most severe ("critical, major,
 * minor"). Read from the covariance of the levels' positions with the severity their words name,
 * which changes sign exactly when the levels are reversed, so a reversed scale mirrors.
 */
export function severityDirectionOf(levels: readonly string[]): 1 | -1 {
  const ranked = levels.flatMap((text, index) => {
    const ranks = wordsOf(text).flatMap((word) => SEVERITY_RANKS.get(word) ?? []);
    return ranks.length === 0 ? [] : [[index, Math.max(...ranks)] as const];
  });
  if (ranked.length < 2) return 1;
  const meanIndex = ranked.reduce((sum, [index]) => sum + index, 0) / ranked.length;
  const meanRank = ranked.reduce((sum, [, rank]) => sum + rank, 0) / ranked.length;
  const covariance = ranked.reduce((sum, [index, rank]) => sum + (index - meanIndex) * (rank - meanRank), 0);
  return covariance < 0 ? -1 : 1;
}

export function urgencyOf(text: string): Urgency {
  const words = wordsOf(text.replace(/['’]/g, "'"));
  const count = (set: ReadonlySet<string>) => words.filter((word) => set.has(word)).length;
  const phrases = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
  return {
    failure: Math.min(3, count(FAILURE) + phrases(FAILURE_PHRASES) + phrases(ATTACK_PAYLOAD)),
    impact: Math.min(2, count(IMPACT)),
    pressure: Math.min(2, count(PRESSURE) + phrases(PRESSURE_PHRASES) + (/!/.test(text) ? 1 : 0)),
    calm: Math.min(2, count(CALM) + phrases(CALM_PHRASES)),
  };
}
