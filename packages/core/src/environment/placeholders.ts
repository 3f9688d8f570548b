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
   * A whole text, as Spring resolves its `.properties` output and plain-text resources: after the text is
   * written, wherever a placeholder stands (in a key, inside quotes), keys as written (`${ key }` looks up
   * ` key `), with `\${` and `\\${` kept as a literal `${` (the backslashes dropped).
   */
  inText(text: string): string;
  /**
   * One string value of the `.yml` or `.json` output (`path` names it in errors), as Spring Cloud Config
   * 4.3.4/5.0.4+ resolves them (spring-cloud-config#3235): value by value before the file is written, so a
   * multi-line or quoted result stays valid YAML and JSON, keys stripped of surrounding whitespace
   * (`${ key }` looks up `key`), the same `\${` masking; map keys are never resolved. The result is a string
   * whatever it resolves to, so `${flag}` written to `.yml` is `'false'`, quoted, as SnakeYAML writes a String.
   */
  inValue(value: string, path: string): string;
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
  const lookup: PlaceholderLookup = (key) => sourceHolding(sources, key)?.source.get(key);
  const sourceOf = (key: string) => sourceHolding(sources, key)?.name ?? name;
  const budget = new PlaceholderBudget();
  // One resolver per key style, made on first use (a rendering uses one of them), sharing the budget.
  let asWritten: PlaceholderResolver | undefined;
  let stripped: PlaceholderResolver | undefined;
  return {
    inText: (text) => {
      asWritten ??= new PlaceholderResolver(lookup, budget, 'keep-outermost', 'as-written');
      const masked = text.replace(ESCAPED_PLACEHOLDER, MASKED_PREFIX);
      return asWritten.resolveDocument(masked, sourceOf).replaceAll(MASKED_PREFIX, PREFIX);
    },
    inValue: (value, path) => {
      // Spring leaves a value alone unless it holds a `${...}` with something inside (so `a$_{b}` and `\${}`
      // keep their text there).
      if (!SPRING_PLACEHOLDER.test(value)) return value;
      stripped ??= new PlaceholderResolver(lookup, budget, 'keep-outermost', 'stripped');
      const masked = value.replace(ESCAPED_PLACEHOLDER, MASKED_PREFIX);
      return resolveBounded(stripped, path, masked, () => sourceOf(path), undefined).replaceAll(
        MASKED_PREFIX,
        PREFIX,
      );
    },
  };
}

/** EnvironmentPropertySource's PLACEHOLDER_PATTERN: whether a value holds anything to resolve. */
const SPRING_PLACEHOLDER = /\$\{[^}]+\}/;

/**
 * Spring masks escaped placeholders before resolving a text: `\${` as text has it, `\\${` as JSON writes it;
 * they come back as `${` afterwards (and so does any `$_{` the text held).
 */
const ESCAPED_PLACEHOLDER = /\\{1,2}\$\{/g;
const MASKED_PREFIX = '$_{';

function sourceHolding(sources: readonly PropertySource[], key: string): PropertySource | undefined {
  for (const source of sources) if (source.source.has(key)) return source;
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
