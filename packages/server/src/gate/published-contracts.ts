/**
 * The contracts running services published (their bound schemas, `@confbus/contracts/published`), as this server
 * heard them: on the bus with each presence announcement (every server binds every message, so every replica
 * hears the same), or by `POST /contracts/published`. Nothing is stored: after a restart the server's presence
 * request makes every client announce itself, and its contract, again. An instance that leaves takes its contract
 * with it; several instances of one version publishing the same schema count once.
 */
import { createHash } from 'node:crypto';
import { type Contract, type JsonSchema } from '@confbus/contracts';

export interface PublishedEntry {
  readonly application: string;
  readonly instance: string;
  readonly schema: JsonSchema;
}

/** Bounds: a misbehaving node must not grow the table (the fleet registry has the same kind of bound). */
export const MAX_PUBLISHED_INSTANCES = 10_000;
/** Largest schema accepted, in bytes of its JSON text. */
export const MAX_PUBLISHED_SCHEMA_BYTES = 256 * 1024;

interface Held {
  readonly application: string;
  readonly hash: string;
  readonly schema: JsonSchema;
}

export class PublishedContracts {
  readonly #byInstance = new Map<string, Held>();
  /** Instances per application, and each application's key (keyOf) until its contracts change. */
  readonly #byApplication = new Map<string, Set<string>>();
  readonly #keys = new Map<string, string>();
  readonly #listeners: Array<(application: string) => void> = [];

  /** Records (or replaces) an instance's contract; returns false when nothing changed. */
  publish(entry: PublishedEntry): boolean {
    const text = JSON.stringify(entry.schema);
    if (Buffer.byteLength(text) > MAX_PUBLISHED_SCHEMA_BYTES) return false;
    const hash = createHash('sha256').update(text).digest('base64url');
    const known = this.#byInstance.get(entry.instance);
    if (known?.hash === hash && known.application === entry.application) return false;
    if (known === undefined && this.#byInstance.size >= MAX_PUBLISHED_INSTANCES) return false;
    if (known !== undefined) this.#forget(entry.instance, known.application);
    this.#byInstance.set(entry.instance, { application: entry.application, hash, schema: entry.schema });
    const instances = this.#byApplication.get(entry.application) ?? new Set<string>();
    instances.add(entry.instance);
    this.#byApplication.set(entry.application, instances);
    if (known !== undefined && known.application !== entry.application) this.#changed(known.application);
    this.#changed(entry.application);
    return true;
  }

  /** An instance left (or was forgotten): its contract no longer holds. */
  withdraw(instance: string): void {
    const known = this.#byInstance.get(instance);
    if (known === undefined) return;
    this.#forget(instance, known.application);
    this.#changed(known.application);
  }

  #forget(instance: string, application: string): void {
    this.#byInstance.delete(instance);
    const instances = this.#byApplication.get(application);
    instances?.delete(instance);
    if (instances?.size === 0) this.#byApplication.delete(application);
  }

  /** The distinct contracts published for an application, named after the first instance that sent each. */
  contractsOf(application: string): Contract[] {
    const seen = new Map<string, Contract>();
    const instances = [...(this.#byApplication.get(application) ?? [])].sort();
    for (const instance of instances) {
      const held = this.#byInstance.get(instance) as Held;
      if (!seen.has(held.hash))
        seen.set(held.hash, { application, name: `published by ${instance}`, schema: held.schema });
    }
    return [...seen.values()];
  }

  /**
   * What the published contracts of an application are, as one key (the hashes, sorted): a verdict judged under
   * one key is judged again under another. The same set on every replica gives the same key.
   */
  keyOf(application: string): string {
    let key = this.#keys.get(application);
    if (key === undefined) {
      const hashes = new Set<string>();
      for (const instance of this.#byApplication.get(application) ?? [])
        hashes.add((this.#byInstance.get(instance) as Held).hash);
      key = [...hashes].sort().join(',');
      this.#keys.set(application, key);
    }
    return key;
  }

  /** Applications with a published contract. */
  applications(): string[] {
    return [...this.#byApplication.keys()].sort();
  }

  /** Told the application whose published contracts changed. */
  onChange(listener: (application: string) => void): void {
    this.#listeners.push(listener);
  }

  #changed(application: string): void {
    this.#keys.delete(application);
    for (const listener of this.#listeners) listener(application);
  }
}
