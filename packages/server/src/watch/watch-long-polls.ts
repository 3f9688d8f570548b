/**
 * The long-poll side of watching (for proxies that buffer or forbid streams): a request waits, subscribed to
 * its topic, until a change (200 with the change as JSON) or the end of its wait (304), and frees its slot as
 * soon as its client goes away. The waiting polls are known, so a server shutting down answers every one of
 * them at once (304, `Connection: close`: the client asks again, of another server or of this one restarted)
 * instead of holding its close up to the longest wait.
 */
import type { FastifyReply } from 'fastify';
import type { EnvironmentRequest } from '../environment/environment-service.js';
import type { WatchHub } from './watch-hub.js';
import { type Delivery, renderingFor } from './watch-deliveries.js';

export class WatchLongPolls {
  /** How each waiting poll is ended now: 304, as when its wait is over. */
  readonly #waiting = new Set<() => void>();
  #closed = false;

  constructor(private readonly hub: WatchHub) {}

  get waiting(): number {
    return this.#waiting.size;
  }

  /**
   * Resolves with the change's JSON (200) or undefined (304; the reply's code is set either way);
   * `wantsEnvironment`: the JSON carries the new environment when there is one to send.
   */
  wait(
    reply: FastifyReply,
    request: EnvironmentRequest,
    since: string | undefined,
    waitMs: number,
    release: () => void,
    wantsEnvironment = false,
  ): Promise<Buffer | undefined> {
    reply.header('cache-control', 'no-store');
    return new Promise((resolve, reject) => {
      let unsubscribe: () => void = () => undefined;
      let done = false;
      const end = () => {
        done = true;
        clearTimeout(timer);
        this.#waiting.delete(shutDown);
      };
      const finish = (delivery: Delivery | undefined) => {
        if (done) return;
        end();
        unsubscribe();
        release();
        if (delivery) {
          reply.code(200).type('application/json');
          resolve(renderingFor(delivery, wantsEnvironment).json);
        } else {
          reply.code(304);
          resolve(undefined);
        }
      };
      const shutDown = () => {
        reply.header('connection', 'close');
        finish(undefined);
      };
      const timer = setTimeout(() => finish(undefined), waitMs);
      this.#waiting.add(shutDown);
      // The client went away (or a proxy cut it): free the slot now, not at the end of the wait.
      reply.raw.once('close', () => finish(undefined));
      if (this.#closed) return shutDown();
      this.hub.subscribe(request, since, { deliver: finish }).then(
        (subscription) => {
          unsubscribe = subscription.unsubscribe;
          if (done) unsubscribe();
          else if (subscription.missed) finish(subscription.missed);
        },
        (error: unknown) => {
          if (done) return;
          end();
          reject(error);
        },
      );
    });
  }

  /** Answers every waiting poll now (304) and any that arrives later at once: the server is closing. */
  close(): void {
    this.#closed = true;
    for (const shutDown of [...this.#waiting]) shutDown();
  }
}
