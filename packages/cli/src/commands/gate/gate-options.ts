import { access } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ToolGate, ToolGateMode } from '@arbiter/tool-gate';
import { createGateClient } from './gate-client.js';

/** Options shared by `arbiter gate` and `arbiter gate hook`. */
export interface GateCommandOptions {
  readonly policy?: string;
  readonly claudeSettings?: string;
  readonly shadow?: boolean;
  readonly url?: string;
  readonly model?: string;
  readonly audit?: string;
  readonly permissions?: string;
  readonly timeout?: string;
  /** A team's accepted allow rules (the cached team policy of `gate hook --server`). */
  readonly teamAllow?: readonly string[];
}

/** Builds the gate an invocation asked for: policy file, remembered permissions, audit log, mode. */
export async function createGateFromOptions(options: GateCommandOptions): Promise<ToolGate> {
  const {
    AuditLog,
    FilePermissionManager,
    TOOL_GATE_PACK,
    createToolGate,
    readClaudeSettingsPolicy,
    readPolicyFile,
  } = await import('@arbiter/tool-gate');
  const rules = { allow: [] as string[], ask: [] as string[], deny: [] as string[] };
  for (const source of [
    options.claudeSettings === undefined
      ? undefined
      : await readClaudeSettingsPolicy(await namedFile('--claude-settings', options.claudeSettings)),
    options.policy === undefined ? undefined : await readPolicyFile(resolve(options.policy)),
  ]) {
    rules.allow.push(...(source?.allow ?? []));
    rules.ask.push(...(source?.ask ?? []));
    rules.deny.push(...(source?.deny ?? []));
  }
  const mode: ToolGateMode = options.shadow === true ? 'shadow' : 'enforce';
  const budgetMs = parseTimeout(options.timeout);
  // One pack for the composition and the in-process analysis, so both decide by its thresholds.
  const pack = TOOL_GATE_PACK;
  return createToolGate({
    pack,
    client: await createGateClient({
      thresholds: pack.definition.thresholds,
      ...(options.url === undefined ? {} : { url: options.url }),
      ...(options.model === undefined ? {} : { model: options.model }),
      ...(budgetMs === undefined ? {} : { budgetMs }),
    }),
    policy: rules,
    mode,
    ...(options.teamAllow === undefined ? {} : { teamAllow: options.teamAllow }),
    ...(options.audit === undefined ? {} : { auditLog: new AuditLog(resolve(options.audit)) }),
    ...(options.permissions === undefined
      ? {}
      : { permissionManager: new FilePermissionManager(resolve(options.permissions)) }),
  });
}

/**
 * A file the user named must exist: a missing policy would silently gate with fewer rules than
 * asked for, so it fails like any other unreadable policy (a hook then answers `ask`).
 */
async function namedFile(flag: string, file: string): Promise<string> {
  const path = resolve(file);
  await access(path).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`${flag} ${path}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`);
  });
  return path;
}

function parseTimeout(timeout: string | undefined): number | undefined {
  if (timeout === undefined) return undefined;
  const value = Number(timeout);
  if (!Number.isFinite(value) || value <= 0 || value > 600_000) {
    throw new Error(
      `--timeout must be a number of milliseconds between 1 and 600000, got ${JSON.stringify(timeout)}`,
    );
  }
  return value;
}
