/**
 * Console API, contract gate side:
 *   GET  /-/console/api/holds           the holds at the default label's head (each violation with file and line)
 *                                       and the releases made; `enabled: false` without a gate
 *   POST /-/console/api/holds/release   {application, commit, reason} → the hold released (operators; audited)
 * A release is an action like a bus refresh: the CSRF header, a JSON body and the server's own Host are required.
 */
import { ConfbusError, type ConsoleHold, type ConsoleHoldRelease, type ConsoleHolds } from '@confbus/core';
import type { FastifyInstance } from 'fastify';
import { serverErrors } from '../errors.js';
import type { Hold } from '../gate/contract-gate.js';
import type { GateRelease } from '../gate/gate-releases.js';
import { releaseFieldsOf } from '../gate/gate-routes.js';
import type { HoldOperations } from '../gate/hold-operations.js';
import { checkActionRequest } from './action-routes.js';
import { CONSOLE_API, type ConsoleContext } from './console-context.js';

export function registerHoldRoutes(
  app: FastifyInstance,
  context: ConsoleContext,
  holds: HoldOperations | undefined,
): void {
  app.get<{ Reply: ConsoleHolds }>(`${CONSOLE_API}/holds`, async () => {
    if (holds === undefined) return { enabled: false, holds: [], releases: [] };
    const listed = await holds.list();
    return {
      enabled: true,
      holds: listed.holds.map(viewOfHold),
      releases: listed.releases.map(viewOfRelease),
    };
  });

  app.post<{ Reply: { released: ConsoleHoldRelease } }>(
    `${CONSOLE_API}/holds/release`,
    { config: { access: 'operator' } },
    async (request) => {
      checkActionRequest(request, context);
      const fields = releaseFieldsOf(request);
      if (holds === undefined)
        throw new ConfbusError(
          serverErrors.CONFBUS_HOLD_NOT_FOUND,
          `${fields.application} is not held back: the contract gate is off`,
        );
      const by = context.authEnabled ? (context.principalOf(request)?.name ?? 'anonymous') : 'anonymous';
      const released = await holds.release({ ...fields, by, remoteAddress: request.ip });
      return { released: viewOfRelease(released) };
    },
  );
}

function viewOfHold(hold: Hold): ConsoleHold {
  return {
    application: hold.application,
    heldHead: hold.heldHead,
    servedCommit: hold.servedCommit ?? null,
    violations: hold.violations.map((violation) => ({
      profiles: [...violation.profiles],
      key: violation.key,
      rule: violation.rule,
      message: violation.message,
      contract: violation.contract,
      ...(violation.file === undefined ? {} : { file: violation.file }),
      ...(violation.line === undefined ? {} : { line: violation.line }),
    })),
    errors: [...hold.errors],
  };
}

function viewOfRelease(release: GateRelease): ConsoleHoldRelease {
  const { application, commit, by, reason, at } = release;
  return { application, commit, by, reason, at: new Date(at).toISOString() };
}
