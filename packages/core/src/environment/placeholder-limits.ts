/**
 * Bounds on `${...}` expansion, shared by the server's resolver (file-format endpoints) and the client's
 * (reads): without them `p_i: ${p_{i-1}}${p_{i-1}}` doubles at each level (22 levels blocked a server for
 * 65 s), and deep nesting or long reference chains overflow the stack. Spring has no such bounds.
 */
import { ConfbusError } from '../errors/confbus-error.js';
import { coreErrors } from '../errors.js';

export const PLACEHOLDER_LIMITS = {
  /** Longest value a resolution may produce, in characters. */
  maxValueLength: 256 * 1024,
  /** Characters substituted for placeholders in one resolution (one environment on the server, one read on the client). */
  maxSubstituted: 4 * 1024 * 1024,
  /** Placeholders resolved inside one another (`${a}` → `${b}` → ..., or `${${${x}}}`). */
  maxDepth: 32,
  /** Placeholders looked up while resolving one value (the work a bomb multiplies). */
  maxLookupsPerValue: 10_000,
} as const;

/** A resolution went beyond a limit; names the key and, when known, the property source (file) it came from. */
export class PlaceholderLimitError extends ConfbusError<'CONFBUS_CONFIG_LIMIT'> {
  override readonly name = 'PlaceholderLimitError';
  constructor(
    readonly key: string,
    readonly source: string | undefined,
    readonly reason: string,
  ) {
    super(
      coreErrors.CONFBUS_CONFIG_LIMIT,
      `${source ?? 'configuration'}: key '${key}': placeholders ${reason}`,
    );
  }
}

/**
 * Thrown inside a resolution, with the broken limit as its message; the resolver's entry point turns it into a
 * PlaceholderLimitError that also names the key and the file.
 */
export class PlaceholderBudgetExceeded extends ConfbusError<'CONFBUS_CONFIG_LIMIT'> {
  override readonly name = 'PlaceholderBudgetExceeded';
  constructor(reason: string) {
    super(coreErrors.CONFBUS_CONFIG_LIMIT, reason);
  }
}

/** Counts the work of one resolution against PLACEHOLDER_LIMITS. */
export class PlaceholderBudget {
  private substituted = 0;
  private lookups = 0;

  /** Starts the resolution of another top-level value (the per-value lookup count starts again). */
  nextValue(): void {
    this.lookups = 0;
  }

  /** Records one placeholder looked up. */
  lookup(): void {
    if (++this.lookups > PLACEHOLDER_LIMITS.maxLookupsPerValue) {
      throw new PlaceholderBudgetExceeded(
        `need more than ${PLACEHOLDER_LIMITS.maxLookupsPerValue} lookups for one value`,
      );
    }
  }

  /** Records `text` substituted for a placeholder; throws when the output or the total work is too large. */
  substitute(text: string, outputLength: number): void {
    this.substituted += text.length;
    if (outputLength + text.length > PLACEHOLDER_LIMITS.maxValueLength) {
      throw new PlaceholderBudgetExceeded(
        `expand to more than ${PLACEHOLDER_LIMITS.maxValueLength} characters`,
      );
    }
    if (this.substituted > PLACEHOLDER_LIMITS.maxSubstituted) {
      throw new PlaceholderBudgetExceeded(
        `substitute more than ${PLACEHOLDER_LIMITS.maxSubstituted} characters in all`,
      );
    }
  }

  /** Throws when resolutions nest deeper than the limit. */
  enter(depth: number): void {
    if (depth > PLACEHOLDER_LIMITS.maxDepth) {
      throw new PlaceholderBudgetExceeded(`nest more than ${PLACEHOLDER_LIMITS.maxDepth} levels deep`);
    }
  }
}
