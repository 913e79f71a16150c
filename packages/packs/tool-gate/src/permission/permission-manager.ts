import type { ToolCallContext } from '../policy/static-policy.js';

export type RememberedDecision = 'allow' | 'deny';

export interface RememberedPermission {
  readonly decision: RememberedDecision;
  /** The rule (Claude Code syntax) the remembered decision applies to. */
  readonly rule: string;
}

/**
 * Remembered approvals and denials (a user answered "always" once). The gate consults it
 * before the decision service: a remembered denial is rule 1, a remembered approval is the
 * existing policy's allow.
 */
export interface PermissionManager {
  lookup(call: ToolCallContext): RememberedPermission | null | Promise<RememberedPermission | null>;
}
