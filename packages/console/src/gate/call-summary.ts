import { redact } from '@arbiter/decision';

/** Longest call text the audit table shows; the whole call stays in the session's transcript. */
export const MAX_CALL_SUMMARY = 240;

/** The argument that says what a call does, in the order the tool families use them. */
const TELLING_ARGUMENTS = ['command', 'cmd', 'file_path', 'path', 'url', 'pattern', 'query'];

/**
 * What a tool call did, in one line for the audit table: the shell command, the file path or the
 * URL (else the arguments as JSON), with secrets replaced by the decision client's redaction (the
 * same rules the server applies before a state leaves a machine) and cut to MAX_CALL_SUMMARY.
 */
export function summarizeCall(argumentsJson: string): string {
  let text = argumentsJson;
  try {
    const parsed: unknown = JSON.parse(argumentsJson);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const args = parsed as Record<string, unknown>;
      const key = TELLING_ARGUMENTS.find(
        (name) => typeof args[name] === 'string' || Array.isArray(args[name]),
      );
      const value = key === undefined ? undefined : args[key];
      text = Array.isArray(value)
        ? value.map(String).join(' ')
        : typeof value === 'string'
          ? value
          : JSON.stringify(args);
    }
  } catch {
    // Not JSON: shown as it came, redacted like the rest.
  }
  const safe = redact(text);
  return safe.length > MAX_CALL_SUMMARY ? `${safe.slice(0, MAX_CALL_SUMMARY - 1)}…` : safe;
}
