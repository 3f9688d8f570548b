/**
 * The operator console's JSON API, contract gate side (docs/console.md): the holds the Holds view lists and the
 * release it posts. Types only, as console-api.ts.
 */
/** One value that breaks a contract, as the contract gate reports it (never the value itself). */
export interface ConsoleHoldViolation {
  profiles: string[];
  /** The Spring key at fault; '' for the configuration as a whole. */
  key: string;
  /** The JSON Schema keyword that failed. */
  rule: string;
  message: string;
  /** The contract broken: a repository path, or `published by <instance>`. */
  contract: string;
  /** Where the value was written; absent for a key missing altogether. */
  file?: string;
  line?: number;
}

/** An application the contract gate holds back at its last valid commit. */
export interface ConsoleHold {
  application: string;
  /** The head that breaks a contract (not served to it). */
  heldHead: string;
  /** The commit served instead; null when none within the history walked passed (the head is served). */
  servedCommit: string | null;
  violations: ConsoleHoldViolation[];
  /** What could not be judged (a contract that does not read, an environment that does not build). */
  errors: string[];
}

/** An operator's release of a hold: that application is served that head anyway. */
export interface ConsoleHoldRelease {
  application: string;
  commit: string;
  by: string;
  reason: string;
  at: string;
}

/** `GET /holds`: the gate's holds at the default label's head, and the releases made. */
export interface ConsoleHolds {
  /** False when the gate is off (confbus.contracts.gate.enabled=false, or a repository it cannot judge). */
  enabled: boolean;
  holds: ConsoleHold[];
  releases: ConsoleHoldRelease[];
}

/** `POST /holds/release`'s body: the hold (application at its held head) and why. */
export interface ConsoleReleaseRequest {
  application: string;
  commit: string;
  reason: string;
}
