/**
 * Broker errors can carry connection URLs (`amqp://user:password@host`); everything we log or throw passes
 * through here so the password never leaves the process.
 */
import { redactText } from '@confbus/core';
import { messageOf } from '@confbus/core/internal';

/** Below this length a bare password is only redacted inside URLs: replacing it everywhere would garble text. */
const MIN_BARE_SECRET_LENGTH = 4;

export function redactSecret(text: string, password: string): string {
  return redactText(text, [password], MIN_BARE_SECRET_LENGTH);
}

/** A loggable summary of any thrown value: code and message only, both redacted (stacks may repeat the URL). */
export function describeError(err: unknown, password: string): { code?: string; message: string } {
  const code =
    typeof err === 'object' && err !== null && typeof (err as { code?: unknown }).code === 'string'
      ? (err as { code: string }).code
      : undefined;
  const message = messageOf(err);
  return code === undefined
    ? { message: redactSecret(message, password) }
    : { code, message: redactSecret(message, password) };
}
