import { streamEventSchema, uhpErrorEnvelopeSchema } from '@arbiter/uhp/wire';
import { z } from 'zod';

/**
 * What the UHP routes' schemas share: security requirements, the error answers, the path
 * parameters, and the answers that are not JSON (event streams, files), documented by content type
 * (`/openapi.json`, `/docs`). The wire schemas themselves come from `@arbiter/uhp/wire`.
 */

/** A bearer key (the scheme `bearerAuth` of `/openapi.json`). */
export const BEARER = [{ bearerAuth: [] }];
/** Served without a credential: discovery and shared views. */
export const PUBLIC: { [name: string]: string[] }[] = [];

const errorEnvelope = uhpErrorEnvelopeSchema.describe(
  'The specification’s error envelope; `error.code` is one of the registered codes (docs/uhp-server.md)',
);

/**
 * Error answers of a route: every route may answer 400 (`unsupported_protocol_version`,
 * `invalid_input`) and 500; authenticated ones 401 too; `extra` adds the route's own.
 */
export function errorAnswers(
  extra: readonly number[],
  options: { authenticated?: boolean } = {},
): Record<number, typeof errorEnvelope> {
  const statuses = [400, ...(options.authenticated === false ? [] : [401]), ...extra, 500];
  return Object.fromEntries(statuses.map((status) => [status, errorEnvelope]));
}

/** Path parameters; ids are checked against Arbiter's own formats by the handlers (unknown: 404). */
export const harnessParams = z.object({ harness_id: z.string().describe('`chrn_…`') });
export const skillParams = harnessParams.extend({ skill_name: z.string() });
export const responseParams = z.object({ response_id: z.string().describe('`resp_…`') });
export const sessionParams = z.object({ session_id: z.string().describe('`hsess_…`') });
export const fileParams = z.object({ file_id: z.string().describe('`file_…`') });
export const containerFileParams = z.object({
  container_id: z.string().describe('`cntr_…`'),
  file_id: z.string().describe('`file_…`'),
});

/** `{id, object: '<kind>.deleted', deleted: true}`. */
export const deletedSchema = <Kind extends string>(object: Kind) =>
  z.object({ id: z.string(), object: z.literal(object), deleted: z.literal(true) });

/** A server-sent event stream of UHP events; documented, not validated (it is written event by event). */
export const eventStreamContent = {
  'text/event-stream': {
    schema: streamEventSchema.describe(
      'Server-sent events: each `data:` line is one event (`id:` is its `sequence_number`); keep-alive comments every 15 s',
    ),
  },
};

/**
 * Raw bytes (a file, an archive), sent as a stream or a buffer: documented as a binary string,
 * typed as anything the handler may send.
 */
export const fileBytesContent = (mediaType: string, description: string) => ({
  [mediaType]: { schema: z.any().meta({ type: 'string', format: 'binary', description }) },
});

/** An `integer` query parameter from `min` to `max`, refused with a message naming the range. */
export const integerQuery = (min: number, max: number) => {
  const range = `must be an integer from ${min} to ${max}`;
  return z.coerce
    .number({ error: range })
    .int({ error: range })
    .min(min, { error: range })
    .max(max, { error: range })
    .optional();
};
