/**
 * An environment rendered as one of Spring's file formats (`.properties`, `.yml`, `.json`): core's
 * renderEnvironment (its property sources merged, written, placeholders resolved in the text when asked, bounded
 * by core's placeholder-limits.ts). Pure, so that ResolvedEnvironment runs it inline for a small environment and
 * a worker thread for a large one.
 */
import {
  type FlatProperties,
  type PropertySource,
  type RenderFormat,
  renderEnvironment,
} from '@confbus/core';

export interface RenderOptions {
  format: RenderFormat;
  resolve: boolean;
  /** spring.cloud.config.server.strip-document-from-yaml. */
  stripDocument: boolean;
  /** The rendered file's name, which a placeholder limit error names when the key is in no source. */
  name: string;
}

/** The whole rendering from the property sources; `merged` when the caller already has them merged. */
export function renderSources(
  sources: readonly PropertySource[],
  { format, resolve, stripDocument, name }: RenderOptions,
  merged?: FlatProperties,
): string {
  return renderEnvironment(sources, format, { resolvePlaceholders: resolve, name, stripDocument }, merged);
}

/** Whether any value holds a placeholder (whose expansion may be large however small the sources). */
export function hasPlaceholders(sources: readonly PropertySource[]): boolean {
  return sources.some((source) =>
    [...source.source.values()].some((value) => typeof value === 'string' && value.includes('${')),
  );
}
