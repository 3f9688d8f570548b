/**
 * One resolved environment with its serialisations (environment JSON, v2 JSON with origins, `.properties`,
 * `.yml`, `.json`), each built once on first use and kept with the environment service's cache entry.
 */
import {
  type Environment,
  type FlatProperties,
  type RenderFormat,
  mergeForRendering,
  renderEnvironment,
  renderingPlaceholders,
  withOrigins,
  writeJson,
} from '@confbus/core';
import { wantsOrigins } from './environment-response.js';

export type { RenderFormat } from '@confbus/core';

export class ResolvedEnvironment {
  private jsonBytes?: Buffer;
  private jsonWithOriginsBytes?: Buffer;
  private readonly renderings = new Map<string, string>();
  /** The merged properties, computed once for every format. */
  private merged?: FlatProperties;

  /**
   * @param sourceBytes the size of the files it was built from: the cache weighs an entry at a few times
   * that (parsed objects, JSON, renderings), an estimate rather than a measurement.
   * @param stored the environment as the repository holds it, before `transform` (server-side decryption): the
   * console shows this one, so a decrypted `{cipher}` value never reaches it. The same object when nothing changed.
   */
  constructor(
    readonly environment: Environment,
    readonly sourceBytes = 0,
    readonly stored: Environment = environment,
  ) {}

  /** Serialised once (as Jackson writes it: see writeJson); a Buffer so that sending it costs no re-encoding. */
  get json(): Buffer {
    this.jsonBytes ??= Buffer.from(writeJson(this.environment));
    return this.jsonBytes;
  }

  /** The v2 media type's JSON: values with their `origin` (file line:column), serialised once too. */
  get jsonWithOrigins(): Buffer {
    this.jsonWithOriginsBytes ??= Buffer.from(writeJson(withOrigins(this.environment, this.stored)));
    return this.jsonWithOriginsBytes;
  }

  /** The body for a request's Accept header: with origins for Spring's v2 media type (its clients ask for it). */
  body(accept: string | undefined): Buffer {
    return wantsOrigins(accept) ? this.jsonWithOrigins : this.json;
  }

  /** `stripDocument`: spring.cloud.config.server.strip-document-from-yaml, for `yml`. */
  render(format: RenderFormat, resolve: boolean, stripDocument = true): string {
    const key = `${format}:${resolve}:${stripDocument}`;
    let text = this.renderings.get(key);
    if (text === undefined) {
      this.merged ??= mergeForRendering(this.environment.propertySources);
      const { name, profiles, propertySources } = this.environment;
      text = renderEnvironment(
        propertySources,
        format,
        {
          resolvePlaceholders: resolve,
          name: `${name}-${profiles.join(',')}.${format}`,
          stripDocument,
        },
        this.merged,
      );
      this.renderings.set(key, text);
    }
    return text;
  }

  /** `${...}` in a plain-text resource, resolved from this environment as Spring resolves a rendered file. */
  resolveText(text: string, path: string): string {
    return renderingPlaceholders(this.environment.propertySources, path).inText(text);
  }
}
