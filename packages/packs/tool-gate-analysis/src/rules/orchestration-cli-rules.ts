import { mountsHost } from '../container-host-access.js';
import { RISK } from '../risk-scale.js';
import { isCredentialPath, isSecretVariableName } from '../secret-source.js';
import type { CommandScope } from '../shell-command.js';

/**
 * Containers, clusters and infrastructure as code (docker and its peers, kubectl and oc,
 * terraform and tofu): their danger is in what a verb reaches (a namespace, all resources,
 * volumes, state), not only in the verb.
 */
/** The host side of every bind mount of a `run`: `-v H:C`, `--volume=H:C`, `--mount …,source=H,…`. */
function mountedHostPaths(args: readonly string[]): string[] {
  const hosts: string[] = [];
  args.forEach((arg, index) => {
    const previous = args[index - 1];
    let volume: string | undefined;
    if (previous === '-v' || previous === '--volume') volume = arg;
    else if (arg.startsWith('--volume=')) volume = arg.slice('--volume='.length);
    else if (arg.startsWith('-v') && arg.length > 2 && arg.includes(':')) volume = arg.slice(2);
    if (volume !== undefined) {
      const host = volume.split(':')[0];
      if (host && /^[~/.$]/.test(host)) hosts.push(host);
    }
    const mount =
      previous === '--mount' ? arg : arg.startsWith('--mount=') ? arg.slice('--mount='.length) : undefined;
    const source = mount === undefined ? undefined : /(?:^|,)(?:source|src)=([^,]+)/.exec(mount)?.[1];
    if (source !== undefined) hosts.push(source);
  });
  return hosts;
}

/** `run` and `create` options of docker, podman and nerdctl that take a value as the next word. */
const RUN_VALUE_OPTIONS = new Set([
  '-e',
  '--env',
  '--env-file',
  '-v',
  '--volume',
  '--mount',
  '--name',
  '-p',
  '--publish',
  '-w',
  '--workdir',
  '-u',
  '--user',
  '--network',
  '--net',
  '--entrypoint',
  '-l',
  '--label',
  '--platform',
  '--cpus',
  '-m',
  '--memory',
  '--restart',
  '-h',
  '--hostname',
  '--add-host',
  '--dns',
  '--device',
  '--cap-add',
  '--cap-drop',
  '--security-opt',
  '--ulimit',
  '--log-driver',
  '--log-opt',
  '--pull',
  '--tmpfs',
  '--ipc',
  '--pid',
  '--shm-size',
  '--gpus',
  '--runtime',
  '--cidfile',
  '--group-add',
  '--health-cmd',
  '--stop-signal',
  '--userns',
  '--uts',
  '--cgroupns',
  '--expose',
  '--link',
  '--volumes-from',
  '--memory-swap',
  '-c',
  '--cpu-shares',
  '--cpuset-cpus',
  '--init-path',
  '--ip',
  '--mac-address',
  '--label-file',
  '-a',
  '--attach',
]);

/**
 * The command a `run` gives its image, after the options and the image's name: it runs, with the
 * environment, mounts and network the run hands it. `undefined` when there is none.
 */
function containerCommand(args: readonly string[]): string[] | undefined {
  for (let index = args.indexOf('run') + 1; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '--') continue;
    if (arg.startsWith('-')) {
      if (RUN_VALUE_OPTIONS.has(arg)) index++;
      continue;
    }
    const command = args.slice(index + 1);
    return command.length > 0 ? command : undefined;
  }
  return undefined;
}

export function judgeContainerCli(scope: CommandScope, program: string, args: readonly string[]): boolean {
  const words = args.filter((arg) => !arg.startsWith('-'));
  const [first, second] = words;
  const all = args.includes('-a') || args.includes('--all');
  const volumes = args.includes('--volumes');
  if (first === 'exec' && words.length >= 3) {
    const containerIndex = args.indexOf(words[1]!);
    scope.runArgv(
      args.slice(containerIndex + 1).filter((arg) => arg !== '--'),
      `${program}-exec`,
    );
    return true;
  }
  if (first === 'run') {
    // Principle 1: a bind mount of a credential store hands its secrets to whatever the image
    // runs, which the analysis cannot read (`-v ~/.aws:/a some/image …`).
    for (const host of mountedHostPaths(args)) {
      const path = scope.path(host);
      if (!isCredentialPath(path.normalised)) continue;
      scope.secretSource(`mount:${path.normalised}`);
      scope.add({ code: `cli.${program}.mounts-secret:${path.normalised}`, exfil: RISK.ask, onTask: 0.3 });
    }
    const mountsRoot = args.some(
      (arg, index) =>
        (args[index - 1] === '-v' || args[index - 1] === '--volume') && mountsHost(arg.split(':')[0]!),
    );
    const privileged = args.includes('--privileged') || args.some((arg) => arg.startsWith('--pid=host'));
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
    args.forEach((arg, index) => {
      const setting =
        args[index - 1] === '-e' || args[index - 1] === '--env' ? arg : /^--env=(.*)$/.exec(arg)?.[1];
      const name = setting?.split('=')[0];
      if (name !== undefined && isSecretVariableName(name)) scope.secretSource(`$${name}`);
    });
    const command = containerCommand(args);
    if (command !== undefined) scope.runArgv(command, `${program}-run`);
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
    const removesVolumes = args.includes('-v') || args.includes('--volumes');
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
    const force = args.includes('-f') || args.includes('--force');
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
  const words = args.filter((arg) => !arg.startsWith('-'));
  const verb = words[0];
  if (verb === 'delete') {
    const broad =
      words[1] === 'namespace' ||
      words[1] === 'ns' ||
      words[1] === 'all' ||
      args.includes('--all') ||
      args.includes('-A') ||
      args.includes('--all-namespaces');
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
  if (verb === 'drain') {
    scope.add({ code: 'cli.kubectl.drain', destructive: RISK.deny, onTask: 0.2 });
    return true;
  }
  if (verb === 'scale' && args.some((arg) => /^--replicas=0$/.test(arg))) {
    scope.add({ code: 'cli.kubectl.scale-to-zero', destructive: RISK.threshold, onTask: 0.2 });
    return true;
  }
  if (
    (verb === 'replace' || verb === 'apply') &&
    (args.includes('--force') || args.some((arg) => arg.startsWith('--prune')))
  ) {
    scope.add({ code: `cli.kubectl.${verb}-force`, destructive: RISK.deny, onTask: 0.2 });
    return true;
  }
  return false;
}

export function judgeTerraform(scope: CommandScope, program: string, args: readonly string[]): boolean {
  const words = args.filter((arg) => !arg.startsWith('-'));
  const verb = words[0];
  const autoApprove = args.some((arg) => arg === '-auto-approve' || arg === '--auto-approve');
  if (verb === 'destroy' || args.includes('-destroy')) {
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
