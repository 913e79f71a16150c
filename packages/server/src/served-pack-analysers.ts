import type { PackAnalyser } from '@arbiter/decision';
import { secondOpinionEngine } from '@arbiter/harness-server';
import { resolveToolGateThresholds } from '@arbiter/tool-gate/contract';
import { createToolGateAnalyser } from '@arbiter/tool-gate-analysis';
import type { ServerConfig } from './config/server-config.js';

/**
 * The pack analysers the built-in engine of a server answers with: the tool-gate analysis, at the
 * thresholds of the configuration's `toolGating` section. The engine hard-wires no pack, so this
 * is where an operator's threshold overrides reach the engine's disposition (`arbiter serve` and
 * `arbiter decide` in process both build their catalog with it).
 */
export function servedPackAnalysers(config?: Pick<ServerConfig, 'toolGating'>): readonly PackAnalyser[] {
  return [
    createToolGateAnalyser(resolveToolGateThresholds(config?.toolGating?.thresholds), {
      secondOpinion: secondOpinionEngine(config?.toolGating?.secondOpinion),
    }),
  ];
}
