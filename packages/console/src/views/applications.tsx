/** Applications: every application and profile at a label, and one application's files and commits. */
import { useApi } from '../api.js';
import {
  CommitId,
  DataTable,
  Loader,
  MoreCount,
  Pager,
  ProfileChips,
  Section,
  Time,
  shortCommit,
} from '../components.js';
import { type Route, link, navigate } from '../router.js';
import type { Application, ApplicationCommits, Applications, CommitSummary, Label, Paged } from '../types.js';
import { LabelPicker } from './label-picker.js';

export function ApplicationsView({ route }: { route: Route }) {
  const label = route.params.get('label') ?? '';
  const filter = route.params.get('filter') ?? '';
  const offset = route.params.get('offset') ?? undefined;
  const state = useApi<Applications>('applications', { label, filter, offset }, ['push']);
  return (
    <>
      <Section title="Applications">
        <form class="toolbar" onSubmit={(event) => event.preventDefault()}>
          <label for="apps-label">Label</label>
          <LabelPicker
            id="apps-label"
            value={label}
            onChange={(next) => navigate(['applications'], { label: next, filter })}
          />
          <label for="apps-filter">Filter</label>
          <input
            id="apps-filter"
            type="search"
            value={filter}
            onInput={(event) =>
              navigate(['applications'], { label, filter: (event.target as HTMLInputElement).value })
            }
          />
        </form>
        <Loader state={state}>
          {(data) => (
            <>
              <p class="muted">
                At {data.label}, commit <CommitId commit={data.commit} />: {data.total} application(s).
              </p>
              <DataTable testId="applications" columns={['Application', 'Profiles', 'Files']}>
                {data.items.map((app) => (
                  <tr key={app.name}>
                    <th scope="row">
                      <a href={link(['applications', app.name], { label })}>{app.name}</a>
                      {app.shared ? <span class="badge state-unknown">shared</span> : null}
                    </th>
                    <td>
                      <ProfileChips application={app.name} profiles={app.profiles} label={label} />
                    </td>
                    <td class="muted">{app.fileCount}</td>
                  </tr>
                ))}
              </DataTable>
              <Pager path={['applications']} params={{ label, filter }} page={data} />
            </>
          )}
        </Loader>
      </Section>
      <Labels />
    </>
  );
}

/** The repository's branches and tags; each opens the applications at that label. */
function Labels() {
  const labels = useApi<Paged<Label>>('labels', { limit: 100 }, ['push']);
  return (
    <Section title="Labels">
      <Loader state={labels}>
        {(data) => (
          <p data-testid="labels">
            {data.items.map((label) => (
              <a
                key={`${label.kind}:${label.name}`}
                class="chip"
                href={link(['applications'], { label: label.name })}
                title={`${label.kind} at ${label.commit}`}
              >
                {label.name}
                {label.kind === 'tag' ? <span class="muted"> (tag)</span> : null}
              </a>
            ))}
            <MoreCount shown={data.items.length} total={data.total} />
          </p>
        )}
      </Loader>
    </Section>
  );
}

export function ApplicationView({ name, route }: { name: string; route: Route }) {
  const label = route.params.get('label') ?? '';
  const offset = route.params.get('offset') ?? undefined;
  const apps = useApi<Applications>('applications', { label, filter: name, limit: 500 }, ['push']);
  const commits = useApi<ApplicationCommits>(
    `applications/${encodeURIComponent(name)}/commits`,
    { label, offset },
    ['push'],
  );
  const app = apps.data?.items.find((a) => a.name === name);
  return (
    <>
      <Section title={`Application ${name}`}>
        <Loader state={apps}>
          {() =>
            app ? (
              <ApplicationFacts app={app} label={label} />
            ) : (
              <p class="muted">No application {name} at this label.</p>
            )
          }
        </Loader>
      </Section>
      <Section title="Commits that touched its files">
        <Loader state={commits}>
          {(data) => (
            <>
              <DataTable
                testId="application-commits"
                columns={['Commit', 'Author', 'Time', 'Message', 'What it changed, per profile']}
              >
                {data.items.map((commit) => (
                  <CommitRow key={commit.commit} commit={commit} name={name} profiles={app?.profiles} />
                ))}
              </DataTable>
              <Pager path={['applications', name]} params={{ label }} page={data} />
            </>
          )}
        </Loader>
      </Section>
    </>
  );
}

/** An application's profiles (each a link to its environment) and files. */
function ApplicationFacts({ app, label }: { app: Application; label: string }) {
  return (
    <dl class="facts">
      <dt>Profiles</dt>
      <dd>
        <ProfileChips application={app.name} profiles={app.profiles} label={label} />
      </dd>
      <dt>Files</dt>
      <dd>
        <ul class="plain">
          {app.files.map((file) => (
            <li key={file}>
              <code>{file}</code>
            </li>
          ))}
        </ul>
        <MoreCount shown={app.files.length} total={app.fileCount} />
      </dd>
    </dl>
  );
}

/** A commit that touched the application's files, with a link to what it changed per profile. */
function CommitRow({
  commit,
  name,
  profiles = ['default'],
}: {
  commit: CommitSummary;
  name: string;
  profiles?: readonly string[] | undefined;
}) {
  return (
    <tr>
      <td>
        <CommitId commit={commit.commit} />
      </td>
      <td>{commit.author}</td>
      <td>
        <Time iso={commit.time} />
      </td>
      <td>{commit.message}</td>
      <td class="links" data-testid="commit-diffs">
        {/* A commit can change one profile's configuration and not another's: one link each. */}
        {profiles.map((profile) => (
          <a
            key={profile}
            class="chip"
            title={`What ${shortCommit(commit.commit)} changed for ${name} (${profile})`}
            href={link(['diff'], { application: name, profiles: profile, to: commit.commit })}
          >
            {profile}
          </a>
        ))}
      </td>
    </tr>
  );
}
