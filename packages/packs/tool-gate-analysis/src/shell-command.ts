import type { Finding } from './finding.js';
import type { ClassifiedPath } from './path-scope.js';

/** What a command reads on standard input, when the analyser can tell. */
export type CommandInput =
  | { kind: 'document'; body: string }
  | { kind: 'pipe'; from: SimpleCommand }
  | { kind: 'none' };

export interface Redirect {
  operator: string;
  target: string;
  dynamic: boolean;
}

/** One simple command after quote removal, expansion and wrapper removal. */
export interface SimpleCommand {
  /** Program name as written after normalisation (`/usr/bin/git` → `git`). */
  program: string;
  /** Arguments after the program. */
  args: string[];
  /** Which arguments carried unresolved expansions. */
  dynamicArgs: boolean[];
  input: CommandInput;
  redirects: Redirect[];
  /** The source text of the segment, for traces and grant rules. */
  text: string;
  /** `NAME=value` assignments written before the program, which set its environment. */
  environment?: { name: string; value: string }[];
}

/** What a command rule can do: add findings, classify paths, and analyse nested shell code. */
export interface CommandScope {
  readonly command: SimpleCommand;
  readonly task: string;
  /** The call's working directory, when the host gave one. */
  readonly cwd?: string | undefined;
  add(finding: Finding): void;
  path(raw: string): ClassifiedPath & { namedByTask: boolean };
  /** Analyse shell source run by this command (`sh -c`, `eval`, a heredoc fed to bash). */
  runShell(source: string, origin: string): void;
  /**
   * Analyse a command given as an argument vector (`xargs rm`, `find -exec rm {} ;`). An argument
   * that holds `placeholder` (default `{}`) is filled in from the wrapper's input or findings.
   */
  runArgv(argv: string[], origin: string, placeholder?: string): void;
  /** Record a secret source or a network sink for the flow analysis. */
  secretSource(what: string): void;
  networkSink(what: string): void;
  /** Record a file this call writes, so a later segment that runs it is seen (principle 2). */
  wrote(normalisedPath: string): void;
  /** Whether an earlier segment of this call wrote the file. */
  written(normalisedPath: string): boolean;
  /**
   * Record literal text this command writes into a file (`echo … > f`, a heredoc to `cat > f`),
   * and what it replaces there (`sed -i 's/old/new/'`), so that it is judged like the same text
   * given to a Write or Edit tool (principle 5).
   */
  wroteText(normalisedPath: string, text: string, removed?: string): void;
}

export type CommandRule = (scope: CommandScope) => void;
