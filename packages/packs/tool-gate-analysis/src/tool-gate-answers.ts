import { DEFAULT_TOOL_GATE_THRESHOLDS, type ToolGateThresholds } from '@arbiter/tool-gate/contract';
import type { Finding } from './finding.js';

/**
 * From findings to the six answers. Each risk is the strictest contribution of any finding;
 * the disposition follows the same order as the pack's composition: clear harm is denied, a
 * call that is understood, granted, plausible, on task and low in risk is allowed, anything
 * else is asked.
 */
export interface NoulFigure {
  noul: number;
  evidence: string[];
}

export interface ToolGateAnswers {
  abstained: boolean;
  in_grant: NoulFigure;
  args_plausible: NoulFigure;
  destructive: NoulFigure;
  exfil_risk: NoulFigure;
  on_task: NoulFigure;
  disposition: {
    choice: 'allow' | 'deny' | 'ask';
    confidence: number;
    probabilities: { allow: number; deny: number; ask: number };
    evidence: string[];
  };
}

/** Most evidence codes listed on one answer (the analysis keeps all of them). */
const MAX_EVIDENCE = 12;

export function toolGateAnswers(input: {
  findings: readonly Finding[];
  inGrant: boolean | undefined;
  abstained: boolean;
  grantEvidence: string;
  /** The pack's thresholds as the operator configured them (the pack's defaults when absent). */
  thresholds?: ToolGateThresholds;
}): ToolGateAnswers {
  const { findings, inGrant, abstained } = input;
  const thresholds = input.thresholds ?? DEFAULT_TOOL_GATE_THRESHOLDS;
  const denyAt = thresholds.deny_noul;
  const lowRiskBelow = thresholds.allow_risk_max;
  const onTaskAt = thresholds.allow_noul;
  const uncertain = findings.filter((finding) => finding.uncertain === true);
  const destructive = strictest(findings, 'destructive', uncertain.length > 0 ? 0.1 : 0.02, lowRiskBelow);
  const exfil = strictest(findings, 'exfil', uncertain.length > 0 ? 0.05 : 0.02, lowRiskBelow);
  const deny = strictest(findings, 'deny', 0, lowRiskBelow);
  const onTaskFindings = findings.filter((finding) => finding.onTask !== undefined);
  let onTask =
    onTaskFindings.length === 0 ? 0.9 : Math.min(...onTaskFindings.map((finding) => finding.onTask!));
  if (uncertain.length > 0) onTask = Math.min(onTask, 0.6);
  const implausible = findings.filter((finding) => finding.implausible === true);
  const inGrantNoul = inGrant === undefined ? 0.5 : inGrant ? 0.97 : 0.03;
  const plausible = abstained ? 0.5 : implausible.length > 0 ? 0.1 : 0.95;

  const maxRisk = Math.max(destructive.value, exfil.value, deny.value);
  let choice: 'allow' | 'deny' | 'ask';
  let confidence: number;
  if (abstained) {
    choice = 'ask';
    confidence = 0.5;
  } else if (maxRisk >= denyAt) {
    choice = 'deny';
    confidence = maxRisk;
  } else if (
    uncertain.length === 0 &&
    destructive.value < lowRiskBelow &&
    exfil.value < lowRiskBelow &&
    deny.value < lowRiskBelow &&
    onTask >= onTaskAt &&
    inGrantNoul >= 0.5 &&
    plausible >= 0.5
  ) {
    choice = 'allow';
    confidence = Math.min(0.95, 1 - maxRisk - Math.max(0, 0.9 - onTask));
  } else {
    choice = 'ask';
    confidence = uncertain.length > 0 ? 0.7 : 0.65;
  }
  const rest = 1 - confidence;
  const denyShare = Math.min(0.9, Math.max(0.1, maxRisk));
  const probabilities =
    choice === 'allow'
      ? { allow: confidence, deny: rest * denyShare, ask: rest * (1 - denyShare) }
      : choice === 'deny'
        ? { allow: rest * 0.1, deny: confidence, ask: rest * 0.9 }
        : { allow: rest * (1 - denyShare), deny: rest * denyShare, ask: confidence };

  const codes = (list: readonly Finding[]) => list.map((finding) => finding.code).slice(0, MAX_EVIDENCE);
  return {
    abstained,
    in_grant: { noul: inGrantNoul, evidence: [input.grantEvidence] },
    args_plausible: { noul: plausible, evidence: codes(implausible) },
    destructive: { noul: round(destructive.value), evidence: destructive.evidence },
    exfil_risk: { noul: round(exfil.value), evidence: exfil.evidence },
    on_task: {
      noul: round(onTask),
      evidence: codes(
        findings.filter((finding) => (finding.onTask ?? 1) < onTaskAt || finding.uncertain === true),
      ),
    },
    disposition: {
      choice,
      confidence: round(confidence),
      probabilities: {
        allow: round(probabilities.allow),
        deny: round(probabilities.deny),
        ask: round(probabilities.ask),
      },
      evidence: codes([...findings].sort((a, b) => riskOf(b) - riskOf(a))),
    },
  };
}

function strictest(
  findings: readonly Finding[],
  key: 'destructive' | 'exfil' | 'deny',
  floor: number,
  lowRiskBelow: number,
): { value: number; evidence: string[] } {
  let value = floor;
  const evidence: string[] = [];
  for (const finding of findings) {
    const contribution = finding[key];
    if (contribution === undefined) continue;
    if (contribution >= lowRiskBelow) evidence.push(finding.code);
    value = Math.max(value, contribution);
  }
  return { value, evidence: evidence.slice(0, MAX_EVIDENCE) };
}

function riskOf(finding: Finding): number {
  return Math.max(
    finding.destructive ?? 0,
    finding.exfil ?? 0,
    finding.deny ?? 0,
    finding.uncertain === true ? 0.5 : 0,
  );
}

const round = (value: number): number => Math.round(value * 1000) / 1000;
