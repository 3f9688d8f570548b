/**
 * One resolved environment with its serialisations (environment JSON, v2 JSON with origins, `.properties`,
 * `.yml`, `.json`), each built once on first use and kept with the environment service's cache entry. It
 * knows its estimated memory, which grows with each serialisation kept, and tells its cache when it does.
 */
import {
  type Environment,
  type FlatProperties,
  mergeForRendering,
  renderJson,
  renderProperties,
  renderYaml,
  resolvePlaceholders,
  resolvePlaceholdersInText,
  withOrigins,
} from '@confbus/core';
import { wantsOrigins } from './environment-response.js';
import { CACHE_ENTRY_BYTES, mergedPropertiesBytes, textBytes } from './memory-estimates.js';

export type RenderFormat = 'properties' | 'yml' | 'json';

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
}

export class ResolvedEnvironment {
  readonly stored: Environment;
  private jsonBytes?: Buffer;
  private jsonWithOriginsBytes?: Buffer;
  private readonly renderings = new Map<string, string>();
  /** The merged properties, without and with placeholders resolved: each computed once for every format. */
  private readonly merged = new Map<boolean, FlatProperties>();
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

  /** Serialised once; a Buffer so that sending it costs no re-encoding per request. */
  get json(): Buffer {
    if (this.jsonBytes === undefined) {
      this.jsonBytes = Buffer.from(JSON.stringify(this.environment));
      this.kept(this.jsonBytes.length);
    }
    return this.jsonBytes;
  }

  /** The v2 media type's JSON: values with their `origin` (file line:column), serialised once too. */
  get jsonWithOrigins(): Buffer {
    if (this.jsonWithOriginsBytes === undefined) {
      this.jsonWithOriginsBytes = Buffer.from(JSON.stringify(withOrigins(this.environment, this.stored)));
      this.kept(this.jsonWithOriginsBytes.length);
    }
    return this.jsonWithOriginsBytes;
  }

  /** The body for a request's Accept header: with origins for Spring's v2 media type (its clients ask for it). */
  body(accept: string | undefined): Buffer {
    return wantsOrigins(accept) ? this.jsonWithOrigins : this.json;
  }

  render(format: RenderFormat, resolve: boolean): string {
    const key = `${format}:${resolve}`;
    let text = this.renderings.get(key);
    if (text === undefined) {
      const merged = this.mergedProperties(resolve);
      text =
        format === 'properties'
          ? renderProperties(merged)
          : format === 'yml'
            ? renderYaml(merged)
            : JSON.stringify(renderJson(merged));
      this.renderings.set(key, text);
      this.kept(textBytes(text));
    }
    return text;
  }

  /** `${...}` in a plain-text resource, resolved from this environment's merged properties. */
  resolveText(text: string, path: string): string {
    return resolvePlaceholdersInText(this.mergedProperties(false), text, path);
  }

  private mergedProperties(resolve: boolean): FlatProperties {
    let merged = this.merged.get(resolve);
    if (merged === undefined) {
      const { propertySources } = this.environment;
      merged = resolve
        ? resolvePlaceholders(
            this.mergedProperties(false),
            (key) =>
              // The file a merged value came from: the first (highest-precedence) source holding the key.
              propertySources.find((source) => Object.hasOwn(source.source, key))?.name,
          )
        : mergeForRendering(propertySources);
      this.merged.set(resolve, merged);
      this.kept(mergedPropertiesBytes(merged, resolve ? this.mergedProperties(false) : undefined));
    }
    return merged;
  }

  private kept(bytes: number): void {
    this.keptBytes += bytes;
    this.options.grown?.();
  }
}
