import type { z } from 'zod';

/**
 * One line per problem, each prefixed by where it is (`questions.department.criteria: …`), so a skip
 * message names the offending question or field. At most `limit` problems are listed.
 */
export function describeZodError(error: z.ZodError, limit = 5): string {
  const lines = error.issues.slice(0, limit).map((issue) => {
    const where = issue.path.map(String).join('.');
    return where.length > 0 ? `${where}: ${issue.message}` : issue.message;
  });
  const more = error.issues.length - limit;
  return more > 0 ? `${lines.join('; ')}; and ${more} more` : lines.join('; ');
}
