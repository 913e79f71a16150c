import type { TeamAskedProgram, TeamDayCount, TeamStats, TeamVerdict } from './team-types.js';

/**
 * The arithmetic of the team view's plots, apart from drawing, so it is tested without a browser:
 * which days and programs are drawn, the scale, and each bar's segments in plot units.
 */

/** Days the per-day plot draws at most (the newest); older days stay in the numbers below it. */
export const MAX_PLOT_DAYS = 60;
/** Programs the most-asked plot draws at most. */
export const MAX_PLOT_PROGRAMS = 10;

/** The verdicts in the order the bars stack them, bottom up. */
export const STACK_ORDER: readonly TeamVerdict[] = ['ALLOW', 'ASK', 'DENY'];

export interface DayColumn extends TeamDayCount {
  readonly total: number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayNumber(day: string): number {
  const match = DAY.exec(day);
  if (!match) throw new Error(`not a day (YYYY-MM-DD): "${day}"`);
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 86_400_000;
}

function dayText(number: number): string {
  return new Date(number * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The days from the first to the last the server counted, a day without verdicts as zeros (so the
 * axis is time, not a list), the newest MAX_PLOT_DAYS of them; `hidden` says how many older days
 * were left out of the drawing.
 */
export function dayColumns(
  perDay: readonly TeamDayCount[],
  maxDays: number = MAX_PLOT_DAYS,
): { columns: DayColumn[]; hidden: number } {
  if (perDay.length === 0) return { columns: [], hidden: 0 };
  const byDay = new Map<number, TeamDayCount>();
  for (const entry of perDay) {
    const number = dayNumber(entry.day);
    const seen = byDay.get(number);
    // The server sends a day once; should it not, the counts add up rather than one hiding the other.
    byDay.set(
      number,
      seen
        ? {
            day: entry.day,
            ALLOW: seen.ALLOW + entry.ALLOW,
            DENY: seen.DENY + entry.DENY,
            ASK: seen.ASK + entry.ASK,
          }
        : entry,
    );
  }
  const numbers = [...byDay.keys()];
  const last = Math.max(...numbers);
  const first = Math.max(Math.min(...numbers), last - maxDays + 1);
  const columns: DayColumn[] = [];
  for (let number = first; number <= last; number++) {
    const entry = byDay.get(number) ?? { day: dayText(number), ALLOW: 0, DENY: 0, ASK: 0 };
    columns.push({ ...entry, day: dayText(number), total: entry.ALLOW + entry.DENY + entry.ASK });
  }
  const hidden = numbers.filter((number) => number < first).length;
  return { columns, hidden };
}

/** The smallest 1, 2 or 5 × 10^k at or above `value` (at least 1): an axis top that reads easily. */
export function niceCeiling(value: number): number {
  if (!(value > 1)) return 1;
  const power = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power;
  return 10 * power;
}

export interface StackSegment {
  readonly verdict: TeamVerdict;
  readonly count: number;
  /** Bottom and height in plot units, 0 at the axis and `height` at the scale's top. */
  readonly from: number;
  readonly size: number;
}

/** One day's bar as segments, ALLOW at the bottom, scaled so `scaleTop` verdicts reach `height`. */
export function stackSegments(column: TeamDayCount, scaleTop: number, height: number): StackSegment[] {
  const segments: StackSegment[] = [];
  let from = 0;
  for (const verdict of STACK_ORDER) {
    const count = column[verdict];
    if (count <= 0) continue;
    const size = (count / scaleTop) * height;
    segments.push({ verdict, count, from, size });
    from += size;
  }
  return segments;
}

/** The most-asked programs, most first (then by name, so equal counts keep one order), and how many were left out. */
export function topPrograms(
  programs: readonly TeamAskedProgram[],
  max: number = MAX_PLOT_PROGRAMS,
): { programs: TeamAskedProgram[]; hidden: number } {
  const sorted = [...programs].sort((a, b) => b.asked - a.asked || a.program.localeCompare(b.program));
  return { programs: sorted.slice(0, max), hidden: Math.max(0, sorted.length - max) };
}

/**
 * The share of answered asked calls a person approved (0 to 1), the server's `rate` where it sent
 * one, else from its counts; null before any asked call was answered.
 */
export function approvalRate(approval: TeamStats['approval']): number | null {
  if (approval.rate !== null && Number.isFinite(approval.rate)) return approval.rate;
  const answered = approval.approved + approval.declined;
  return answered === 0 ? null : approval.approved / answered;
}
