import type { FastifyRequest } from 'fastify';

/** Absolute base URL of the UHP API as the client reached it (`http://host:port/api/harness`). */
export function baseUrlOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${request.server.prefix}`;
}
