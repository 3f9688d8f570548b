/**
 * A refresh event as the console shows it: the acks as a timeline (after how many ms how many instances had
 * acked, and how many of them serve the event's commit), the commit the push replaced (for "the diff this push
 * introduced"), and the application and profiles its destination names (`foo:**`, `foo-dev:**`, `**`).
 */
import type { ConsoleRefreshEvent, ConsoleTimelinePoint } from '@confbus/core';
import type { TrackedRefresh } from '../bus/refresh-tracker.js';
import type { Catalogue } from './application-catalogue.js';

export function viewOfRefreshEvent(
  event: TrackedRefresh,
  previousCommit: string | null,
  catalogue: Catalogue | undefined,
): ConsoleRefreshEvent {
  const acks = [...event.acks].sort((a, b) => a.afterMs - b.afterMs);
  const timeline: ConsoleTimelinePoint[] = [];
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
    rejected: event.rejectedAcks,
    slowestMs: acks.length > 0 ? (acks[acks.length - 1]?.afterMs ?? null) : null,
    timeline,
    diffTarget: diffTargetOf(event.destination, catalogue),
  };
}

function diffTargetOf(
  destination: string,
  catalogue: Catalogue | undefined,
): ConsoleRefreshEvent['diffTarget'] {
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
