import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { harnessRoutes } from './routes/harness-routes.js';
import { responseRoutes } from './routes/response-routes.js';
import { uhpStreamsPlugin } from './streaming/uhp-streams-plugin.js';
import { DEFAULT_TASK_LIMITS } from './uhp-plugin.js';
import { uhpTasksPlugin } from './uhp-tasks-plugin.js';

/** Starting an instance with `register` alone: what a missing service does to it. */
async function startWith(register: (app: ReturnType<typeof Fastify>) => void): Promise<unknown> {
  const app = Fastify({ logger: false });
  register(app);
  try {
    await app.ready();
    return null;
  } catch (error) {
    return error;
  } finally {
    await app.close();
  }
}

describe('UHP services as decorated plugins', () => {
  it('refuses to start a route family without the services it declares, naming the first one missing', async () => {
    const harnesses = await startWith((app) => app.register(harnessRoutes));
    expect(String(harnesses)).toMatch(/'uhpHarnesses' required by 'arbiter-uhp-harness-routes'/);
    const responses = await startWith((app) => app.register(responseRoutes));
    expect(String(responses)).toMatch(/'uhpStore' required by 'arbiter-uhp-response-routes'/);
  });

  it('starts the task services only after the storage, and the streams only after auth and tasks', async () => {
    const tasks = await startWith((app) => app.register(uhpTasksPlugin, { limits: DEFAULT_TASK_LIMITS }));
    expect(String(tasks)).toMatch(/arbiter-uhp-storage|'uhpDatabase' required/);
    const streams = await startWith((app) => app.register(uhpStreamsPlugin, {}));
    expect(String(streams)).toMatch(/arbiter-auth|'authenticator' required/);
  });
});
