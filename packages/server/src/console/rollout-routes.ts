/**
 * Console API, rollouts side (docs/console.md):
 *   GET  /-/console/api/rollouts                 every rollout, newest first; `enabled: false` when rollouts are off
 *   POST /-/console/api/rollouts                 a plan ({applications, from, to?, waves?, bakeSeconds?, reason?})
 *                                                → 201, the rollout started (operators), as POST /-/rollouts
 *   GET  /-/console/api/rollouts/{id}            the rollout, its instances on A or B with their health, both
 *                                                sides' figures and the decision log
 *   POST /-/console/api/rollouts/{id}/{action}   {reason} → the rollout after pause, resume, promote, abort or
 *                                                rollback (operators)
 * An action is a console action like a bus refresh (CSRF header, JSON body, the server's own Host), then the
 * engine's own `act`, the one /-/rollouts calls; it is audited as `rollout.<action>` on `rollout <id>`, as there.
 */
import { ConfbusError, type ConsoleRolloutDetails, type ConsoleRollouts } from '@confbus/core';
import type { FastifyInstance } from 'fastify';
import { serverErrors } from '../errors.js';
import type { RolloutsFeature } from '../rollouts/index.js';
import { ACTIONS, reasonOf, rolloutTarget, startTarget } from '../rollouts/rollout-routes.js';
import { checkActionRequest } from './action-routes.js';
import { CONSOLE_API, type ConsoleContext } from './console-context.js';
import { viewOfRollout, viewOfRolloutDetails } from './rollout-view.js';

const PATH = `${CONSOLE_API}/rollouts`;

export function registerConsoleRolloutRoutes(
  app: FastifyInstance,
  context: ConsoleContext,
  feature: Pick<RolloutsFeature, 'engine' | 'start'> | undefined,
): void {
  const enabled = (): Pick<RolloutsFeature, 'engine' | 'start'> => {
    if (feature === undefined)
      throw new ConfbusError(
        serverErrors.CONFBUS_ROLLOUT_NOT_FOUND,
        'Rollouts are off (confbus.server.rollouts.enabled=false)',
      );
    return feature;
  };

  app.get<{ Reply: ConsoleRollouts }>(PATH, async () =>
    feature === undefined
      ? { enabled: false, rollouts: [] }
      : { enabled: true, rollouts: feature.engine.list().map(viewOfRollout) },
  );

  app.post<{ Reply: ConsoleRolloutDetails }>(
    PATH,
    {
      bodyLimit: 64 * 1024,
      config: { access: 'operator', audit: { action: 'rollout.start', target: startTarget } },
    },
    async (request, reply) => {
      checkActionRequest(request, context);
      const { engine, start } = enabled();
      const state = await start(request.body);
      return reply.code(201).send(viewOfRolloutDetails(engine, state));
    },
  );

  app.get<{ Params: { id: string }; Reply: ConsoleRolloutDetails }>(`${PATH}/:id`, async (request) => {
    const { engine } = enabled();
    return viewOfRolloutDetails(engine, engine.get(request.params.id));
  });

  // One route per action, so that each is audited under its own name (as /-/rollouts does).
  for (const action of ACTIONS)
    app.post<{ Params: { id: string }; Reply: ConsoleRolloutDetails }>(
      `${PATH}/:id/${action}`,
      {
        bodyLimit: 4 * 1024,
        config: { access: 'operator', audit: { action: `rollout.${action}`, target: rolloutTarget } },
      },
      async (request) => {
        checkActionRequest(request, context);
        const { engine } = enabled();
        const state = await engine.act(request.params.id, action, reasonOf(request.body));
        return viewOfRolloutDetails(engine, state);
      },
    );
}
