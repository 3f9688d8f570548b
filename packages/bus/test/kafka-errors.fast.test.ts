// One line for a Kafka client error, built from the client's own error classes nested as it nests them when a
// broker refuses the password or the certificate, or is not there: the reason at the bottom is in the line and
// gives the code; the password never is. The real-broker side is kafka-security.test.ts and
// e2e/interop/spring-bus-kafka-sasl.test.ts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  AuthenticationError,
  MultipleErrors,
  NetworkError,
  ResponseError,
  UserError,
} from '@platformatic/kafka';
import { describeKafkaError } from '../src/kafka/kafka-errors.js';

const SASL_AUTHENTICATE = 36;
const SASL_AUTHENTICATION_FAILED = 58;

/** How the client reports a failed metadata request after its retries, around `cause`. */
function retriesAround(cause: Error): Error {
  const connection = new NetworkError('Connection to 127.0.0.1:9096 failed.', { cause });
  const anyBroker = new MultipleErrors('Cannot connect to any broker.', [connection]);
  return new MultipleErrors('metadata failed 4 times.', [anyBroker]);
}

describe('describeKafkaError', () => {
  it("a refused password: the broker's reason and SASL_AUTHENTICATION_FAILED, the password redacted", () => {
    const response = new ResponseError(
      SASL_AUTHENTICATE,
      2,
      { '/': [SASL_AUTHENTICATION_FAILED, 'Authentication failed for user hunter2-pw (SCRAM-SHA-512)'] },
      {},
    );
    const error = retriesAround(new AuthenticationError('SASL authentication failed.', { cause: response }));
    const described = describeKafkaError(error, 'hunter2-pw');
    assert.equal(described.code, 'SASL_AUTHENTICATION_FAILED');
    assert.match(
      described.message,
      /^metadata failed 4 times: Cannot connect to any broker: Connection to 127\.0\.0\.1:9096 failed: SASL authentication failed \(broker: Authentication failed for user \S+ \(SCRAM-SHA-512\)\)$/,
    );
    assert.doesNotMatch(described.message, /hunter2-pw/);
  });

  it("an untrusted certificate: Node's reason and code", () => {
    const tls = Object.assign(new Error('self-signed certificate in certificate chain'), {
      code: 'SELF_SIGNED_CERT_IN_CHAIN',
    });
    const described = describeKafkaError(retriesAround(tls), '');
    assert.equal(described.code, 'SELF_SIGNED_CERT_IN_CHAIN');
    assert.match(described.message, /9096 failed: self-signed certificate in certificate chain$/);
  });

  it("TLS to a plain listener: the client's hint, then the socket error", () => {
    const reset = Object.assign(
      new Error('Client network socket disconnected before secure TLS connection was established'),
      {
        code: 'ECONNRESET',
      },
    );
    const hint = new UserError('TLS handshake failed. Please verify the broker supports TLS.', {
      cause: reset,
    });
    const described = describeKafkaError(retriesAround(hint), '');
    assert.equal(described.code, 'ECONNRESET');
    assert.match(
      described.message,
      /failed: TLS handshake failed\. Please verify the broker supports TLS: Client network/,
    );
  });

  it('a plain error: its message and code as they are; a cyclic cause ends', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9092'), { code: 'ECONNREFUSED' });
    assert.deepEqual(describeKafkaError(refused, ''), {
      code: 'ECONNREFUSED',
      message: 'connect ECONNREFUSED 127.0.0.1:9092',
    });
    const loop = new Error('again') as Error & { cause?: unknown };
    loop.cause = loop;
    assert.equal(describeKafkaError(loop, '').message, 'again');
    assert.equal(describeKafkaError('down', '').message, 'down');
  });
});
