/**
 * Server-sent events from ./api/events: a push, a refresh (webhook or console), an ack or a presence change
 * tells the views that show them to re-read the API. One EventSource for the whole page; the browser
 * reconnects by itself (and the page, after a 429 or 503: see open()), and every view re-reads when it does
 * (something may have happened meanwhile).
 */
import type { ConsoleEventType } from './types.js';

/** The server's event types, and `reconnected`: the page's own, when the stream is back after a break. */
export type LiveEventType = ConsoleEventType | 'reconnected';

type Listener = (type: LiveEventType, data: unknown) => void;

const listeners = new Set<{ types: ReadonlySet<LiveEventType>; listener: Listener }>();
let source: EventSource | undefined;
let connectedOnce = false;
const TYPES: readonly ConsoleEventType[] = [
  'repository',
  'push',
  'refresh',
  'ack',
  'presence',
  'rollout',
  'rollout-status',
];

function dispatch(type: LiveEventType, data: unknown): void {
  for (const entry of listeners)
    if (entry.types.has(type) || type === 'reconnected') entry.listener(type, data);
}

/** First wait before reopening a stream the browser gave up on; doubles up to the maximum, with jitter. */
const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;
let retryMs = RETRY_MIN_MS;

/** Opens the stream (once); `onState` hears whether it is connected. */
export function startLive(onState: (connected: boolean) => void): void {
  if (source) return;
  open(onState);
}

/**
 * The browser reconnects by itself after a dropped stream, but not after an answer that is not a stream (a 429
 * from the server's rate limit, a 503 while it starts or drains): the EventSource is then CLOSED for good. So
 * the page opens a new one itself, backing off so a fleet of open consoles does not hammer a struggling server.
 */
function open(onState: (connected: boolean) => void): void {
  const current = new EventSource('./api/events');
  source = current;
  current.onopen = () => {
    retryMs = RETRY_MIN_MS;
    onState(true);
    if (connectedOnce) dispatch('reconnected', undefined);
    connectedOnce = true;
  };
  current.onerror = () => {
    onState(false);
    if (current.readyState !== EventSource.CLOSED) return;
    const delay = retryMs * (0.8 + Math.random() * 0.4);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
    setTimeout(() => open(onState), delay);
  };
  for (const type of TYPES)
    current.addEventListener(type, (event: MessageEvent<string>) => dispatch(type, JSON.parse(event.data)));
}

/** Calls `listener` for each event of the given types (and on reconnect); returns the unsubscribe. */
export function onLiveEvent(types: readonly LiveEventType[], listener: Listener): () => void {
  if (types.length === 0) return () => undefined;
  const entry = { types: new Set(types), listener };
  listeners.add(entry);
  return () => listeners.delete(entry);
}
