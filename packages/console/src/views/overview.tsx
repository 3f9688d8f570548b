/** Overview: each repository and its freshness, the bus, counts, the latest refresh events and pushes. */
import { useApi } from '../api.js';
import { CommitId, DataTable, Loader, Section, Time } from '../components.js';
import { link } from '../router.js';
import type { Overview, RepositoryState } from '../types.js';
import { RefreshEventsTable } from './refresh-events.js';

export function OverviewView() {
  const state = useApi<Overview>('overview', {}, ['repository', 'push', 'refresh', 'ack', 'presence']);
  return (
    <Loader state={state}>
      {(data) => (
        <>
          <div class="grid">
            {data.repositories.map((repository) => (
              <RepositoryFacts
                key={repository.name}
                repository={repository}
                only={data.repositories.length === 1}
              />
            ))}
            <BusAndFleet overview={data} />
          </div>
          <Section title="Latest refresh events">
            <RefreshEventsTable events={data.refreshEvents} />
          </Section>
          <Section title="Latest pushes">
            <LatestPushes pushes={data.pushes} />
          </Section>
        </>
      )}
    </Loader>
  );
}

/** The bus's state and id, and how many applications and instances there are (each a link to its view). */
function BusAndFleet({ overview: { bus, counts } }: { overview: Overview }) {
  return (
    <Section title="Bus and fleet">
      <dl class="facts">
        <dt>Bus</dt>
        <dd>
          <span
            class={`badge ${bus.connected ? 'state-up' : bus.enabled ? 'state-stale' : 'state-unknown'}`}
            data-testid="bus-state"
          >
            {!bus.enabled ? 'disabled' : bus.connected ? 'connected' : 'not connected'}
          </span>
        </dd>
        {bus.id ? (
          <>
            <dt>Server bus id</dt>
            <dd>
              <code>{bus.id}</code>
            </dd>
          </>
        ) : null}
        <dt>Applications</dt>
        <dd>
          <a href={link(['applications'])} data-testid="application-count">
            {counts.applications ?? '—'}
          </a>
        </dd>
        <dt>Instances</dt>
        <dd>
          <a href={link(['fleet'])} data-testid="instance-count">
            {counts.instances}
          </a>
        </dd>
      </dl>
    </Section>
  );
}

/** The pushes the server noticed, newest first. */
function LatestPushes({ pushes }: { pushes: Overview['pushes'] }) {
  if (pushes.length === 0) return <p class="muted">No push seen since the server started.</p>;
  return (
    <DataTable columns={['Noticed', 'From', 'To']}>
      {pushes.map((push) => (
        <tr key={push.commit}>
          <td>
            <Time iso={push.at} />
          </td>
          <td>
            <CommitId commit={push.previous} />
          </td>
          <td>
            <CommitId commit={push.commit} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

/** One repository: where it is, what it serves, its current commit and how fresh it is. */
function RepositoryFacts({ repository, only }: { repository: RepositoryState; only: boolean }) {
  return (
    <Section title={only ? 'Repository' : `Repository ${repository.name}`}>
      <dl class="facts" data-repository={repository.name}>
        <dt>URI</dt>
        <dd>
          <code data-testid="repository-uri">{repository.uri}</code>
        </dd>
        {repository.patterns.length > 0 ? (
          <>
            <dt>Serves</dt>
            <dd data-testid="repository-patterns">{repository.patterns.join(', ')}</dd>
          </>
        ) : null}
        <dt>State</dt>
        <dd>
          <span class={`badge state-${repository.state.toLowerCase()}`} data-testid="repository-state">
            {repository.state}
          </span>
          {repository.staleSince ? (
            <>
              {' '}
              since <Time iso={repository.staleSince} />
            </>
          ) : null}
        </dd>
        <dt>Label</dt>
        <dd>{repository.label ?? '—'}</dd>
        <dt>Commit</dt>
        <dd data-testid="current-commit">
          {repository.commit ? (
            <>
              <CommitId commit={repository.commit.commit} /> {repository.commit.message}
              <br />
              <span class="muted">
                {repository.commit.author}, <Time iso={repository.commit.time} />
              </span>
            </>
          ) : (
            '—'
          )}
        </dd>
        <dt>Last upstream check</dt>
        <dd>
          <Time iso={repository.lastCheckAt} />
        </dd>
        <dt>Last successful check</dt>
        <dd>
          <Time iso={repository.lastSuccessAt} />
        </dd>
        {repository.error ? (
          <>
            <dt>Problem</dt>
            <dd class="error">{repository.error}</dd>
          </>
        ) : null}
      </dl>
    </Section>
  );
}
