import { EngineError } from '@arbiter/decision';
import { ModelNotFoundError } from '@arbiter/engine/catalog';
import {
  JSON_BODY_REFUSED_CODE,
  JSON_CHARSET_CODE,
  JSON_TOO_DEEP_CODE,
  MAX_JSON_DEPTH,
} from '@arbiter/json-body';
import { NulInTextError } from '@arbiter/storage';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { ApiError } from './api-error.js';

const ENGINE_MESSAGE = {
  engine_error: 'the engine failed to produce answers',
  engine_unavailable: 'the engine is unavailable; retry later',
  engine_timeout: 'the engine did not answer in time',
} as const;

/** Maps any error thrown while serving a request to an API error with a known status and code. */
export function toApiError(error: unknown, request: FastifyRequest): ApiError {
  if (ApiError.isInstance(error)) return error;
  if (ModelNotFoundError.isInstance(error)) {
    return ApiError.of('model_not_found', error.message, {
      param: 'model',
      detail: { available: error.available },
    });
  }
  if (EngineError.isInstance(error)) {
    return ApiError.of(error.code, ENGINE_MESSAGE[error.code]);
  }
  if (NulInTextError.isInstance(error)) {
    return ApiError.of(
      'invalid_request',
      'a text of the request contains a NUL character (U+0000), which the server does not store',
    );
  }
  const fastifyError = error as Partial<FastifyError>;
  switch (fastifyError.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return ApiError.of(
        'unsupported_media_type',
        `unsupported Content-Type ${JSON.stringify(request.headers['content-type'] ?? '')}; send application/json`,
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE': {
      const limit = request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit;
      return ApiError.of('body_too_large', `the request body is larger than the limit of ${limit} bytes`, {
        detail: { limit_bytes: limit },
      });
    }
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return ApiError.of('invalid_json', 'the request body is empty; send a JSON object');
    case JSON_TOO_DEEP_CODE:
      return ApiError.of('invalid_json', fastifyError.message ?? 'the JSON body is nested too deeply', {
        detail: { max_depth: MAX_JSON_DEPTH },
      });
    case JSON_CHARSET_CODE:
      return ApiError.of('unsupported_media_type', fastifyError.message ?? 'send JSON as UTF-8');
    case JSON_BODY_REFUSED_CODE:
      return ApiError.of('invalid_json', fastifyError.message ?? 'the JSON body is refused');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return ApiError.of(
        'invalid_json',
        'the request body is not valid JSON (members named __proto__ or constructor.prototype are refused)',
      );
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const first = error.validation[0];
    const where = first?.instancePath.replace(/^\//, '').replaceAll('/', '.') ?? '';
    return ApiError.of('invalid_request', `${where || 'request'}: ${first?.message ?? 'invalid request'}`);
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return ApiError.of(
      status === 429 ? 'rate_limited' : 'invalid_request',
      fastifyError.message ?? 'invalid request',
    );
  }
  // Server faults never show their details; the request id finds them in the log.
  return ApiError.of('internal_error', `internal server error (request id ${request.id})`, { cause: error });
}

function sendApiError(error: ApiError, reply: FastifyReply) {
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send(error.toBody());
}

/**
 * One error envelope `{error: {type, code, message, param, detail}}` for every failure of the
 * Decision API and the routes around it, unknown routes included. 5xx details go to the log only.
 */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error, request);
    if (apiError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ code: apiError.code }, apiError.message);
    return sendApiError(apiError, reply);
  });
  app.setNotFoundHandler((request, reply) =>
    sendApiError(ApiError.of('not_found', `no route ${request.method} ${request.url.split('?')[0]}`), reply),
  );
}
