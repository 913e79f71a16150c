import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createKeyAuthenticator } from '@arbiter/auth';
import { ModelCatalog } from '@arbiter/engine';
import { openDatabase, SqliteDatabase } from '@arbiter/storage';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { KeyStore } from '../../src/auth/key-store.js';
import type { ServerLimits } from '../../src/decision/decision-limits.js';
import { servedPackAnalysers } from '../../src/served-pack-analysers.js';
import { migrations } from '../../src/storage/migrations.js';

export interface TestApp {
  app: FastifyInstance;
  keys: KeyStore;
  key: string;
  dataDir: string;
  authorization: { authorization: string };
  close(): Promise<void>;
}

/** The real app on a real SQLite file in a fresh temporary data directory, with one key. */
export async function buildTestApp(
  options: { catalog?: ModelCatalog; limits?: Partial<ServerLimits> } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'arbiter-decision-'));
  const db = openDatabase(dataDir, migrations);
  const keys = await KeyStore.open(new SqliteDatabase(db));
  const { key } = await keys.create('tester');
  const app = await buildApp({
    catalog: options.catalog ?? new ModelCatalog({ analysers: servedPackAnalysers() }),
    authenticator: createKeyAuthenticator(keys),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  return {
    app,
    keys,
    key,
    dataDir,
    authorization: { authorization: `Bearer ${key}` },
    async close() {
      await app.close();
      db.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export const SUPPORT_TICKET = {
  state: 'Help! My payouts have been failing for 3 days.',
  questions: {
    is_urgent: {
      type: 'noul',
      instructions: 'Does this convey urgency?',
      criteria: { true: 'needs action today', false: 'can wait' },
    },
    department: {
      type: 'choice',
      instructions: 'Which team should handle this?',
      criteria: { billing: 'payments, payouts and refunds', technical: null, sales: null },
    },
    severity: {
      type: 'score',
      instructions: 'How severe is the issue?',
      criteria: ['Cosmetic', 'Workaround exists', 'Blocking; no workaround'],
    },
  },
} as const;
