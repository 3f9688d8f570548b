/**
 * One resolved environment with its serialisations (environment JSON, v2 JSON with origins, `.properties`,
 * `.yml`, `.json`), each built once on first use and kept with the environment service's cache entry. It
 * knows its estimated memory, which grows with each serialisation kept, and tells its cache when it does.
 *
 * Nothing here holds the event loop for long: a large environment's JSON is built a property source at a time
 * (environment-json.ts), and its renderings, like any rendering that expands placeholders (bounded, but up to
 * 4 Mi characters from a few bytes), are made in a worker thread. A small environment is served as before:
 * its JSON built at once, synchronously, and rendered inline.
 */
import {
  ConfbusError,
  type Environment,
  type FlatProperties,
  type RenderFormat,
  coreErrors,
  mergeForRendering,
  renderingPlaceholders,
} from '@confbus/core';
import { toPieces } from './document-pieces.js';
import { wantsOrigins } from './environment-response.js';
import { environmentJson, environmentJsonInSlices } from './environment-json.js';
import { hasPlaceholders, renderSources } from './environment-rendering.js';
import type { NamedProperties } from './environment-worker.js';
import type { EnvironmentWorkers } from './environment-workers.js';
import { CACHE_ENTRY_BYTES, mergedPropertiesBytes, textBytes } from './memory-estimates.js';
import { errorFromData } from './worker-errors.js';
import type { RenderOptions } from './environment-rendering.js';

export type { RenderFormat } from '@confbus/core';

/**
 * Estimated parsed objects beyond which an environment is large: its JSON is built in slices and its renderings
 * in a worker (about 1,800 short properties; one turn of JSON.stringify then stays around a millisecond).
 */
export const LARGE_ENVIRONMENT_BYTES = 512 * 1024;

export interface ResolvedEnvironmentOptions {
  /**
   * The environment as the repository holds it, before `transform` (server-side decryption): the console shows
   * this one, so a decrypted `{cipher}` value never reaches it. Default: the environment itself.
   */
  stored?: Environment;
  /** Estimated memory of the parsed objects it holds (memory-estimates.ts); its serialisations come on top. */
  objectBytes?: number;
  /** Called when a serialisation or rendering is kept: the estimate grew and the cache weighs it again. */
  grown?: () => void;
  /** Where renderings of large environments are made; without it, everything is done inline. */
  workers?: EnvironmentWorkers;
}

export class ResolvedEnvironment {
  readonly stored: Environment;
  /** The JSON bodies once built (plain; with origins), and those being built in slices. */
  private plainBody: Buffer | undefined;
  private originsBody: Buffer | undefined;
  private readonly buildingBodies = new Map<boolean, Promise<Buffer>>();
  /** Renderings by format, resolve flag and strip-document flag: each made once, a failure too. */
  private readonly renderings = new Map<string, Promise<string>>();
  /** The merged properties, computed once for every format (placeholders are resolved in the written text). */
  private merged: FlatProperties | undefined;
  private placeholders: boolean | undefined;
  /** Estimated bytes of the serialisations, renderings and merged maps kept so far. */
  private keptBytes = 0;

  constructor(
    readonly environment: Environment,
    private readonly options: ResolvedEnvironmentOptions = {},
  ) {
    this.stored = options.stored ?? environment;
  }

  /** Estimated memory of the parsed objects it holds. */
  get objectBytes(): number {
    return this.options.objectBytes ?? 0;
  }

  /** Estimated memory held: the parsed objects, and every serialisation built so far. */
  get estimatedBytes(): number {
    return CACHE_ENTRY_BYTES + this.objectBytes + this.keptBytes;
  }

  private get large(): boolean {
    return this.objectBytes > LARGE_ENVIRONMENT_BYTES;
  }

  /**
   * The body for a request's Accept header (with origins for Spring's v2 media type, which its clients ask for)
   * when it can be had at once: built already, or small enough to build now. Undefined while a large one is to
   * be built: body() builds it.
   */
  bodyNow(accept: string | undefined): Buffer | undefined {
    const origins = wantsOrigins(accept);
    const built = origins ? this.originsBody : this.plainBody;
    if (built !== undefined || this.large) return built;
    return this.keepBody(origins, environmentJson(this.environment, origins));
  }

  /** The body for a request's Accept header; a Buffer, so that sending it costs no re-encoding per request. */
  body(accept: string | undefined): Promise<Buffer> {
    const now = this.bodyNow(accept);
    if (now !== undefined) return Promise.resolve(now);
    const origins = wantsOrigins(accept);
    let building = this.buildingBodies.get(origins);
    if (building === undefined) {
      building = environmentJsonInSlices(this.environment, origins)
        .then((body) => this.keepBody(origins, body))
        .finally(() => this.buildingBodies.delete(origins));
      this.buildingBodies.set(origins, building);
    }
    return building;
  }

  /**
   * The environment as a file: merged, written, placeholders resolved in the text when asked (as Spring does);
   * off the event loop when it may be long. `stripDocument`: spring.cloud.config.server.strip-document-from-yaml.
   */
  render(format: RenderFormat, resolve: boolean, stripDocument = true): Promise<string> {
    const key = `${format}:${resolve}:${stripDocument}`;
    let rendering = this.renderings.get(key);
    if (rendering === undefined) {
      const { workers } = this.options;
      const offThread = workers !== undefined && (this.large || (resolve && this.hasPlaceholders()));
      const task = { format, resolve, stripDocument, name: this.fileName(format) };
      rendering = offThread ? this.renderInWorker(workers, task) : this.renderInline(task);
      rendering.then(
        (text) => this.kept(textBytes(text)),
        () => undefined, // kept as it is: asking again answers the same error
      );
      this.renderings.set(key, rendering);
    }
    return rendering;
  }

  /** `${...}` in a plain-text resource, resolved from this environment as Spring resolves a rendered file. */
  resolveText(text: string, path: string): string {
    return renderingPlaceholders(this.environment.propertySources, path).inText(text);
  }

  /** What a placeholder limit error names when the placeholder's key is in no source. */
  private fileName(format: RenderFormat): string {
    const { name, profiles } = this.environment;
    return `${name}-${profiles.join(',')}.${format}`;
  }

  private keepBody(origins: boolean, body: Buffer): Buffer {
    if (origins) this.originsBody = body;
    else this.plainBody = body;
    this.kept(body.length);
    return body;
  }

  private renderInline(task: RenderOptions): Promise<string> {
    try {
      return Promise.resolve(renderSources(this.environment.propertySources, task, this.mergedProperties()));
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  private async renderInWorker(workers: EnvironmentWorkers, task: RenderOptions): Promise<string> {
    // Sent in pieces, serialised a step at a time; origins are not rendered: they need not cross.
    const sources = await toPieces<NamedProperties>(
      this.environment.propertySources.map(({ name, source }) => ({ name, properties: source })),
    );
    const result = await workers.run(
      'render',
      { sources, ...task },
      (seconds) =>
        new ConfbusError(
          coreErrors.CONFBUS_CONFIG_LIMIT,
          `Rendering '${this.environment.name}' as .${task.format} took longer than ${seconds} s`,
        ),
    );
    if (!result.ok) throw errorFromData(result.error);
    return result.text;
  }

  private hasPlaceholders(): boolean {
    this.placeholders ??= hasPlaceholders(this.environment.propertySources);
    return this.placeholders;
  }

  private mergedProperties(): FlatProperties {
    if (this.merged === undefined) {
      this.merged = mergeForRendering(this.environment.propertySources);
      this.kept(mergedPropertiesBytes(this.merged));
    }
    return this.merged;
  }

  private kept(bytes: number): void {
    this.keptBytes += bytes;
    this.options.grown?.();
  }
}
