import { mountsHost } from '../container-host-access.js';
import { RISK } from '../risk-scale.js';
import { isCredentialPath, isSecretVariableName } from '../secret-source.js';
import type { CommandScope } from '../shell-command.js';
import { taskMentions } from '../task-scope.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
import { type ParsedArguments, parseArguments, specOf } from './option-parse.js';

/**
 * Containers, clusters and infrastructure as code (docker and its peers, kubectl and oc,
 * terraform and tofu): their danger is in what a verb reaches (a namespace, all resources,
 * volumes, state), not only in the verb.
 */
/** The host side of every bind mount of a `run`: `-v H:C`, `--volume=H:C`, `--mount …,source=H,…`. */
function mountedHostPaths(run: ParsedArguments): string[] {
  const hosts: string[] = [];
  for (const option of run.options) {
    if (option.value === undefined) continue;
    if (option.name === '-v' || option.name === '--volume') {
      const host = option.value.split(':')[0];
      if (host && /^[~/.$]/.test(host)) hosts.push(host);
    }
    if (option.name === '--mount') {
      const source = /(?:^|,)(?:source|src)=([^,]+)/.exec(option.value)?.[1];
      if (source !== undefined) hosts.push(source);
    }
  }
  return hosts;
}

/**
 * A container CLI's command line, read with the one option parser: its global options, the command
 * (`run`, `compose`, `image`), compose's own options and subcommand, and the command's options.
 * Every reading stops at the first positional where the CLI does (`run IMAGE cmd…`,
 * `exec CONTAINER cmd…`), so the container's command keeps its options.
 */
interface ContainerLine {
  /** The command and, for `compose` and the object commands, the words after it. */
  words: string[];
  /** The options of the command (after the words that name it). */
  options: ParsedArguments['options'];
  /** For `run` and `exec`: the parse, the image or container, and the command given to it. */
  run?: { parsed: ParsedArguments; command: string[] };
}

function readContainerLine(args: readonly string[]): ContainerLine {
  const global = parseArguments(args, OPTION_SPECS.docker, { firstPositionalEndsOptions: true });
  const commandAt = global.tokens.find((token) => token.kind === 'positional')?.index;
  if (commandAt === undefined) return { words: [], options: global.options };
  const command = args[commandAt]!;
  const rest = args.slice(commandAt + 1);
  if (command === 'run' || command === 'create' || command === 'exec') {
    const spec = command === 'exec' ? OPTION_SPECS['docker exec'] : OPTION_SPECS['docker run'];
    const parsed = parseArguments(rest, spec, { firstPositionalEndsOptions: true });
    // A `--` after the image or container is handed on as it is; a command named `--` cannot
    // exist, so what follows it is judged (the safe side; the rule read it so before).
    const [target, ...commandLine] = parsed.positionals;
    const run = { parsed, command: commandLine[0] === '--' ? commandLine.slice(1) : commandLine };
    return { words: target === undefined ? [command] : [command, target], options: parsed.options, run };
  }
  if (command === 'compose') {
    const compose = parseArguments(rest, OPTION_SPECS['docker compose'], {
      firstPositionalEndsOptions: true,
    });
    const subcommandAt = compose.tokens.find((token) => token.kind === 'positional')?.index;
    if (subcommandAt === undefined) return { words: [command], options: compose.options };
    const parsed = parseArguments(rest.slice(subcommandAt + 1), OPTION_SPECS['docker other']);
    return { words: [command, rest[subcommandAt]!, ...parsed.positionals], options: parsed.options };
  }
  const parsed = parseArguments(rest, OPTION_SPECS['docker other']);
  return { words: [command, ...parsed.positionals], options: parsed.options };
}

const given = (options: ParsedArguments['options'], ...names: string[]): boolean =>
  options.some((option) => names.includes(option.name));

export function judgeContainerCli(scope: CommandScope, program: string, args: readonly string[]): boolean {
  const line = readContainerLine(args);
  const { words, options, run } = line;
  const [first, second] = words;
  const all = given(options, '-a', '--all');
  const volumes = given(options, '--volumes');
  if (first === 'exec' && run !== undefined && run.command.length > 0) {
    scope.runArgv(run.command, `${program}-exec`);
    return true;
  }
  if (first === 'run' && run !== undefined) {
    // Principle 1: a bind mount of a credential store hands its secrets to whatever the image
    // runs, which the analysis cannot read (`-v ~/.aws:/a some/image …`).
    for (const host of mountedHostPaths(run.parsed)) {
      const path = scope.path(host);
      if (!isCredentialPath(path.normalised)) continue;
      scope.secretSource(`mount:${path.normalised}`);
      scope.add({ code: `cli.${program}.mounts-secret:${path.normalised}`, exfil: RISK.ask, onTask: 0.3 });
    }
    const mountsRoot = options.some(
      (option) =>
        (option.name === '-v' || option.name === '--volume') &&
        option.value !== undefined &&
        mountsHost(option.value.split(':')[0]!),
    );
    const privileged = options.some(
      (option) =>
        (option.name === '--privileged' && option.value !== 'false') ||
        (option.name === '--pid' && option.value === 'host'),
    );
    if (mountsRoot || privileged) {
      scope.add({
        code: `cli.${program}.run-host-access`,
        destructive: RISK.askHigh,
        uncertain: true,
        onTask: 0.3,
      });
      return true;
    }
    scope.add({ code: `cli.${program}.run`, onTask: 0.8 });
    // A secret passed into the container (`-e AWS_SECRET_ACCESS_KEY`, `-e TOKEN=$TOKEN`) goes where
    // the container's command sends it; that command is judged as any other.
    for (const option of options) {
      if (option.name !== '-e' && option.name !== '--env') continue;
      const name = option.value?.split('=')[0];
      if (name !== undefined && isSecretVariableName(name)) scope.secretSource(`$${name}`);
    }
    if (run.command.length > 0) scope.runArgv(run.command, `${program}-run`);
    return true;
  }
  if (
    first === 'build' ||
    (first === 'compose' && (second === 'build' || second === 'up' || second === 'ps' || second === 'logs'))
  ) {
    scope.add({ code: `cli.${program}.${first}`, onTask: 0.85 });
    return true;
  }
  // The project's own services: stopping them is the inverse of `up`; their named volumes are the
  // project's data (databases, uploads), which `down -v` deletes.
  if (first === 'compose' && (second === 'down' || second === 'stop' || second === 'restart')) {
    const removesVolumes = given(options, '-v', '--volumes');
    scope.add({
      code: `cli.${program}.compose-${second}${removesVolumes ? '-volumes' : ''}`,
      destructive: removesVolumes ? RISK.ask : RISK.routine,
      onTask: removesVolumes ? 0.4 : 0.85,
    });
    return true;
  }
  const prune = words.includes('prune');
  if (prune) {
    // Images and the build cache are rebuilt or pulled again on demand: pruning them frees disk and
    // loses nothing. Stopped containers' files and volumes are data.
    const regenerable = (first === 'image' || first === 'builder' || first === 'buildx') && !volumes;
    const severity =
      volumes || first === 'volume'
        ? RISK.denyHigh
        : regenerable
          ? RISK.routine
          : all
            ? RISK.threshold
            : RISK.ask;
    scope.add({
      code: `cli.${program}.${first}-prune${all ? '-all' : ''}${volumes ? '-volumes' : ''}`,
      destructive: severity,
      onTask: regenerable ? 0.85 : 0.3,
    });
    return true;
  }
  if (first === 'volume' && (second === 'rm' || second === 'remove')) {
    scope.add({ code: `cli.${program}.volume-rm`, destructive: RISK.denyHigh, onTask: 0.2 });
    return true;
  }
  if (
    first === 'rm' ||
    first === 'rmi' ||
    ((first === 'container' || first === 'image') && (second === 'rm' || second === 'remove'))
  ) {
    const force = given(options, '-f', '--force');
    scope.add({
      code: `cli.${program}.${first}${force ? '-force' : ''}`,
      destructive: force ? RISK.askHigh : RISK.ask,
      onTask: 0.4,
    });
    return true;
  }
  return false;
}

export function judgeKubectl(scope: CommandScope, args: readonly string[]): boolean {
  // kubectl's flags and words mix (`kubectl -n prod delete pod x`, `kubectl delete pod x -n prod`).
  const parsed = parseArguments(args, OPTION_SPECS.kubectl);
  const words = parsed.positionals;
  const verb = words[0];
  if (verb === 'delete') {
    const broad =
      words[1] === 'namespace' ||
      words[1] === 'ns' ||
      words[1] === 'all' ||
      given(parsed.options, '--all', '-A', '--all-namespaces');
    scope.add({
      code: `cli.kubectl.delete${broad ? '-broad' : ''}:${words[1] ?? ''}`,
      destructive: broad ? RISK.denyHigh : RISK.deny,
      onTask: 0.2,
    });
    return true;
  }
  // A service account's token minted from the command line works wherever it is taken.
  if (verb === 'create' && words[1] === 'token') {
    scope.add({
      code: `cli.kubectl.mints-credential:token:${words[2] ?? ''}`,
      destructive: RISK.deny,
      onTask: 0.1,
    });
    return true;
  }
  if (verb === 'port-forward') {
    judgePortForward(scope, parsed);
    return true;
  }
  if (verb === 'drain') {
    scope.add({ code: 'cli.kubectl.drain', destructive: RISK.deny, onTask: 0.2 });
    return true;
  }
  if (
    verb === 'scale' &&
    parsed.options.some((option) => option.name === '--replicas' && option.value === '0')
  ) {
    scope.add({ code: 'cli.kubectl.scale-to-zero', destructive: RISK.threshold, onTask: 0.2 });
    return true;
  }
  if (
    (verb === 'replace' || verb === 'apply') &&
    parsed.options.some((option) => option.name === '--force' || option.name.startsWith('--prune'))
  ) {
    scope.add({ code: `cli.kubectl.${verb}-force`, destructive: RISK.deny, onTask: 0.2 });
    return true;
  }
  return false;
}

/** Addresses on this machine only: a listener there is the developer's own. */
const LOOPBACK_LISTEN = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * `kubectl port-forward`: a cluster service reached from this machine. It listens on loopback
 * unless `--address` says otherwise (kubectl's default is `localhost`), so a forward bound there is
 * the developer's own client access, routine. Bound to any other address it exposes the service to
 * the network (principle 6). Every option must be kubectl's own (its connection options, `--address`,
 * `--pod-running-timeout`); another is not understood.
 */
function judgePortForward(scope: CommandScope, parsed: ParsedArguments): void {
  const exposed = parsed.options
    .filter((option) => option.name === '--address')
    .flatMap((option) => (option.value ?? '').split(','))
    .find((address) => !LOOPBACK_LISTEN.test(address.trim()));
  if (exposed !== undefined) {
    scope.add({
      code: `net.listen-all-interfaces:kubectl-port-forward:${exposed}`,
      exfil: RISK.askHigh,
      onTask: 0.3,
    });
    return;
  }
  const unknown = parsed.options.find((option) => !option.known);
  if (unknown !== undefined) {
    scope.add({
      code: `vocab.unknown-option:kubectl port-forward:${unknown.name.slice(0, 40)}`,
      uncertain: true,
      onTask: 0.6,
    });
    return;
  }
  // Production data opened to this machine is on task only when the task speaks of production.
  const namespace = parsed.options.find(
    (option) => option.name === '-n' || option.name === '--namespace',
  )?.value;
  if (namespace !== undefined && /prod/i.test(namespace) && !taskMentions(scope.task, 'production')) {
    scope.add({ code: `cli.kubectl.port-forward-production:${namespace}`, uncertain: true, onTask: 0.3 });
    return;
  }
  scope.add({ code: 'cli.kubectl.port-forward-loopback', onTask: 0.9 });
}

export function judgeTerraform(scope: CommandScope, program: string, args: readonly string[]): boolean {
  // Go's flag package: single-dash words, `--name` the same as `-name`, a value after `=` or as the
  // next word (`-var-file prod.tfvars`, which is not the verb's operand).
  const spec = specOf(OPTION_SPECS.terraform);
  const parsed = parseArguments(args, (name) => spec(name.replace(/^--/, '-')), { clusters: false });
  const words = parsed.positionals;
  const verb = words[0];
  const set = (name: string): boolean =>
    parsed.options.some((option) => option.name.replace(/^--/, '-') === name && option.value !== 'false');
  const autoApprove = set('-auto-approve');
  if (verb === 'destroy' || set('-destroy')) {
    scope.add({ code: `cli.${program}.destroy`, destructive: RISK.certain, onTask: 0.1 });
    return true;
  }
  if (verb === 'apply') {
    scope.add({
      code: `cli.${program}.apply${autoApprove ? '-auto-approve' : ''}`,
      destructive: autoApprove ? RISK.threshold : RISK.ask,
      onTask: 0.3,
    });
    return true;
  }
  // A lock held by another run protects the state it is writing; forcing it open lets two runs
  // write one state.
  if (verb === 'force-unlock') {
    scope.add({ code: `cli.${program}.force-unlock`, destructive: RISK.deny, onTask: 0.1 });
    return true;
  }
  if (verb === 'state' && (words[1] === 'rm' || words[1] === 'push' || words[1] === 'replace-provider')) {
    scope.add({ code: `cli.${program}.state-${words[1]}`, destructive: RISK.threshold, onTask: 0.2 });
    return true;
  }
  if (
    verb === 'init' ||
    verb === 'plan' ||
    verb === 'validate' ||
    verb === 'fmt' ||
    verb === 'show' ||
    verb === 'output' ||
    verb === 'graph' ||
    verb === 'providers' ||
    verb === 'version'
  ) {
    scope.add({ code: `cli.${program}.${verb}`, onTask: 0.9 });
    return true;
  }
  return false;
}
