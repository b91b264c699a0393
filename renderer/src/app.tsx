import { useEffect, useRef } from 'preact/hooks';
import icon from '../../resources/icon.png';
import { ErrorBoundary } from './components/error-boundary.js';
import { useAppVersion } from './lib/desktop.js';
import { href, useRoute } from './lib/router.js';
import { OverviewPage } from './pages/overview/overview-page.js';
import { UsagePage } from './pages/usage/usage-page.js';
import { ProfilesPage } from './pages/profiles/profiles-page.js';
import { ProvidersPage } from './pages/providers/providers-page.js';
import { ProxyPage } from './pages/proxy/proxy-page.js';
import { TrafficPage } from './pages/traffic/traffic-page.js';
import { BridgePage } from './pages/bridge/bridge-page.js';
import { SharedPage } from './pages/shared-page.js';
import { AgentToolPage } from './pages/agent-tool-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { AccountsPage } from './pages/accounts/accounts-page.js';

interface PageDef {
  id: string;
  title: string;
  icon: string;
  render: (rest: string[]) => preact.JSX.Element;
}

const PAGES: PageDef[] = [
  { id: 'overview', title: 'Overview', icon: '◎', render: () => <OverviewPage /> },
  { id: 'usage', title: 'Usage', icon: '▤', render: () => <UsagePage /> },
  { id: 'profiles', title: 'Profiles', icon: '☰', render: (rest) => <ProfilesPage selected={rest[0]} /> },
  { id: 'providers', title: 'Providers', icon: '✚', render: (rest) => <ProvidersPage selected={rest[0]} /> },
  { id: 'proxy', title: 'Proxy', icon: '⇄', render: (rest) => <ProxyPage section={rest[0]} item={rest[1]} /> },
  { id: 'traffic', title: 'Traffic', icon: '≋', render: () => <TrafficPage /> },
  { id: 'accounts', title: 'Accounts', icon: '◈', render: () => <AccountsPage /> },
  { id: 'bridge', title: 'Bridge', icon: '⌁', render: () => <BridgePage /> },
  { id: 'shared', title: 'Shared data', icon: '❏', render: () => <SharedPage /> },
  { id: 'agent-tool', title: 'Agent tool', icon: '⚙', render: () => <AgentToolPage /> },
  { id: 'settings', title: 'Settings', icon: '✎', render: () => <SettingsPage /> },
];

export function App() {
  const route = useRoute();
  const page = PAGES.find((p) => p.id === route[0]) ?? PAGES[0]!;
  const main = useRef<HTMLElement>(null);
  const version = useAppVersion();
  const first = useRef(true);

  useEffect(() => {
    document.title = `${page.title} · Switchboard`;
    // Move focus to the new page for keyboard and screen-reader users (not on first load).
    if (first.current) first.current = false;
    else main.current?.focus();
  }, [page.id]);

  return (
    <div class="shell">
      <a class="skip-link" href="#main" onClick={(e) => { e.preventDefault(); main.current?.focus(); }}>
        Skip to content
      </a>
      <nav class="sidebar" aria-label="Pages">
        <div class="brand">
          <img class="brand-mark" src={icon} alt="" width={22} height={22} /> Switchboard
        </div>
        <ul>
          {PAGES.map((p) => (
            <li key={p.id}>
              <a href={href(p.id)} aria-current={p.id === page.id ? 'page' : undefined}>
                <span class="nav-icon" aria-hidden="true">{p.icon}</span>
                {p.title}
              </a>
            </li>
          ))}
        </ul>
        <p class="sidebar-foot muted">
          API {location.host}
          {version ? <> · v{version}</> : null}
        </p>
      </nav>
      <main id="main" ref={main} tabIndex={-1} class="content">
        <ErrorBoundary resetKey={route.join('/')}>{page.render(route.slice(1))}</ErrorBoundary>
      </main>
    </div>
  );
}
