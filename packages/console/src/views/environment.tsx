/**
 * Environment explorer: application, profiles and label → the effective properties, each with the file (and
 * document) it comes from and the values it overrides beneath it; filter by key; download. Secret values
 * arrive from the API already masked.
 */
import { apiUrl, useApi } from '../api.js';
import { CommitId, DataTable, Loader, OriginText, Pager, Section, ValueText } from '../components.js';
import { type Route, navigate } from '../router.js';
import type { Applications, EnvironmentView } from '../types.js';
import { LabelPicker } from './label-picker.js';

export function EnvironmentExplorer({ route }: { route: Route }) {
  const application = route.params.get('application') ?? '';
  const profiles = route.params.get('profiles') ?? 'default';
  const label = route.params.get('label') ?? '';
  const filter = route.params.get('filter') ?? '';
  const offset = route.params.get('offset') ?? undefined;
  const query = { application, profiles, label, filter };
  const go = (patch: Partial<typeof query>) => navigate(['environment'], { ...query, ...patch });
  const apps = useApi<Applications>('applications', { label, limit: 500 }, ['push']);
  const state = useApi<EnvironmentView>(
    application === '' ? undefined : 'environment',
    { ...query, offset },
    ['push'],
  );
  return (
    <Section title="Environment explorer">
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
      {application === '' ? (
        <p class="muted">Choose an application.</p>
      ) : (
        <Loader state={state}>
          {(data) => (
            <>
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
              <DataTable testId="properties" rowsLayout columns={['Key', 'Value', 'From']}>
                {data.items.map((property) => (
                  <tr key={property.key} data-key={property.key}>
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
