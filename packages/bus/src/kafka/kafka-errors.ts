/**
 * What a Kafka client error says, in one line. The client wraps the reason several times (`metadata failed 4
 * times.` → `Cannot connect to any broker.` → `Connection to host:port failed.` → `SASL authentication failed.` →
 * the broker's own words), and its top message alone reads as an outage when the broker refused the password
 * or the certificate: the line follows the first error of each level down to the last, and the code is the
 * deepest one (`PLT_KFK_AUTHENTICATION`, `SELF_SIGNED_CERT_IN_CHAIN`, `ECONNREFUSED`).
 */
import { messageOf } from '@confbus/core/internal';
import { redactSecret } from '../redact.js';

/** Deep enough for the client's nesting, bounded so a cyclic cause cannot loop. */
const MAX_DEPTH = 8;

interface ClientError {
  readonly code?: unknown;
  readonly errors?: unknown;
  readonly cause?: unknown;
  /** A ProtocolError's Kafka error name (`SASL_AUTHENTICATION_FAILED`) and the broker's text. */
  readonly apiId?: unknown;
  readonly serverErrorMessage?: unknown;
}

/** The client's wrapper of a broker response, whose message only names the API: the error inside says why. */
const RESPONSE_WRAPPER = 'PLT_KFK_RESPONSE';

export function describeKafkaError(error: unknown, password: string): { code?: string; message: string } {
  const parts: string[] = [];
  let previous = '';
  let code: string | undefined;
  let current: unknown = error;
  for (let depth = 0; depth < MAX_DEPTH && current !== undefined && current !== null; depth++) {
    const node = current as ClientError;
    if (typeof node.apiId === 'string') code = node.apiId;
    else if (typeof node.code === 'string' && node.code !== RESPONSE_WRAPPER) code = node.code;
    const own = messageOf(current).replace(/\.+$/, '').trim();
    const broker = typeof node.serverErrorMessage === 'string' ? node.serverErrorMessage.trim() : '';
    const text = broker === '' ? own : `${own} (broker: ${broker})`;
    // The client repeats itself between levels ("SASL authentication failed" twice): say it once.
    if (own === '' || node.code === RESPONSE_WRAPPER) {
      // nothing of its own to say
    } else if (own.toLowerCase() === previous.toLowerCase()) {
      parts[parts.length - 1] = text;
    } else {
      parts.push(text);
      previous = own;
    }
    current = Array.isArray(node.errors) && node.errors.length > 0 ? node.errors[0] : node.cause;
  }
  const message = redactSecret(parts.join(': ') || messageOf(error), password);
  return code === undefined ? { message } : { code, message };
}
