/**
 * Multi-label requests, `GET /{name}/{profile}/{label1},{label2}` (Spring 4.2+, AbstractScmEnvironmentRepository):
 * the environment of each label, the last label's property sources first (it wins), `version` the labels'
 * commits in request order joined with commas. A label that cannot be served fails the request, unless
 * `spring.cloud.config.server.git.continue-on-multiple-label-failure` is set: then it is skipped. Overrides are
 * served once, first, as Spring adds them around the whole multi-label lookup. Combined environments are cached
 * by the labels' commits (in the server's environment cache, weighed like any other environment), so a repeated
 * request costs the per-label lookups and no new serialisation.
 */
import type { Environment, Logger } from '@confbus/core';
import type { EnvironmentCaches } from './environment-caches.js';
import type { EnvironmentFinder, FoundEnvironment } from './environment-finder.js';
import type { EnvironmentWorkers } from './environment-workers.js';
import type { EnvironmentRequest } from './environment-service.js';
import { ResolvedEnvironment } from './resolved-environment.js';

const OVERRIDES = 'overrides';

export interface MultiLabelOptions {
  /**
   * False for the native backend: Spring's NativeEnvironmentRepository takes a label list whole, as label
   * folders of one environment (native-repository.ts), not one environment per label.
   */
  splitLabels: boolean;
  continueOnFailure: boolean;
  /** The server's environment cache, where combined environments are kept too. */
  caches: EnvironmentCaches;
  /** Where renderings of large environments are made (resolved-environment.ts). */
  workers?: EnvironmentWorkers;
  logger: Pick<Logger, 'warn'>;
}

export class MultiLabelFinder implements EnvironmentFinder {
  /** This finder's prefix of the shared cache keys. */
  private readonly namespace: string;

  constructor(
    private readonly inner: EnvironmentFinder,
    private readonly options: MultiLabelOptions,
  ) {
    this.namespace = options.caches.namespace();
  }

  async find(request: EnvironmentRequest): Promise<FoundEnvironment> {
    if (!this.options.splitLabels || !request.label?.includes(',')) return this.inner.find(request);
    const labels = request.label.split(',').filter((label) => label.trim() !== '');
    if (labels.length < 2) return this.inner.find({ ...request, label: labels[0] ?? null });
    const found: FoundEnvironment[] = [];
    for (const label of [...labels].reverse()) {
      try {
        found.push(await this.inner.find({ ...request, label }));
      } catch (error) {
        if (!this.options.continueOnFailure) throw error;
        this.options.logger.warn(
          { err: error, label, application: request.name },
          'Could not find a label of a multi-label request; continuing with the next one',
        );
      }
    }
    const version = found
      .map((each) => each.revision.commit)
      .reverse()
      .join(',');
    const key = this.namespace + [version, request.name, request.profilesText, request.label].join('\u0000');
    const { environments } = this.options.caches;
    let resolved = environments.get(key);
    if (!resolved) {
      // The labels' stored environments too: the console reads which values were {cipher} text there.
      const stored = combine(request, version, found, (each) => each.resolved.stored);
      resolved = new ResolvedEnvironment(combine(request, version, found), {
        stored,
        // It shares the labels' property sources, which their own entries may no longer keep alive.
        objectBytes: found.reduce((sum, each) => sum + each.resolved.objectBytes, 0),
        grown: () => environments.reweigh(key),
        ...(this.options.workers ? { workers: this.options.workers } : {}),
      });
      environments.set(key, resolved);
    }
    return {
      resolved,
      revision: {
        label: request.label ?? '',
        commit: version,
        stale: found.some((each) => each.revision.stale),
      },
    };
  }
}

function combine(
  request: EnvironmentRequest,
  version: string,
  found: FoundEnvironment[],
  environmentOf: (each: FoundEnvironment) => Environment = (each) => each.resolved.environment,
): Environment {
  const sources = found.flatMap((each) => environmentOf(each).propertySources);
  const overrides = sources.find((source) => source.name === OVERRIDES);
  const files = sources.filter((source) => source.name !== OVERRIDES);
  return {
    name: request.name,
    profiles: [request.profilesText],
    label: request.label,
    version,
    state: null,
    propertySources: overrides ? [overrides, ...files] : files,
  };
}
