import { sensitiveReadFinding } from './argument-roles.js';
import { judgeFileRole } from './content/file-role.js';
import { judgeSwitchChange } from './content/switch-change.js';
import type { Finding } from './finding.js';
import type { FindingFamily } from './finding-catalogue.js';
import { judgeAgentInstructions, judgeInsertedContent } from './inserted-content.js';
import { classifyPath } from './path-scope.js';
import { persistenceFinding, persistenceKind } from './persistence-target.js';
import { RISK } from './risk-scale.js';
import { classifyToolName } from './rules/cli-verb.js';
import { sqlFindings } from './rules/database-rules.js';
import {
  credentialReadRisk,
  isCloudMetadataHost,
  isCredentialPath,
  isLocalControlPlanePort,
  SECRET_SHAPE,
  secretLiteralKind,
  urlCarriesSecret,
} from './secret-source.js';
import { taskForbidsChanges } from './task-scope.js';
import type { CanonicalTool } from './tool-call-state.js';

/**
 * The non-shell tools: file reads and writes (judged by where they point), web fetches (by
 * what the URL carries and where it goes), MCP tools (by the verb in their name and secrets in
 * their arguments). Returns the findings and the subject the grant rules match on.
 */
export interface FileToolAnalysis {
  findings: Finding[];
  path?: string;
  url?: string;
}

interface FileToolContext {
  tool: string;
  canonical: CanonicalTool;
  args: Record<string, unknown>;
  cwd?: string | undefined;
  task: string;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export function analyseFileTool(context: FileToolContext): FileToolAnalysis {
  switch (context.canonical) {
    case 'Read':
      return analyseRead(context);
    case 'Write':
    case 'Edit':
      return analyseWrite(context);
    case 'WebFetch':
      return analyseFetch(context);
    case 'WebSearch':
      return { findings: secretsInArguments(context.args, 'tool.search') };
    case 'Glob':
    case 'Grep':
      return analyseSearch(context);
    case 'Mcp':
      return analyseMcp(context);
    case 'Internal': {
      // A sub-agent's task is what it will be told to do: its commands and instructions are judged
      // now, though each of the sub-agent's own calls is gated again.
      const prompt = text(context.args.prompt);
      const told =
        prompt === undefined
          ? []
          : judgeAgentInstructions(
              { path: '', inserted: prompt, removed: '', task: context.task, cwd: context.cwd },
              false,
            );
      return {
        findings: [
          { code: `tool.internal:${context.tool}`, onTask: 0.9 },
          ...secretsInArguments(context.args, 'tool.internal'),
          ...told,
        ],
      };
    }
    default:
      return {
        findings: [{ code: `tool.unknown:${context.tool.slice(0, 60)}`, uncertain: true, onTask: 0.5 }],
      };
  }
}

/** Text that starts as a SQL statement does. */
const SQL_TEXT =
  /^\s*(select|insert|update|delete|drop|truncate|alter|create|grant|revoke|with|merge|replace|copy|upsert|exec|execute|call)\s/i;

function filePathOf(args: Record<string, unknown>): string | undefined {
  return (
    text(args.file_path) ??
    text(args.absolute_path) ??
    text(args.path) ??
    text(args.notebook_path) ??
    text(args.filePath)
  );
}

function analyseRead(context: FileToolContext): FileToolAnalysis {
  // Gemini's read_many_files takes a list of paths (or globs): each one is judged.
  const many = Array.isArray(context.args.paths)
    ? context.args.paths.map(text).filter((each): each is string => each !== undefined)
    : [];
  if (many.length > 1) {
    const findings = many.flatMap((each) => analyseRead({ ...context, args: { file_path: each } }).findings);
    return { findings, path: many[0] };
  }
  const path = filePathOf(context.args) ?? many[0];
  if (path === undefined || path === '')
    return { findings: [{ code: 'tool.read.missing-path', implausible: true, uncertain: true }] };
  const classified = classifyPath(path, context.cwd);
  const findings: Finding[] = [];
  if (isCredentialPath(classified.normalised) || isCredentialPath(path)) {
    const outside =
      classified.scope === 'home' || classified.scope === 'system' || classified.scope === 'unknown';
    findings.push({
      code: `secret.read:${classified.normalised}`,
      exfil: credentialReadRisk(classified.normalised, outside),
      onTask: outside ? 0.3 : 0.6,
    });
  } else {
    // Principle 1: histories, another user's files and whole homes, as for any shell argument.
    const sensitive = sensitiveReadFinding(path, context.cwd);
    findings.push(
      sensitive ?? {
        code: `tool.read:${classified.scope}`,
        onTask: classified.scope === 'system' || classified.scope === 'home' ? 0.8 : 0.9,
      },
    );
  }
  return { findings, path };
}

/** The names of secrets a search outside the workspace looks for (a secret's shape is `SECRET_SHAPE`). */
const SECRET_SIGNATURE = /secret|passw(or)?d|token|api[-_]?key|credential/i;

/**
 * Grep and Glob read what they search. Principle 1: where they search is a path argument like any
 * other, so a search rooted in a credential store, another user's home or a system secret is judged
 * as a read of it. A Glob pattern that is itself an absolute or home path names where it reads.
 */
function analyseSearch(context: FileToolContext): FileToolAnalysis {
  const kind = context.canonical.toLowerCase();
  const pattern = text(context.args.pattern);
  const roots = [
    text(context.args.path) ?? text(context.args.dir_path) ?? text(context.args.directory),
    context.canonical === 'Glob' && pattern !== undefined && /^[/~]/.test(pattern) ? pattern : undefined,
  ].filter((root): root is string => root !== undefined && root !== '');
  const findings: Finding[] = [{ code: `tool.${kind}.read-only`, onTask: 0.9 }];
  // An ordinary read adds nothing to the search's own finding; only what makes it sensitive does.
  for (const root of roots)
    for (const finding of analyseRead({ ...context, args: { file_path: root } }).findings)
      if (!finding.code.startsWith('tool.read:')) findings.push(finding);
  // Principle 1: outside the workspace, a search for what secrets look like (a key's header, a
  // token's prefix, `password`) or a glob for credential files is a harvest of secrets.
  const outside = roots.some((root) => {
    const { scope } = classifyPath(root, context.cwd);
    return scope === 'home' || scope === 'system' || scope === 'unknown';
  });
  // A search for a live secret's shape (a key header, a token prefix) prints secrets wherever it runs.
  if (pattern !== undefined && SECRET_SHAPE.test(pattern))
    findings.push({ code: `secret.harvest-pattern:${kind}`, exfil: RISK.ask, onTask: 0.2 });
  else if (outside && pattern !== undefined) {
    const credentialGlob = context.canonical === 'Glob' && isCredentialPath(pattern.replace(/[*?]/g, ''));
    if (SECRET_SIGNATURE.test(pattern) || credentialGlob)
      findings.push({ code: `secret.harvest-pattern:${kind}`, exfil: RISK.ask, onTask: 0.2 });
  }
  return { findings };
}

function analyseWrite(context: FileToolContext): FileToolAnalysis {
  const path = filePathOf(context.args);
  if (path === undefined || path === '') {
    // apply_patch (Codex) carries its paths inside the patch text.
    const patch = text(context.args.input) ?? text(context.args.patch);
    if (patch !== undefined) {
      // Principle 5: each file's `+` lines are what the patch inserts and its `-` lines what it
      // removes, judged as an Edit of that file would be.
      const files = patchFiles(patch);
      const paths = files.map((file) => file.path);
      const findings = files.flatMap((file) =>
        judgeWriteTarget(context, file.path, file.inserted, file.removed),
      );
      if (/^\*\*\* Delete File:/m.test(patch))
        findings.push({ code: 'tool.patch.deletes-file', destructive: RISK.low });
      return {
        findings: findings.length > 0 ? findings : [{ code: 'tool.patch.no-files', uncertain: true }],
        path: paths[0],
      };
    }
    return {
      findings: [
        { code: `tool.${context.canonical.toLowerCase()}.missing-path`, implausible: true, uncertain: true },
      ],
    };
  }
  // NotebookEdit's `new_source` is a cell's code.
  const content = [
    text(context.args.content),
    text(context.args.new_string),
    text(context.args.new_str),
    text(context.args.new_source),
  ]
    .concat(
      Array.isArray(context.args.edits)
        ? context.args.edits.map((edit) => text((edit as Record<string, unknown>)?.new_string))
        : [],
    )
    .filter((value) => value !== undefined)
    .join('\n');
  if (context.canonical === 'Write' && text(context.args.content) === undefined)
    return { findings: [{ code: 'tool.write.missing-content', implausible: true, uncertain: true }], path };
  const removed = [text(context.args.old_string), text(context.args.old_str)]
    .concat(
      Array.isArray(context.args.edits)
        ? context.args.edits.map((edit) => text((edit as Record<string, unknown>)?.old_string))
        : [],
    )
    .filter((value) => value !== undefined)
    .join('\n');
  return { findings: judgeWriteTarget(context, path, content, removed), path };
}

/** The files of a Codex patch (`*** Add File:`, `*** Update File:`, `*** Delete File:`) with their `+` and `-` lines. */
function patchFiles(patch: string): { path: string; inserted: string; removed: string }[] {
  const files: { path: string; inserted: string[]; removed: string[] }[] = [];
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line);
    if (header !== null) files.push({ path: header[1]!.trim(), inserted: [], removed: [] });
    else if (line.startsWith('+')) files.at(-1)?.inserted.push(line.slice(1));
    else if (line.startsWith('-')) files.at(-1)?.removed.push(line.slice(1));
  }
  return files.map((file) => ({
    path: file.path,
    inserted: file.inserted.join('\n'),
    removed: file.removed.join('\n'),
  }));
}

function judgeWriteTarget(context: FileToolContext, path: string, content: string, removed = ''): Finding[] {
  const kind = context.canonical.toLowerCase();
  const classified = classifyPath(path, context.cwd);
  const findings: Finding[] = [];
  if (taskForbidsChanges(context.task)) findings.push({ code: `task.forbids-changes:${kind}`, onTask: 0.15 });
  // An agent settings file written by a file tool is judged by what the new text says
  // (inserted-content.ts); a shell command's change to it cannot be read, so only there the
  // file's kind decides.
  const persistence =
    persistenceKind(classified.normalised) === 'agent-settings'
      ? undefined
      : persistenceFinding(classified.normalised, context.task, `tool.${kind}`);
  if (persistence !== undefined) findings.push(persistence);
  else if (classified.scope === 'system')
    findings.push({
      code: `tool.${kind}.system:${classified.normalised}`,
      destructive: RISK.deny,
      onTask: 0.2,
    });
  else if (classified.scope === 'home' || classified.scope === 'unknown')
    findings.push({
      code: `tool.${kind}.outside-workspace:${classified.normalised}`,
      destructive: RISK.ask,
      onTask: 0.4,
    });
  else if (isCredentialPath(classified.normalised))
    findings.push({
      code: `tool.${kind}.credential-file:${classified.normalised}`,
      destructive: RISK.askLow,
      onTask: 0.6,
    });
  else findings.push({ code: `tool.${kind}.workspace`, onTask: 0.9 });
  const secret = secretLiteralKind(content);
  if (secret !== undefined)
    findings.push({ code: `tool.${kind}.writes-secret:${secret}`, exfil: RISK.askLow, onTask: 0.6 });
  // Issue 27: in a sensitive role (pipeline, manifest, migration, access control, …) a change the
  // task does not ask for is not classified as routine.
  if (classified.scope === 'workspace')
    findings.push(
      ...judgeFileRole({
        path: classified.normalised,
        inserted: content,
        removed,
        task: context.task,
        whole: context.canonical === 'Write',
      }),
      ...judgeSwitchChange({
        path: classified.normalised,
        inserted: content,
        removed,
        task: context.task,
        whole: context.canonical === 'Write',
      }),
    );
  // Principle 5: what is inserted, judged by the kind of file it lands in.
  findings.push(
    ...judgeInsertedContent({
      path: classified.normalised,
      inserted: content,
      removed,
      task: context.task,
      cwd: context.cwd,
    }),
  );
  return findings;
}

function analyseFetch(context: FileToolContext): FileToolAnalysis {
  const url = text(context.args.url) ?? text(context.args.prompt)?.match(/https?:\/\/\S+/)?.[0];
  if (url === undefined)
    return { findings: [{ code: 'tool.fetch.missing-url', implausible: true, uncertain: true }] };
  const findings: Finding[] = [];
  // Text fetched to be obeyed: whoever controls the page then steers the agent (prompt injection).
  const prompt = text(context.args.prompt) ?? '';
  if (
    /\b(follow|execute|run|obey|carry out|do (exactly )?what)\b[^.\n]{0,60}\b(instructions?|steps|commands?|says|it says)\b/i.test(
      prompt,
    )
  )
    findings.push({ code: 'tool.fetch.instructions-to-follow', uncertain: true, onTask: 0.4 });
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    return { findings: [{ code: 'tool.fetch.invalid-url', implausible: true, uncertain: true }], url };
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    findings.push({
      code: `tool.fetch.scheme:${parsed.protocol}`,
      exfil: RISK.ask,
      uncertain: true,
      onTask: 0.3,
    });
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (urlCarriesSecret(url))
    findings.push({ code: `net.secret-in-url:${host}`, exfil: RISK.denyHigh, onTask: 0.2 });
  if (isCloudMetadataHost(host))
    findings.push({ code: `net.cloud-metadata:${host}`, exfil: RISK.deny, onTask: 0.05 });
  else if (
    /^\d{1,3}(\.\d{1,3}){3}$/.test(host) &&
    !/^(127\.|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(host)
  )
    findings.push({ code: `net.raw-ip:${host}`, exfil: RISK.askLow, onTask: 0.5 });
  else if (/^(localhost|127\.|0\.0\.0\.0|\[?::1)/.test(host))
    findings.push(
      isLocalControlPlanePort(parsed.port)
        ? { code: `net.local-control-plane:${parsed.port}`, exfil: RISK.ask, onTask: 0.2 }
        : { code: 'net.fetch-local', onTask: 0.85 },
    );
  findings.push(...secretsInArguments({ prompt: context.args.prompt }, 'tool.fetch'));
  const carried = encodedDataInUrl(parsed);
  if (carried !== undefined)
    findings.push({ code: `net.encoded-data-in-url:${host}`, exfil: RISK.askHigh, onTask: 0.3 });
  if (findings.length === 0) findings.push({ code: `tool.fetch:${host}`, onTask: 0.85 });
  return { findings, url };
}

function analyseMcp(context: FileToolContext): FileToolAnalysis {
  const [, server = '', ...rest] = context.tool.split('__');
  const name = rest.join('__');
  const verb = classifyToolName(name);
  const findings: Finding[] = [];
  const code = `mcp.${server}.${verb ?? 'unknown'}:${name}` as const;
  switch (verb) {
    case 'destructive':
      findings.push({ code, destructive: RISK.deny, onTask: 0.3 });
      break;
    case 'overwrite':
      // A change on a working branch of a remote repository is reviewed before it reaches anyone
      // and is undone by deleting the branch: what it can do is what its content does, which the
      // write-target checks below read. The default and release branches are what others run.
      if (onWorkingBranch(context.args.branch))
        findings.push({ code, destructive: RISK.routine, onTask: 0.85 });
      else findings.push({ code, destructive: RISK.askLow, onTask: 0.5 });
      break;
    case 'additive':
      findings.push({ code, destructive: RISK.routine, onTask: 0.75 });
      break;
    case 'read':
      findings.push({ code, onTask: 0.9 });
      break;
    default:
      findings.push({ code, uncertain: true, onTask: 0.6 });
  }
  // An MCP tool given SQL runs it: the same judgement as a database client's.
  for (const value of Object.values(context.args))
    if (typeof value === 'string' && SQL_TEXT.test(value))
      findings.push(...sqlFindings(value, `mcp.${server}.sql`, context.task));
  findings.push(...secretsInArguments(context.args, `mcp.${server}`));
  // Principle 1: an MCP tool's path arguments are judged like any program's.
  for (const [key, value] of Object.entries(context.args)) {
    if (
      typeof value !== 'string' ||
      !/^(path|paths|file|file_?path|filename|source|target|destination|dir(ectory)?)$/i.test(key)
    )
      continue;
    if (verb === 'read' || verb === undefined) {
      const sensitive = sensitiveReadFinding(value, context.cwd);
      if (sensitive !== undefined) findings.push(sensitive);
    } else findings.push(...judgeWriteTarget(context, value, text(context.args.content) ?? ''));
  }
  // Principles 1 and 3: a URL an MCP tool fetches is judged as the fetch tool's is (cloud metadata,
  // raw addresses, local control planes, secrets and encoded data in it).
  const url = text(context.args.url);
  if (url !== undefined) {
    const fetched = analyseFetch({ ...context, args: { url } }).findings;
    findings.push(...fetched.filter((finding) => !finding.code.startsWith('tool.fetch:')));
  }
  return { findings };
}

/** Branches others build, deploy or release from; any other named branch is someone's working branch. */
const SHARED_BRANCH =
  /^(main|master|trunk|develop|development|dev|default|prod|production|stable|staging|live|release\b.*|releases?\/.*|gh-pages|hotfix\/.*|v?\d+(\.\d+)*(\.x)?)$/i;

function onWorkingBranch(branch: unknown): boolean {
  return typeof branch === 'string' && /^[\w./-]{1,100}$/.test(branch) && !SHARED_BRANCH.test(branch);
}

/**
 * Principle 3: a query or path segment holding a long encoded blob (base64, hex) carries data
 * off the machine in the URL itself; what it encodes cannot be read, so it is asked.
 */
function encodedDataInUrl(url: URL): string | undefined {
  const parts = [...url.searchParams.values(), ...url.pathname.split('/')];
  return parts.find(
    (part) =>
      part.length >= 40 &&
      /^[A-Za-z0-9+/_=-]+$/.test(part) &&
      /[A-Z]/.test(part) &&
      /[a-z]/.test(part) &&
      /\d/.test(part),
  );
}

function secretsInArguments(args: Record<string, unknown>, prefix: `${FindingFamily}.${string}`): Finding[] {
  const kind = secretLiteralKind(JSON.stringify(args));
  return kind === undefined
    ? []
    : [{ code: `${prefix}.secret-in-arguments:${kind}`, exfil: RISK.deny, onTask: 0.1 }];
}
