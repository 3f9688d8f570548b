/**
 * What the application says about its own health: indicators it registers (a database ping, a queue's depth)
 * and a counter of errors it feeds (an HTTP framework's error hook). `/actuator/health` shows the indicators as
 * components, and a staged rollout's reports carry both, so that the server can compare canaries with the rest.
 */

/** Spring Boot's statuses, most severe first; an indicator may answer any string. */
export type HealthStatus = 'DOWN' | 'OUT_OF_SERVICE' | 'UP' | 'UNKNOWN';

export interface HealthComponent {
  readonly status: HealthStatus | string;
  readonly details?: Readonly<Record<string, unknown>>;
}

/** Called on every health read and report: keep it cheap (read a flag a background check keeps up to date). */
export type HealthIndicator = () => HealthStatus | HealthComponent;

/** Boot's default order: the most severe member decides. */
const SEVERITY: readonly string[] = ['DOWN', 'OUT_OF_SERVICE', 'UP', 'UNKNOWN'];

export class ApplicationHealth {
  readonly #indicators = new Map<string, HealthIndicator>();
  #errors = 0;

  register(name: string, indicator: HealthIndicator): void {
    this.#indicators.set(name, indicator);
  }

  unregister(name: string): void {
    this.#indicators.delete(name);
  }

  /** Counts errors the application saw (failed requests, failed jobs); only ever grows. */
  recordError(count = 1): void {
    if (Number.isSafeInteger(count) && count > 0) this.#errors += count;
  }

  get errors(): number {
    return this.#errors;
  }

  /** Each indicator's answer; one that throws is DOWN with its message. */
  components(): Record<string, HealthComponent> {
    const out: Record<string, HealthComponent> = {};
    for (const [name, indicator] of this.#indicators) {
      try {
        const answer = indicator();
        out[name] = typeof answer === 'string' ? { status: answer } : answer;
      } catch (error) {
        out[name] = {
          status: 'DOWN',
          details: { error: error instanceof Error ? error.message : String(error) },
        };
      }
    }
    return out;
  }

  /** The most severe of the indicators' statuses; `fallback` when none is registered. */
  static worst(components: Record<string, HealthComponent>, fallback: string): string {
    const statuses = Object.values(components).map((component) => component.status);
    if (statuses.length === 0) return fallback;
    return SEVERITY.find((status) => statuses.includes(status)) ?? statuses[0] ?? fallback;
  }
}
