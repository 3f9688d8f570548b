/**
 * Console API, rollouts side (docs/console.md):
 *   GET  /-/console/api/rollouts                 every rollout, newest first; `enabled: false` when rollouts are off
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
import type { RolloutEngine } from '../rollouts/rollout-engine.js';
import { ACTIONS, reasonOf, rolloutTarget } from '../rollouts/rollout-routes.js';
import { checkActionRequest } from './action-routes.js';
import { CONSOLE_API, type ConsoleContext } from './console-context.js';
import { viewOfRollout, viewOfRolloutDetails } from './rollout-view.js';

const PATH = `${CONSOLE_API}/rollouts`;

export function registerConsoleRolloutRoutes(
  app: FastifyInstance,
  context: ConsoleContext,
  engine: RolloutEngine | undefined,
): void {
  const enabled = (): RolloutEngine => {
    if (engine === undefined)
      throw new ConfbusError(
        serverErrors.CONFBUS_ROLLOUT_NOT_FOUND,
        'Rollouts are off (confbus.server.rollouts.enabled=false)',
      );
    return engine;
  };

  app.get<{ Reply: ConsoleRollouts }>(PATH, async () =>
    engine === undefined
      ? { enabled: false, rollouts: [] }
      : { enabled: true, rollouts: engine.list().map(viewOfRollout) },
  );

  app.get<{ Params: { id: string }; Reply: ConsoleRolloutDetails }>(`${PATH}/:id`, async (request) => {
    const rollouts = enabled();
    return viewOfRolloutDetails(rollouts, rollouts.get(request.params.id));
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
        const rollouts = enabled();
        const state = await rollouts.act(request.params.id, action, reasonOf(request.body));
        return viewOfRolloutDetails(rollouts, state);
      },
    );
}
