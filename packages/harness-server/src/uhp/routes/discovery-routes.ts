import { type Discovery, discoverySchema, UHP_VERSION } from '@arbiter/uhp/wire';
import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { errorAnswers, PUBLIC } from './uhp-route-schemas.js';

export const SUPPORTED_VERSIONS = [UHP_VERSION] as const;

const DISCOVERY: Discovery = {
  object: 'uhp.discovery',
  protocol: 'uhp',
  versions: [...SUPPORTED_VERSIONS],
  default_version: UHP_VERSION,
  conformance_class: 'full',
  capabilities: {
    streaming: true,
    sessions: true,
    cancellation: true,
    files_input: true,
    files_output: true,
    session_listing: true,
    harness_management: true,
    session_sharing: true,
    idempotency: true,
  },
  implementation: { name: 'arbiter', version: '0.1.0' },
};

/** `GET /v1/uhp`: public, identical for every caller. */
export const discoveryRoutes = fastifyPlugin(
  async (app: FastifyInstance) => {
    app.get(
      '/v1/uhp',
      {
        schema: {
          operationId: 'uhpDiscovery',
          summary: 'Discovery: versions, conformance class and capabilities (no credential)',
          tags: ['uhp: discovery'],
          security: PUBLIC,
          response: {
            200: discoverySchema.describe('The discovery document, the same for every caller'),
            ...errorAnswers([], { authenticated: false }),
          },
        },
      },
      async () => DISCOVERY,
    );
  },
  { name: 'arbiter-uhp-discovery-routes', fastify: '5.x' },
);
