import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { catalogConfigSchema } from '@arbiter/engine/catalog';
import {
  acpConfigSchema,
  agentBaseConfigSchema,
  billingConfigSchema,
  sandboxConfigSchema,
  toolGatingConfigSchema,
} from '@arbiter/harness-server';
import { isPostgresUrl } from '@arbiter/storage';
import { z } from 'zod';
import { formatIssuePath } from '../decision/issue-path.js';
import { teamGateConfigSchema } from '../gate/team-gate-config.js';

/** The configuration file (`--config`, JSON or YAML). Every section is optional. */
export const serverConfigSchema = z.strictObject({
  /** Models, aliases and the default model; see docs/configuration.md. */
  catalog: catalogConfigSchema.optional(),
  limits: z
    .strictObject({
      maxBodyBytes: z
        .number()
        .int()
        .min(1024)
        .max(64 * 1024 * 1024)
        .optional(),
      maxContextTokens: z.number().int().min(256).max(1_000_000).optional(),
      requestsPerMinute: z.number().int().min(1).max(1_000_000).optional(),
      requestTimeoutMs: z.number().int().min(100).max(3_600_000).optional(),
      headersTimeoutMs: z.number().int().min(100).max(600_000).optional(),
      keepAliveTimeoutMs: z.number().int().min(100).max(600_000).optional(),
      /** UHP tasks one principal may run at once (429 quota_exhausted past it); null lifts it. */
      concurrentTasksPerPrincipal: z.number().int().min(1).max(10_000).nullable().optional(),
      /**
       * Bytes of workspaces and stored files one principal may hold (429 quota_exhausted at or over
       * it; a turn stores no artifact past it); null lifts it.
       */
      diskBytesPerPrincipal: z
        .number()
        .int()
        .min(1024 * 1024)
        .max(Number.MAX_SAFE_INTEGER)
        .nullable()
        .optional(),
      /**
       * Files one principal may hold: the entries of its workspaces and its stored files (429
       * quota_exhausted at or over it; a turn stores no artifact past it); null lifts it.
       */
      filesPerPrincipal: z.number().int().min(100).max(1_000_000_000).nullable().optional(),
    })
    .default({}),
  /** Output prices of prepaid budgets; see docs/harnesses.md. */
  billing: billingConfigSchema.optional(),
  /** ACP agents of the `acp` harness base; see docs/harnesses.md. */
  acp: acpConfigSchema.optional(),
  /** Provider models of the `agent` harness base; see docs/harnesses.md. */
  agent: agentBaseConfigSchema.optional(),
  /** The sandbox every task program runs in; see docs/security.md. */
  sandbox: sandboxConfigSchema.optional(),
  /**
   * The gate in front of every harness tool call (docs/harnesses.md), and `team`: the team gate's
   * suggestions, declined window and reported `cwd` (docs/configuration.md).
   */
  toolGating: toolGatingConfigSchema.extend({ team: teamGateConfigSchema.optional() }).optional(),
  /**
   * Store everything in this PostgreSQL database instead of the data directory's SQLite file
   * (docs/deployment.md). A secret when it holds a password: `ARBITER_DATABASE_URL` keeps it out
   * of the file.
   */
  database: z
    .string()
    .refine(isPostgresUrl, { message: 'must be a postgres:// or postgresql:// connection string' })
    .optional(),
  /** How nodes sharing one PostgreSQL database share tasks; see docs/deployment.md. */
  cluster: z
    .object({
      /** Names this node in leases and logs; unique per node. Default: random per start. */
      nodeId: z
        .string()
        .regex(/^[A-Za-z0-9_.-]{1,64}$/)
        .optional(),
      /** A task whose node stops renewing its lease for this long is ended by another node. */
      leaseMs: z.number().int().min(500).max(600_000).optional(),
    })
    .strict()
    .optional(),
});
export type ServerConfig = z.infer<typeof serverConfigSchema>;

const marker = Symbol.for('arbiter.server-config-error');

/** The configuration file cannot be read or is invalid; the message names the file and field. */
export class ServerConfigError extends Error {
  readonly [marker] = true;
  override readonly name = 'ServerConfigError';

  static isInstance(error: unknown): error is ServerConfigError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

/** Reads and validates a configuration file: `.json` as JSON, anything else as YAML (a JSON superset). */
export function loadServerConfig(file: string): ServerConfig {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ServerConfigError(`cannot read the configuration file ${file}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = path.extname(file).toLowerCase() === '.json' ? JSON.parse(text) : loadYaml().parse(text);
  } catch (error) {
    throw new ServerConfigError(`the configuration file ${file} is not valid: ${(error as Error).message}`);
  }
  const parsed = serverConfigSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${formatIssuePath(issue.path) || '(root)'}: ${issue.message}`,
    );
    throw new ServerConfigError(`invalid configuration file ${file}:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/**
 * The YAML parser, loaded for a YAML configuration file only: `arbiter serve` on its embedded
 * defaults reads no file (bench/decision-startup.mjs). `require` keeps loading synchronous.
 */
function loadYaml(): typeof import('yaml') {
  return createRequire(import.meta.url)('yaml') as typeof import('yaml');
}
