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
            <Section title="Bus and fleet">
              <dl class="facts">
                <dt>Bus</dt>
                <dd>
                  <span
                    class={`badge ${data.bus.connected ? 'state-up' : data.bus.enabled ? 'state-stale' : 'state-unknown'}`}
                    data-testid="bus-state"
                  >
                    {!data.bus.enabled ? 'disabled' : data.bus.connected ? 'connected' : 'not connected'}
                  </span>
                </dd>
                {data.bus.id ? (
                  <>
                    <dt>Server bus id</dt>
                    <dd>
                      <code>{data.bus.id}</code>
                    </dd>
                  </>
                ) : null}
                <dt>Applications</dt>
                <dd>
                  <a href={link(['applications'])} data-testid="application-count">
                    {data.counts.applications ?? '—'}
                  </a>
                </dd>
                <dt>Instances</dt>
                <dd>
                  <a href={link(['fleet'])} data-testid="instance-count">
                    {data.counts.instances}
                  </a>
                </dd>
              </dl>
            </Section>
          </div>
          <Section title="Latest refresh events">
            <RefreshEventsTable events={data.refreshEvents} />
          </Section>
          <Section title="Latest pushes">
            {data.pushes.length === 0 ? (
              <p class="muted">No push seen since the server started.</p>
            ) : (
              <DataTable columns={['Noticed', 'From', 'To']}>
                {data.pushes.map((push) => (
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
            )}
          </Section>
        </>
      )}
    </Loader>
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
