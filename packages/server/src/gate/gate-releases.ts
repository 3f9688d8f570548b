/**
 * The operator's override of a hold: "serve this application's head anyway". A release names the application
 * and the head commit it lets through, so it never lets a later, different commit through by itself; it is
 * audited (GateAudit) with who made it and why. Releases are kept in memory: made on one server, they reach the
 * others over the bus (install-gate.ts relays them), and an operator makes them again after a restart of the whole
 * fleet of servers (docs/contracts.md, "Override").
 */
export interface GateRelease {
  readonly application: string;
  readonly commit: string;
  /** Who released it (the authenticated user, or `anonymous`). */
  readonly by: string;
  readonly reason: string;
  /** Epoch milliseconds. */
  readonly at: number;
}

/** Where releases are recorded for audit. Another module (server/src/audit/, AuditLog) plugs in here. */
export interface GateAudit {
  record(entry: {
    readonly action: 'contract-gate.release';
    readonly actor: string;
    readonly details: GateRelease;
  }): void;
}

/** Releases remembered at most (oldest dropped): each is one application at one commit. */
const MAX_RELEASES = 10_000;

export class GateReleases {
  readonly #releases = new Map<string, GateRelease>();
  readonly #listeners: Array<() => void> = [];

  constructor(private readonly audit: GateAudit) {}

  /** Records a release (made here: audited; heard from another server: `audited: false`). */
  release(release: GateRelease, options: { audited: boolean } = { audited: true }): boolean {
    const key = `${release.application}\u0000${release.commit}`;
    if (this.#releases.has(key)) return false;
    this.#releases.set(key, release);
    if (this.#releases.size > MAX_RELEASES)
      this.#releases.delete(this.#releases.keys().next().value as string);
    if (options.audited)
      this.audit.record({ action: 'contract-gate.release', actor: release.by, details: release });
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
