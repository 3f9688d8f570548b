import type { Environment } from '@confbus/core';
import type { EnvironmentFetcher } from '../../src/fetch/environment-source.js';

/** Stands in for the HTTP EnvironmentSource: serves the environment a test sets, or fails as told. */
export class FakeEnvironmentSource implements EnvironmentFetcher {
  fetches = 0;
  #env: Environment;
  #failure: Error | undefined;
  #gate: { gate: Promise<void>; arrived: () => void } | undefined;

  constructor(properties: Record<string, string> = {}, version = 'v1') {
    this.#env = environmentOf(properties, version);
  }

  /** What the next fetches answer. */
  serve(properties: Record<string, string>, version: string): void {
    this.#env = environmentOf(properties, version);
    this.#failure = undefined;
  }

  failWith(message: string): void {
    this.#failure = new Error(message);
  }

  /** Holds the next fetch until `release()`; `reached` resolves once that fetch is waiting. */
  holdNextFetch(): { release: () => void; reached: Promise<void> } {
    let release!: () => void;
    let arrived!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const reached = new Promise<void>((resolve) => (arrived = resolve));
    this.#gate = { gate, arrived };
    return { release, reached };
  }

  async fetch(): Promise<Environment> {
    this.fetches++;
    // What the server had when the request arrived, even if the answer is held.
    const env = structuredClone(this.#env);
    const failure = this.#failure;
    const gate = this.#gate;
    this.#gate = undefined;
    if (gate) {
      gate.arrived();
      await gate.gate;
    }
    if (failure) throw failure;
    return env;
  }
}

export function environmentOf(properties: Record<string, string>, version: string): Environment {
  return {
    name: 'orders',
    profiles: ['default'],
    label: 'main',
    version,
    state: null,
    propertySources: [{ name: 'repo/orders.yml', source: new Map(Object.entries(properties)) }],
  };
}
