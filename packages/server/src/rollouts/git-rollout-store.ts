/**
 * The rollouts kept in the Git repository the server already serves from: one JSON file on a ref of its own
 * (confbus.server.rollouts.ref, default refs/confbus/rollouts) in the upstream. Every replica reads the same ref,
 * a restart reads it back, and a write is refused when another replica wrote first (compare-and-swap push): the
 * engine then re-reads and decides again. No new system to run, back up or secure; docs/rollouts.md says why.
 */
import { ConfbusError } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';
import type { StateRef } from '../environment/config-repository.js';
import { serverErrors } from '../errors.js';
import type { RolloutState } from './rollout-plan.js';
import type { RolloutStore } from './rollout-store.js';

/** The file's format version: a server that reads a newer one refuses it rather than misreading it. */
const FORMAT = 1;
/** Ended rollouts kept in the file (the ref's history keeps every one). */
const MAX_ENDED = 50;

interface StoredFile {
  readonly format: number;
  readonly rollouts: RolloutState[];
}

export class GitRolloutStore implements RolloutStore {
  /** The ref's commit last read or written: the next write expects it. */
  private head: string | undefined;
  private states = new Map<string, RolloutState>();

  constructor(private readonly ref: StateRef) {}

  async load(): Promise<RolloutState[]> {
    const read = await this.unavailableOn('read', () => this.ref.read());
    this.head = read?.commit;
    this.states = new Map();
    if (read === undefined) return [];
    let file: StoredFile;
    try {
      file = JSON.parse(read.content.toString('utf8')) as StoredFile;
    } catch (error) {
      throw unavailable(`the rollouts file at ${read.commit} is not JSON (${messageOf(error)})`);
    }
    if (file.format !== FORMAT || !Array.isArray(file.rollouts))
      throw unavailable(
        `the rollouts file at ${read.commit} has format ${String(file.format)}; this server reads ${FORMAT}`,
      );
    for (const state of file.rollouts) this.states.set(state.id, state);
    return [...this.states.values()];
  }

  async save(state: RolloutState): Promise<void> {
    const next = new Map(this.states).set(state.id, state);
    const kept = pruned([...next.values()]);
    const content = Buffer.from(
      `${JSON.stringify({ format: FORMAT, rollouts: kept } satisfies StoredFile, null, 1)}\n`,
    );
    const last = state.decisions.at(-1);
    const message = `rollout ${state.id}: ${last ? `${last.action} (${last.by}): ${last.reason}` : state.status}`;
    this.head = await this.unavailableOn('write', () => this.ref.write(content, this.head, message));
    this.states = new Map(kept.map((kept) => [kept.id, kept]));
  }

  private async unavailableOn<T>(what: 'read' | 'write', work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      throw unavailable(
        what === 'write'
          ? `could not write the rollouts ref (another replica wrote first, or the upstream refused: ${messageOf(error)}); nothing was changed, try again`
          : `could not read the rollouts ref: ${messageOf(error)}`,
      );
    }
  }
}

/** Every rollout still deciding commits, and the newest ended ones. */
function pruned(states: RolloutState[]): RolloutState[] {
  const ended = states.filter((s) => s.status === 'completed').sort((a, b) => b.createdAt - a.createdAt);
  const drop = new Set(ended.slice(MAX_ENDED).map((s) => s.id));
  return states.filter((s) => !drop.has(s.id)).sort((a, b) => a.createdAt - b.createdAt);
}

function unavailable(message: string): ConfbusError {
  return new ConfbusError(serverErrors.CONFBUS_ROLLOUT_UNAVAILABLE, `Rollout store: ${message}`);
}
