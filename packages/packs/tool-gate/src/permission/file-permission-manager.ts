import { mkdir, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { writeFileAtomic } from '@arbiter/atomic-file';
import { z } from 'zod';
import { parsePermissionRule } from '../policy/permission-rule.js';
import { StaticPolicy, type ToolCallContext } from '../policy/static-policy.js';
import type { PermissionManager, RememberedDecision, RememberedPermission } from './permission-manager.js';

const fileSchema = z.object({
  version: z.literal(1),
  permissions: z.array(
    z.object({ rule: z.string(), decision: z.enum(['allow', 'deny']), remembered_at: z.string() }),
  ),
});
type PermissionFile = z.infer<typeof fileSchema>;

/**
 * Remembered permissions in a JSON file. Denials win over approvals, and approvals of shell
 * rules follow the static policy's compound-command rule (every segment must be covered).
 */
export class FilePermissionManager implements PermissionManager {
  readonly #path: string;
  #cache: { file: PermissionFile; policy: StaticPolicy } | null = null;

  constructor(path: string) {
    this.#path = path;
  }

  async lookup(call: ToolCallContext): Promise<RememberedPermission | null> {
    const { policy } = await this.#load();
    const match = policy.evaluate(call);
    if (match.decision === 'deny' || match.decision === 'allow') {
      return { decision: match.decision, rule: match.rule ?? '' };
    }
    return null;
  }

  /** Remembers a decision for a rule; the file is replaced atomically. */
  async remember(rule: string, decision: RememberedDecision): Promise<void> {
    const parsed = parsePermissionRule(rule);
    const { file } = await this.#load();
    const permissions = file.permissions.filter((entry) => entry.rule !== parsed.source);
    permissions.push({ rule: parsed.source, decision, remembered_at: new Date().toISOString() });
    await this.#save({ version: 1, permissions });
  }

  async forget(rule: string): Promise<boolean> {
    const { file } = await this.#load();
    const permissions = file.permissions.filter((entry) => entry.rule !== rule.trim());
    if (permissions.length === file.permissions.length) return false;
    await this.#save({ version: 1, permissions });
    return true;
  }

  async list(): Promise<readonly PermissionFile['permissions'][number][]> {
    return (await this.#load()).file.permissions;
  }

  async #load(): Promise<{ file: PermissionFile; policy: StaticPolicy }> {
    if (this.#cache !== null) return this.#cache;
    let file: PermissionFile = { version: 1, permissions: [] };
    try {
      const parsed = fileSchema.safeParse(JSON.parse(await readFile(this.#path, 'utf8')));
      if (!parsed.success)
        throw new TypeError(`permission file ${this.#path}: ${z.prettifyError(parsed.error)}`);
      file = parsed.data;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    this.#cache = { file, policy: policyOf(file) };
    return this.#cache;
  }

  async #save(file: PermissionFile): Promise<void> {
    await mkdir(dirname(this.#path), { recursive: true });
    await writeFileAtomic(this.#path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
    this.#cache = { file, policy: policyOf(file) };
  }
}

function policyOf(file: PermissionFile): StaticPolicy {
  const pick = (decision: RememberedDecision) =>
    file.permissions.filter((entry) => entry.decision === decision).map((entry) => entry.rule);
  return new StaticPolicy({ allow: pick('allow'), deny: pick('deny') });
}
