import { credentialReadRisk, isCredentialPath } from './secret-source.js';
import type { CommandScope } from './shell-command.js';

/**
 * Principle 1: a path a program reads is a read, whatever spells it (an operand, `dd if=`, a
 * `file://` URL). A credential read outside the workspace is a leak to the model.
 */
export function judgeFileRead(scope: CommandScope, operand: string): void {
  const path = scope.path(operand);
  if (!isCredentialPath(path.normalised) && !isCredentialPath(operand)) return;
  const outside = path.scope === 'home' || path.scope === 'system' || path.scope === 'unknown';
  scope.add({
    code: `secret.read:${path.normalised}`,
    exfil: credentialReadRisk(path.normalised, outside),
    onTask: outside ? 0.3 : 0.6,
  });
  scope.secretSource(path.normalised);
}
