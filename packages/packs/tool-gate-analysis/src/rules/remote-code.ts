import { isDefaultRegistryHost } from '../package-source.js';
import { RISK } from '../risk-scale.js';
import type { CommandScope } from '../shell-command.js';

/**
 * Principles 2 and 7: a runner given code by its network address runs code nobody has read, from
 * a source the project does not use: `deno run https://…`, `bun x https://…`, `pipx run --spec
 * https://…`, `uvx --from https://…`, `go run host/module@version` from a host outside the usual
 * module hosts, `docker run registry.host:5000/image` from a registry outside the usual ones. Such
 * a call is asked, never allowed; the same programs on local code or on the usual registries are
 * judged by their own rules.
 */
export function judgeRemoteCode(scope: CommandScope): void {
  const { program, args } = scope.command;
  const operands = args.filter((arg) => !arg.startsWith('-'));
  const subcommand = operands[0];
  let host: string | undefined;
  switch (program) {
    case 'deno':
    case 'bun':
    case 'bunx':
    case 'pipx':
    case 'uvx':
    case 'uv':
    case 'npx':
    case 'pnpx':
      host = args
        .map(urlHost)
        .find((candidate) => candidate !== undefined && !isDefaultRegistryHost(candidate));
      break;
    case 'go':
      if (subcommand === 'run' || subcommand === 'install' || subcommand === 'get')
        host = operands
          .slice(1)
          .map(moduleHost)
          .find((candidate) => candidate !== undefined && !GO_MODULE_HOSTS.test(candidate));
      break;
    case 'docker':
    case 'podman':
    case 'nerdctl':
      if (subcommand === 'run' || subcommand === 'create' || subcommand === 'pull')
        host = registryHost(imageOf(args));
      break;
  }
  if (host !== undefined)
    scope.add({ code: `pkg.remote-code:${program}:${host}`, deny: RISK.askHigh, onTask: 0.3 });
}

function urlHost(arg: string): string | undefined {
  const value = arg.includes('=') && arg.startsWith('-') ? arg.slice(arg.indexOf('=') + 1) : arg;
  return /^(?:https?|git\+https?|git\+ssh):\/\/(?:[^@/\s]*@)?([^/:\s?#]+)/i.exec(value)?.[1]?.toLowerCase();
}

/** Module hosts of the Go ecosystem that projects commonly depend on. */
const GO_MODULE_HOSTS =
  /^(github\.com|gitlab\.com|bitbucket\.org|golang\.org|google\.golang\.org|gopkg\.in|go\.uber\.org|k8s\.io|sigs\.k8s\.io|honnef\.co|go\.etcd\.io|cloud\.google\.com|go\.opentelemetry\.io|go\.mongodb\.org|gotest\.tools|mvdan\.cc)$/;

/** `host.tld/path@version` (a remote module), not `./cmd` or a file. */
function moduleHost(operand: string): string | undefined {
  if (/^[./~]/.test(operand) || operand.endsWith('.go')) return undefined;
  const first = operand.split('/')[0]!.replace(/@.*$/, '');
  return operand.includes('/') && /\.[a-z]{2,}$/i.test(first) ? first.toLowerCase() : undefined;
}

/** Options of `docker run` that take a value, so the image is the first operand after them. */
const DOCKER_VALUE_OPTIONS =
  /^(-v|--volume|-e|--env|-p|--publish|-w|--workdir|--name|--network|--net|--entrypoint|-u|--user|--mount|--env-file|-l|--label|--platform|--pull|-m|--memory|--cpus|--hostname|-h|--add-host|--device|--restart|--runtime|--shm-size|--ulimit|--log-driver|--cidfile|--ipc|--pid|--security-opt|--cap-add|--cap-drop|--tmpfs|--gpus|--dns)$/;

function imageOf(args: readonly string[]): string | undefined {
  const start = args.findIndex((arg) => arg === 'run' || arg === 'create' || arg === 'pull');
  for (let index = start + 1; index < args.length; index += 1) {
    const arg = args[index]!;
    if (DOCKER_VALUE_OPTIONS.test(arg)) index += 1;
    else if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

/** Container registries images commonly come from. */
const IMAGE_REGISTRIES =
  /^(docker\.io|registry-1\.docker\.io|ghcr\.io|quay\.io|gcr\.io|[a-z0-9-]+\.gcr\.io|[a-z0-9-]+-docker\.pkg\.dev|mcr\.microsoft\.com|public\.ecr\.aws|registry\.k8s\.io|registry\.gitlab\.com|localhost(:\d+)?|127\.0\.0\.1(:\d+)?)$/;

/** The registry host of an image reference, when it names one outside the usual registries. */
function registryHost(image: string | undefined): string | undefined {
  if (image === undefined || !image.includes('/')) return undefined;
  const first = image.split('/')[0]!;
  // Docker reads the first component as a registry only when it has a dot or a port, or is localhost.
  if (!/[.:]/.test(first)) return undefined;
  return IMAGE_REGISTRIES.test(first) ? undefined : first.toLowerCase();
}
