import type { FindingCode } from './finding-catalogue.js';

/**
 * One thing the analysis noticed about a tool call. A finding carries its own contribution to
 * the answers: a probability that the call is destructive or exfiltrating, how well it serves
 * the task, and whether the analyser understood what it saw. The answers are the strictest
 * contribution over all findings, so one dangerous segment decides a compound command.
 */
export interface Finding {
  /**
   * Machine-readable evidence code, e.g. `shell.rm.recursive:/home` or `flow.secret-to-network`;
   * its family is one of the finding catalogue's (`finding-catalogue.ts`).
   */
  code: FindingCode;
  /** P(destructive) this finding alone implies. */
  destructive?: number;
  /** P(exfiltration) this finding alone implies. */
  exfil?: number;
  /** P(on task) this finding alone implies (off-task actions lower it). */
  onTask?: number;
  /** The analyser did not understand something: the call can never be allowed outright. */
  uncertain?: boolean;
  /** A harmful action that is neither a deletion nor a leak (persistence): the disposition is deny. */
  deny?: number;
  /** The arguments are implausible for the tool (malformed, unknown options, homoglyphs). */
  implausible?: boolean;
}

/** Collects findings without duplicates (the same code from two spellings of one call). */
export class FindingSet {
  readonly #byCode = new Map<string, Finding>();

  add(finding: Finding): void {
    const previous = this.#byCode.get(finding.code);
    if (previous === undefined) {
      this.#byCode.set(finding.code, finding);
      return;
    }
    const merged: Finding = { code: finding.code };
    const destructive = maxDefined(previous.destructive, finding.destructive);
    const exfil = maxDefined(previous.exfil, finding.exfil);
    const onTask = minDefined(previous.onTask, finding.onTask);
    const deny = maxDefined(previous.deny, finding.deny);
    if (destructive !== undefined) merged.destructive = destructive;
    if (exfil !== undefined) merged.exfil = exfil;
    if (onTask !== undefined) merged.onTask = onTask;
    if (deny !== undefined) merged.deny = deny;
    if (previous.uncertain === true || finding.uncertain === true) merged.uncertain = true;
    if (previous.implausible === true || finding.implausible === true) merged.implausible = true;
    this.#byCode.set(finding.code, merged);
  }

  get size(): number {
    return this.#byCode.size;
  }

  list(): Finding[] {
    return [...this.#byCode.values()];
  }
}

function maxDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.max(a, b);
}

function minDefined(a: number | undefined, b: number | undefined): number | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return Math.min(a, b);
}
