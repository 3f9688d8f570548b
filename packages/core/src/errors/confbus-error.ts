/**
 * The one error type of confbus. Every failure a user or a program can meet carries a stable `code` (for
 * programs and the docs' error catalogue), the HTTP `status` it is answered with when it reaches an HTTP
 * boundary, and the underlying `cause`. Codes are declared once per package with `defineErrors`, so the
 * catalogue in docs/errors.md is generated from the code, as fastify does with its `errors.js`.
 */
export interface ErrorDescriptor<Code extends string = string> {
  readonly code: Code;
  /** The status an HTTP endpoint answers with; 500 for faults of the server itself. */
  readonly status: number;
  /** One line for the error catalogue: when this happens and what to do. */
  readonly description: string;
  /**
   * A fault of the server itself whose message is for the log only (it may name local paths or git's output):
   * an HTTP endpoint answers 500 `CONFBUS_INTERNAL` instead of this code and message.
   */
  readonly internal?: boolean;
}

/** Declares a package's error codes: `{ CONFBUS_…: { status, description } }` → descriptors keyed by code. */
export function defineErrors<
  const T extends Record<string, { status: number; description: string; internal?: boolean }>,
>(entries: T): { readonly [Code in keyof T & string]: ErrorDescriptor<Code> } {
  const out: Record<string, ErrorDescriptor> = {};
  for (const [code, entry] of Object.entries(entries)) {
    out[code] = Object.freeze({
      code,
      status: entry.status,
      description: entry.description,
      ...(entry.internal === true ? { internal: true } : {}),
    });
  }
  return out as { readonly [Code in keyof T & string]: ErrorDescriptor<Code> };
}

export class ConfbusError<Code extends string = string> extends Error {
  override readonly name: string = 'ConfbusError';
  readonly code: Code;
  readonly status: number;
  /** See ErrorDescriptor.internal: an HTTP answer hides this error's code and message. */
  readonly internal: boolean;

  constructor(descriptor: ErrorDescriptor<Code>, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = descriptor.code;
    this.status = descriptor.status;
    this.internal = descriptor.internal === true;
  }

  /** True for a ConfbusError with this descriptor's code (codes are unique across packages). */
  is<Other extends string>(descriptor: ErrorDescriptor<Other>): this is ConfbusError<Other> {
    return (this.code as string) === descriptor.code;
  }
}

export function isConfbusError(error: unknown): error is ConfbusError {
  return error instanceof ConfbusError;
}
