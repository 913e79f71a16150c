/**
 * The verbs of command-line interfaces (`vault kv delete`, `aws s3api delete-bucket`,
 * `rabbitmqctl delete_user`, `kafka-topics --delete`). Most service CLIs name their actions
 * with the same few words, so classifying the words is how a CLI the analyser has no rule for
 * is still judged: destructive verbs are denied, reads allowed, everything else asked.
 */
export type VerbKind = 'destructive' | 'overwrite' | 'additive' | 'read';

const DESTRUCTIVE = new Set([
  'delete',
  'del',
  'deletefile',
  'deletes',
  'remove',
  'rm',
  'rmi',
  'rmdir',
  'rb',
  'destroy',
  'purge',
  'prune',
  'drop',
  'truncate',
  'wipe',
  'forget',
  'unregister',
  'deregister',
  'revoke',
  'disable',
  'terminate',
  'uninstall',
  'clear',
  'flush',
  'flushall',
  'flushdb',
  'compact',
  'erase',
  'unpublish',
  'yank',
  'deprecate',
  'kill',
  'drain',
  'unsubscribe',
  'evict',
  'expunge',
  'discard',
  'shred',
  'nuke',
  'rdelete',
  'decommission',
  'abandon',
  'reset',
  'teardown',
  'cleanup',
  'empty',
  'unset',
  'deactivate',
  'suspend',
  'unlink',
  'detach',
  'delist',
  'retire',
  'obliterate',
  'zap',
  'undeploy',
  'unbind',
  'unmount',
  'umount',
  'release-delete',
  'format',
]);

const OVERWRITE = new Set([
  // Archiving makes a thing read-only and is undone by unarchiving: a change, not a loss.
  'archive',
  'update',
  'put',
  'set',
  'apply',
  'deploy',
  'patch',
  'edit',
  'replace',
  'modify',
  'rotate',
  'restore',
  'import',
  'move',
  'mv',
  'sync',
  'run',
  'exec',
  'start',
  'stop',
  'restart',
  'scale',
  'upgrade',
  'install',
  'publish',
  'push',
  'send',
  'write',
  'attach',
  'enable',
  'invoke',
  'trigger',
  'promote',
  'migrate',
  'rollback',
  'release',
  'merge',
  'transfer',
  'rename',
  'overwrite',
  'upload',
  'submit',
  'approve',
  'execute',
  'grant',
  'assign',
  'alter',
  'change',
  'reboot',
  'shutdown',
  'halt',
  'pause',
  'resume',
  'cancel',
  'abort',
  'failover',
  'resize',
  'reload',
  'commit',
  'encrypt',
  'decrypt',
  'sign',
  'invalidate',
  'recreate',
  'reinstall',
  'rollout',
  'cordon',
  'uncordon',
  'taint',
  'annotate',
  'label',
  'expose',
  'autoscale',
  'apply-config',
  'set-config',
  'configure',
]);

const ADDITIVE = new Set([
  // A local archive of a chart or package, made for a later push.
  'package',
  'create',
  'new',
  'add',
  'backup',
  'copy',
  'cp',
  'mount',
  'unlock',
  'login',
  'setup',
  'init',
  'tag',
  'snapshot',
  'export',
  'download',
  'pull',
  'build',
  'clone',
  'fetch',
  'generate',
  'extract',
  'open',
  'use',
  'switch',
  'select',
  'checkout',
  'save',
  'dump',
  'archive-create',
  'mkdir',
  'touch',
  'register',
  'subscribe',
  'connect',
  'auth',
]);

const READ = new Set([
  'list',
  'ls',
  'lsd',
  'lsjson',
  'lsf',
  'lsl',
  'get',
  'describe',
  'info',
  'show',
  'status',
  'version',
  'health',
  'check',
  'checks',
  'stats',
  'stat',
  'diff',
  'logs',
  'log',
  'whoami',
  'who',
  'am',
  'i',
  'cat',
  'size',
  'about',
  'md5sum',
  'sha1sum',
  'hashsum',
  'snapshots',
  'find',
  'validate',
  'diagnostic',
  'diagnostics',
  'ping',
  'inspect',
  'top',
  'ps',
  'images',
  'search',
  'view',
  'read',
  'head',
  'help',
  'tree',
  'events',
  'explain',
  'history',
  'tail',
  'watch',
  'query',
  'lookup',
  'verify',
  'audit',
  'doctor',
  'print',
  'current',
  'plan',
  'preview',
  'synth',
  'output',
  'outputs',
  'test',
  'lint',
  'template',
  'whoami',
  'receive',
  'head-object',
  'tasks',
  'version',
  'api',
  'versions',
  'broker',
  'health-check',
  'metadata',
  'random',
  'password',
  'caller',
  'identity',
  'usage',
  'quota',
  'status-check',
  'describe-all',
  'fmt',
  'format-check',
  'graph',
  'providers',
  'count',
  'exists',
  'mappings',
  'mapping',
  'settings',
  'aliases',
  'indices',
  'shards',
  'keys',
  'scan',
  'type',
  'ttl',
  'dbsize',
  'monitor',
  'slowlog',
  'latency',
  'memory',
  'debug',
  'env',
  'echo',
  'endpoints',
  'wait',
]);

/** Verbs recur across calls (`get`, `list`, `delete`); classification is cached, bounded. */
const classified = new Map<string, VerbKind | undefined>();
const CACHE_LIMIT = 4096;

export function classifyVerb(word: string): VerbKind | undefined {
  if (classified.has(word)) return classified.get(word);
  const kind = classifyUncached(word);
  if (classified.size >= CACHE_LIMIT) classified.clear();
  classified.set(word, kind);
  return kind;
}

function classifyUncached(word: string): VerbKind | undefined {
  const lower = word.toLowerCase();
  const parts = lower
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .split(/[-_:.\s/]+/)
    .filter((part) => part !== '');
  // `doDelete`, `delete-secret`, `remove-secret`, `force-delete`: any destructive part decides.
  const camelParts = word
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[-_:.\s/]+/);
  const all = new Set([...parts, ...camelParts]);
  for (const part of all) if (DESTRUCTIVE.has(part)) return 'destructive';
  for (const part of all) if (OVERWRITE.has(part)) return 'overwrite';
  for (const part of all) if (ADDITIVE.has(part)) return 'additive';
  for (const part of all) if (READ.has(part)) return 'read';
  return undefined;
}

/**
 * The kind of an MCP tool by its name (`get_pull_request`, `listIssues`, `delete_file`). Tool names
 * are verb then object, so a leading read verb decides over object nouns that double as additive
 * verbs (`pull request`, `fetch log`, `export job`). A destructive or overwriting part still decides
 * first, as in `classifyVerb`.
 */
export function classifyToolName(name: string): VerbKind | undefined {
  const kind = classifyVerb(name);
  if (kind !== 'additive') return kind;
  const leading = name
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[-_:.\s/]+/)
    .find((part) => part !== '');
  // A tool named for getting a web resource (`fetch`, `fetch_url`, `web_fetch`, `browse`) reads it;
  // where the URL sends data is judged from the URL itself.
  if (leading !== undefined && /^(fetch|browse|scrape|crawl|visit)$/.test(leading)) return 'read';
  if (/(^|[-_])(web_?fetch|fetch_?(url|page|html|markdown))$/i.test(name)) return 'read';
  return leading !== undefined && READ.has(leading) ? 'read' : kind;
}

/** Flags that switch an action into a preview. */
export const DRY_RUN_FLAGS =
  /^--?(dry-?run|dryrun|check|plan|preview|what-?if|noop|simulate|list-only)(=.*)?$|^-n$/;

/** Flags that make an action destructive whatever its verb (`--delete`, `--force-delete-without-recovery`). */
export const DESTRUCTIVE_FLAGS =
  /^--(delete|remove|purge|prune|wipe|drop|destroy|force-delete|delete-[a-z-]+|remove-[a-z-]+|unsafe-[a-z-]+|cascade|recursive-delete|truncate)(=.*)?$/;
