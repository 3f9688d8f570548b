/**
 * A change as it is written to watchers: its JSON and its SSE message, each encoded once per change and topic
 * and handed to every watcher of it as the same string or Buffer. A watcher that asked for it
 * (`?include=environment`, docs/watch.md) is sent a second rendering carrying the new environment body — the
 * very bytes the environment endpoint answers a plain-JSON GET with, cached with the environment — so it need
 * not re-fetch. That rendering is only made when the body is at most `confbus.watch.max-sent-environment-bytes` and
 * every watcher of the topic would be answered that body by its own GET (no staged rollout picks its commit);
 * otherwise everyone is told the keys and re-fetches, as a client that does not know the field always does.
 */

/** One change, as a watcher is told of it (the body of a long poll's 200, the data of an SSE `change`). */
export interface WatchChange {
  /** The refresh event's id: the ack names it. */
  readonly event: string;
  /** The version (commit) now served. */
  readonly version: string;
  /** The version the change was from; null when the watcher's own version is older than the last change. */
  readonly from: string | null;
  /** Keys added, removed or changed; null when unknown (the watcher missed more than the last change). */
  readonly keys: readonly string[] | null;
}

/** A change's two renderings, made once for every watcher of a topic. */
export interface Rendering {
  /** The long poll's body. */
  readonly json: Buffer;
  /**
   * The SSE message as bytes, encoded once: every stream is written the same Buffer (a string would be
   * encoded again per connection). `id:` is the version, so a reconnecting EventSource resumes with it in
   * Last-Event-ID.
   */
  readonly sse: Buffer;
}

export interface Delivery extends Rendering {
  readonly change: WatchChange;
  /** The change with `"environment": <the body>` added, for watchers that asked for it; absent: keys only. */
  readonly withEnvironment: Rendering | undefined;
}

/** What a watcher takes of a delivery: the environment only if it asked for it and it was sent. */
export function renderingFor(delivery: Delivery, wantsEnvironment: boolean): Rendering {
  return (wantsEnvironment && delivery.withEnvironment) || delivery;
}

/**
 * The renderings of `change`; with `environment` (the environment endpoint's plain JSON body of the new
 * version, already checked by `inlineBody`) also the rendering that carries it. Each is one SSE message, its
 * JSON a view into it (no second copy): the head, the body's own bytes and the tail, copied once.
 */
export function deliveryOf(change: WatchChange, environment?: Buffer): Delivery {
  const json = JSON.stringify(change);
  const withEnvironment =
    environment === undefined
      ? undefined
      : rendering(change, `${json.slice(0, -1)},"environment":`, environment, '}');
  return { change, ...rendering(change, json), withEnvironment };
}

/** `id:` is the version, so a reconnecting EventSource resumes with it in Last-Event-ID. */
function rendering(change: WatchChange, head: string, body?: Buffer, tail = ''): Rendering {
  const before = Buffer.from(`id: ${change.version}\nevent: change\ndata: ${head}`);
  const after = Buffer.from(`${tail}\n\n`);
  const sse = Buffer.concat(body === undefined ? [before, after] : [before, body, after]);
  const start = before.length - Buffer.byteLength(head);
  return { sse, json: sse.subarray(start, sse.length - 2) };
}

/** The same change without the environment: a rollout now holds the topic, or the version moved past it. */
export function withoutEnvironment(delivery: Delivery): Delivery {
  return delivery.withEnvironment ? { ...delivery, withEnvironment: undefined } : delivery;
}

/**
 * The body to send with a change, or undefined to let watchers re-fetch: too large for the bound (0 sends
 * none), not built yet because it is large (building it in slices for the watch alone is not worth it), or
 * holding a line break, which would end the SSE `data:` line (JSON as written by the server never does).
 */
export function inlineBody(body: Buffer | undefined, maxBytes: number): Buffer | undefined {
  if (body === undefined || body.length > maxBytes) return undefined;
  if (body.includes(0x0a) || body.includes(0x0d)) return undefined;
  return body;
}
