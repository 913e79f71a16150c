const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/**
 * A readable path to the offending field: `questions.department.criteria`, with brackets for
 * indexes and for keys that are not plain names (`questions["a.b"].type`).
 */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let formatted = '';
  for (const segment of path) {
    if (typeof segment === 'number') formatted += `[${segment}]`;
    else if (typeof segment === 'string' && IDENTIFIER.test(segment))
      formatted += formatted ? `.${segment}` : segment;
    else formatted += `[${JSON.stringify(String(segment))}]`;
  }
  return formatted;
}
