/**
 * The opt-in access log (`confbus.logging.access-log`): one line per answered request, at info (a stream's
 * when it ends). Off by default because a line per request would cost more than answering a cached request
 * does; with it on, the repeat-request fast path is bypassed so that every request is logged.
 */
import type { Logger } from '@confbus/core';
import type { AnsweredRequests } from '../support/answered-requests.js';

export function installAccessLog(answered: AnsweredRequests, logger: Logger): void {
  const log = logger.child({ component: 'access' });
  answered.add(({ method, url, status, ms, remote }) =>
    log.info({ method, url, status, ms: Math.round(ms * 10) / 10, remote }, 'request'),
  );
}
