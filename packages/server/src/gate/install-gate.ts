/**
 * The contract gate feature (docs/contracts.md, "The gate"): installed on the default repository when it can
 * refresh and walk its history (a Git mirror), unless confbus.contracts.gate.enabled=false. It puts the gate in
 * the default repository's serving path (EnvironmentService.serveCommitsBy), judges every commit a check fetches,
 * hears published contracts and other servers' releases on the bus, and shows holds in health and metrics.
 */
import { randomUUID } from 'node:crypto';
import type { BusNode } from '@confbus/bus';
import {
  type BusEvent,
  type Logger,
  type UnknownBusEvent,
  PRESENCE_DESTINATION,
  createPresenceRequest,
  readPresenceAnnouncement,
} from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import type { ComponentHealth } from '../health/health-status.js';
import type { ServedRepository } from '../repositories/served-repository.js';
import { LruCache } from '../support/lru-cache.js';
import { CommitVerdicts } from './commit-verdicts.js';
import { ContractGate } from './contract-gate.js';
import type { AuditLog } from '../audit/index.js';
import { type GateRelease, GateReleases } from './gate-releases.js';
import { registerGateRoutes } from './gate-routes.js';
import { HoldOperations } from './hold-operations.js';
import type { GateSettings } from './gate-settings.js';
import { PublishedContracts } from './published-contracts.js';

export interface GateInstall {
  readonly settings: GateSettings;
  /** The default repository; undefined for a uri template (no gate then). */
  readonly repository: ServedRepository | undefined;
  readonly registry: Registry;
  readonly logger: Logger;
  /** Where releases are audited (the server's audit log; noAuditLog when it is off). */
  readonly audit: AuditLog;
  /** Who asks (recorded with a release). */
  readonly principalOf: (request: FastifyRequest) => string;
  readonly now?: () => number;
}

/** A release relayed to the other servers on the bus (nobody acks it: addressed to no service id). */
export const GATE_RELEASE_EVENT_TYPE = 'ConfbusGateReleaseRemoteApplicationEvent';

export interface GateFeature {
  readonly gate: ContractGate;
  /** The verdicts the gate reads (what it keeps of each commit: tests). */
  readonly verdicts: CommitVerdicts;
  readonly published: PublishedContracts;
  readonly releases: GateReleases;
  /** Listing and releasing holds (the actuator routes and the console's). */
  readonly holds: HoldOperations;
  /** Health's `contracts` component: UP, with the holds as details. */
  health(): ComponentHealth;
  /** Every bus event of a type the server does not handle itself: presence (published contracts), releases. */
  busEvent(event: BusEvent): void;
  /** The server joined the bus: ask every node to announce itself (and its contract) again. */
  busStarted(node: BusNode): void;
}

export function installGate(app: FastifyInstance, install: GateInstall): GateFeature | undefined {
  const { repository, logger: parent } = install;
  const files = repository?.mirror;
  const refresh = files?.refresh;
  const firstParent = files?.firstParent ? firstParents(files.firstParent.bind(files)) : undefined;
  if (
    !install.settings.enabled ||
    repository === undefined ||
    refresh === undefined ||
    firstParent === undefined
  )
    return undefined;
  const logger = parent.child({ component: 'contract-gate' });
  const now = install.now ?? Date.now;
  const { audit } = install;
  const published = new PublishedContracts();
  const releases = new GateReleases(audit);
  const verdicts = new CommitVerdicts({
    repository: files as NonNullable<typeof files>,
    environments: repository.environments,
    published,
    firstParent,
  });
  const gate = new ContractGate({
    verdicts,
    firstParent,
    maxHistory: install.settings.maxHistory,
    releases,
    logger,
    forgetCommit: (commit) => void repository.environments.forgetCommit(commit),
  });
  published.onChange(() => gate.invalidate());
  repository.environments.serveCommitsBy(gate);
  // A check that moved the label (a poll, a request with refresh-rate 0, a version hint): judged at once, so
  // holds show without a webhook and the first client after the push finds the verdict made.
  refresh.onChecked((changed) => {
    if (!changed) return;
    refresh
      .resolveFetched(null)
      .then((head) => gate.judge(head))
      .catch((error: unknown) =>
        logger.warn({ reason: messageOf(error) }, 'Contract gate: could not judge the head'),
      );
  });
  let node: BusNode | undefined;
  const holds = new HoldOperations({
    gate,
    releases,
    now,
    head: () => refresh.resolveFetched(null),
    relayRelease(release) {
      node
        ?.publish(releaseEvent(node.busId, release, now()))
        .catch((error: unknown) =>
          logger.warn({ reason: messageOf(error) }, 'Contract gate: could not relay a release on the bus'),
        );
    },
  });
  registerGateRoutes(app, { published, holds, principalOf: install.principalOf });
  registerGateMetrics(install.registry, gate);
  return {
    gate,
    verdicts,
    published,
    releases,
    holds,
    health: () => ({
      status: 'UP',
      details: {
        held: gate.holds().map((hold) => ({
          application: hold.application,
          heldHead: hold.heldHead,
          servedCommit: hold.servedCommit ?? null,
          violations: hold.violations.length,
        })),
      },
    }),
    busEvent(event) {
      const announcement = readPresenceAnnouncement(event);
      if (announcement !== undefined) {
        if (announcement.leaving) published.withdraw(announcement.service);
        else if (announcement.contract !== undefined)
          published.publish({
            application: announcement.application,
            instance: announcement.service,
            schema: announcement.contract,
          });
        return;
      }
      const release = readRelease(event);
      if (release !== undefined) releases.release(release, { audited: false });
    },
    busStarted(joined) {
      node = joined;
      joined
        .publish(createPresenceRequest(joined.busId))
        .catch((error: unknown) =>
          logger.warn({ reason: messageOf(error) }, 'Contract gate: could not ask for published contracts'),
        );
    },
  };
}

/**
 * A commit's first parent, asked once per commit however many verdicts want it at once (a push judges hundreds
 * of applications, each of which asks): the mirror's history spawns a git process per commit it does not know.
 */
function firstParents(read: (commit: string) => Promise<string | undefined>) {
  const known = new LruCache<string, Promise<string | undefined>>(4096);
  return (commit: string): Promise<string | undefined> => {
    let parent = known.get(commit);
    if (parent === undefined) {
      parent = read(commit);
      known.set(commit, parent);
      parent.catch(() => known.delete(commit));
    }
    return parent;
  };
}

function registerGateMetrics(registry: Registry, gate: ContractGate): void {
  new Gauge({
    name: 'confbus_contract_held_applications',
    help: 'Applications the contract gate holds back at their last valid commit (a pushed commit breaks a contract)',
    registers: [registry],
    collect() {
      this.set(gate.holds().length);
    },
  });
}

function releaseEvent(origin: string, release: GateRelease, now: number): UnknownBusEvent {
  return {
    type: GATE_RELEASE_EVENT_TYPE,
    timestamp: now,
    originService: origin,
    destinationService: PRESENCE_DESTINATION,
    id: randomUUID(),
    extra: { ...release },
  };
}

function readRelease(event: BusEvent): GateRelease | undefined {
  if (event.type !== GATE_RELEASE_EVENT_TYPE || !('extra' in event)) return undefined;
  const { application, commit, by, reason, at } = event.extra;
  if (typeof application !== 'string' || typeof commit !== 'string' || !/^[0-9a-f]{40}$/.test(commit))
    return undefined;
  return {
    application: application.slice(0, 200),
    commit,
    by: typeof by === 'string' ? by.slice(0, 200) : 'unknown',
    reason: typeof reason === 'string' ? reason.slice(0, 500) : '',
    at: typeof at === 'number' ? at : event.timestamp,
  };
}
