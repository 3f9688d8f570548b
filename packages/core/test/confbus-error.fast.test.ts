import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { ConfbusError, defineErrors, isConfbusError, type Logger, springErrorBody } from '../src/index.ts';

const errors = defineErrors({
  CONFBUS_EXAMPLE_MISSING: { status: 404, description: 'The example is missing' },
  CONFBUS_EXAMPLE_BROKEN: { status: 500, description: 'The example broke' },
});

test('an error carries its code, status and cause, and tells descriptors apart', () => {
  const cause = new Error('disk on fire');
  const error = new ConfbusError(errors.CONFBUS_EXAMPLE_MISSING, 'no example here', { cause });
  assert.equal(error.code, 'CONFBUS_EXAMPLE_MISSING');
  assert.equal(error.status, 404);
  assert.equal(error.message, 'no example here');
  assert.equal(error.cause, cause);
  assert.equal(error.name, 'ConfbusError');
  assert.ok(error.is(errors.CONFBUS_EXAMPLE_MISSING));
  assert.ok(!error.is(errors.CONFBUS_EXAMPLE_BROKEN));
  assert.ok(isConfbusError(error));
  assert.ok(!isConfbusError(new Error('plain')));
  assert.equal(Object.isFrozen(errors.CONFBUS_EXAMPLE_BROKEN), true);
});

test('a pino logger is a confbus Logger', () => {
  const lines: string[] = [];
  const logger: Logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(line) });
  logger.child({ component: 'test' }).info({ key: 'value' }, 'hello');
  const line = JSON.parse(lines[0] ?? '{}') as Record<string, unknown>;
  assert.equal(line.component, 'test');
  assert.equal(line.key, 'value');
  assert.equal(line.msg, 'hello');
});

test("Spring's error body: the reason phrase, the path without its query, the code only when given", () => {
  const now = new Date('2026-01-31T12:00:00.000Z');
  assert.deepEqual(springErrorBody(404, 'CONFBUS_X', 'gone', '/a/b?token=secret', now), {
    timestamp: '2026-01-31T12:00:00.000Z',
    status: 404,
    error: 'Not Found',
    message: 'gone',
    path: '/a/b',
    code: 'CONFBUS_X',
  });
  const actuator = springErrorBody(503, undefined, 'no bus', '/actuator/busrefresh', now);
  assert.deepEqual(Object.keys(actuator), ['timestamp', 'status', 'error', 'message', 'path']);
  assert.equal(actuator.error, 'Service Unavailable');
  assert.equal(springErrorBody(599, 'CONFBUS_X', 'odd', '/', now).error, 'Error');
});

test('an internal descriptor marks its errors internal; others are not', () => {
  const declared = defineErrors({
    CONFBUS_EXAMPLE_FAULT: { status: 500, internal: true, description: 'A fault for the log only' },
  });
  assert.equal(new ConfbusError(declared.CONFBUS_EXAMPLE_FAULT, 'git said: /srv/x').internal, true);
  assert.equal(new ConfbusError(errors.CONFBUS_EXAMPLE_BROKEN, 'broke').internal, false);
});
