import type { FastifyServerOptions } from 'fastify';
import { zodRequestValidator } from './decision/zod-request-validator.js';

/** Fastify's type for a validator factory, named after its Ajv default. */
type ValidatorFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>['buildValidator'];

/**
 * Schema compilers for every Fastify instance of the server. Routes validate with zod (the
 * Decision API's compiler, the UHP plugin's `uhpRequestValidator`) and serialise with
 * `JSON.stringify` or their own compiler, so Fastify's default Ajv and fast-json-stringify compilers
 * would only be loaded for nothing: about a twentieth of `arbiter serve`'s start-up
 * (bench/decision-startup.mjs).
 */
export const zodSchemaCompilers: NonNullable<FastifyServerOptions['schemaController']> = {
  compilersFactory: {
    // Fastify types this factory after its Ajv default; ours compiles zod schemas.
    buildValidator: (() => zodRequestValidator) as unknown as ValidatorFactory,
    buildSerializer: () => () => (data: unknown) => JSON.stringify(data),
  },
};
