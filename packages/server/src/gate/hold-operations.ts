/**
 * What operators do with holds — list them, release one — the same over the gate's actuator routes and the
 * console's. Both judge the default label's head first (a cache hit once judged), so they never act on holds
 * older than the head; a release is audited (GateReleases) and relayed to the other servers.
 */
import { ConfbusError } from '@confbus/core';
import type { ResolvedRevision } from '../environment/config-repository.js';
import { serverErrors } from '../errors.js';
import type { ContractGate, Hold } from './contract-gate.js';
import type { GateRelease, GateReleases } from './gate-releases.js';

export interface HoldOperationsOptions {
  readonly gate: ContractGate;
  readonly releases: GateReleases;
  /** The default label's head as fetched last. */
  readonly head: () => Promise<ResolvedRevision>;
  readonly now: () => number;
  /** Tells the other servers of a release made here (the bus), when there is one. */
  readonly relayRelease: (release: GateRelease) => void;
}

/** A release asked for: the hold (application at its held head), why, and who asks from where. */
export interface ReleaseAsked {
  readonly application: string;
  readonly commit: string;
  readonly reason: string;
  readonly by: string;
  readonly remoteAddress: string;
}

export class HoldOperations {
  constructor(private readonly options: HoldOperationsOptions) {}

  async list(): Promise<{ holds: Hold[]; releases: GateRelease[] }> {
    const { gate, releases, head } = this.options;
    await gate.judge(await head());
    return { holds: gate.holds(), releases: releases.list() };
  }

  /** Throws CONFBUS_HOLD_NOT_FOUND when the application is not held at that commit. */
  async release(asked: ReleaseAsked): Promise<GateRelease> {
    const { gate, releases, head, now, relayRelease } = this.options;
    await gate.judge(await head());
    const { application, commit } = asked;
    const hold = gate.holds().find((h) => h.application === application && h.heldHead === commit);
    if (hold === undefined)
      throw new ConfbusError(
        serverErrors.CONFBUS_HOLD_NOT_FOUND,
        `${application} is not held back at ${commit} (GET /actuator/contract-gate lists the holds)`,
      );
    const release: GateRelease = { ...asked, at: now() };
    releases.release(release);
    relayRelease(release);
    return release;
  }
}
