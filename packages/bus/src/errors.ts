/** Errors the bus package raises (codes unique across confbus; see docs/errors.md). */
import { defineErrors } from '@confbus/core';

export const busErrors = defineErrors({
  CONFBUS_BUS_OPTIONS: {
    status: 500,
    description:
      'A bus node or transport was built with missing or invalid options (a programming or settings error)',
  },
  CONFBUS_BUS_CLOSED: {
    status: 503,
    description: 'Something was sent on a bus node that is not started or already closed',
  },
  CONFBUS_BUS_SEND_FAILED: {
    status: 503,
    description:
      'The broker did not confirm an event sent on the bus (it is down or refused it); retry later',
  },
  CONFBUS_BUS_SIGNATURE: {
    status: 401,
    description:
      'An inbound bus message was unsigned or wrongly signed where confbus.bus.signing requires a signature; it was dropped, logged and counted',
  },
});
