import { RISK } from '../risk-scale.js';
import { credentialReadRisk, isCredentialPath } from '../secret-source.js';
import type { CommandScope } from '../shell-command.js';

/** Reads that print credentials: harmless alone, a secret source for the flow analysis. */
const SECRET_READS: readonly [RegExp, string][] = [
  [
    /^aws (secretsmanager get-secret-value|ssm get-parameters?(-by-path)?|configure (get|export-credentials)|sts get-session-token|ecr get-login-password)/,
    'aws-secret',
  ],
  [
    /^gcloud (auth (print-access-token|print-identity-token|application-default print-access-token)|secrets versions access)/,
    'gcloud-secret',
  ],
  [/^az (keyvault secret show|account get-access-token)/, 'azure-secret'],
  [/^vault (read|kv get)/, 'vault-secret'],
  [/^op (read|item get|document get)/, 'onepassword-secret'],
  [/^doppler (secrets( get| download)?|run)/, 'doppler-secret'],
  [/^gh auth token/, 'github-token'],
  [/^(pass|gopass) (show )?[^-]/, 'password-store'],
  [/^(bw|lpass) (get|show)/, 'password-manager'],
  // Listing secrets prints names and types; an output format prints the values.
  [/^kubectl get secrets?\b.*(-o|--output)[= ]?(json|yaml|jsonpath|go-template|custom)/, 'kubernetes-secret'],
  // A kubeconfig is printed with its client keys and tokens redacted unless --raw asks otherwise.
  [/^kubectl config view\b.*--raw\b/, 'kubeconfig'],
  [/^heroku auth:token\b/, 'heroku-token'],
  [/^docker (container )?inspect\b.*\b(Env|Config)\b/, 'container-environment'],
  [/^heroku config(\s|$)/, 'heroku-config'],
  [/^security find-(generic|internet)-password/, 'keychain'],
  [/^secret-tool lookup/, 'secret-service'],
  [/^gpg2? .*--export-secret-(sub)?keys\b/, 'gpg-secret-key'],
];

export function judgeSecretRead(scope: CommandScope, program: string, args: readonly string[]): void {
  const line = [program, ...args].join(' ');
  for (const [pattern, kind] of SECRET_READS) {
    if (pattern.test(line)) {
      scope.secretSource(kind);
      scope.add({ code: `secret.manager-read:${kind}`, exfil: RISK.routine });
      return;
    }
  }
}

/** Remote locations of storage and sync CLIs (`remote:path`, `s3://`, `gs://`). */
const REMOTE_LOCATION = /^([a-z][a-z0-9+.-]*:\/\/|[A-Za-z0-9_-]{2,}:(?!\/\/))/;

/** Local files a CLI sends somewhere: credential files are secret sources, remote targets sinks. */
export function judgeTransferredFiles(scope: CommandScope, program: string, args: readonly string[]): void {
  const operands = args.filter((arg) => !arg.startsWith('-'));
  let local = false;
  for (const operand of operands) {
    if (REMOTE_LOCATION.test(operand)) continue;
    // Only what is written as a file path: `my/secret` is a secret's name, not a file.
    if (!/^(\/|~|\.{1,2}\/|\$)/.test(operand)) continue;
    local = true;
    const path = scope.path(operand);
    if (isCredentialPath(path.normalised) || isCredentialPath(operand)) {
      const outside = path.scope === 'home' || path.scope === 'system' || path.scope === 'unknown';
      scope.secretSource(path.normalised);
      scope.add({
        code: `secret.read:${path.normalised}`,
        exfil: credentialReadRisk(path.normalised, outside),
        onTask: 0.3,
      });
    }
  }
  const remote = operands.find((operand, index) => index > 0 && REMOTE_LOCATION.test(operand));
  if (local && remote !== undefined) scope.networkSink(`${program}:${remote.split(':')[0]}`);
  // A store named for production or for people's data, copied down to this machine: the data
  // leaves the place its owners guard (`aws s3 cp s3://prod-user-uploads/ ./data --recursive`).
  const source = operands.find((operand) => REMOTE_LOCATION.test(operand));
  const target = source === undefined ? undefined : operands[operands.indexOf(source) + 1];
  if (
    source !== undefined &&
    target !== undefined &&
    !REMOTE_LOCATION.test(target) &&
    /(^|[^a-z])(prod|production|live|customers?|users?|pii|patients?|payments?)([^a-z]|$)/i.test(source)
  )
    scope.add({ code: `secret.copies-down:${source.slice(0, 60)}`, exfil: RISK.askHigh, onTask: 0.3 });
}
