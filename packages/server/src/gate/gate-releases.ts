/**
 * The operator's override of a hold: "serve this application's head anyway". A release names the application
 * and the head commit it lets through, so it never lets a later, different commit through by itself; it is
 * recorded in the server's audit log (action `hold.release`) with who made it and why. Releases are kept in memory: made on one server, they reach the
 * others over the bus (install-gate.ts relays them), and an operator makes them again after a restart of the whole
 * fleet of servers (docs/contracts.md, "Override").
 */
import type { AuditLog } from '../audit/index.js';

export interface GateRelease {
  readonly application: string;
  readonly commit: string;
  /** Who released it (the authenticated user, or `anonymous`). */
  readonly by: string;
  readonly reason: string;
  /** Epoch milliseconds. */
  readonly at: number;
  /** Where the release was asked from (the audit entry's remote address); absent for one heard on the bus. */
  readonly remoteAddress?: string;
}

/** Releases remembered at most (oldest dropped): each is one application at one commit. */
const MAX_RELEASES = 10_000;

export class GateReleases {
  readonly #releases = new Map<string, GateRelease>();
  readonly #listeners: Array<() => void> = [];

  constructor(private readonly audit: AuditLog) {}

  /** Records a release (made here: audited; heard from another server: `audited: false`). */
  release(release: GateRelease, options: { audited: boolean } = { audited: true }): boolean {
    const key = `${release.application}\u0000${release.commit}`;
    if (this.#releases.has(key)) return false;
    this.#releases.set(key, release);
    if (this.#releases.size > MAX_RELEASES)
      this.#releases.delete(this.#releases.keys().next().value as string);
    // The audit log's entry: who, what (the application at the commit), from where, and why.
    if (options.audited)
      this.audit.record({
        action: 'hold.release',
        target: `${release.application}@${release.commit}`,
        principal: release.by,
        remoteAddress: release.remoteAddress ?? '',
        outcome: 'success',
        detail: release.reason,
      });
    for (const listener of this.#listeners) listener();
    return true;
  }

  released(application: string, commit: string): boolean {
    return this.#releases.has(`${application}\u0000${commit}`);
  }

  list(): GateRelease[] {
    return [...this.#releases.values()];
  }

  onChange(listener: () => void): void {
    this.#listeners.push(listener);
  }
}
