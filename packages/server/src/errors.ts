/** The error codes raised by @confbus/server. Messages name settings and inputs, never secret values. */
import { defineErrors } from '@confbus/core';

export const serverErrors = defineErrors({
  CONFBUS_EMPTY_BODY: {
    status: 400,
    description: 'POST /encrypt or /decrypt without a body (Spring: "Required request body is missing")',
  },
  CONFBUS_BAD_QUERY_PARAMETER: {
    status: 400,
    description:
      'A query parameter is not a number in the accepted range; the message names it and the range.',
  },
  CONFBUS_CONSOLE_BAD_REQUEST: {
    status: 400,
    description: 'A console API parameter is missing or invalid; the message names it and what is accepted',
  },
  CONFBUS_CONSOLE_NOT_FOUND: {
    status: 404,
    description: 'The console API has no such application, commit or refresh event',
  },
  CONFBUS_CONSOLE_CSRF: {
    status: 403,
    description:
      'A console action came without the CSRF token from GET /-/console/api/session, or from another site',
  },
  CONFBUS_CONSOLE_STREAMS_EXHAUSTED: {
    status: 503,
    description:
      'Too many open console event streams (confbus.console.max-event-streams); close one and retry',
  },
  CONFBUS_CONSOLE_BUS_DISABLED: {
    status: 503,
    description:
      'A console bus action needs the bus (spring.cloud.bus.enabled=true) and it is off or not started',
  },
  CONFBUS_CONSOLE_PUBLISH_FAILED: {
    status: 503,
    description: 'The console could not publish the refresh event to the bus; the broker is unreachable',
  },
  CONFBUS_GIT_HISTORY: {
    status: 500,
    description:
      "Reading the history of the configuration repository failed; the server log has git's message",
  },
});
