/**
 * The transport's send, bounded: with the broker down, the AMQP client waits for a connection and retries
 * (a minute), longer than any webhook sender waits for its answer. The send itself is not cancelled: it may
 * still go out once the broker is back, which a refresh tolerates (it is idempotent). The timeout's error is
 * BusNode.publish's to report (as CONFBUS_BUS_SEND_FAILED, with its message).
 */
export async function sendWithin(sending: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `the broker did not take it within ${timeoutMs} ms (confbus.bus.publish-timeout); it is unreachable or slow`,
          ),
        ),
      timeoutMs,
    );
    timer.unref();
  });
  try {
    await Promise.race([sending, expired]);
  } finally {
    clearTimeout(timer);
    sending.catch(() => undefined);
  }
}
