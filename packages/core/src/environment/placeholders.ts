/**
 * `${...}` resolution: `${a.b}`, `${a:default}`, nested `${${x}}`, `\${x}` kept as the literal `${x}`.
 * Unresolvable and circular placeholders stay literal instead of failing. The server resolves its file-format
 * outputs and plain-text resources as Spring's EnvironmentPropertySource does (renderingPlaceholders); the client
 * resolves each value it reads (resolveValuePlaceholders). Expansion is bounded (PLACEHOLDER_LIMITS): beyond a
 * limit the resolution fails with a PlaceholderLimitError naming the key and the file it came from. The
 * resolution itself is placeholder-resolver.ts.
 */
import type { PropertySource } from './environment.js';
import { PlaceholderBudget, PlaceholderBudgetExceeded, PlaceholderLimitError } from './placeholder-limits.js';
import {
  type CircularPlaceholders,
  PLACEHOLDER_PREFIX as PREFIX,
  type PlaceholderLookup,
  PlaceholderResolver,
} from './placeholder-resolver.js';

export type { CircularPlaceholders, PlaceholderLookup } from './placeholder-resolver.js';

/** The placeholders of one rendering (or plain-text resource) of an environment, sharing one budget. */
export interface RenderingPlaceholders {
  /**
   * A whole text, as Spring resolves its `.properties` and `.yml` outputs and plain-text resources: after the
   * text is written, wherever a placeholder stands (in a key, inside quotes), with `\${` and `\\${` kept as a
   * literal `${` (the backslashes dropped).
   */
  inText(text: string): string;
  /**
   * One string of the `.json` output (a key or a value; `path` names it in errors). Spring replaces in the
   * JSON text, where a value with a quote or a backslash breaks the JSON; resolved per string, it stays JSON.
   */
  inString(text: string, path: string): string;
}

/**
 * Spring's EnvironmentPropertySource over `sources` (highest precedence first): a key is looked up in each
 * source in turn, so a list item or `spring.profiles` that the merged view leaves out still resolves, and a
 * value is inserted as Java prints it (`String(value)`: `1000.0` for a Double). `name` (the rendered file or
 * resource) is what a limit error names when the placeholder's key is in no source.
 */
export function renderingPlaceholders(
  sources: readonly PropertySource[],
  name: string,
): RenderingPlaceholders {
  const lookup: PlaceholderLookup = (key) => sourceHolding(sources, key)?.source[key];
  const sourceOf = (key: string) => sourceHolding(sources, key)?.name ?? name;
  const resolver = new PlaceholderResolver(lookup, new PlaceholderBudget(), 'keep-outermost');
  return {
    inText: (text) => {
      const masked = text.replace(ESCAPED_PLACEHOLDER, MASKED_PREFIX);
      return resolver.resolveDocument(masked, sourceOf).replaceAll(MASKED_PREFIX, PREFIX);
    },
    inString: (text, path) =>
      resolveBounded(resolver, path, text, () => sourceOf(path), undefined).replaceAll(MASKED_PREFIX, PREFIX),
  };
}

/**
 * Spring masks escaped placeholders before resolving a text: `\${` as text has it, `\\${` as JSON writes it;
 * they come back as `${` afterwards (and so does any `$_{` the text held).
 */
const ESCAPED_PLACEHOLDER = /\\{1,2}\$\{/g;
const MASKED_PREFIX = '$_{';

function sourceHolding(sources: readonly PropertySource[], key: string): PropertySource | undefined {
  for (const source of sources) if (Object.hasOwn(source.source, key)) return source;
  return undefined;
}

/**
 * One value's placeholders, looked up through `lookup` (the client resolves each read across its property
 * sources this way, the settings resolver each setting); `source` names where the value came from in a
 * PlaceholderLimitError. With `circular: 'fail'` a cycle throws a PlaceholderCycleError naming the key.
 */
export function resolveValuePlaceholders(
  key: string,
  value: string,
  lookup: PlaceholderLookup,
  options: { readonly source?: string | undefined; readonly circular: CircularPlaceholders },
): string {
  if (!value.includes(PREFIX)) return value;
  const resolver = new PlaceholderResolver(lookup, new PlaceholderBudget(), options.circular);
  return resolveBounded(resolver, key, value, () => options.source, key);
}

function resolveBounded(
  resolver: PlaceholderResolver,
  key: string,
  value: string,
  sourceOf: (key: string) => string | undefined,
  /** The key whose value this is (a placeholder leading back to it is a cycle), if any. */
  cycleKey: string | undefined,
): string {
  try {
    resolver.budget.nextValue();
    return resolver.resolveTopLevel(cycleKey, value);
  } catch (error) {
    if (error instanceof PlaceholderBudgetExceeded)
      throw new PlaceholderLimitError(key, sourceOf(key), error.message);
    throw error;
  }
}
