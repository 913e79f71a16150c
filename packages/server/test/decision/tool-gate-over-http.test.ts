import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decisionResponseSchema } from '@arbiter/decision';
import { TOOL_GATE_PACK } from '@arbiter/tool-gate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../src/server.js';

let server: RunningServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-gate-http-'));
  server = await startServer({ port: 0, dataDir, harness: false });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function ask(command: string, on: RunningServer = server) {
  const { definition, sha256 } = TOOL_GATE_PACK;
  const response = await fetch(`${on.url}/v1/decision`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${on.initialKey}` },
    body: JSON.stringify({
      state: { tool: 'Bash', arguments: { command }, task: 'tidy the build output' },
      questions: definition.questions,
      pack: { name: definition.name, version: definition.version, sha256 },
    }),
  });
  expect(response.status).toBe(200);
  return decisionResponseSchema.parse(await response.json());
}

describe('the served built-in engine with its default pack analysers', () => {
  it('answers tool-gate requests from the tool-call analysers, not the lexical fallback', async () => {
    const destructive = await ask('rm -rf / --no-preserve-root');
    for (const answer of Object.values(destructive.answers))
      expect(answer.arbiter?.engine).toBe('builtin/tool-gate');
    const harmless = await ask('ls -la build');
    const destructiveP = destructive.answers.destructive;
    const harmlessP = harmless.answers.destructive;
    expect(destructiveP?.type === 'noul' && harmlessP?.type === 'noul').toBe(true);
    if (destructiveP?.type === 'noul' && harmlessP?.type === 'noul') {
      expect(destructiveP.noul).toBeGreaterThan(harmlessP.noul);
    }
  });
});

describe("the configuration's tool-gating thresholds", () => {
  it("reach the served engine's disposition", async () => {
    const strictDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-gate-http-strict-'));
    // The operator's way in: a configuration file that `arbiter serve --config` reads.
    const configPath = path.join(strictDir, 'arbiter.json');
    fs.writeFileSync(configPath, JSON.stringify({ toolGating: { thresholds: { deny_noul: 0.45 } } }));
    const strict = await startServer({ port: 0, dataDir: strictDir, harness: false, configPath });
    try {
      // Destructive at 0.5: asked at the default deny_noul (0.7), denied at 0.45.
      const byDefault = (await ask('rm -rf node_modules')).answers.disposition;
      const stricter = (await ask('rm -rf node_modules', strict)).answers.disposition;
      expect(byDefault?.type === 'choice' && byDefault.choice).toBe('ask');
      expect(stricter?.type === 'choice' && stricter.choice).toBe('deny');
    } finally {
      await strict.close();
      fs.rmSync(strictDir, { recursive: true, force: true });
    }
  });
});
