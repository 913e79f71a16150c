// Cost of the gate in front of an agent tool call: a gated call (static policy, in-process decision
// service, audit-log append, then the tool) against the same tool call ungated, in the same run.
//   npx tsc -b && node bench/agent-tool-gate.mjs [--calls N]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInProcessGateClient } from '../packages/engine/dist/builtin/index.js';
import { HarnessToolGate } from '../packages/harness-server/dist/index.js';
import {
  gatedWorkspaceCall,
  workspaceGrant,
} from '../packages/harness-server/dist/uhp/runtime/tool-gating/workspace-tool-call.js';
import { ProcessSandbox } from '../packages/harness-server/dist/uhp/sandbox/process-sandbox.js';
import { Workspace } from '../packages/harness-server/dist/uhp/workspace/workspace.js';
import { WorkspaceTools } from '../packages/harness-server/dist/uhp/workspace/workspace-tools.js';

const callsIndex = process.argv.indexOf('--calls');
const calls = callsIndex === -1 ? 200 : Number(process.argv[callsIndex + 1]);
const root = mkdtempSync(join(tmpdir(), 'agent-tool-gate-'));
const workspace = new Workspace(join(root, 'workspace'));
// Shell commands run in the server's sandbox, as they do in a server.
const tools = new WorkspaceTools(workspace, await ProcessSandbox.open());
writeFileSync(join(workspace.root, 'notes.txt'), 'alpha\nbeta\n'.repeat(50));
const gate = new HarnessToolGate(createInProcessGateClient(), join(root, 'audit.jsonl'));
const context = (index) => ({
  sessionId: 'bench',
  responseId: 'bench',
  callId: `call_${index}`,
  task: 'summarise notes.txt into summary.txt',
  cwd: workspace.root,
  grant: workspaceGrant([]),
});
// A mix like a coding turn: reads, writes, a shell command.
const mix = [
  ['read', { path: 'notes.txt' }, () => tools.read('notes.txt')],
  ['write', { path: 'summary.txt', content: 'alpha, beta' }, () => tools.write('summary.txt', 'alpha, beta')],
  [
    'shell',
    { command: 'wc -l notes.txt' },
    () => tools.shell('wc -l notes.txt', new AbortController().signal),
  ],
];

async function run(gated) {
  const started = performance.now();
  for (let index = 0; index < calls; index++) {
    const [name, args, execute] = mix[index % mix.length];
    if (gated) {
      const outcome = await gate.review(gatedWorkspaceCall(name, args), context(index));
      if (!outcome.allowed) throw new Error(`unexpected refusal: ${outcome.refusal}`);
    }
    await execute();
  }
  return (performance.now() - started) / calls;
}

await run(true); // warm-up: loads the bash parser and the analysers once
const ungated = await run(false);
const gated = await run(true);
console.log(`calls per side: ${calls} (read, write, shell in turn)`);
console.log(`ungated tool call: ${ungated.toFixed(2)} ms`);
console.log(
  `gated tool call:   ${gated.toFixed(2)} ms (gate + audit ${(gated - ungated).toFixed(2)} ms, ${(gated / ungated).toFixed(2)}×)`,
);
rmSync(root, { recursive: true, force: true });
