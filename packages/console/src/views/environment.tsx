/**
 * Environment explorer: application, profiles and label → the effective properties, each with the file (and
 * document) it comes from and the values it overrides beneath it; filter by key; download. Secret values
 * arrive from the API already masked.
 */
import { apiUrl, useApi } from '../api.js';
import { CommitId, DataTable, Loader, OriginText, Pager, Section, ValueText } from '../components.js';
import { type Route, navigate } from '../router.js';
import type { Applications, EnvironmentView, Property } from '../types.js';
import { LabelPicker } from './label-picker.js';

// A type, not an interface: it is passed where the router wants a Record of parameters.
type EnvironmentQuery = {
  application: string;
  profiles: string;
  label: string;
  filter: string;
};

export function EnvironmentExplorer({ route }: { route: Route }) {
  const application = route.params.get('application') ?? '';
  const profiles = route.params.get('profiles') ?? 'default';
  const label = route.params.get('label') ?? '';
  const filter = route.params.get('filter') ?? '';
  const offset = route.params.get('offset') ?? undefined;
  const query: EnvironmentQuery = { application, profiles, label, filter };
  const state = useApi<EnvironmentView>(
    application === '' ? undefined : 'environment',
    { ...query, offset },
    ['push'],
  );
  return (
    <Section title="Environment explorer">
      <EnvironmentForm query={query} />
      {application === '' ? (
        <p class="muted">Choose an application.</p>
      ) : (
        <Loader state={state}>
          {(data) => (
            <>
              <ServedFrom data={data} query={query} />
              <DataTable testId="properties" rowsLayout columns={['Key', 'Value', 'From']}>
                {data.items.map((property) => (
                  <PropertyRow key={property.key} property={property} />
                ))}
              </DataTable>
              <Pager path={['environment']} params={query} page={data} />
            </>
          )}
        </Loader>
      )}
    </Section>
  );
}

/** The application (suggested from the label's catalogue), profiles, label and key filter; each change navigates. */
function EnvironmentForm({ query }: { query: EnvironmentQuery }) {
  const { application, profiles, label, filter } = query;
  const go = (patch: Partial<EnvironmentQuery>) => navigate(['environment'], { ...query, ...patch });
  const apps = useApi<Applications>('applications', { label, limit: 500 }, ['push']);
  return (
    <form class="toolbar" onSubmit={(event) => event.preventDefault()}>
      <label for="env-application">Application</label>
      <input
        id="env-application"
        list="env-application-options"
        value={application}
        autocomplete="off"
        onChange={(event) => go({ application: (event.target as HTMLInputElement).value.trim() })}
      />
      <datalist id="env-application-options">
        {(apps.data?.items ?? []).map((app) => (
          <option key={app.name} value={app.name} />
        ))}
      </datalist>
      <label for="env-profiles">Profiles</label>
      <input
        id="env-profiles"
        value={profiles}
        onChange={(event) => go({ profiles: (event.target as HTMLInputElement).value.trim() })}
      />
      <label for="env-label">Label</label>
      <LabelPicker id="env-label" value={label} onChange={(next) => go({ label: next })} />
      <label for="env-filter">Filter keys</label>
      <input
        id="env-filter"
        type="search"
        value={filter}
        onInput={(event) => go({ filter: (event.target as HTMLInputElement).value })}
      />
    </form>
  );
}

/** Which repository and commit the environment comes from, and the download links. */
function ServedFrom({ data, query }: { data: EnvironmentView; query: EnvironmentQuery }) {
  const { application, profiles, label } = query;
  return (
    <p class="muted">
      {data.application} ({data.profiles.join(', ')}) as clients get it, from repository{' '}
      <span data-testid="served-by">{data.repository}</span> at {data.label}, commit{' '}
      <CommitId commit={data.commit} />
      {data.stale ? ' — upstream unreachable, last fetched state' : ''}. Download:{' '}
      {(['yml', 'properties', 'json'] as const).map((format) => (
        <a
          key={format}
          class="chip"
          download
          href={apiUrl('environment/download', { application, profiles, label, format })}
        >
          .{format}
        </a>
      ))}
    </p>
  );
}

/** One effective property, with the values it overrides struck through beneath it. */
function PropertyRow({ property }: { property: Property }) {
  return (
    <tr data-key={property.key}>
      <th scope="row">
        <code>{property.key}</code>
      </th>
      <td>
        <ValueText value={property.value} />
        {property.overridden.length > 0 ? (
          <ul class="overridden" aria-label={`Values ${property.key} overrides`}>
            {property.overridden.map((shadowed, index) => (
              <li key={index}>
                <s>
                  <ValueText value={shadowed.value} />
                </s>{' '}
                <span class="muted">
                  <OriginText origin={shadowed.origin} />
                </span>
              </li>
            ))}
          </ul>
        ) : null}
      </td>
      <td data-label="from">
        <OriginText origin={property.origin} />
      </td>
    </tr>
  );
}
