import { RISK } from '../risk-scale.js';
import type { CommandRule, CommandScope } from '../shell-command.js';
import { taskMentions } from '../task-scope.js';
import type { OptionTable } from '../vocabulary/option-vocabulary.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
import { judgeOptionVocabulary } from '../vocabulary/vocabulary-judge.js';
import { classifyVerb, DESTRUCTIVE_FLAGS, DRY_RUN_FLAGS, type VerbKind } from './cli-verb.js';
import { type ParsedArguments, parseArguments } from './option-parse.js';
import { judgeContainerCli, judgeKubectl, judgeTerraform } from './orchestration-cli-rules.js';
import { judgeSecretRead, judgeTransferredFiles } from './service-cli-secrets.js';

/**
 * Service and infrastructure CLIs judged by their verbs: a destructive verb or flag is denied,
 * an overwrite (update, deploy, sync, …) touches shared state the task rarely names and is
 * asked, additive verbs (create, backup, copy) and reads are routine.
 */
const KNOWN_SERVICE_CLIS = new Set([
  'aws',
  'gcloud',
  'gsutil',
  'bq',
  'az',
  'kubectl',
  'oc',
  'helm',
  'docker',
  'podman',
  'nerdctl',
  'terraform',
  'tofu',
  'pulumi',
  'vault',
  'op',
  'doppler',
  'rclone',
  'restic',
  'borg',
  'velero',
  'nats',
  'gh',
  'glab',
  'circleci',
  'gitlab-runner',
  'rabbitmqctl',
  'rabbitmqadmin',
  'rabbitmq-diagnostics',
  'rabbitmq-plugins',
  'heroku',
  'fly',
  'flyctl',
  'vercel',
  'netlify',
  'firebase',
  'supabase',
  'wrangler',
  'stripe',
  'doctl',
  'linode-cli',
  'hcloud',
  'eksctl',
  'kind',
  'minikube',
  'k3d',
  'skaffold',
  'argocd',
  'flux',
  'istioctl',
  'consul',
  'nomad',
  'etcdctl',
  'influx',
  'mc',
  's3cmd',
  'cf',
  'ibmcloud',
  'oci',
  'aliyun',
  'scw',
  'sentry-cli',
  'pscale',
  'neonctl',
  'turso',
  'railway',
  'dokku',
  'packer',
  'vagrant',
  'virsh',
  'lxc',
  'multipass',
  'kubectx',
  'kubens',
  'k9s',
  'stern',
  'kustomize',
  'sops',
  'age',
  'gpg',
  'pass',
  'bw',
  'lpass',
  'keybase',
  'ansible',
  'ansible-playbook',
  'chef',
  'puppet',
  'salt',
  'serverless',
  'sls',
  'sam',
  'cdk',
  'copilot',
  'ecs-cli',
  'eb',
  'cloudflared',
  'ngrok',
  'tailscale',
  'zerotier-cli',
  'wg',
  'nmcli',
  'ufw',
  'iptables',
  'nft',
  'firewall-cmd',
  'systemctl',
  'launchctl',
  'journalctl',
  'service',
  'supervisorctl',
  'pm2',
  'crictl',
  'ctr',
  'buildah',
  'skopeo',
  'trivy',
  'grype',
  'snyk',
  'sonar-scanner',
  'jfrog',
  'twine',
  'composer',
  'conda',
  'mamba',
  'brew',
  'apt',
  'apt-get',
  'yum',
  'dnf',
  'pacman',
  'apk',
  'snap',
  'flatpak',
  'port',
  'zypper',
  'nix',
  'nix-env',
  'asdf',
  'mise',
  'pyenv',
  'rbenv',
  'nvm',
  'rustup',
  'sdk',
  'gem',
  'kafka',
  'zookeeper-shell',
  'cqlsh',
  'nodetool',
  'influxd',
  'mongodump',
  'mongorestore',
  'pg_dump',
  'pg_restore',
  'pg_ctl',
  'mysqldump',
  'redis-server',
  'memcached',
  'elasticsearch',
  'opensearch',
  'minio',
  'etcd',
  'jenkins-cli',
  'gitlab',
  'bitbucket',
  'jira',
  'linear',
  'slack',
  'tea',
  'hub',
  'lab',
  'gcloud-sdk',
  'kn',
  'knative',
  'tkn',
  'spin',
  'sfdx',
  'sf',
  'shopify',
  'amplify',
  'expo',
  'eas',
]);

const KAFKA_FAMILY = /^kafka-[a-z-]+(\.sh)?$/;

/**
 * The option specifications of the service CLIs the rules read (`vocabulary/program-options.ts`):
 * an option's value is not a word of the command path (`kubectl -n prod delete`, `gh issue list
 * --label delete`). Another CLI is read with no option taking a value.
 */
const CLI_SPECS: Readonly<Record<string, OptionTable>> = {
  kubectl: OPTION_SPECS.kubectl,
  oc: OPTION_SPECS.kubectl,
  helm: OPTION_SPECS.helm,
  aws: OPTION_SPECS.aws,
  gh: OPTION_SPECS.gh,
  rclone: OPTION_SPECS.rclone,
  systemctl: OPTION_SPECS.systemctl,
};

const specFor = (program: string): OptionTable =>
  Object.hasOwn(CLI_SPECS, program) ? CLI_SPECS[program]! : {};

/** The positionals before `--`, in order. */
const positionalsOf = (parsed: ParsedArguments): string[] =>
  parsed.tokens.flatMap((token) =>
    token.kind === 'positional' && (parsed.endOfOptions === undefined || token.index < parsed.endOfOptions)
      ? [token.value]
      : [],
  );

/** Words a CLI takes as its command path: the leading word-like positional arguments. */
function commandWords(parsed: ParsedArguments): string[] {
  const words: string[] = [];
  for (const arg of positionalsOf(parsed)) {
    // `apps:destroy`, `firestore:delete` are verbs; `repo::archive` (a borg location) is not.
    if (/^[A-Za-z][A-Za-z0-9_-]*(:[A-Za-z][A-Za-z0-9_-]*)*$/.test(arg)) words.push(arg);
    if (words.length >= 4) break;
  }
  return words;
}

export interface CliJudgement {
  kind: VerbKind | undefined;
  verb: string | undefined;
  dryRun: boolean;
}

/** kubectl's command groups, whose verb is the next word (`kubectl rollout undo`). */
const COMMAND_GROUPS: ReadonlySet<string> = new Set([
  'config',
  'rollout',
  'auth',
  'certificate',
  'alpha',
  'plugin',
  'adm',
]);
/** helm's (`helm repo add`, `helm dependency update`); `get`, `show` and `search` are verbs themselves. */
const HELM_GROUPS: ReadonlySet<string> = new Set(['repo', 'dependency', 'dep', 'plugin', 'registry']);

/**
 * CLIs whose grammar puts the verb first (`kubectl patch deploy api`, `helm install api ./chart`):
 * the words after it are a resource, a release and a chart, which may be spelled like verbs (a
 * deployment or release named `api` or `restore`). Only the verb decides. Each with its command
 * groups.
 */
const VERB_FIRST: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['kubectl', COMMAND_GROUPS],
  ['oc', COMMAND_GROUPS],
  ['helm', HELM_GROUPS],
]);

export function judgeCliVerbs(
  args: readonly string[],
  verbFirst: boolean | ReadonlySet<string> = false,
  spec: OptionTable = {},
): CliJudgement {
  const parsed = parseArguments(args, spec);
  // Each option as written: a long one with its attached value (`--delete-after=1d`), a cluster's
  // letters one by one.
  const options = parsed.options.map((option) =>
    option.name.startsWith('--') && option.value !== undefined && !option.separateValue
      ? `${option.name}=${option.value}`
      : option.name,
  );
  const dryRun = options.some((option) => DRY_RUN_FLAGS.test(option) && option !== '-n');
  const path = commandWords(parsed);
  // A verb-first CLI's command groups (`kubectl config view`, `kubectl rollout undo`) put the verb
  // second.
  const groups = verbFirst === true ? COMMAND_GROUPS : verbFirst;
  const words = groups === false ? path : groups.has(path[0] ?? '') ? path.slice(1, 2) : path.slice(0, 1);
  // Safety first: a destructive verb anywhere in the command path or a destructive flag decides.
  const destructiveFlag = options.find(
    (option) => DESTRUCTIVE_FLAGS.test(option) || /^--(delete|remove)$/.test(option),
  );
  if (destructiveFlag !== undefined) return { kind: 'destructive', verb: destructiveFlag, dryRun };
  const destructiveWord = words.find((word) => classifyVerb(word) === 'destructive');
  if (destructiveWord !== undefined) return { kind: 'destructive', verb: destructiveWord, dryRun };
  // Otherwise the action is the last verb of the command path: in `velero restore get` the
  // first word names a resource. A compound verb (`get-job`, `update-secret`) ends the path.
  let candidate: { kind: VerbKind; verb: string } | undefined;
  for (const word of words) {
    const compound = /[-_:]/.test(word);
    // A compound's verb is usually first (`list_users`), sometimes last (`cluster_status`).
    const parts = word.split(/[-_:]/);
    const kind = compound
      ? (classifyVerb(parts[0]!) ?? classifyVerb(parts[parts.length - 1]!))
      : classifyVerb(word);
    if (compound) {
      if (candidate === undefined && kind !== undefined) candidate = { kind, verb: word };
      if (candidate !== undefined) break;
      continue;
    }
    if (kind !== undefined) candidate = { kind, verb: word };
    else if (candidate !== undefined) break;
  }
  if (candidate === undefined) {
    const flag = options.find((option) =>
      /^--(list|describe|create|alter|add|get|show|status)$/.test(option),
    );
    if (flag !== undefined) candidate = { kind: classifyVerb(flag.slice(2))!, verb: flag };
  }
  return { kind: candidate?.kind, verb: candidate?.verb, dryRun };
}

/**
 * Principle: granting access changes who may do what, whatever verb a CLI names it with (`create
 * clusterrolebinding`, `add-iam-policy-binding`, `attach-user-policy`, `role assignment create`, a
 * collaborator or ACL entry added). It is asked even where the verb reads as additive, and a grant
 * of an administrator's role (cluster-admin, AdministratorAccess, Owner) is denied.
 */
const ACCESS_OBJECT =
  /^((cluster)?role-?bindings?|(add|set)-iam-policy-bindings?|(attach|put)-(user|group|role)-policy|role-assignments?|policy-bindings?|collaborators?|acls?|set-acl|permissions?|add-permission|add-members?|members?-add|grants?)$/i;
const ADMIN_ROLE =
  /(^|[=/:])(cluster-admin|admin|administrator|owner|AdministratorAccess|IAMFullAccess|roles\/(owner|editor)|User Access Administrator)$/i;

/**
 * Subcommands that create a new credential for an identity: an access key, a service account's
 * key, a token, a reset secret. The credential outlives the task and works wherever it is taken,
 * so making one hands out access as a grant does.
 */
const CREDENTIAL_MINT =
  /(^|-)(create-access-key|create-login-profile|create-service-specific-credential|keys-create|keys-add|create-key|create-api-key|api-keys-create|apikeys-create|create-token|token-create|tokens-create|generate-token|create-for-rbac|credential-reset|reset-credentials?|create-credential|personal-access-tokens?-create)(-|$)/i;

/** Options that name who is granted something (`--principal`, `--member`, `--grantee`, `--assignee`). */
const GRANTEE_OPTION = /^--?(principal|member|members|grantee|grant-\w+|assignee|source-arn-principal)$/i;
/** Who is everyone: any caller, any signed-in account of the provider, any cluster user. */
const EVERYONE =
  /^(\*|allUsers|allAuthenticatedUsers|Everyone|AllUsers|system:(unauthenticated|anonymous|authenticated)|uri=https?:\/\/acs\.amazonaws\.com\/groups\/global\/(AllUsers|AuthenticatedUsers))$/i;

/** The option that grants to everyone (`--principal '*'`, `--member=allUsers`), if any. */
function grantsEveryone(args: readonly string[]): string | undefined {
  for (const [index, arg] of args.entries()) {
    const attached = /^(--?[\w-]+)=(.*)$/.exec(arg);
    const [option, value] = attached ? [attached[1]!, attached[2]!] : [arg, args[index + 1] ?? ''];
    if (GRANTEE_OPTION.test(option) && EVERYONE.test(value.replace(/^['"]|['"]$/g, ''))) return option;
  }
  return undefined;
}

function mintsCredential(args: readonly string[]): string | undefined {
  const words = args.filter((arg) => !arg.startsWith('-'));
  for (let index = 0; index < words.length; index++) {
    for (const span of [words.slice(index, index + 3), words.slice(index, index + 2), [words[index]!]]) {
      const joined = span.join('-');
      if (CREDENTIAL_MINT.test(joined)) return joined.toLowerCase();
    }
  }
  return undefined;
}

function accessGrant(args: readonly string[]): { object: string; admin: boolean } | undefined {
  const words = args.filter((arg) => !arg.startsWith('-')).flatMap((arg) => arg.split('/'));
  let object = words.find((word) => ACCESS_OBJECT.test(word));
  // Two-word objects: `az role assignment create`.
  for (let index = 0; object === undefined && index + 1 < words.length; index++) {
    const pair = `${words[index]}-${words[index + 1]}`;
    if (ACCESS_OBJECT.test(pair)) object = pair;
  }
  if (object === undefined) return undefined;
  return { object: object.toLowerCase(), admin: args.some((arg) => ADMIN_ROLE.test(arg)) };
}

/** Resources made in bulk: ten or more at once, by a count option or a brace range of names. */
const BULK_COUNT = 10;
/** Machine types with accelerators (GPUs, TPUs, AI chips) in the big clouds' naming. */
const ACCELERATOR_TYPE =
  /^(p[2-5]|g[4-6]\w*|trn\d|inf\d|dl\d)\.|^(a2|a3|g2)-|^Standard_(N[CDV]|ND)\w*|^--(accelerator|gpus?)\b/i;

/**
 * A create that starts resources others pay for by the hour, in bulk or with accelerators: money
 * the task did not mention. Asked.
 */
function costlyResources(args: readonly string[]): string | undefined {
  for (const [index, arg] of args.entries()) {
    const count =
      /^--(count|replicas|num-nodes|node-count|desired-capacity|min-count|max-count|instance-count)=(\d+)$/.exec(
        arg,
      )?.[2] ??
      (/^--(count|replicas|num-nodes|node-count|desired-capacity|min-count|max-count|instance-count)$/.test(
        arg,
      )
        ? args[index + 1]
        : undefined);
    if (count !== undefined && Number(count) >= BULK_COUNT) return `count-${count}`;
    const range = /\{(\d+)\.\.(\d+)\}/.exec(arg);
    if (range !== null && Math.abs(Number(range[2]) - Number(range[1])) + 1 >= BULK_COUNT)
      return `names-${range[0]}`;
    const type = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
    if (ACCELERATOR_TYPE.test(type) && (index > 0 || arg.startsWith('--')))
      return `accelerators-${type.slice(0, 40)}`;
  }
  return undefined;
}

/** Judges a CLI call by its verbs and reports what it decided. */
export function judgeByVerbs(
  scope: CommandScope,
  program: string,
  args: readonly string[],
  known: boolean,
): void {
  const spec = specFor(program);
  const separator = parseArguments(args, spec).endOfOptions ?? -1;
  const { kind, verb, dryRun } = judgeCliVerbs(
    separator >= 0 ? args.slice(0, separator) : args,
    VERB_FIRST.get(program) ?? false,
    spec,
  );
  if ((verb === 'run' || verb === 'exec') && separator >= 0 && args.length > separator + 1) {
    // `doppler run -- cmd`, `kubectl exec pod -- cmd`: the wrapped command is what runs.
    scope.runArgv(args.slice(separator + 1), `${program}-${verb}`);
    return;
  }
  const detail = `${kind ?? 'unknown'}${verb === undefined ? '' : `:${verb}`}`;
  const code = `cli.${program}.${detail}` as const;
  if (args.length === 1 && /^(--?(version|help|h|v)|version|help)$/.test(args[0]!)) return;
  if (kind === undefined) {
    scope.add({ code, uncertain: true, onTask: known ? 0.6 : 0.5 });
    return;
  }
  if (!known) {
    // A program nobody described: only a destructive verb says enough to act on.
    scope.add(
      kind === 'destructive' && !dryRun
        ? { code, destructive: RISK.deny, uncertain: true }
        : { code, uncertain: true, onTask: 0.6 },
    );
    return;
  }
  // The subcommand's shape says it makes a credential, whatever verb the classifier read first.
  const minted = dryRun ? undefined : mintsCredential(args);
  if (minted !== undefined) {
    scope.add({ code: `cli.${program}.mints-credential:${minted}`, destructive: RISK.deny, onTask: 0.1 });
    return;
  }
  // A grant to everyone is exposure whatever the verb (`lambda add-permission --principal '*'`).
  const everyone = dryRun ? undefined : grantsEveryone(args);
  if (everyone !== undefined) {
    scope.add({ code: `cli.${program}.grants-everyone:${everyone}`, destructive: RISK.askHigh, onTask: 0.1 });
    return;
  }
  if (!dryRun && kind !== 'read') {
    const grant = accessGrant(args);
    if (grant !== undefined) {
      scope.add({
        code: `cli.${program}.grants-access:${grant.object}${grant.admin ? ':admin' : ''}`,
        destructive: grant.admin ? RISK.deny : RISK.askHigh,
        onTask: 0.2,
      });
      return;
    }
  }
  const production = taskMentions(scope.task, 'production') || taskMentions(scope.task, 'deploy');
  switch (dryRun ? 'read' : kind) {
    case 'destructive':
      scope.add({ code, destructive: RISK.deny, onTask: 0.2 });
      return;
    case 'overwrite':
      scope.add({ code, destructive: RISK.askLow, onTask: production ? 0.7 : 0.35 });
      return;
    case 'additive': {
      judgeOptionVocabulary(scope, 'create', program, args);
      const costly = costlyResources(args);
      scope.add(
        costly === undefined
          ? { code, destructive: RISK.routine, onTask: 0.8 }
          : { code: `${code}:costly-${costly}`, deny: RISK.askHigh, onTask: 0.3 },
      );
      return;
    }
    default:
      scope.add({ code, onTask: 0.9 });
      // A read is routine only with the options reads share; another option is where a read
      // becomes a reveal (`--show-token`) and is not understood.
      judgeOptionVocabulary(scope, 'read', program, args);
  }
}

const serviceCli: CommandRule = (scope) => {
  const { program, args } = scope.command;
  judgeSecretRead(scope, program, args);
  judgeTransferredFiles(scope, program, args);
  const special = Object.hasOwn(SPECIAL, program) ? SPECIAL[program] : undefined;
  if (special?.(scope, args) === true) return;
  judgeByVerbs(scope, program, args, true);
};

/** CLIs whose danger is not only in the verb. Returning true means fully judged. */
const SPECIAL: Readonly<Record<string, (scope: CommandScope, args: readonly string[]) => boolean>> = {
  // gpg's commands are options. Checking a signature or listing keys reads; the rest is judged by
  // its words (`--delete-secret-keys`) and, for exported secret keys, as a secret read.
  gpg: (scope, args) => {
    const reads =
      /^(--verify|--list-keys|-k|--list-public-keys|--list-secret-keys|-K|--list-sigs|--check-sigs|--fingerprint|--list-packets|--print-md|--show-keys|--version)$/;
    if (!args.some((arg) => reads.test(arg))) return false;
    scope.add({ code: 'cli.gpg.read', onTask: 0.9 });
    return true;
  },
  rclone: (scope, args) => {
    const parsed = parseArguments(args, OPTION_SPECS.rclone);
    const verb = parsed.positionals[0];
    const dryRun = parsed.options.some((option) => DRY_RUN_FLAGS.test(option.name));
    if ((verb === 'sync' || verb === 'bisync') && !dryRun) {
      scope.add({ code: `cli.rclone.${verb}-deletes-at-destination`, destructive: RISK.deny, onTask: 0.3 });
      return true;
    }
    return false;
  },
  docker: (scope, args) => judgeContainerCli(scope, 'docker', args),
  podman: (scope, args) => judgeContainerCli(scope, 'podman', args),
  nerdctl: (scope, args) => judgeContainerCli(scope, 'nerdctl', args),
  kubectl: (scope, args) => judgeKubectl(scope, args),
  oc: (scope, args) => judgeKubectl(scope, args),
  terraform: (scope, args) => judgeTerraform(scope, 'terraform', args),
  tofu: (scope, args) => judgeTerraform(scope, 'tofu', args),
  aws: (scope, args) => {
    const parsed = parseArguments(args, OPTION_SPECS.aws);
    const [service, operation] = positionalsOf(parsed);
    if (service === 's3' && operation === 'rm') {
      const recursive = parsed.options.some((option) => option.name === '--recursive');
      scope.add({
        code: `cli.aws.s3-rm${recursive ? '.recursive' : ''}`,
        destructive: recursive ? RISK.denyHigh : RISK.threshold,
        onTask: 0.2,
      });
      return true;
    }
    if (service === 's3' && (operation === 'cp' || operation === 'sync' || operation === 'mv')) {
      const operands = positionalsOf(parsed).slice(2);
      const uploads =
        operands.length >= 2 && !operands[0]!.startsWith('s3://') && operands[1]!.startsWith('s3://');
      if (uploads) scope.networkSink(`s3:${operands[1]}`);
      return false;
    }
    return false;
  },
  systemctl: (scope, args) => {
    const verb = parseArguments(args, OPTION_SPECS.systemctl).positionals[0];
    if (
      verb !== undefined &&
      /^(poweroff|reboot|halt|kexec|suspend|hibernate|rescue|emergency)$/.test(verb)
    ) {
      scope.add({ code: `cli.systemctl.${verb}`, destructive: RISK.denyHigh, onTask: 0.02 });
      return true;
    }
    if (verb === 'mask') {
      scope.add({ code: 'cli.systemctl.mask', destructive: RISK.threshold, onTask: 0.2 });
      return true;
    }
    if (verb === 'enable' || verb === 'link') {
      scope.add({
        code: `cli.systemctl.${verb}.persistence`,
        destructive: RISK.askLow,
        deny: RISK.askHigh,
        onTask: 0.2,
      });
      return true;
    }
    return false;
  },
  launchctl: (scope, args) => {
    const verb = args[0];
    if (verb === 'load' || verb === 'bootstrap' || verb === 'submit') {
      scope.add({
        code: `cli.launchctl.${verb}.persistence`,
        deny: RISK.deny,
        destructive: RISK.askLow,
        onTask: 0.05,
      });
      return true;
    }
    return false;
  },
  gh: (scope, args) => {
    const parsed = parseArguments(args, OPTION_SPECS.gh);
    const [group, action] = positionalsOf(parsed);
    const optionValue = (...names: string[]): string | undefined =>
      parsed.options.find((option) => names.includes(option.name) && option.value !== undefined)?.value;
    if (group === 'pr' && (action === 'create' || action === 'merge')) {
      scope.add({
        code: `cli.gh.pr-${action}`,
        destructive: action === 'merge' ? RISK.askLow : RISK.routine,
        onTask: taskMentions(scope.task, 'push') ? 0.85 : 0.3,
      });
      return true;
    }
    if (group === 'release' && (action === 'create' || action === 'upload' || action === 'edit')) {
      // A release is publishing: visible to everyone who depends on the project.
      scope.add({
        code: `cli.gh.release-${action}`,
        destructive: RISK.routine,
        onTask: taskMentions(scope.task, 'publish') ? 0.85 : 0.1,
      });
      return true;
    }
    // Widening the CLI's own token to administer or delete is the agent granting itself access.
    if (group === 'auth' && (action === 'refresh' || action === 'login')) {
      const scopes = optionValue('-s', '--scopes');
      if (scopes !== undefined) {
        const wide = /\b(admin:\w+|delete_repo|delete:packages|write:org|site_admin)\b/.test(scopes);
        scope.add({
          code: `cli.gh.auth-scopes:${scopes}`,
          destructive: wide ? RISK.deny : RISK.askLow,
          onTask: 0.2,
        });
        return true;
      }
    }
    // A repository made from the workspace and pushed: public, it publishes the project's code.
    if (group === 'repo' && action === 'create' && args.some((arg) => /^--(source|push)\b/.test(arg))) {
      const open = args.includes('--public');
      scope.networkSink('gh-repo-create');
      scope.add({
        code: `cli.gh.repo-create-from-workspace${open ? ':public' : ''}`,
        exfil: open ? RISK.deny : RISK.ask,
        onTask: taskMentions(scope.task, 'publish') ? 0.6 : 0.2,
      });
      return true;
    }
    if (group === 'gist' && action === 'create') {
      judgeTransferredFiles(scope, 'gh', args.slice(2));
      scope.networkSink('gh-gist');
      scope.add({ code: 'cli.gh.gist-create', exfil: RISK.ask, onTask: 0.2 });
      return true;
    }
    if (group === 'api') {
      const method = optionValue('-X', '--method');
      if (method !== undefined && /^delete$/i.test(method)) {
        scope.add({ code: 'cli.gh.api-delete', destructive: RISK.deny, onTask: 0.2 });
        return true;
      }
      if (method !== undefined && /^(post|put|patch)$/i.test(method)) {
        scope.add({ code: `cli.gh.api-${method.toLowerCase()}`, destructive: RISK.askLow, onTask: 0.4 });
        return true;
      }
      scope.add({ code: 'cli.gh.api-read', onTask: 0.9 });
      return true;
    }
    return false;
  },
  // The Firebase emulators run the project's services on this machine for development and tests
  // (firebase.json decides their ports and hosts; the edit of that file is judged as content).
  firebase: (scope, args) => {
    const parsed = parseArguments(args, OPTION_SPECS['firebase emulators:start']);
    if (parsed.positionals[0] !== 'emulators:start') return false;
    const unknown = parsed.options.find((option) => !option.known);
    scope.add(
      unknown === undefined
        ? { code: 'cli.firebase.local-emulators', onTask: 0.9 }
        : {
            code: `vocab.unknown-option:firebase emulators:start:${unknown.name.slice(0, 40)}`,
            uncertain: true,
            onTask: 0.6,
          },
    );
    return true;
  },
};

/**
 * A program that no program-specific rule describes. A known service CLI is judged by its verbs
 * (after its secret reads, transferred files and special cases). Any other program is not
 * understood (issue 27, "understood or ask"): its verbs can make it a DENY, never an ALLOW, since
 * plain-looking words (`datasync push warehouse`) say nothing about what an unknown program does.
 */
export function judgeProgramWithoutRule(scope: CommandScope): void {
  const { program, args } = scope.command;
  if (KNOWN_SERVICE_CLIS.has(program) || KAFKA_FAMILY.test(program)) {
    serviceCli(scope);
    return;
  }
  judgeByVerbs(scope, program, args, false);
}
