/** Fleet: every instance on the bus with its config version against the latest; lagging ones highlighted. */
import { useApi } from '../api.js';
import { CommitId, DataTable, Loader, Pager, Section, Time } from '../components.js';
import { type Route, link, navigate } from '../router.js';
import type { Fleet, Instance, SyncState } from '../types.js';
import { RefreshEventsView } from './refresh-events.js';

const STATE_TEXT: Record<SyncState, string> = {
  current: 'on the latest commit',
  'same-config': 'older commit, same configuration',
  lagging: 'lagging',
  unknown: 'version unknown',
};

export function FleetView({ route }: { route: Route }) {
  const state = route.params.get('state') ?? 'any';
  const offset = route.params.get('offset') ?? undefined;
  const fleet = useApi<Fleet>('fleet', { state, offset }, ['presence', 'ack', 'push']);
  return (
    <>
      <Section title="Fleet">
        <StateFilter state={state} />
        <Loader state={fleet}>
          {(data) => (
            <>
              <p class="muted" data-testid="fleet-counts">
                {data.counts.current} current, {data.counts['same-config']} same configuration,{' '}
                {data.counts.lagging} lagging, {data.counts.unknown} unknown.
              </p>
              <DataTable
                testId="fleet"
                rowsLayout
                columns={[
                  'Instance',
                  'Kind',
                  'Application',
                  'Profiles',
                  'Config version',
                  'State',
                  'Last refresh',
                  'Started',
                  'Last heard',
                ]}
              >
                {data.items.map((instance) => (
                  <InstanceRow key={instance.id} instance={instance} />
                ))}
              </DataTable>
              <Pager path={['fleet']} params={{ state }} page={data} />
            </>
          )}
        </Loader>
      </Section>
      <RefreshEventsView route={route} />
    </>
  );
}

/** Which instances to show, by sync state; a change navigates. */
function StateFilter({ state }: { state: string }) {
  return (
    <form class="toolbar" onSubmit={(event) => event.preventDefault()}>
      <label for="fleet-state">Show</label>
      <select
        id="fleet-state"
        value={state}
        onChange={(event) => navigate(['fleet'], { state: (event.target as HTMLSelectElement).value })}
      >
        <option value="any">all instances</option>
        <option value="lagging">lagging</option>
        <option value="current">on the latest commit</option>
        <option value="same-config">older commit, same configuration</option>
        <option value="unknown">version unknown</option>
      </select>
    </form>
  );
}

/** One instance; behind the latest commit, the latest is shown beside its own. */
function InstanceRow({ instance }: { instance: Instance }) {
  return (
    <tr class={`sync-${instance.state}`} data-instance={instance.id} data-state={instance.state}>
      <th scope="row">
        <code>{instance.id}</code>
      </th>
      <td data-label="kind">
        {instance.kind === 'spring' ? <span class="badge state-unknown">Spring</span> : 'confbus'}
      </td>
      <td data-label="application">
        <a href={link(['applications', instance.application])}>{instance.application}</a>
      </td>
      <td data-label="profiles">{instance.profiles.join(', ') || '—'}</td>
      <td data-label="version" data-testid="config-version" data-version={instance.configVersion ?? ''}>
        <CommitId commit={instance.configVersion} />
        {instance.state === 'lagging' || instance.state === 'same-config' ? (
          <span class="muted">
            {' '}
            (latest <CommitId commit={instance.latest} />)
          </span>
        ) : null}
      </td>
      <td data-label="state" data-testid="instance-state">
        <span class={`badge sync-badge-${instance.state}`}>{STATE_TEXT[instance.state]}</span>
      </td>
      <td data-label="last refresh" data-testid="last-refresh">
        <LastRefresh instance={instance} />
      </td>
      <td data-label="started">
        <Time iso={instance.startedAt} />
      </td>
      <td data-label="last heard">
        <Time iso={instance.lastSeenAt} />
      </td>
    </tr>
  );
}

/** How the instance's last refresh ended: applied, or rejected with its reason (it kept its configuration). */
function LastRefresh({ instance }: { instance: Instance }) {
  const last = instance.lastRefresh;
  if (last === null) return <span class="muted">—</span>;
  if (last.outcome === 'applied') return <span>applied</span>;
  return (
    <span class="warn" title={last.reason}>
      rejected{last.reason ? `: ${last.reason}` : ''}
    </span>
  );
}
