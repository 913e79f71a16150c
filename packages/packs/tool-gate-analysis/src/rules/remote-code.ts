import { isDefaultRegistryHost } from '../package-source.js';
import { RISK } from '../risk-scale.js';
import type { CommandScope } from '../shell-command.js';
import { OPTION_SPECS } from '../vocabulary/program-options.js';
import { parseArguments } from './option-parse.js';

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

/**
 * The image a `run`, `create` or `pull` names: the first positional after the subcommand's options,
 * read with the one option parser and docker's specifications (`docker --context prod run -p 80:80
 * IMAGE`, `docker image pull IMAGE`). Other subcommands name no image to fetch.
 */
function imageOf(args: readonly string[]): string | undefined {
  const global = parseArguments(args, OPTION_SPECS.docker, { firstPositionalEndsOptions: true });
  let verbAt = global.tokens.find((token) => token.kind === 'positional')?.index;
  if (verbAt === undefined) return undefined;
  // The management commands' spellings: `docker container run`, `docker image pull`.
  if (args[verbAt] === 'container' || args[verbAt] === 'image') verbAt += 1;
  const verb = args[verbAt] ?? '';
  const spec = verb === 'pull' ? OPTION_SPECS['docker pull'] : OPTION_SPECS['docker run'];
  if (verb !== 'run' && verb !== 'create' && verb !== 'pull') return undefined;
  return parseArguments(args.slice(verbAt + 1), spec, { firstPositionalEndsOptions: true }).positionals[0];
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
