import { createInProcessTransport, DecisionClient } from '@arbiter/decision';
import type { ModelCatalog } from '@arbiter/engine/catalog';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../errors/api-error.js';

export interface GateCheckRoutesOptions {
  readonly catalog: ModelCatalog;
}

const checkBodySchema = z.looseObject({ model: z.string().min(1).optional() });

/**
 * `POST /v1/gate/check`: one proposed tool call judged by the tool gate exactly as a host hook
 * would judge it (the pack's six questions, the composition, the verdict record), answered by the
 * catalog's model in this process. It records nothing: it is a place to try calls (the console's
 * gate page), not a hook. The tool-gate pack loads on the first check, so start-up pays nothing.
 * Registered inside the decision routes, whose hooks authenticate the caller and apply the
 * per-principal rate limit.
 */
export async function gateCheckRoutes(app: FastifyInstance, options: GateCheckRoutesOptions): Promise<void> {
  app.post('/v1/gate/check', { schema: { hide: true } }, async (request) => {
    const body = checkBodySchema.safeParse(request.body);
    if (!body.success) {
      const param = body.error.issues[0]?.path.join('.') || null;
      throw ApiError.of(
        'invalid_request',
        param === 'model'
          ? 'model: must be the name of a catalog model'
          : 'the body must be a tool-gate state object: {tool, arguments, grant?, task?, cwd?, model?}',
        { param },
      );
    }
    const { model, ...state } = body.data;
    const { pin, engine } = options.catalog.resolve(model);
    const [{ createToolGate }, { toolGateStateSchema }] = await Promise.all([
      import('@arbiter/tool-gate'),
      import('@arbiter/tool-gate/contract'),
    ]);
    const parsed = toolGateStateSchema.safeParse(state);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const param = issue?.path.join('.') || null;
      throw ApiError.of('invalid_request', `${param ?? 'state'}: ${issue?.message ?? 'invalid'}`, { param });
    }
    // Nothing leaves the process, so the state is not redacted (the analysers must see a secret
    // in a command to recognise its exfiltration), as in the harness's own gate client.
    const client = new DecisionClient({
      transport: createInProcessTransport({ engine, model: pin }),
      redact: false,
    });
    return createToolGate({ client }).check(parsed.data);
  });
}
