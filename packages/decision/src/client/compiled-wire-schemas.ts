import { z } from 'zod';
import { decisionRequestSchema } from '../wire/request.js';
import { decisionResponseSchema } from '../wire/response.js';

/**
 * The request and response schemas compiled ahead of time (zod's `z.compile`): every `decide` call
 * validates both, and the compiled fast path is 3–4× quicker on valid input. Invalid input falls back
 * to the regular parser, so the issues (and the messages built from them) are exactly the schemas' own.
 */
export const compiledRequestSchema = z.compile(decisionRequestSchema);
export const compiledResponseSchema = z.compile(decisionResponseSchema);
