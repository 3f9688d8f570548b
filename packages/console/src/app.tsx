/** The console's frame: navigation, the live-connection indicator, and the view the route names. */
import { useEffect, useState } from 'preact/hooks';
import { startLive } from './live.js';
import { type Route, link, useRoute } from './router.js';
import { ActionsView } from './views/actions.js';
import { AuditView } from './views/audit.js';
import { ApplicationView, ApplicationsView } from './views/applications.js';
import { DiffView } from './views/diff.js';
import { EnvironmentExplorer } from './views/environment.js';
import { FleetView } from './views/fleet.js';
import { HoldsView } from './views/holds.js';
import { OverviewView } from './views/overview.js';
import { RefreshEventView } from './views/refresh-events.js';
import { RolloutView } from './views/rollout.js';
import { RolloutsView } from './views/rollouts.js';

const NAV = [
  ['', 'Overview'],
  ['applications', 'Applications'],
  ['environment', 'Environment'],
  ['diff', 'Diff'],
  ['fleet', 'Fleet'],
  ['actions', 'Actions'],
  ['holds', 'Holds'],
  ['rollouts', 'Rollouts'],
  ['audit', 'Audit'],
] as const;

function View({ route }: { route: Route }) {
  const [first = '', second] = route.path;
  switch (first) {
    case 'applications':
      return second ? <ApplicationView name={second} route={route} /> : <ApplicationsView route={route} />;
    case 'environment':
      return <EnvironmentExplorer route={route} />;
    case 'diff':
      return <DiffView route={route} />;
    case 'fleet':
      return <FleetView route={route} />;
    case 'events':
      return second ? <RefreshEventView id={second} /> : <FleetView route={route} />;
    case 'actions':
      return <ActionsView />;
    case 'holds':
      return <HoldsView />;
    case 'rollouts':
      return second ? <RolloutView id={second} /> : <RolloutsView />;
    case 'audit':
      return <AuditView />;
    default:
      return <OverviewView />;
  }
}

export function App() {
  const route = useRoute();
  const [live, setLive] = useState(false);
  useEffect(() => startLive(setLive), []);
  const section = route.path[0] === 'events' ? 'fleet' : (route.path[0] ?? '');
  const title = NAV.find(([path]) => path === section)?.[1] ?? 'Overview';
  useEffect(() => {
    document.title = `${title} · confbus console`;
  }, [title]);
  return (
    <>
      <header class="top">
        <a class="brand" href={link([])}>
          confbus
        </a>
        <nav aria-label="Console">
          {NAV.map(([path, text]) => (
            <a
              key={path}
              href={link(path === '' ? [] : [path])}
              aria-current={section === path ? 'page' : undefined}
            >
              {text}
            </a>
          ))}
        </nav>
        <span class={`live ${live ? 'live-on' : 'live-off'}`} role="status" data-testid="live">
          {live ? 'live' : 'reconnecting…'}
        </span>
      </header>
      <main id="main">
        <h1 class="visually-hidden">{title}</h1>
        <View route={route} />
      </main>
    </>
  );
}
