/**
 * Options of the commands that take their own (check, contracts import), not settings: node:util parseArgs in
 * strict mode, an unknown option or a malformed one turned into a UsageError (exit 2).
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './command-line.js';

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{ args: string[]; strict: true; allowPositionals: true; options: O }>
>;

export function parseStrictArguments<const O extends Options>(
  args: readonly string[],
  options: O,
): Parsed<O> {
  try {
    return parseArgs({ args: [...args], strict: true, allowPositionals: true, options });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
