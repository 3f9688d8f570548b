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
  CONFBUS_GIT_HISTORY: {
    status: 500,
    description:
      "Reading the history of the configuration repository failed; the server log has git's message",
  },
});
