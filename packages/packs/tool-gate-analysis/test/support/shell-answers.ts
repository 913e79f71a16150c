import { analyseToolCallSync } from '../../src/analyse-tool-call.js';

/**
 * The analysis's answers for one shell command, as an agent granted `Bash` would propose it during
 * `task`. Load the parser first (`loadBashParser`, in a `beforeAll`).
 */
export function shellAnswers(command: string, task: string) {
  return analyseToolCallSync({ tool: 'Bash', arguments: { command }, grant: ['Bash'], task }).answers;
}
