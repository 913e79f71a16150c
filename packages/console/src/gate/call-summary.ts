import { redact } from '@arbiter/decision';

/** Longest call text the audit table shows; the whole call stays in the session's transcript. */
export const MAX_CALL_SUMMARY = 240;

/** Longest call text a team row shows in full; the rest is behind the row's title. */
export const MAX_ROW_CALL = 300;

/** Which part of a call a row shows: the one that says what the call does. */
export type CallKind = 'command' | 'path' | 'url' | 'summary';

/** A call as a row shows it: redacted, cut to the row's length, and which part it is. */
export interface ShownCall {
  text: string;
  kind: CallKind;
  cut: boolean;
}

/** The arguments that say what a call does, in the order the tool families use them, with their kind. */
const TELLING_ARGUMENTS: readonly (readonly [string, CallKind])[] = [
  ['command', 'command'],
  ['cmd', 'command'],
  ['file_path', 'path'],
  ['path', 'path'],
  ['url', 'url'],
  ['pattern', 'summary'],
  ['query', 'summary'],
];

/** The parts of a call the team gate's hook records (already redacted on the developer's machine). */
const RECORDED_PARTS: readonly (readonly [string, CallKind])[] = [
  ['command', 'command'],
  ['path', 'path'],
  ['url', 'url'],
];

/**
 * Every call the console shows goes through here: secrets replaced by the decision client's
 * redaction (the same rules the server and the hooks apply before a call leaves a machine; a
 * second pass over redacted text changes nothing) and the text cut to `max`.
 */
function shown(whole: string, kind: CallKind, max: number): ShownCall {
  const safe = redact(whole);
  const cut = safe.length > max;
  return { text: cut ? `${safe.slice(0, max - 1)}…` : safe, kind, cut };
}

/** The first of `parts` that `call` carries as text (or, for a command, as an argument vector). */
function tellingPart(
  call: Readonly<Record<string, unknown>>,
  parts: readonly (readonly [string, CallKind])[],
): { text: string; kind: CallKind } | undefined {
  for (const [name, kind] of parts) {
    const value = call[name];
    if (typeof value === 'string') return { text: value, kind };
    if (Array.isArray(value)) return { text: value.map(String).join(' '), kind };
  }
  return undefined;
}

/**
 * What a tool call did, in one line for the audit table: the shell command, the file path or the
 * URL (else the arguments as JSON), redacted and cut to MAX_CALL_SUMMARY.
 */
export function summarizeCall(argumentsJson: string): string {
  let text = argumentsJson;
  let kind: CallKind = 'summary';
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const args = parsed as Record<string, unknown>;
      const part = tellingPart(args, TELLING_ARGUMENTS);
      ({ text, kind } = part ?? { text: JSON.stringify(args), kind: 'summary' });
    }
  } catch {
    // Not JSON: shown as it came, redacted like the rest.
  }
  return shown(text, kind, MAX_CALL_SUMMARY).text;
}

/**
 * A team record's call as its row shows it: the command line, else the path, else the URL, else
 * the summary the hook recorded, redacted and cut to MAX_ROW_CALL.
 */
export function recordedCall(call: {
  command?: string;
  path?: string;
  url?: string;
  summary: string;
}): ShownCall {
  const part = tellingPart(call, RECORDED_PARTS) ?? { text: call.summary, kind: 'summary' };
  return shown(part.text, part.kind, MAX_ROW_CALL);
}
