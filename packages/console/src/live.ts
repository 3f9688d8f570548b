/**
 * Server-sent events from ./api/events: a push, a refresh (webhook or console), an ack or a presence change
 * tells the views that show them to re-read the API. One EventSource for the whole page; the browser
 * reconnects by itself, and every view re-reads when it does (something may have happened meanwhile).
 */
import type { ConsoleEventType } from './types.js';

/** The server's event types, and `reconnected`: the page's own, when the stream is back after a break. */
export type LiveEventType = ConsoleEventType | 'reconnected';

type Listener = (type: LiveEventType, data: unknown) => void;

const listeners = new Set<{ types: ReadonlySet<LiveEventType>; listener: Listener }>();
let source: EventSource | undefined;
let connectedOnce = false;
const TYPES: readonly ConsoleEventType[] = ['repository', 'push', 'refresh', 'ack', 'presence'];

function dispatch(type: LiveEventType, data: unknown): void {
  for (const entry of listeners)
    if (entry.types.has(type) || type === 'reconnected') entry.listener(type, data);
}

/** Opens the stream (once); `onState` hears whether it is connected. */
export function startLive(onState: (connected: boolean) => void): void {
  if (source) return;
  source = new EventSource('./api/events');
  source.onopen = () => {
    onState(true);
    if (connectedOnce) dispatch('reconnected', undefined);
    connectedOnce = true;
  };
  source.onerror = () => onState(false);
  for (const type of TYPES)
    source.addEventListener(type, (event: MessageEvent<string>) => dispatch(type, JSON.parse(event.data)));
}

/** Calls `listener` for each event of the given types (and on reconnect); returns the unsubscribe. */
export function onLiveEvent(types: readonly LiveEventType[], listener: Listener): () => void {
  if (types.length === 0) return () => undefined;
  const entry = { types: new Set(types), listener };
  listeners.add(entry);
  return () => listeners.delete(entry);
}
