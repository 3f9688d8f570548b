/**
 * The rollouts API (docs/rollouts.md), beside the environment endpoints under the prefix:
 *   GET  /-/rollouts                                   → every rollout, newest first
 *   POST /-/rollouts {application(s), from, to?, label?, waves?, bakeSeconds?}   → 201, the rollout started
 *   GET  /-/rollouts/{id}                              → the rollout, its instances (on which commit, health)
 *   POST /-/rollouts/{id}/pause|resume|promote|abort|rollback {reason?}           → the rollout after it
 *   POST /-/rollouts/reports {application, profiles?, version, status, errors?, rejected?}  → what to serve
 * The reporting instance is named by its X-Confbus-Instance-Id header (or `instance` in the body).
 * Access (security/install-security.ts): reading rollouts needs viewer, starting and moving them operator; a
 * report needs only valid credentials whose applications include the one reported on — the client's own
 * credentials, the same check its fetches pass. Each start and operator action leaves one audit entry (the audit
 * hook records it with its outcome, so a refused or conflicting action is audited too).
 */
import { ConfbusError, instanceIdentityOf, parseInstanceTags } from '@confbus/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuditedRequest } from '../audit/install-audit.js';
import type { ReadTarget } from '../security/principal.js';
import { serverErrors } from '../errors.js';
import type { InstanceReport } from './instance-registry.js';
import type { RolloutEngine } from './rollout-engine.js';
import {
  OPERATOR_ACTIONS,
  type OperatorAction,
  type RolloutPlan,
  type RolloutState,
  type WaveSpec,
  parseRolloutPlan,
} from './rollout-plan.js';

export const ROLLOUTS_PATH = '/-/rollouts';
export const ACTIONS = Object.keys(OPERATOR_ACTIONS) as OperatorAction[];
const COMMIT = /^[0-9a-f]{40}([0-9a-f]{24})?$/;

export interface RolloutRoutesOptions {
  readonly engine: RolloutEngine;
  readonly prefix: string;
  readonly defaults: { readonly waves: readonly WaveSpec[]; readonly bakeMs: number };
  /** The label's head, for a plan that names no `to` commit. */
  readonly headOf: (application: string, label: string | null) => Promise<string>;
  /** Refuses (403) a principal that may not read the target's applications: the environment routes' check. */
  readonly requireRead: (request: FastifyRequest, target: ReadTarget) => void;
}

const OPERATOR = 'operator' as const;
const VIEWER = 'viewer' as const;

/** The rollout an action names, for its audit entry (the console's actions are audited with it too). */
export const rolloutTarget = (request: AuditedRequest): string | undefined =>
  `rollout ${(request.params as { id?: string }).id ?? ''}`;

/** The applications a start names, for its audit entry (the body is only read, never echoed). */
export const startTarget = (request: AuditedRequest): string | undefined => {
  const body = request.body as { application?: unknown; applications?: unknown } | undefined;
  const names = typeof body?.application === 'string' ? [body.application] : body?.applications;
  return Array.isArray(names)
    ? `rollout of ${names.filter((n) => typeof n === 'string').join(',')}`
    : undefined;
};

export function registerRolloutRoutes(app: FastifyInstance, options: RolloutRoutesOptions): void {
  const { engine, prefix } = options;
  const base = `${prefix}${ROLLOUTS_PATH}`;
  app.get(base, { config: { access: VIEWER } }, async () => ({
    rollouts: engine.list().map((state) => view(engine, state, false)),
  }));
  app.post(
    base,
    {
      bodyLimit: 64 * 1024,
      config: { access: OPERATOR, audit: { action: 'rollout.start', target: startTarget } },
    },
    async (request, reply) => {
      const state = await startRollout(request.body, options);
      return reply.code(201).send(view(engine, state, true));
    },
  );
  // A client reports with its own credentials: any valid ones, then the application check of its fetches.
  app.post(
    `${base}/reports`,
    { bodyLimit: 8 * 1024, config: { access: 'authenticated' } },
    async (request) => {
      const report = reportOf(request);
      options.requireRead(request, {
        applications: [report.application],
        profiles: report.profiles,
        label: null,
      });
      return engine.report(report);
    },
  );
  app.get<{ Params: { id: string } }>(`${base}/:id`, { config: { access: VIEWER } }, async (request) =>
    view(engine, engine.get(request.params.id), true),
  );
  // One route per action, so that each is audited under its own name.
  for (const action of ACTIONS)
    app.post<{ Params: { id: string } }>(
      `${base}/:id/${action}`,
      {
        bodyLimit: 4 * 1024,
        config: { access: OPERATOR, audit: { action: `rollout.${action}`, target: rolloutTarget } },
      },
      async (request) =>
        view(engine, await engine.act(request.params.id, action, reasonOf(request.body)), true),
    );
  app.post<{ Params: { id: string; action: string } }>(
    `${base}/:id/:action`,
    { bodyLimit: 4 * 1024, config: { access: OPERATOR } },
    async (request) => {
      throw new ConfbusError(
        serverErrors.CONFBUS_ROLLOUT_BAD_REQUEST,
        `No rollout action '${request.params.action}': use ${ACTIONS.join(', ')}`,
      );
    },
  );
}

/** Starts a rollout from a plan's JSON as POST /-/rollouts reads it (the console's start reads it the same way). */
export async function startRollout(
  body: unknown,
  options: Pick<RolloutRoutesOptions, 'engine' | 'defaults' | 'headOf'>,
): Promise<RolloutState> {
  const plan = await planOf(body, options);
  return options.engine.start(plan, reasonOf(body) ?? 'started by an operator');
}

async function planOf(
  body: unknown,
  options: Pick<RolloutRoutesOptions, 'defaults' | 'headOf'>,
): Promise<RolloutPlan> {
  const input = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  if (
    input.to === undefined &&
    (typeof input.application === 'string' || Array.isArray(input.applications))
  ) {
    const first =
      typeof input.application === 'string' ? input.application : (input.applications as unknown[])[0];
    const label = typeof input.label === 'string' ? input.label : null;
    if (typeof first === 'string')
      return parseRolloutPlan({ ...input, to: await options.headOf(first, label) }, options.defaults);
  }
  return parseRolloutPlan(body, options.defaults);
}

export function reasonOf(body: unknown): string | undefined {
  const reason = (body as { reason?: unknown } | undefined)?.reason;
  return typeof reason === 'string' && reason.trim() !== '' ? reason.slice(0, 500) : undefined;
}

function reportOf(request: FastifyRequest): InstanceReport {
  const body = request.body;
  const bad = (message: string) => new ConfbusError(serverErrors.CONFBUS_ROLLOUT_BAD_REQUEST, message);
  if (typeof body !== 'object' || body === null) throw bad('A report is a JSON object');
  const input = body as Record<string, unknown>;
  const identity =
    instanceIdentityOf(request.headers) ??
    (typeof input.instance === 'string' && input.instance.trim() !== ''
      ? {
          id: input.instance.trim().slice(0, 512),
          tags: parseInstanceTags(typeof input.tags === 'string' ? input.tags : undefined),
        }
      : undefined);
  if (identity === undefined)
    throw bad('A report names its instance: header X-Confbus-Instance-Id, or "instance"');
  if (typeof input.application !== 'string' || input.application === '')
    throw bad("'application' (the name the instance fetches) is required");
  const version = input.version ?? null;
  if (version !== null && (typeof version !== 'string' || !COMMIT.test(version)))
    throw bad("'version' must be the commit the instance serves (40 or 64 hex digits), or null");
  if (typeof input.status !== 'string' || !/^[A-Z_]{1,32}$/.test(input.status))
    throw bad("'status' must be a health status such as UP or DOWN");
  const errors = input.errors === undefined ? 0 : Number(input.errors);
  if (!Number.isSafeInteger(errors) || errors < 0) throw bad("'errors' must be a count (0 or more)");
  const profiles = Array.isArray(input.profiles)
    ? input.profiles.filter((p): p is string => typeof p === 'string')
    : [];
  return {
    instance: identity.id,
    tags: identity.tags,
    application: input.application,
    profiles,
    version,
    status: input.status,
    errors,
    rejected: input.rejected === true,
  };
}

/** A rollout as the API and the console show it; `detailed` adds its instances. */
function view(engine: RolloutEngine, state: RolloutState, detailed: boolean) {
  if (!detailed) return state;
  return {
    ...state,
    instances: engine.instancesOf(state).map(({ entry, onNew, health }) => ({
      id: entry.id,
      tags: entry.tags,
      profiles: entry.profiles,
      side: onNew ? 'to' : 'from',
      served: [...entry.served.keys()],
      lastSeenAt: entry.lastSeenAt,
      health: health ?? null,
    })),
  };
}
