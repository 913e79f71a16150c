import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error.js';

/**
 * `limits.requestsPerMinute` for the routes of `app`: each principal's requests in a fixed
 * one-minute window, refused with 429 `rate_limited` (and `Retry-After`). Register it after the
 * authentication hook, so it counts per principal rather than per address; the Decision API and
 * the team gate each count their own requests (`what` names them in the refusal).
 */
export async function limitRequestsPerPrincipal(
  app: FastifyInstance,
  perMinute: number,
  what: string,
): Promise<void> {
  await app.register(rateLimit, {
    max: perMinute,
    timeWindow: 60_000,
    hook: 'preParsing',
    keyGenerator: (request) => request.principal?.id ?? request.ip,
    errorResponseBuilder: (_request, context) =>
      ApiError.of('rate_limited', `more than ${perMinute} ${what} in a minute; retry after ${context.after}`),
  });
}
