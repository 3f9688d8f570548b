/** Refresh events: the list (with ack counts and a link to the diff each push introduced) and one event's timeline. */
import { useApi } from '../api.js';
import { CommitId, DataTable, Loader, Pager, Section, Time } from '../components.js';
import { type Route, link } from '../router.js';
import type { Paged, RefreshEvent } from '../types.js';

export function RefreshEventsTable({ events }: { events: RefreshEvent[] }) {
  if (events.length === 0) return <p class="muted">No refresh published since the server started.</p>;
  return (
    <DataTable
      testId="refresh-events"
      rowsLayout
      columns={['Published', 'Destination', 'Commit', 'Acks', 'On commit', 'Rejected', 'Slowest', 'Links']}
    >
      {events.map((event) => (
        <tr key={event.id}>
          <td data-label="published">
            <Time iso={event.publishedAt} />
          </td>
          <td data-label="destination">
            <code>{event.destination}</code>
          </td>
          <td data-label="commit">
            <CommitId commit={event.commit} />
          </td>
          <td data-label="acks">{event.ackCount}</td>
          <td data-label="on commit">{event.onCommit}</td>
          <td data-label="rejected" class={event.rejected > 0 ? 'warn' : ''}>
            {event.rejected}
          </td>
          <td data-label="slowest">{event.slowestMs === null ? '—' : `${event.slowestMs} ms`}</td>
          <td class="links" data-testid="event-links">
            <a href={link(['events', event.id])}>Timeline</a>
            {event.diffTarget ? (
              <a
                href={link(['diff'], {
                  application: event.diffTarget.application,
                  profiles: event.diffTarget.profiles,
                  from: event.previousCommit,
                  to: event.commit,
                })}
              >
                Diff
              </a>
            ) : null}
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

export function RefreshEventsView({ route }: { route: Route }) {
  const offset = route.params.get('offset') ?? undefined;
  const state = useApi<Paged<RefreshEvent>>('refresh-events', { offset, limit: 20 }, ['refresh', 'ack']);
  return (
    <Section title="Refresh events">
      <Loader state={state}>
        {(data) => (
          <>
            <RefreshEventsTable events={data.items} />
            <Pager path={['events']} params={{}} page={data} />
          </>
        )}
      </Loader>
    </Section>
  );
}

/** One event: how many instances had acked, and how many served its commit, after how many ms. */
export function RefreshEventView({ id }: { id: string }) {
  const state = useApi<RefreshEvent>(`refresh-events/${encodeURIComponent(id)}`, {}, ['ack']);
  return (
    <Loader state={state}>
      {(event) => (
        <Section title={`Refresh for ${event.destination}`}>
          <p>
            Published <Time iso={event.publishedAt} /> for commit <CommitId commit={event.commit} />:{' '}
            <strong data-testid="event-on-commit">{event.onCommit}</strong> of {event.ackCount} acknowledging
            instances serve it.
          </p>
          {event.timeline.length === 0 ? (
            <p class="muted">No acknowledgement yet.</p>
          ) : (
            <ol class="timeline" aria-label="Acknowledgements over time">
              {event.timeline.map((point, index) => (
                <li key={index}>
                  <span class="timeline-ms">+{point.afterMs} ms</span>
                  <span
                    class="timeline-bar"
                    style={{ width: `${Math.max(4, (point.onCommit / event.timeline.length) * 100)}%` }}
                  />
                  <span>
                    {point.acked} acked, {point.onCommit} on the commit
                    {event.acks?.[index] ? ` — ${event.acks[index]?.service}` : ''}
                  </span>
                </li>
              ))}
            </ol>
          )}
          <Outcomes event={event} />
        </Section>
      )}
    </Loader>
  );
}

/** Which instances kept their configuration (with the reason) and which have not answered the event at all. */
function Outcomes({ event }: { event: RefreshEvent }) {
  const rejected = (event.acks ?? []).filter((ack) => ack.outcome === 'rejected');
  const silent = event.silent ?? [];
  return (
    <>
      {rejected.length > 0 ? (
        <>
          <h3>Rejected: kept their configuration</h3>
          <ul data-testid="event-rejected">
            {rejected.map((ack) => (
              <li key={ack.service}>
                <code>{ack.service}</code>: {ack.reason ?? 'no reason given'}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {silent.length > 0 ? (
        <>
          <h3>No answer yet ({event.silentCount ?? silent.length})</h3>
          <ul data-testid="event-silent">
            {silent.map((id) => (
              <li key={id}>
                <code>{id}</code>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
