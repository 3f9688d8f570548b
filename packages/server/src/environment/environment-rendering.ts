/**
 * An environment rendered as one of Spring's file formats (`.properties`, `.yml`, `.json`): its property sources
 * merged, placeholders resolved when asked (bounded, core's placeholder-limits.ts), and written out. Pure, so
 * that ResolvedEnvironment runs it inline for a small environment and a worker thread for a large one.
 */
import {
  type FlatProperties,
  type PropertySource,
  mergeForRendering,
  renderJson,
  renderProperties,
  renderYaml,
  resolvePlaceholders,
} from '@confbus/core';

export type RenderFormat = 'properties' | 'yml' | 'json';

/** The merged properties with their placeholders resolved; errors name the file a value came from. */
export function resolvedForRendering(
  sources: readonly PropertySource[],
  merged: FlatProperties,
): FlatProperties {
  return resolvePlaceholders(
    merged,
    // The file a merged value came from: the first (highest-precedence) source holding the key.
    (key) => sources.find((source) => Object.hasOwn(source.source, key))?.name,
  );
}

/** Merged (and resolved) properties written in `format`. */
export function renderFlat(merged: FlatProperties, format: RenderFormat): string {
  if (format === 'properties') return renderProperties(merged);
  if (format === 'yml') return renderYaml(merged);
  return JSON.stringify(renderJson(merged));
}

/** The whole rendering from the property sources, as a worker thread makes it. */
export function renderSources(
  sources: readonly PropertySource[],
  format: RenderFormat,
  resolve: boolean,
): string {
  const merged = mergeForRendering(sources);
  return renderFlat(resolve ? resolvedForRendering(sources, merged) : merged, format);
}

/** Whether any value holds a placeholder (whose expansion may be large however small the sources). */
export function hasPlaceholders(sources: readonly PropertySource[]): boolean {
  return sources.some((source) =>
    Object.values(source.source).some((value) => typeof value === 'string' && value.includes('${')),
  );
}
