/**
 * A refresh event as the console shows it: the acks as a timeline (after how many ms how many instances had
 * acked, and how many of them serve the event's commit), the commit the push replaced (for "the diff this push
 * introduced"), and the application and profiles its destination names (`foo:**`, `foo-dev:**`, `**`).
 */
import type { TrackedAck, TrackedRefresh } from '../bus/refresh-tracker.js';
import type { Catalogue } from './application-catalogue.js';

export interface TimelinePoint {
  afterMs: number;
  acked: number;
  onCommit: number;
}

export interface RefreshEventView {
  id: string;
  destination: string;
  commit: string;
  /** The commit before the push, when the server saw the push; else the commit's first parent. */
  previousCommit: string | null;
  publishedAt: string;
  ackCount: number;
  onCommit: number;
  slowestMs: number | null;
  timeline: TimelinePoint[];
  /** What the diff link shows; null when the destination names no application of the repository. */
  diffTarget: { application: string; profiles: string } | null;
  /** Only in the single-event answer. */
  acks?: TrackedAck[];
}

export function viewOfRefreshEvent(
  event: TrackedRefresh,
  previousCommit: string | null,
  catalogue: Catalogue | undefined,
): RefreshEventView {
  const acks = [...event.acks].sort((a, b) => a.afterMs - b.afterMs);
  const timeline: TimelinePoint[] = [];
  let onCommit = 0;
  acks.forEach((ack, index) => {
    if (ack.configVersion === event.commit) onCommit++;
    timeline.push({ afterMs: ack.afterMs, acked: index + 1, onCommit });
  });
  return {
    id: event.id,
    destination: event.destination,
    commit: event.commit,
    previousCommit,
    publishedAt: event.publishedAt,
    // The tracker counts every ack but keeps a bounded list: the count is the tracker's, the timeline what it kept.
    ackCount: event.ackCount,
    onCommit,
    slowestMs: acks.length > 0 ? (acks[acks.length - 1]?.afterMs ?? null) : null,
    timeline,
    diffTarget: diffTargetOf(event.destination, catalogue),
  };
}

function diffTargetOf(
  destination: string,
  catalogue: Catalogue | undefined,
): { application: string; profiles: string } | null {
  const service = destination.split(':')[0] ?? '';
  if (service === '*' || service === '**') return { application: 'application', profiles: 'default' };
  const names = new Set(catalogue?.applications.map((a) => a.name) ?? []);
  if (names.has(service)) return { application: service, profiles: 'default' };
  // `foo-dev` (the monitor's guess for foo-dev.yml): application foo, profile dev.
  const dash = service.lastIndexOf('-');
  if (dash > 0 && names.has(service.slice(0, dash)))
    return { application: service.slice(0, dash), profiles: service.slice(dash + 1) };
  return null;
}
