import type { FastifyReply } from 'fastify';

/** Headers already set on a reply (UHP-Version among them), for responses written to the raw socket. */
export function replyHeaders(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}
