import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import type { OtherStatus } from './api-error-registry.js';

/** Where the UHP API is mounted: its refusals use UHP's registered codes. */
const UHP_PREFIX = '/api/harness/';

/**
 * Fastify's `frameworkErrors`: a path with a bad percent-encoding (`/v1/x%zz`) or a path parameter
 * over the router's length is refused before any route runs. Fastify's own answer is outside both
 * error envelopes and quotes the path (which may carry a token); this one is each API's envelope and
 * quotes nothing.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? 'a segment of the path is longer than the server accepts'
      : 'the path is not valid: a % is not followed by two hex digits of UTF-8';
  if (request.url.startsWith(UHP_PREFIX)) {
    const sentence = `${message.charAt(0).toUpperCase()}${message.slice(1)}.`;
    void reply
      .code(400)
      .type('application/json; charset=utf-8')
      .send({
        error: {
          type: 'invalid_request_error',
          code: 'invalid_input',
          message: sentence,
          param: null,
          detail: null,
        },
      });
    return;
  }
  const refusal = ApiError.of('invalid_request', message);
  void reply.code(refusal.statusCode).type('application/json; charset=utf-8').send(refusal.toBody());
}

const CLIENT_ERRORS: Record<string, { status: OtherStatus<'invalid_request'>; message: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'the request did not arrive in time' },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: `the request line and headers are longer than the server accepts (${http.maxHeaderSize} bytes)`,
  },
};

/**
 * The HTTP server's `clientError`: a request Node could not parse (headers or URL over its limit,
 * malformed HTTP, too slow) never reaches a route, so no plugin's envelope applies and its path is
 * unknown. It is answered in the envelope both APIs share (`error.type`, `code`, `message`, `param`,
 * plus the System One `detail`), then the connection is closed, as Node does.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code ?? ''];
  const refusal = known
    ? ApiError.of('invalid_request', known.message, { status: known.status })
    : ApiError.of('invalid_request', 'the request is not valid HTTP');
  const status = refusal.statusCode;
  const body = JSON.stringify(refusal.toBody());
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy(error);
}
